"""Statistics: nansum nanprod nanmean nanvar nanstd nanmax nanmin nanargmax nanargmin ptp
average cov corrcoef (quantiles and medians are in quantiles.py).

Built from reductions and ``where``: NaN entries are masked out of the sums and
extrema, so they get zero gradient and never poison the others.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import normalize_axis, shape_of
from tapegrad.ops.reductions import squared_magnitude
from tapegrad.ops.rule_helpers import is_complex, is_floating, placed, result_dtype

ArrayLike = Any
Axis = int | tuple[int, ...] | None


def _without_nan(x: ArrayLike, fill: float) -> Any:
    return ops.where(ops.isnan(x), fill, x) if is_floating(x) else x


def nansum(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """Sum with NaN counted as 0.

    >>> import tapegrad as tg
    >>> tg.nansum(tg.tensor([1.0, float("nan"), 2.0])).item()
    3.0
    """
    return ops.sum(_without_nan(x, 0), axis=axis, keepdims=keepdims)


def nanprod(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """Product with NaN counted as 1.

    >>> import tapegrad as tg
    >>> tg.nanprod(tg.tensor([1.0, float("nan"), 3.0]))
    tensor(3., dtype=float64)
    >>> tg.grad(tg.nanprod)(tg.tensor([1.0, float("nan"), 3.0]))  # 0 at the NaN
    tensor([3., 0., 1.], dtype=float64)
    """
    return ops.prod(_without_nan(x, 1), axis=axis, keepdims=keepdims)


def _valid_count(x: ArrayLike, axis: Axis, keepdims: bool) -> Tensor:
    valid = ops.logical_not(ops.isnan(x))
    return ops.sum(ops.astype(valid, result_dtype(x, 1.0)), axis=axis, keepdims=keepdims)


def nanmean(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """Mean of the non-NaN elements (NaN where there are none).

    >>> import tapegrad as tg
    >>> tg.nanmean(tg.tensor([1.0, float("nan"), 3.0]))
    tensor(2., dtype=float64)
    >>> tg.grad(tg.nanmean)(tg.tensor([1.0, float("nan"), 3.0]))  # 0 at the NaN
    tensor([0.5, 0. , 0.5], dtype=float64)
    """
    if not is_floating(x):
        return ops.mean(x, axis=axis, keepdims=keepdims)
    return nansum(x, axis, keepdims) / _valid_count(x, axis, keepdims)


def nanvar(x: ArrayLike, axis: Axis = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Variance of the non-NaN elements, with ``ddof`` delta degrees of freedom.

    >>> import tapegrad as tg
    >>> tg.nanvar(tg.tensor([1.0, float("nan"), 3.0]))
    tensor(1., dtype=float64)
    >>> tg.grad(tg.nanvar)(tg.tensor([1.0, float("nan"), 3.0]))  # 0 at the NaN
    tensor([-1.,  0.,  1.], dtype=float64)
    """
    if not is_floating(x):
        return ops.var(x, axis=axis, ddof=ddof, keepdims=keepdims)
    center = nanmean(x, axis, keepdims=True)
    deviation = ops.where(ops.isnan(x), 0.0, x - center)
    squares = ops.sum(squared_magnitude(deviation), axis=axis, keepdims=keepdims)
    return squares / (ops.real(_valid_count(x, axis, keepdims)) - ddof)  # real, as NumPy's


