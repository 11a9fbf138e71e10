"""Trimmed statistics of scipy.stats: ``tmean tvar tstd tsem tmin tmax``, the statistic
of the values within ``limits``, differentiable in the data, SciPy's own on plain arrays.

Which values lie outside the limits is a choice the data makes and the gradient does not
see: the gradient flows to the values kept, as the derivative of the statistic of those.
The helpers here serve tapegrad/scipy/stats/_robust.py too.
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.stats._statistics import _flat, _policy

__all__ = ["tmax", "tmean", "tmin", "tsem", "tstd", "tvar"]

ArrayLike = Any


def _host(x: Any) -> np.ndarray:
    return backend.to_host(raw(x)) if isinstance(x, Tensor) else np.asarray(x)


def _outside(function: str, a: Tensor, limits: Any, inclusive: Any) -> Tensor | None:
    """Where ``a`` lies outside ``limits`` (None when there are none); SciPy's ValueError
    when no value lies inside."""
    if limits is None:
        return None
    (low, high), (low_in, high_in) = limits, inclusive
    mask = None
    if low is not None:
        mask = ops.less(a, low) if low_in else ops.less_equal(a, low)
    if high is not None:
        above = ops.greater(a, high) if high_in else ops.greater_equal(a, high)
        mask = above if mask is None else ops.logical_or(mask, above)
    if mask is not None and _host(mask).all():
        raise ValueError(f"{function}: no array values within the limits {tuple(limits)}")
    return mask


def _shaped(out: Tensor, a: Tensor, axis: Any, keepdims: bool) -> Tensor:
    """A reduction's result with SciPy's ``keepdims`` for ``axis=None``: ones everywhere."""
    if keepdims and axis is None:
        return ops.reshape(out, (1,) * len(shape_of(a)))
    return out


def _propagate_nan(out: Tensor, values: Tensor, where: int, keepdims: bool) -> Tensor:
    """NaN for each slice that holds one, as SciPy's ``nan_policy='propagate'``."""
    has_nan = ops.any(ops.isnan(values), axis=where, keepdims=keepdims)
    return ops.where(has_nan, math.nan, out)


def _count(kept: Tensor, dtype: Any, where: int, keepdims: bool) -> Tensor:
    """How many values are kept along ``where``, in ``dtype``."""
    return ops.sum(ops.astype(kept, dtype), axis=where, keepdims=keepdims)


def _floating(a: ArrayLike) -> Tensor:
    a = ops.asarray(a)
    return a if np.issubdtype(a.dtype, np.inexact) else ops.astype(a, "float64")


