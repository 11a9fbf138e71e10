"""Moving between devices (differentiable) and cutting the gradient (stop_gradient)."""

from __future__ import annotations

from typing import Any

from tapegrad import backend, devices
from tapegrad.ops.creation import asarray
from tapegrad.ops.primitive import Primitive, raw
from tapegrad.tensor import Tensor

# The adjoint of a copy to another device is the copy back.
_to_device = Primitive(
    "to_device", lambda xp, x, device: devices.make_array(x, None, device)
).defvjp(lambda g, ans, x, device: _to_device(g, device=backend.device_of(raw(x))))


def to_device(x: Any, device: str) -> Tensor:
    """A copy of ``x`` on ``device``; gradients flow back to ``x``'s device."""
    return _to_device(x, device=devices.normalize(device))


def stop_gradient(x: Any) -> Tensor:
    """``x``'s value as a new Tensor that no tape connects to ``x``.

    >>> import tapegrad as tg
    >>> x = tg.tensor(2.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * tg.stop_gradient(x)
    >>> tape.gradient(y, x).item()
    2.0
    """
    if isinstance(x, Tensor):
        return _stop_gradient(x)
    return asarray(x)


# Not differentiable, so no tape records it; still a primitive so that tg.compile's
# trace sees the value flow through it.
_stop_gradient = Primitive("stop_gradient", lambda xp, x: x, differentiable=False)
