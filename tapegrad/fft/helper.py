"""The helpers: fftshift ifftshift (rolls, differentiable) fftfreq rfftfreq (sample
frequencies, differentiable in the spacing ``d``)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor, tensor
from tapegrad.ops.primitive import normalize_axis, shape_of

ArrayLike = Any


def _roll(op: str, x: Any, axes: Any, shift: Any) -> Tensor:
    """``x`` rolled by ``shift(n)`` along each of ``axes`` (each axis by default; a repeated
    axis rolls again, as in NumPy)."""
    ndim = len(shape_of(x))
    if axes is None:
        axes = tuple(range(ndim))
    for axis in axes if isinstance(axes, (tuple, list)) else (axes,):
        (axis,) = normalize_axis(axis, ndim, op)
        n = shape_of(x)[axis]
        x = ops.take(x, (np.arange(n) - shift(n)) % n, axis=axis)
    return x if isinstance(x, Tensor) else ops.asarray(x)


def fftshift(x: ArrayLike, axes: Any = None) -> Tensor:
    """The zero-frequency bin moved to the centre of ``axes`` (every axis by default), as
    ``np.fft.fftshift``.

    >>> import tapegrad as tg
    >>> tg.fft.fftshift(tg.tensor([0.0, 1.0, 2.0, -2.0, -1.0])).numpy()
    array([-2., -1.,  0.,  1.,  2.])
    """
    return _roll("fftshift", x, axes, lambda n: n // 2)


def ifftshift(x: ArrayLike, axes: Any = None) -> Tensor:
    """The inverse of :func:`fftshift`, as ``np.fft.ifftshift``.

    >>> import tapegrad as tg
    >>> tg.fft.ifftshift(tg.tensor([-2.0, -1.0, 0.0, 1.0, 2.0])).numpy()
    array([ 0.,  1.,  2., -2., -1.])
    """
    return _roll("ifftshift", x, axes, lambda n: -(n // 2))


def fftfreq(n: int, d: Any = 1.0, device: str | None = None) -> Tensor:
    """The sample frequencies of :func:`fft`'s bins for ``n`` samples ``d`` apart, as
    ``np.fft.fftfreq`` (a Tensor; differentiable in a Tensor ``d``).

    >>> import tapegrad as tg
    >>> tg.fft.fftfreq(4, d=0.5).numpy()
    array([ 0. ,  0.5, -1. , -0.5])
    """
    bins = np.concatenate([np.arange(0, (n - 1) // 2 + 1), np.arange(-(n // 2), 0)])
    return tensor(bins.astype(np.float64), device=device) * (1.0 / (n * d))  # as NumPy rounds


def rfftfreq(n: int, d: Any = 1.0, device: str | None = None) -> Tensor:
    """The sample frequencies of :func:`rfft`'s bins, as ``np.fft.rfftfreq``.

    >>> import tapegrad as tg
    >>> tg.fft.rfftfreq(4, d=0.5).numpy()
    array([0. , 0.5, 1. ])
    """
    return tensor(np.arange(0, n // 2 + 1, dtype=np.float64), device=device) * (1.0 / (n * d))