@plain_calls_scipy("stats")
def tmean(
    a: ArrayLike,
    limits: Any = None,
    inclusive: tuple[bool, bool] = (True, True),
    axis: int | None = None,
    *,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Tensor:
    """The mean of the values within ``limits`` (``(lower, upper)``, either None), each
    bound included where ``inclusive`` says, along ``axis`` (all when None).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import tmean
    >>> tmean(tg.tensor([1.0, 2.0, 3.0, 10.0]), limits=(None, 5.0)).item()
    2.0
    """
    omit = _policy("tmean", nan_policy, a)
    a = _floating(a)
    values, where = _flat(a, axis)
    out_of = _outside("tmean", values, limits, inclusive)
    if omit:
        nan = ops.isnan(values)
        out_of = nan if out_of is None else ops.logical_or(out_of, nan)
    kept = values if out_of is None else ops.where(out_of, 0.0, values)
    if out_of is None:
        count: Any = shape_of(values)[where]
    else:
        count = _count(ops.logical_not(out_of), a.dtype, where, keepdims)
    out = ops.divide(ops.sum(kept, axis=where, keepdims=keepdims), count)
    return _shaped(out, a, axis, keepdims)


def _trimmed_var(
    function: str,
    a: Any,
    limits: Any,
    inclusive: Any,
    axis: Any,
    ddof: int,
    nan_policy: str,
    keepdims: bool,
) -> tuple[Tensor, Tensor, Tensor, int]:
    """(variance, the values with those left out as NaN, the data, the axis reduced)."""
    omit = _policy(function, nan_policy, a)
    a = _floating(a)
    values, where = _flat(a, axis)
    out_of = _outside(function, values, limits, inclusive)
    held = values if out_of is None else ops.where(out_of, math.nan, values)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a slice with too few values: NaN
        var = ops.nanvar(held, axis=where, ddof=ddof, keepdims=keepdims)
    if not omit:
        var = _propagate_nan(var, values, where, keepdims)
    return var, held, a, where


@plain_calls_scipy("stats")
def tvar(
    a: ArrayLike,
    limits: Any = None,
    inclusive: tuple[bool, bool] = (True, True),
    axis: int | None = 0,
    ddof: int = 1,
    *,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Tensor:
    """The variance (``ddof`` degrees of freedom off) of the values within ``limits``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import tvar
    >>> tvar(tg.tensor([1.0, 2.0, 3.0, 10.0]), limits=(None, 5.0)).item()
    1.0
    """
    var, _, a, _ = _trimmed_var("tvar", a, limits, inclusive, axis, ddof, nan_policy, keepdims)
    return _shaped(var, a, axis, keepdims)


@plain_calls_scipy("stats")
def tstd(
    a: ArrayLike,
    limits: Any = None,
    inclusive: tuple[bool, bool] = (True, True),
    axis: int | None = 0,
    ddof: int = 1,
    *,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Tensor:
    """The standard deviation of the values within ``limits``: ``sqrt(tvar(...))``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import tstd
    >>> tstd(tg.tensor([1.0, 3.0, 10.0]), limits=(0.0, 5.0)).item()
    1.4142135623730951
    """
    var, _, a, _ = _trimmed_var("tstd", a, limits, inclusive, axis, ddof, nan_policy, keepdims)
    return _shaped(ops.sqrt(var), a, axis, keepdims)


@plain_calls_scipy("stats")
def tsem(
    a: ArrayLike,
    limits: Any = None,
    inclusive: tuple[bool, bool] = (True, True),
    axis: int | None = 0,
    ddof: int = 1,
    *,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Tensor:
    """The standard error of the mean of the values within ``limits``:
    ``tstd(...) / sqrt(n)``, ``n`` the number of values kept.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import tsem
    >>> round(tsem(tg.tensor([1.0, 3.0, 10.0]), limits=(0.0, 5.0)).item(), 12)
    1.0
    """
    var, held, a, where = _trimmed_var(
        "tsem", a, limits, inclusive, axis, ddof, nan_policy, keepdims
    )
    kept = _count(ops.logical_not(ops.isnan(held)), a.dtype, where, keepdims)
    return _shaped(ops.divide(ops.sqrt(var), ops.sqrt(kept)), a, axis, keepdims)


def _bounded_extreme(
    function: str, a: Any, limit: Any, axis: Any, inclusive: bool, nan_policy: str,
    keepdims: bool, lowest: bool,
) -> Tensor:  # fmt: skip
    omit = _policy(function, nan_policy, a)
    a = ops.asarray(a)
    values, where = _flat(a, axis)
    limits = (limit, None) if lowest else (None, limit)
    out_of = _outside(function, values, limits, (inclusive, inclusive))
    if omit:
        nan = ops.isnan(values)
        out_of = nan if out_of is None else ops.logical_or(out_of, nan)
    reduce = ops.min if lowest else ops.max
    if out_of is None:
        return _shaped(reduce(values, axis=where, keepdims=keepdims), a, axis, keepdims)
    if np.issubdtype(a.dtype, np.integer):
        info = np.iinfo(a.dtype)
        fill: Any = info.max if lowest else info.min
    else:
        fill = math.inf if lowest else -math.inf
    out = reduce(ops.where(out_of, fill, values), axis=where, keepdims=keepdims)
    empty = ops.all(out_of, axis=where, keepdims=keepdims)
    if _host(empty).any():  # a slice with no value kept: NaN (in floating point)
        out = ops.where(empty, math.nan, ops.astype(out, np.result_type(a.dtype, np.float64)))
    return _shaped(out, a, axis, keepdims)


@plain_calls_scipy("stats")
def tmin(
    a: ArrayLike,
    lowerlimit: Any = None,
    axis: int | None = 0,
    inclusive: bool = True,
    nan_policy: str = "propagate",
    *,
    keepdims: bool = False,
) -> Tensor:
    """The least value at or above ``lowerlimit`` (above it when not ``inclusive``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import tmin
    >>> tmin(tg.tensor([1.0, 2.0, 3.0]), lowerlimit=1.5).item()
    2.0
    """
    return _bounded_extreme(
        "tmin", a, lowerlimit, axis, inclusive, nan_policy, keepdims, lowest=True
    )


@plain_calls_scipy("stats")
def tmax(
    a: ArrayLike,
    upperlimit: Any = None,
    axis: int | None = 0,
    inclusive: bool = True,
    nan_policy: str = "propagate",
    *,
    keepdims: bool = False,
) -> Tensor:
    """The greatest value at or below ``upperlimit`` (below it when not ``inclusive``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import tmax
    >>> tmax(tg.tensor([1.0, 2.0, 3.0]), upperlimit=2.5).item()
    2.0
    """
    return _bounded_extreme(
        "tmax", a, upperlimit, axis, inclusive, nan_policy, keepdims, lowest=False
    )
