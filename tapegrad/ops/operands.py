"""What a primitive's operands may be, and how errors name them.

An input of a primitive is an array: a (nested) list or tuple holding Tensors is the
array NumPy would make of it, keeping each element's gradient, and an array-like that is no
backend's array (a pandas Series or DataFrame) is its NumPy array (:func:`as_operands`); a
string, None where a number is due, a dict, an array of strings or objects is an operand
no op takes (:func:`unaccepted` says what it is, for the op's TypeError).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.wording import a as article


def as_operands(inputs: Sequence[Any]) -> tuple[Any, ...] | None:
    """``inputs`` as a primitive takes them, or None when they already are: each (nested)
    list or tuple that holds a Tensor made the array NumPy would make of it, keeping every
    element's gradient (``tg.sum([x, x + 2])``, ``np.dot([a, b], v)``), and each array-like
    that is no backend's array (a pandas Series or DataFrame, whose operations would
    otherwise run in its forward and give back a Series) made its NumPy array."""
    from tapegrad.ops.layout import from_nested, holds_tensor  # layout is built on primitive.py

    converted = tuple(_as_operand(x, holds_tensor, from_nested) for x in inputs)
    if all(c is x for c, x in zip(converted, inputs)):
        return None
    return converted


def _as_operand(x: Any, holds_tensor: Any, from_nested: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return from_nested(x) if holds_tensor(x) else x
    if (
        not isinstance(x, (np.ndarray, np.generic, Tensor))
        and hasattr(x, "__array__")
        and not backend.is_foreign(x)
    ):
        return np.asarray(x)
    return x


def unaccepted(a: Any) -> str | None:
    """What ``a`` is, when no op takes it as an operand (None when one may)."""
    if a is None:
        return "None"
    if isinstance(a, (str, bytes)):
        return f"{article(type(a).__name__)} ({a!r:.40})"
    if isinstance(a, (bool, int, float, complex, np.generic, list, tuple, range)):
        return None
    if type(a).__module__.startswith("scipy.sparse"):  # NumPy would make an object array of it
        return (
            "a SciPy sparse matrix (write A @ t, A.multiply(t) or tapegrad.scipy.sparse's "
            "matmul/multiply, after importing tapegrad.scipy.sparse)"
        )
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
