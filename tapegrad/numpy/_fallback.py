"""NumPy's own implementation on the values of Tensors, for functions with no gradient.

The long tail of NumPy functions whose results carry no gradient (histogram counts,
bit packing, index helpers, set membership, printing, saving ...) runs NumPy itself on
the Tensors' values; array results come back as Tensors next to the inputs. Reading
the values is not an escape (nothing differentiable is lost), except where a floating
result comes from a watched Tensor: that result has no gradient, so it is reported as
an escape (a warning once per call site; an error under ``tg.detect_anomaly()``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.record import is_recorded
from tapegrad.core.tensor import Tensor, host_value, note_escape


def _unwrapped(value: Any, found: list[Tensor], how: str) -> Any:
    if isinstance(value, Tensor):
        found.append(value)
        return host_value(value, how)
    if isinstance(value, (list, tuple)) and not hasattr(value, "_fields"):
        return type(value)(_unwrapped(v, found, how) for v in value)
    return value


def _wrapped(value: Any, like: Tensor) -> Any:
    if isinstance(value, np.ndarray) and value.dtype != object:
        return Tensor(backend.move(value, backend.placement_of(like.data)))
    if isinstance(value, tuple):
        items = [_wrapped(v, like) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    if isinstance(value, list):
        return [_wrapped(v, like) for v in value]
    return value


def _floating_results(value: Any) -> bool:
    if isinstance(value, (np.ndarray, np.generic)):
        return value.dtype.kind in "fc"
    if isinstance(value, (list, tuple)):
        return any(_floating_results(v) for v in value)
    return False


def call_without_gradient(function: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
    """``function(*args, **kwargs)`` by NumPy on the Tensors' values (see the module doc)."""
    how = f"numpy.{function.__name__}()"
    found: list[Tensor] = []
    args = tuple(_unwrapped(a, found, how) for a in args)
    kwargs = {key: _unwrapped(v, found, how) for key, v in kwargs.items()}
    result = function(*args, **kwargs)
    if found and _floating_results(result):
        for t in found:
            if is_recorded(t):
                note_escape(t, how)
    return _wrapped(result, found[0]) if found else result