def nanstd(x: ArrayLike, axis: Axis = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation of the non-NaN elements.

    >>> import tapegrad as tg
    >>> tg.nanstd(tg.tensor([1.0, float("nan"), 3.0]))
    tensor(1., dtype=float64)
    >>> tg.grad(tg.nanstd)(tg.tensor([1.0, float("nan"), 3.0]))  # 0 at the NaN
    tensor([-0.5,  0. ,  0.5], dtype=float64)
    """
    return ops.sqrt(nanvar(x, axis, ddof, keepdims))


def _nan_extremum(reduce: Any, fill: float, x: ArrayLike, axis: Axis, keepdims: bool) -> Tensor:
    if not is_floating(x):
        return reduce(x, axis=axis, keepdims=keepdims)
    missing = ops.isnan(x)
    out = reduce(ops.where(missing, fill, x), axis=axis, keepdims=keepdims)
    return ops.where(ops.all(missing, axis=axis, keepdims=keepdims), math.nan, out)


def nanmax(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """Maximum ignoring NaN (NaN for an all-NaN slice); ties share the gradient.

    >>> import tapegrad as tg
    >>> tg.nanmax(tg.tensor([1.0, float("nan"), 3.0]))
    tensor(3., dtype=float64)
    >>> tg.grad(tg.nanmax)(tg.tensor([1.0, float("nan"), 3.0]))  # 0 at the NaN
    tensor([0., 0., 1.], dtype=float64)
    """
    return _nan_extremum(ops.max, -math.inf, x, axis, keepdims)


def nanmin(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """Minimum ignoring NaN (NaN for an all-NaN slice); ties share the gradient.

    >>> import tapegrad as tg
    >>> tg.nanmin(tg.tensor([1.0, float("nan"), 3.0]))
    tensor(1., dtype=float64)
    >>> tg.grad(tg.nanmin)(tg.tensor([1.0, float("nan"), 3.0]))  # 0 at the NaN
    tensor([1., 0., 0.], dtype=float64)
    """
    return _nan_extremum(ops.min, math.inf, x, axis, keepdims)


def _nan_arg_extremum(
    arg: Any, fill: float, x: ArrayLike, axis: Any, keepdims: bool, op: str
) -> Tensor:
    if not is_floating(x):
        return arg(x, axis=axis, keepdims=keepdims)
    missing = ops.isnan(x)
    if bool(ops.any(ops.all(missing, axis=axis))):
        raise ValueError(f"{op}: All-NaN slice encountered")
    return arg(ops.where(missing, fill, x), axis=axis, keepdims=keepdims)


def nanargmax(x: ArrayLike, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """Index of the maximum ignoring NaN (integer, no gradient).

    >>> import tapegrad as tg
    >>> tg.nanargmax(tg.tensor([1.0, float("nan"), 3.0]))
    tensor(2, dtype=int64)
    """
    return _nan_arg_extremum(ops.argmax, -math.inf, x, axis, keepdims, "nanargmax")


def nanargmin(x: ArrayLike, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """Index of the minimum ignoring NaN (integer, no gradient).

    >>> import tapegrad as tg
    >>> tg.nanargmin(tg.tensor([1.0, float("nan"), 3.0]))
    tensor(0, dtype=int64)
    """
    return _nan_arg_extremum(ops.argmin, math.inf, x, axis, keepdims, "nanargmin")


def ptp(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """Range (peak to peak): ``max - min`` along ``axis``.

    >>> import tapegrad as tg
    >>> tg.ptp(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    tensor([2., 2.], dtype=float64)
    >>> tg.grad(tg.ptp)(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # of the whole
    tensor([[-1.,  0.],
            [ 0.,  1.]], dtype=float64)
    """
    return ops.max(x, axis=axis, keepdims=keepdims) - ops.min(x, axis=axis, keepdims=keepdims)


def average(
    x: ArrayLike, axis: Axis = None, weights: ArrayLike = None, returned: bool = False,
    *, keepdims: bool = False,
) -> Any:  # fmt: skip
    """Weighted mean along ``axis``, differentiable in ``x`` and ``weights``; with
    ``returned`` also the sum of the weights.

    >>> import tapegrad as tg
    >>> tg.average(tg.tensor([1.0, 3.0]), weights=[3.0, 1.0]).item()
    1.5
    """
    shape = shape_of(x)
    if not is_floating(x):
        x = ops.astype(x if hasattr(x, "shape") else np.asarray(x), np.float64)
    if weights is None:
        mean = ops.mean(x, axis=axis, keepdims=keepdims)
        if not returned:
            return mean
        count = float(np.prod(shape)) / max(float(np.prod(shape_of(mean))), 1.0)
        return mean, ops.full(shape_of(mean), count, dtype=result_dtype(mean), like=mean)
    wshape = shape_of(weights)
    if wshape != shape:
        if axis is None:
            raise TypeError("average: axis must be given when the shapes of x and weights differ")
        if len(wshape) != 1:
            raise TypeError("average: 1-d weights expected when the shapes differ")
        (single,) = normalize_axis(axis, len(shape), "average")
        if wshape[0] != shape[single]:
            raise ValueError("average: the length of weights differs from that of x along axis")
        weights = ops.reshape(weights, tuple(-1 if d == single else 1 for d in range(len(shape))))
        weights = ops.broadcast_to(weights, shape)
    total = ops.sum(weights, axis=axis, keepdims=keepdims)
    mean = ops.sum(x * weights, axis=axis, keepdims=keepdims) / total
    if returned:
        return mean, ops.broadcast_to(total, shape_of(mean))
    return mean


def cov(
    m: ArrayLike, y: ArrayLike = None, rowvar: bool = True, bias: bool = False,
    ddof: int | None = None, fweights: ArrayLike = None, aweights: ArrayLike = None,
    *, dtype: Any = None,
) -> Tensor:  # fmt: skip
    """The covariance matrix of the variables in the rows (columns if not ``rowvar``),
    with NumPy's frequency and reliability weights; differentiable in every input.

    >>> import tapegrad as tg
    >>> tg.cov(tg.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]])).numpy()
    array([[ 1., -1.],
           [-1.,  1.]])
    """
    x = ops.atleast_2d(m)
    if not rowvar and shape_of(x)[0] != 1:
        x = ops.transpose(x)
    if y is not None:
        other = ops.atleast_2d(y)
        if not rowvar and shape_of(other)[0] != 1:
            other = ops.transpose(other)
        x = ops.concatenate([x, other], axis=0)
    dtype = dtype or result_dtype(x, np.float64)
    x = ops.astype(x, dtype)
    if ddof is None:
        ddof = 0 if bias else 1
    dtype = result_dtype(x)
    fweights, aweights = placed(fweights, x, dtype), placed(aweights, x, dtype)
    weights = None
    if fweights is not None:
        weights = fweights
    if aweights is not None:
        weights = aweights if weights is None else weights * aweights
    if weights is None:
        center = ops.mean(x, axis=1, keepdims=True)
        factor = shape_of(x)[1] - ddof
    else:
        total = ops.sum(weights)
        center = ops.sum(x * weights, axis=1, keepdims=True) / total
        if ddof == 0:
            factor = total
        elif aweights is None:
            factor = total - ddof
        else:
            factor = total - ddof * ops.sum(weights * aweights) / total
    centered = x - center
    scaled = centered if weights is None else centered * weights
    product = ops.matmul(centered, ops.transpose(ops.conj(scaled)))  # X Xᴴ, as NumPy's
    return ops.squeeze(product * (1.0 / factor))


def corrcoef(
    x: ArrayLike, y: ArrayLike = None, rowvar: bool = True, *, dtype: Any = None
) -> Tensor:
    """Pearson correlation coefficients: the covariance scaled by the standard deviations,
    clipped to [-1, 1] as NumPy does (the real and imaginary parts each, for complex input).

    >>> import tapegrad as tg
    >>> tg.corrcoef(tg.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 7.0]]))
    tensor([[1.        , 0.99339927],
            [0.99339927, 1.        ]], dtype=float64)
    """
    c = cov(x, y, rowvar, dtype=dtype)
    if not shape_of(c):
        return c / c
    stddev = ops.sqrt(ops.real(ops.diagonal(c)))
    c = c / ops.reshape(stddev, (-1, 1))
    c = c / ops.reshape(stddev, (1, -1))
    if is_complex(c):
        return ops.clip(ops.real(c), -1, 1) + 1j * ops.clip(ops.imag(c), -1, 1)
    return ops.clip(c, -1, 1)
