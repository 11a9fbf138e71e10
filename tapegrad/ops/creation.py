"""Creation: zeros ones full zeros_like ones_like arange eye asarray (no gradient).

New arrays go to ``device``; when it is None, next to ``like``, else to the default
device (see :func:`tapegrad.set_default_device`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.backends import devices
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.layout import from_nested, holds_tensor
from tapegrad.ops.primitive import raw, shape_of

Shape = int | tuple[int, ...]


def _make(build: Any, dtype: Any, device: str | None, like: Any) -> Tensor:
    """Run ``build(xp, dtype, **device_kwargs)`` on ``device``, else next to ``like``,
    else on the default device."""
    if device is None and like is not None:
        data = raw(like)
        xp = backend.namespace(data)
        if xp is np:
            return Tensor(build(np, dtype))
        with backend.on_device(data):
            return Tensor(build(xp, backend.dtype_in(xp, dtype), device=data.device))
    return Tensor(
        devices.build(device, lambda xp, **kw: build(xp, backend.dtype_in(xp, dtype), **kw))
    )


def _default_dtype(dtype: Any, like: Any) -> Any:
    if dtype is not None:
        return dtype
    if like is None:
        return np.float64
    data = raw(like)
    return data.dtype if hasattr(data, "dtype") else np.asarray(data).dtype


def zeros(shape: Shape, dtype: Any = None, device: str | None = None, like: Any = None) -> Tensor:
    """A Tensor of zeros (float64 unless ``dtype`` or ``like`` says otherwise).

    >>> import tapegrad as tg
    >>> tg.zeros((2, 3), dtype="float32").shape, tg.zeros(2, device="cpu").device
    ((2, 3), 'cpu')
    """
    dtype = _default_dtype(dtype, like)
    return _make(lambda xp, dt, **kw: xp.zeros(shape, dtype=dt, **kw), dtype, device, like)


def ones(shape: Shape, dtype: Any = None, device: str | None = None, like: Any = None) -> Tensor:
    """A Tensor of ones.

    >>> import tapegrad as tg
    >>> tg.ones(3).numpy()
    array([1., 1., 1.])
    """
    dtype = _default_dtype(dtype, like)
    return _make(lambda xp, dt, **kw: xp.ones(shape, dtype=dt, **kw), dtype, device, like)


def full(
    shape: Shape, fill_value: Any, dtype: Any = None, device: str | None = None, like: Any = None
) -> Tensor:
    """A Tensor filled with ``fill_value`` (its dtype by NumPy's rules when ``dtype`` is None).

    >>> import tapegrad as tg
    >>> tg.full(2, 7).numpy()
    array([7, 7])
    """
    if dtype is None and like is not None:
        dtype = _default_dtype(None, like)
    return _make(
        lambda xp, dt, **kw: xp.full(shape, fill_value, dtype=dt, **kw), dtype, device, like
    )


def _shape(x: Any) -> tuple[int, ...]:
    data = raw(x)
    return tuple(data.shape) if hasattr(data, "shape") else shape_of(data)


def zeros_like(x: Any, dtype: Any = None) -> Tensor:
    """Zeros with the shape, dtype and device of ``x``.

    >>> import tapegrad as tg
    >>> tg.zeros_like(tg.tensor([1.0, 2.0], dtype="float32")).dtype
    dtype('float32')
    """
    return zeros(_shape(x), dtype=dtype, like=x)


def ones_like(x: Any, dtype: Any = None) -> Tensor:
    """Ones with the shape, dtype and device of ``x``.

    >>> import tapegrad as tg
    >>> tg.ones_like(tg.tensor([[1.0], [2.0]])).shape
    (2, 1)
    """
    return ones(_shape(x), dtype=dtype, like=x)


def arange(
    start: float,
    stop: float | None = None,
    step: float = 1,
    dtype: Any = None,
    device: str | None = None,
    like: Any = None,
) -> Tensor:
    """Evenly spaced values in ``[start, stop)``, as ``np.arange``.

    >>> import tapegrad as tg
    >>> tg.arange(1, 7, 2).numpy()
    array([1, 3, 5])
    """
    return _make(
        lambda xp, dt, **kw: xp.arange(start, stop, step, dtype=dt, **kw), dtype, device, like
    )


def eye(
    n: int, m: int | None = None, dtype: Any = None, device: str | None = None, like: Any = None
) -> Tensor:
    """The identity matrix of ``n`` rows (and ``m`` columns).

    >>> import tapegrad as tg
    >>> tg.eye(2).numpy()
    array([[1., 0.],
           [0., 1.]])
    """
    dtype = _default_dtype(dtype, like)
    return _make(lambda xp, dt, **kw: xp.eye(n, m, dtype=dt, **kw), dtype, device, like)


def asarray(data: Any, dtype: Any = None, like: Any = None) -> Tensor:
    """``data`` as a Tensor next to ``like`` (else where ``data`` is), copying only to move it.

    A Tensor stays connected to the tape: it is returned as it is, or moved and cast by
    the differentiable ops (so ``tg.asarray(t)`` never cuts a gradient).

    >>> import tapegrad as tg
    >>> x = tg.tensor([1.0, 2.0])
    >>> tg.asarray(x) is x, tg.asarray([1, 2], dtype="float32").dtype
    (True, dtype('float32'))
    """
    if isinstance(data, Tensor):
        return _connected(data, dtype, like)
    if isinstance(data, (list, tuple)) and holds_tensor(data):  # keep each element's gradient
        return _connected(from_nested(data), dtype, like)
    data = raw(data)
    to = backend.placement_of(raw(like) if like is not None else data)
    out = backend.move(data, to)
    devices.check_numeric("asarray", data, out)
    if dtype is not None:
        dtype = backend.dtype_in(to.xp, dtype)
        if out.dtype != dtype:
            out = to.xp.astype(out, dtype)
    return Tensor(out)


def _connected(t: Tensor, dtype: Any, like: Any) -> Tensor:
    from tapegrad.ops.arithmetic import astype
    from tapegrad.ops.device import _to_device

    out = t
    if like is not None:
        to = backend.placement_of(raw(like))
        here = backend.placement_of(t.data)
        if (to.xp, to.name) != (here.xp, here.name):
            out = _to_device(out, to=to)
    if dtype is not None and backend.dtype_name(out.dtype) != backend.dtype_name(
        backend.dtype_in(backend.namespace(out.data), dtype)
    ):
        out = astype(out, dtype)
    return out
