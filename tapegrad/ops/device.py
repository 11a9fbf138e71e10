"""Moving between devices (differentiable) and cutting the gradient (stop_gradient)."""

from __future__ import annotations

from typing import Any

from tapegrad.backends import devices
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.creation import asarray
from tapegrad.ops.primitive import Primitive, raw

# The adjoint of a copy to another device is the copy back to where the input was
# (its library and its device), so gradients live on their source's device.
_to_device = Primitive(
    "to_device", lambda xp, x, to: backend.move(x, to), complex_rules=True
).defvjp(lambda g, ans, x, to: _to_device(g, to=backend.placement_of(raw(x))))


def to_device(x: Any, device: str) -> Tensor:
    """``x`` on ``device`` (``"cpu"``, ``"gpu"``, ``"gpu:N"``); gradients flow back to ``x``'s
    device. ``"cpu"`` means NumPy: arrays of other host libraries become NumPy arrays.

    Args:
        x: A Tensor, array or Python scalar.
        device: ``"cpu"``, ``"gpu"`` or ``"gpu:N"``.

    Returns:
        A Tensor on ``device`` (``x`` itself when it is a Tensor already there).

    Raises:
        ValueError: ``device`` is unknown.
        RuntimeError: A GPU device was asked for and CuPy is not installed.

    >>> import tapegrad as tg
    >>> x = tg.tensor([1.0, 2.0])
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = (tg.to_device(x, "cpu") * 3.0).sum()
    >>> tape.gradient(y, x).device
    'cpu'
    """
    return _to_device(x, to=devices.placement(device))


def stop_gradient(x: Any) -> Tensor:
    """``x``'s value as a new Tensor that no tape connects to ``x``.

    Args:
        x: A Tensor, array or Python scalar.

    Returns:
        A new Tensor with ``x``'s value, a constant to every tape.

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

# A fresh name for a value: a new serial on a transform's tape, the same path on outer
# tapes (tapegrad/transforms/args.py copies each differentiated argument through it).
_identity = Primitive("identity", lambda xp, x: x, complex_rules=True).defvjp(lambda g, ans, x: g)
