"""Moment statistics of scipy.stats differentiable in their arrays: ``moment``, ``skew``,
``kurtosis``, ``variation``, ``gmean``, ``hmean``, ``pmean``, ``describe`` and
``pearsonr`` (the statistic, and its p-value: the sf of a beta distribution on [-1, 1] at
the statistic, differentiable too). SciPy's own on plain arrays. ``nan_policy='omit'``
raises NotImplementedError on Tensors.
"""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special import betainc
from tapegrad.scipy.stats._statistics import _flat, _policy

__all__ = [
    "describe", "gmean", "hmean", "kurtosis", "moment", "pearsonr", "pmean", "skew",
    "variation",
]  # fmt: skip

ArrayLike = Any


def _prepare(function: str, a: Any, axis: Any, nan_policy: str) -> tuple[Any, Any]:
    if _policy(function, nan_policy, a):
        raise NotImplementedError(f"{function}: nan_policy='omit' is not supported on Tensors")
    return _flat(ops.asarray(a, dtype="float64"), axis)


def _finish(out: Any, a: Any, axis: Any, keepdims: bool) -> Any:
    """``out`` (reduced with keepdims) squeezed, or SciPy's keepdims shape."""
    if keepdims:
        return ops.reshape(out, (1,) * len(shape_of(a))) if axis is None else out
    return ops.squeeze(out, 0 if axis is None else axis)


def _central(a: Any, axis: int, order: int, center: Any = None) -> Any:
    if center is None:
        center = ops.mean(a, axis=axis, keepdims=True)
    return ops.mean(ops.power(ops.subtract(a, center), order), axis=axis, keepdims=True)


@plain_calls_scipy("stats")
def moment(
    a: ArrayLike,
    order: int = 1,
    axis: int | None = 0,
    nan_policy: str = "propagate",
    *,
    center: ArrayLike | None = None,
    keepdims: bool = False,
) -> Tensor:
    """The ``order``-th moment about ``center`` (the mean by default), differentiable in
    ``a`` and ``center``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import moment
    >>> moment(tg.tensor([1.0, 2.0, 3.0]), order=2).item()
    0.6666666666666666
    """
    values, where = _prepare("moment", a, axis, nan_policy)
    if order == 0:
        out = ops.add(ops.mean(ops.multiply(values, 0.0), axis=where, keepdims=True), 1.0)
    else:
        out = _central(values, where, order, center)
    return _finish(out, ops.asarray(a), axis, keepdims)


@plain_calls_scipy("stats")
def skew(
    a: ArrayLike,
    axis: int | None = 0,
    bias: bool = True,
    nan_policy: str = "propagate",
    *,
    keepdims: bool = False,
) -> Tensor:
    """The sample skewness ``m3 / m2^1.5``; ``bias=False`` the adjusted Fisher-Pearson one.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import skew
    >>> round(skew(tg.tensor([1.0, 2.0, 4.0])).item(), 12)
    0.381801774161
    """
    values, where = _prepare("skew", a, axis, nan_policy)
    m2, m3 = _central(values, where, 2), _central(values, where, 3)
    out = ops.divide(m3, ops.power(m2, 1.5))
    if not bias:
        n = shape_of(values)[where]
        out = ops.multiply(out, math.sqrt((n - 1.0) * n) / (n - 2.0))
    return _finish(out, ops.asarray(a), axis, keepdims)


@plain_calls_scipy("stats")
def kurtosis(
    a: ArrayLike,
    axis: int | None = 0,
    fisher: bool = True,
    bias: bool = True,
    nan_policy: str = "propagate",
    *,
    keepdims: bool = False,
) -> Tensor:
    """The kurtosis ``m4 / m2²`` (minus 3 when ``fisher``); ``bias=False`` the unbiased one.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import kurtosis
    >>> kurtosis(tg.tensor([1.0, 2.0, 3.0, 4.0]), fisher=False).item()
    1.64
    """
    values, where = _prepare("kurtosis", a, axis, nan_policy)
    m2, m4 = _central(values, where, 2), _central(values, where, 4)
    out = ops.divide(m4, ops.square(m2))
    if not bias:
        n = shape_of(values)[where]
        out = ops.add(
            ops.multiply(
                1.0 / (n - 2) / (n - 3),
                ops.subtract(ops.multiply(n * n - 1.0, out), 3.0 * (n - 1) ** 2),
            ),
            3.0,
        )
    if fisher:
        out = ops.subtract(out, 3.0)
    return _finish(out, ops.asarray(a), axis, keepdims)


