"""What a primitive's operands may be, and how errors name them.

An input of a primitive is an array: a (nested) list or tuple holding Tensors is the
array NumPy would make of it, keeping each element's gradient (:func:`sequences_as_arrays`);
a string, None where a number is due, a dict, an array of strings or objects is an operand
no op takes (:func:`unaccepted` says what it is, for the op's TypeError).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapegrad.wording import a as article


def sequences_as_arrays(inputs: Sequence[Any]) -> tuple[Any, ...] | None:
    """``inputs`` with each (nested) list or tuple that holds a Tensor made the array NumPy
    would make of it, keeping every element's gradient (an input of a primitive is an array,
    never a sequence of them: ``tg.sum([x, x + 2])``, ``np.dot([a, b], v)``); None when no
    input is such a list."""
    from tapegrad.ops.layout import from_nested, holds_tensor  # layout is built on primitive.py

    if not any(isinstance(x, (list, tuple)) and holds_tensor(x) for x in inputs):
        return None
    return tuple(
        from_nested(x) if isinstance(x, (list, tuple)) and holds_tensor(x) else x for x in inputs
    )


def unaccepted(a: Any) -> str | None:
    """What ``a`` is, when no op takes it as an operand (None when one may)."""
    if a is None:
        return "None"
    if isinstance(a, (str, bytes)):
        return f"{article(type(a).__name__)} ({a!r:.40})"
    if isinstance(a, (bool, int, float, complex, np.generic, list, tuple, range)):
        return None
    dtype = getattr(a, "dtype", None)
    if dtype is not None:
        if getattr(dtype, "kind", "f") in "OSUV":
            return f"an array of dtype {dtype}"
        return None
    if hasattr(a, "__array__") or hasattr(a, "__array_namespace__"):
        return None
    return article(type(a).__name__)


def _describe(a: Any) -> str:
    shape = getattr(a, "shape", None)
    if shape is None:
        return repr(a)
    return f"{tuple(shape)} {a.dtype}"


def explain_broadcast(exc: Exception, *arrays: Any, **params: Any) -> str | None:
    """``shapes (2, 3) and (4,) cannot broadcast``, when that is what went wrong."""
    shapes = [tuple(a.shape) for a in arrays if hasattr(a, "shape")]
    try:
        np.broadcast_shapes(*shapes)
    except ValueError:
        return "shapes " + " and ".join(str(s) for s in shapes) + " cannot broadcast"
    return None
