"""Evenly spaced values and grids from traced values: linspace logspace geomspace meshgrid
vander.

Differentiable in their endpoints and inputs; each follows NumPy's own computation
(``arange * step + start``, the endpoint set to ``stop`` exactly), so the values agree.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import normalize_axis, shape_of
from tapegrad.ops.rule_helpers import as_array, result_dtype

ArrayLike = Any


def _inexact(*values: Any) -> np.dtype:
    dtype = result_dtype(*values)
    return dtype if dtype.kind in "fc" else np.dtype(np.float64)


def _along_first(y: Any, axis: int, ndim: int) -> Any:
    """``y`` (steps first) with the steps axis moved to ``axis`` of the result."""
    if axis == 0:
        return y
    (axis,) = normalize_axis(axis, ndim + 1, "linspace")
    return ops.moveaxis(y, 0, axis)


def _first_row(end: Any, extra: tuple[int, ...]) -> Any:
    """An endpoint (a scalar or an array that broadcasts to ``extra``, the shape of the
    other endpoint's broadcast) as one row of samples, shape ``(1, *extra)``."""
    return ops.reshape(ops.broadcast_to(end, extra), (1, *extra))


def linspace(
    start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
    retstep: bool = False, dtype: Any = None, axis: int = 0, *, device: Any = None,
) -> Any:  # fmt: skip
    """``num`` evenly spaced values from ``start`` to ``stop``; differentiable in both.

    >>> import tapegrad as tg
    >>> tg.linspace(tg.tensor(0.0), 1.0, 5).numpy()
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"linspace: number of samples, {num}, must be non-negative")
    div = num - 1 if endpoint else num
    dt = _inexact(start, stop, 1.0)
    start = ops.astype(as_array(start), dt)
    stop = ops.astype(as_array(stop), dt)
    delta = stop - start
    extra = shape_of(delta)
    steps = ops.asarray(np.arange(num, dtype=dt).reshape(-1, *(1,) * len(extra)), like=delta)
    if div > 0:
        step = delta / div
        zero_step = bool(ops.any(ops.equal(step, 0)))
        y = steps / div * delta if zero_step else steps * step
    else:
        step = ops.full(extra, np.nan, dtype=dt, like=delta)
        y = steps * delta
    y = y + start
    if endpoint and num > 1:
        y = ops.concatenate([y[:-1], _first_row(stop, extra)], axis=0)
    y = _along_first(y, axis, len(extra))
    if dtype is not None:
        y = ops.floor(y) if np.dtype(dtype).kind in "iu" else y
        y = ops.astype(y, dtype)
    return (y, step) if retstep else y


def logspace(
    start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
    base: ArrayLike = 10.0, dtype: Any = None, axis: int = 0,
) -> Tensor:  # fmt: skip
    """``base ** linspace(start, stop)``; differentiable in start, stop and base.

    >>> import tapegrad as tg
    >>> tg.logspace(0.0, 2.0, num=3)
    tensor([  1.,  10., 100.], dtype=float64)
    """
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    if shape_of(base):
        base = ops.expand_dims(as_array(base), axis)
    out = ops.power(base, y)
    return out if dtype is None else ops.astype(out, dtype)


def geomspace(
    start: ArrayLike, stop: ArrayLike, num: int = 50, endpoint: bool = True,
    dtype: Any = None, axis: int = 0,
) -> Tensor:  # fmt: skip
    """``num`` values spaced evenly on a log scale from ``start`` to ``stop`` (same sign,
    not zero), with the ends exact; differentiable in both.

    >>> import tapegrad as tg
    >>> tg.geomspace(1.0, 100.0, num=3)
    tensor([  1.,  10., 100.], dtype=float64)
    """
    dt = _inexact(start, stop, float(num))
    start = ops.astype(as_array(start), dt)
    stop = ops.astype(as_array(stop), dt)
    if "complex" in str(dt):
        raise NotImplementedError("geomspace: complex endpoints are not supported yet")
    if bool(ops.any(ops.equal(start, 0))) or bool(ops.any(ops.equal(stop, 0))):
        raise ValueError("geomspace: geometric sequence cannot include zero")
    sign = ops.sign(start)
    start, stop = start / sign, stop / sign
    y = logspace(ops.log10(start), ops.log10(stop), num=num, endpoint=endpoint, base=10.0)
    extra = shape_of(y)[1:]
    if num > 0:
        parts = [_first_row(start, extra)]
        if num > 2 or (num == 2 and not endpoint):
            parts.append(y[1:-1] if endpoint else y[1:])
        if num > 1 and endpoint:
            parts.append(_first_row(stop, extra))
        y = ops.concatenate(parts, axis=0)
    y = _along_first(y * sign, axis, len(extra))
    return y if dtype is None else ops.astype(y, dtype)


def meshgrid(
    *xi: ArrayLike, copy: bool = True, sparse: bool = False, indexing: str = "xy"
) -> tuple[Tensor, ...]:
    """Coordinate grids from 1-d coordinate vectors (``indexing`` "xy" or "ij").

    >>> import tapegrad as tg
    >>> [g.shape for g in tg.meshgrid(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([4.0, 5.0]))]
    [(2, 3), (2, 3)]
    """
    if indexing not in ("xy", "ij"):
        raise ValueError(f"meshgrid: indexing must be 'xy' or 'ij', got {indexing!r}")
    ndim = len(xi)
    shapes = [tuple(-1 if j == i else 1 for j in range(ndim)) for i in range(ndim)]
    if indexing == "xy" and ndim > 1:
        shapes[0] = (1, -1, *(1,) * (ndim - 2))
        shapes[1] = (-1, 1, *(1,) * (ndim - 2))
    grids = tuple(ops.reshape(x, shape) for x, shape in zip(xi, shapes))
    if sparse:
        return grids
    return ops.broadcast_arrays(*grids)


def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> Tensor:  # noqa: N803
    """The Vandermonde matrix: columns are powers of the 1-d ``x`` (decreasing by default).

    >>> import tapegrad as tg
    >>> tg.vander(tg.tensor([1.0, 2.0, 3.0]), 3)
    tensor([[1., 1., 1.],
            [4., 2., 1.],
            [9., 3., 1.]], dtype=float64)
    """
    if len(shape_of(x)) != 1:
        raise ValueError(f"vander: x must be 1-d, got shape {shape_of(x)}")
    n = shape_of(x)[0] if N is None else int(N)
    powers = np.arange(n) if increasing else np.arange(n - 1, -1, -1)
    column = ops.reshape(x, (-1, 1))
    return ops.power(column, ops.asarray(powers.astype(result_dtype(column)), like=column))