@plain_calls_scipy("stats")
def variation(
    a: ArrayLike,
    axis: int | None = 0,
    nan_policy: str = "propagate",
    ddof: int = 0,
    *,
    keepdims: bool = False,
) -> Tensor:
    """The coefficient of variation ``std(a, ddof) / mean(a)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import variation
    >>> round(variation(tg.tensor([1.0, 2.0, 3.0])).item(), 12)
    0.408248290464
    """
    values, where = _prepare("variation", a, axis, nan_policy)
    out = ops.divide(
        ops.std(values, axis=where, ddof=ddof, keepdims=True),
        ops.mean(values, axis=where, keepdims=True),
    )
    return _finish(out, ops.asarray(a), axis, keepdims)


def _no_dtype(function: str, dtype: Any) -> None:
    if dtype is not None and str(dtype) not in ("float64", "<class 'numpy.float64'>"):
        raise NotImplementedError(f"{function}: dtype={dtype!r} is not supported on Tensors")


def _mean_of(function: str, a: Any, axis: Any, dtype: Any, weights: Any, nan_policy: str,
             keepdims: bool, inward: Any, outward: Any) -> Any:  # fmt: skip
    """``outward`` of the (weighted) mean of ``inward(a)``: gmean, hmean and pmean."""
    _no_dtype(function, dtype)
    values, where = _prepare(function, a, axis, nan_policy)
    values = inward(values)
    if weights is None:
        mean = ops.mean(values, axis=where, keepdims=True)
    else:
        if axis is None:
            weights = ops.reshape(weights, (-1,))
        w = ops.broadcast_to(ops.asarray(weights, dtype="float64"), shape_of(values))
        total = ops.sum(ops.multiply(w, values), axis=where, keepdims=True)
        mean = ops.divide(total, ops.sum(w, axis=where, keepdims=True))
    return _finish(outward(mean), ops.asarray(a), axis, keepdims)


def _reciprocal(v: Any) -> Any:
    return ops.divide(1.0, v)


