"""Robust statistics of scipy.stats: ``trim_mean trimboth trim1`` (a proportion cut off
the sorted ends), ``iqr``, ``median_abs_deviation`` and ``gstd``; differentiable in the
data, SciPy's own on plain arrays. The tails cut take the gradient of ``partition``, the
quantiles that of ``percentile`` (the values ranked there get it).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.stats._statistics import _flat, _policy
from tapegrad.scipy.stats._trimmed import _floating, _host, _propagate_nan, _shaped

__all__ = ["gstd", "iqr", "median_abs_deviation", "trim1", "trim_mean", "trimboth"]

ArrayLike = Any
_IQR_SCALES = {"normal": 2.0 * math.sqrt(2.0) * 0.4769362762044699}  # 2 sqrt(2) erfinv(1/2)
_MAD_NORMAL = 0.6744897501960817  # ndtri(3/4)


def _cut(a: Any, axis: Any, low: int, high: int) -> Tensor:
    """``a``'s values ranked ``low`` to ``high - 1`` along ``axis``, in NumPy's partition order."""
    moved = ops.partition(a, (low, high - 1), axis=axis)
    index: list[Any] = [slice(None)] * len(shape_of(a))
    index[axis] = slice(low, high)
    return moved[tuple(index)]


@plain_calls_scipy("stats")
def trim_mean(
    a: ArrayLike,
    proportiontocut: float,
    axis: int | None = 0,
    *,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Tensor:
    """The mean after cutting ``proportiontocut`` of the values off each end (of the
    sorted values, ``int(proportiontocut * n)`` each side).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import trim_mean
    >>> trim_mean(tg.tensor([1.0, 2.0, 3.0, 100.0]), 0.25).item()
    2.5
    """
    if _policy("trim_mean", nan_policy, a):
        raise NotImplementedError("trim_mean: nan_policy='omit' is not supported on Tensors")
    a = _floating(a)
    values, where = _flat(a, axis)
    n = shape_of(values)[where]
    if n == 0:
        return ops.mean(values, axis=where, keepdims=keepdims)
    low = int(proportiontocut * n)
    if low > n - low:
        raise ValueError(f"trim_mean: proportiontocut={proportiontocut} cuts more than all {n}")
    out = ops.mean(_cut(values, where, low, n - low), axis=where, keepdims=keepdims)
    return _shaped(_propagate_nan(out, values, where, keepdims), a, axis, keepdims)


@plain_calls_scipy("stats")
def trimboth(a: ArrayLike, proportiontocut: float, axis: int | None = 0) -> Tensor:
    """``a`` without ``int(proportiontocut * n)`` of its least and greatest values along
    ``axis``, in NumPy's partition order (the order is SciPy's: not sorted).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import trimboth
    >>> sorted(trimboth(tg.tensor([5.0, 1.0, 4.0, 2.0, 3.0]), 0.2).numpy().tolist())
    [2.0, 3.0, 4.0]
    """
    a = ops.asarray(a)
    if math.prod(shape_of(a)) == 0:
        return a
    values, where = _flat(a, axis)
    n = shape_of(values)[where]
    low = int(proportiontocut * n)
    if low >= n - low:
        raise ValueError(f"trimboth: proportiontocut={proportiontocut} cuts all {n} values")
    return _cut(values, where, low, n - low)


@plain_calls_scipy("stats")
def trim1(
    a: ArrayLike, proportiontocut: float, tail: str = "right", axis: int | None = 0
) -> Tensor | list[Any]:
    """``a`` without ``int(proportiontocut * n)`` of its greatest (``tail='right'``) or
    least (``'left'``) values along ``axis``, in NumPy's partition order; SciPy's empty
    list when ``proportiontocut >= 1``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import trim1
    >>> sorted(trim1(tg.tensor([5.0, 1.0, 4.0, 2.0]), 0.25).numpy().tolist())
    [1.0, 2.0, 4.0]
    """
    a = ops.asarray(a)
    values, where = _flat(a, axis)
    if proportiontocut >= 1:
        return []
    n, side = shape_of(values)[where], str(tail).lower()
    if side not in ("right", "left"):
        raise ValueError(f"trim1: tail must be 'right' or 'left', got {tail!r}")
    cut = int(proportiontocut * n)
    low, high = (0, n - cut) if side == "right" else (cut, n)
    return _cut(values, where, low, high)


@plain_calls_scipy("stats")
def iqr(
    x: ArrayLike,
    axis: int | None = None,
    rng: tuple[float, float] = (25, 75),
    scale: float | str = 1.0,
    nan_policy: str = "propagate",
    interpolation: str = "linear",
    keepdims: bool = False,
) -> Tensor:
    """The interquartile range: the ``rng[1]``-th minus the ``rng[0]``-th percentile along
    ``axis``, over ``scale`` (``'normal'``: the normal distribution's IQR, so the result
    estimates a standard deviation); ``interpolation`` is ``np.percentile``'s ``method``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import iqr
    >>> iqr(tg.tensor([1.0, 2.0, 3.0, 4.0, 5.0])).item()
    2.0
    """
    if isinstance(scale, str):
        if scale.lower() not in _IQR_SCALES:
            raise ValueError(f"iqr: scale must be a number or 'normal', got {scale!r}")
        scale = _IQR_SCALES[scale.lower()]
    if len(rng) != 2:
        raise TypeError(f"iqr: rng must be a two element sequence, got {rng!r}")
    if np.isnan(rng).any():
        raise ValueError(f"iqr: rng must not contain NaNs, got {rng!r}")
    low, high = sorted(rng)
    if low < 0 or high > 100:
        raise ValueError(f"iqr: the elements of rng must be in [0, 100], got {rng!r}")
    omit = _policy("iqr", nan_policy, x)
    x = _floating(x)
    percentile = ops.nanpercentile if omit else ops.percentile
    q = percentile(x, [low, high], axis=axis, method=interpolation, keepdims=keepdims)
    out = ops.subtract(q[1], q[0])
    return out if scale == 1.0 else ops.divide(out, scale)


@plain_calls_scipy("stats")
def median_abs_deviation(
    x: ArrayLike,
    axis: int | None = 0,
    center: Callable[..., Any] | None = None,
    scale: float | str = 1.0,
    nan_policy: str = "propagate",
    *,
    keepdims: bool = False,
) -> Tensor:
    """The median of ``|x - center(x)|`` along ``axis`` over ``scale`` (``'normal'``:
    ``ndtri(3/4)``, so the result estimates a standard deviation); ``center`` is the median
    when None, else a function called as ``center(x, axis=axis)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import median_abs_deviation
    >>> median_abs_deviation(tg.tensor([1.0, 2.0, 3.0, 4.0, 100.0])).item()
    1.0
    """
    if center is not None and not callable(center):
        raise TypeError(f"median_abs_deviation: center must be callable, got {center!r}")
    if isinstance(scale, str):
        if scale.lower() != "normal":
            raise ValueError(
                f"median_abs_deviation: scale must be a number or 'normal', got {scale!r}"
            )
        scale = _MAD_NORMAL
    omit = _policy("median_abs_deviation", nan_policy, x)
    if omit and center is not None:
        raise NotImplementedError(
            "median_abs_deviation: nan_policy='omit' with a center function is not supported "
            "on Tensors (center=None omits NaNs with nanmedian)"
        )
    x = _floating(x)
    values, where = _flat(x, axis)
    median = ops.nanmedian if omit else ops.median
    middle = median(values, axis=where) if center is None else center(values, axis=where)
    spread = ops.abs(ops.subtract(values, ops.expand_dims(middle, where)))
    out = ops.divide(median(spread, axis=where, keepdims=keepdims), scale)
    return _shaped(out, x, axis, keepdims)


@plain_calls_scipy("stats")
def gstd(
    a: ArrayLike,
    axis: int | None = 0,
    ddof: int = 1,
    *,
    keepdims: bool = False,
    nan_policy: str = "propagate",
) -> Tensor:
    """The geometric standard deviation, ``exp(std(log a, ddof))``; NaN with a
    RuntimeWarning where a value is not positive (SciPy's).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import gstd
    >>> round(gstd(tg.tensor([1.0, 4.0])).item(), 10)
    2.6651441427
    """
    omit = _policy("gstd", nan_policy, a)
    a = _floating(a)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        logs = ops.log(a)
        var = (ops.nanvar if omit else ops.var)(logs, axis=axis, ddof=ddof, keepdims=keepdims)
        out = ops.exp(ops.sqrt(var))
    if (_host(a) <= 0).any():
        warnings.warn(
            "gstd: the geometric standard deviation is only defined if all elements are "
            "greater than zero; otherwise, the result is NaN",
            RuntimeWarning,
            stacklevel=2,
        )
    return out