@plain_calls_scipy("stats")
def gmean(
    a: ArrayLike,
    axis: int | None = 0,
    dtype: Any = None,
    weights: ArrayLike | None = None,
    *,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Tensor:
    """The (weighted) geometric mean ``exp(Σ w log a / Σ w)``, in ``a`` and ``weights``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import gmean
    >>> round(gmean(tg.tensor([1.0, 4.0])).item(), 12)
    2.0
    """
    return _mean_of("gmean", a, axis, dtype, weights, nan_policy, keepdims, ops.log, ops.exp)


@plain_calls_scipy("stats")
def hmean(
    a: ArrayLike,
    axis: int | None = 0,
    dtype: Any = None,
    *,
    weights: ArrayLike | None = None,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Tensor:
    """The (weighted) harmonic mean ``Σ w / Σ (w / a)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import hmean
    >>> round(hmean(tg.tensor([1.0, 4.0])).item(), 12)
    1.6
    """
    return _mean_of(
        "hmean", a, axis, dtype, weights, nan_policy, keepdims, _reciprocal, _reciprocal
    )


@plain_calls_scipy("stats")
def pmean(
    a: ArrayLike,
    p: float,
    *,
    axis: int | None = 0,
    dtype: Any = None,
    weights: ArrayLike | None = None,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Tensor:
    """The (weighted) power mean ``(Σ w a^p / Σ w)^(1/p)``; ``p = 0`` the geometric mean.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import pmean
    >>> round(pmean(tg.tensor([1.0, 3.0]), 2).item(), 12)
    2.2360679775
    """
    if p == 0:
        _no_dtype("pmean", dtype)
        return gmean(a, axis=axis, weights=weights, nan_policy=nan_policy, keepdims=keepdims)
    power, root = (lambda v: ops.power(v, p)), (lambda m: ops.power(m, 1.0 / p))
    return _mean_of("pmean", a, axis, dtype, weights, nan_policy, keepdims, power, root)


@plain_calls_scipy("stats")
def describe(
    a: ArrayLike, axis: int | None = 0, ddof: int = 1, bias: bool = True,
    nan_policy: str = "propagate",
) -> Any:  # fmt: skip
    """SciPy's ``DescribeResult(nobs, minmax, mean, variance, skewness, kurtosis)``, each
    statistic differentiable in ``a`` (``nobs`` an integer).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import describe
    >>> describe(tg.tensor([1.0, 2.0, 4.0])).variance.item()
    2.333333333333333
    """
    from scipy.stats._stats_py import DescribeResult

    values, where = _prepare("describe", a, axis, nan_policy)
    n = shape_of(values)[where]
    minmax = (ops.min(values, axis=where), ops.max(values, axis=where))
    return DescribeResult(
        n,
        minmax,
        ops.mean(values, axis=where),
        ops.var(values, axis=where, ddof=ddof),
        skew(values, where, bias=bias),
        kurtosis(values, where, bias=bias),
    )


@plain_calls_scipy("stats")
def pearsonr(
    x: ArrayLike,
    y: ArrayLike,
    *,
    alternative: str = "two-sided",
    method: Any = None,
    axis: int | None = 0,
) -> Any:
    """Pearson's correlation and its p-value (SciPy's ``PearsonRResult``), both
    differentiable in ``x`` and ``y``: the p-value is the survival function of
    ``beta(n/2 - 1, n/2 - 1)`` on [-1, 1] at the statistic. ``method`` (a permutation
    test or bootstrap) raises NotImplementedError on Tensors.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import pearsonr
    >>> round(pearsonr(tg.tensor([1.0, 2.0, 3.5]), tg.tensor([2.0, 1.0, 4.0])).statistic.item(), 12)
    0.737043474096
    """
    from scipy.stats._result_classes import PearsonRResult

    if method is not None:
        raise NotImplementedError("pearsonr: method is not supported on Tensors")
    if alternative not in ("two-sided", "less", "greater"):
        raise ValueError(
            f"pearsonr: alternative must be 'two-sided', 'less' or 'greater', got {alternative!r}"
        )
    x, y = ops.asarray(x, dtype="float64"), ops.asarray(y, dtype="float64")
    if axis is None:
        x, y, axis = ops.reshape(x, (-1,)), ops.reshape(y, (-1,)), 0
    n = shape_of(x)[axis]
    if n < 2:
        raise ValueError("pearsonr: `x` and `y` must have length at least 2.")
    xm = ops.subtract(x, ops.mean(x, axis=axis, keepdims=True))
    ym = ops.subtract(y, ops.mean(y, axis=axis, keepdims=True))
    r = ops.divide(
        ops.sum(ops.multiply(xm, ym), axis=axis),
        ops.sqrt(
            ops.multiply(ops.sum(ops.square(xm), axis=axis), ops.sum(ops.square(ym), axis=axis))
        ),
    )
    r = ops.clip(r, -1.0, 1.0)
    # r is beta(n/2 - 1, n/2 - 1) on [-1, 1] under independence (SciPy's exact test): its
    # cdf at r is the regularized incomplete beta function at (r + 1) / 2, and by the
    # symmetry a = b its sf is the same function at (1 - r) / 2.
    ab = n / 2.0 - 1.0

    def sf(t: Any) -> Any:
        return betainc(ab, ab, ops.multiply(0.5, ops.subtract(1.0, t)))

    if alternative == "two-sided":
        p = ops.multiply(2.0, sf(ops.abs(r)))
    elif alternative == "less":
        p = sf(ops.negative(r))
    else:
        p = sf(r)
    return PearsonRResult(statistic=r, pvalue=p, alternative=alternative, n=n, x=x, y=y, axis=axis)
