"""Reductions with NumPy's signatures: ``dtype=``, ``where=``, ``initial=``, ``keepdims=``.

``np.sum(t, axis=0, where=mask)`` and ``tnp.sum(...)`` on Tensors land here (through
``__array_function__``); each maps NumPy's arguments onto tapegrad's ops: ``dtype``
casts the input first, ``where`` masks it with the reduction's identity (NaN for the
nan* reductions, which then skip it), ``initial`` joins the result like one more element.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.ops.reductions import squared_magnitude

Axis = int | tuple[int, ...] | None


def _cast(a: Any, dtype: Any) -> Any:
    if dtype is None:
        return a
    return ops.astype(a if hasattr(a, "shape") else np.asarray(a), dtype)


def _masked(a: Any, where: Any, fill: Any) -> Any:
    """``a`` with ``fill`` where ``where`` is false (``where=True``: ``a`` itself)."""
    if where is True:
        return a
    return ops.where(where, a, fill)


def _count(a: Any, where: Any, axis: Axis, keepdims: bool, dtype: Any) -> Any:
    mask = ops.broadcast_to(where, shape_of(a))
    return ops.sum(ops.astype(mask, dtype), axis=axis, keepdims=keepdims)


def sum(  # noqa: A001 - NumPy's name
    a: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False,
    initial: Any = None, where: Any = True,
) -> Tensor:  # fmt: skip
    """``np.sum`` on Tensors."""
    out = ops.sum(_masked(_cast(a, dtype), where, 0), axis=axis, keepdims=keepdims)
    return out if initial is None else out + initial


def prod(
    a: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False,
    initial: Any = None, where: Any = True,
) -> Tensor:  # fmt: skip
    """``np.prod`` on Tensors."""
    out = ops.prod(_masked(_cast(a, dtype), where, 1), axis=axis, keepdims=keepdims)
    return out if initial is None else out * initial


def mean(
    a: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False, *, where: Any = True
) -> Tensor:
    """``np.mean`` on Tensors."""
    a = _cast(a, dtype)
    if where is True:
        return ops.mean(a, axis=axis, keepdims=keepdims)
    total = ops.sum(_masked(a, where, 0), axis=axis, keepdims=keepdims)
    return total / _count(a, where, axis, keepdims, total.dtype)


def _identity_for_where(name: str, where: Any, initial: Any) -> None:
    """NumPy's error for a ``where`` mask on a reduction without identity or ``initial``."""
    if where is not True and initial is None:
        raise ValueError(
            f"reduction operation '{name}' does not have an identity, so to use a where "
            "mask one has to specify 'initial'"
        )


def _extremum(
    reduce: Any, combine: Any, name: str, a: Any, axis: Axis, keepdims: bool, initial: Any,
    where: Any,
) -> Tensor:  # fmt: skip
    if where is not True:
        _identity_for_where(name, where, initial)
        a = _masked(a, where, initial)
    out = reduce(a, axis=axis, keepdims=keepdims)
    return out if initial is None else combine(out, initial)


def max(  # noqa: A001
    a: Any, axis: Axis = None, keepdims: bool = False, initial: Any = None, where: Any = True
) -> Tensor:
    """``np.max``/``np.amax`` on Tensors."""
    return _extremum(ops.max, ops.maximum, "maximum", a, axis, keepdims, initial, where)


def min(  # noqa: A001
    a: Any, axis: Axis = None, keepdims: bool = False, initial: Any = None, where: Any = True
) -> Tensor:
    """``np.min``/``np.amin`` on Tensors."""
    return _extremum(ops.min, ops.minimum, "minimum", a, axis, keepdims, initial, where)


def _variance(
    a: Any, axis: Axis, dtype: Any, ddof: float, keepdims: bool, where: Any, mean: Any,
    correction: Any,
) -> Tensor:  # fmt: skip
    if correction is not None:
        if ddof != 0:
            raise ValueError("var/std: ddof and correction can't be provided simultaneously")
        ddof = correction
    a = _cast(a, dtype)
    if where is True and mean is None:
        return ops.var(a, axis=axis, ddof=ddof, keepdims=keepdims)
    mask = True if where is True else where
    count = _count(a, mask, axis, True, _float(a))
    center = mean if mean is not None else ops.sum(_masked(a, mask, 0), axis, True) / count
    deviation = _masked(a - center, mask, 0)
    squares = ops.sum(deviation * deviation, axis=axis, keepdims=True)
    out = squares / (count - ddof)
    return out if keepdims else ops.squeeze(out, axis=_axes(axis, len(shape_of(a))))


def _float(a: Any) -> Any:
    kind = getattr(getattr(a, "dtype", None), "kind", "f")
    return a.dtype if kind == "f" else np.float64


def _axes(axis: Axis, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    return tuple(a % ndim for a in (axis if isinstance(axis, tuple) else (axis,)))


def var(
    a: Any, axis: Axis = None, dtype: Any = None, ddof: float = 0, keepdims: bool = False,
    *, where: Any = True, mean: Any = None, correction: Any = None,
) -> Tensor:  # fmt: skip
    """``np.var`` on Tensors (``mean=`` a precomputed mean with keepdims, as in NumPy)."""
    return _variance(a, axis, dtype, ddof, keepdims, where, mean, correction)


def std(
    a: Any, axis: Axis = None, dtype: Any = None, ddof: float = 0, keepdims: bool = False,
    *, where: Any = True, mean: Any = None, correction: Any = None,
) -> Tensor:  # fmt: skip
    """``np.std`` on Tensors."""
    return ops.sqrt(_variance(a, axis, dtype, ddof, keepdims, where, mean, correction))


def all(a: Any, axis: Axis = None, keepdims: bool = False, *, where: Any = True) -> Tensor:  # noqa: A001
    """``np.all`` on Tensors (boolean, no gradient)."""
    return ops.all(_masked(a, where, True), axis=axis, keepdims=keepdims)


def any(a: Any, axis: Axis = None, keepdims: bool = False, *, where: Any = True) -> Tensor:  # noqa: A001
    """``np.any`` on Tensors (boolean, no gradient)."""
    return ops.any(_masked(a, where, False), axis=axis, keepdims=keepdims)


def cumsum(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """``np.cumsum`` on Tensors."""
    return ops.cumsum(_cast(a, dtype), axis=axis)


def nancumsum(a: Any, axis: int | None = None, dtype: Any = None) -> Tensor:
    """``np.nancumsum`` on Tensors."""
    return ops.nancumsum(a, axis=axis, dtype=dtype)


def _nan_masked(a: Any, where: Any) -> Any:
    """``a`` with NaN where ``where`` is false: the nan* reductions then skip it."""
    return _masked(a, where, math.nan)


def nansum(
    a: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False,
    initial: Any = None, where: Any = True,
) -> Tensor:  # fmt: skip
    """``np.nansum`` on Tensors."""
    out = ops.nansum(_nan_masked(_cast(a, dtype), where), axis=axis, keepdims=keepdims)
    return out if initial is None else out + initial


def nanprod(
    a: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False,
    initial: Any = None, where: Any = True,
) -> Tensor:  # fmt: skip
    """``np.nanprod`` on Tensors."""
    out = ops.nanprod(_nan_masked(_cast(a, dtype), where), axis=axis, keepdims=keepdims)
    return out if initial is None else out * initial


def nanmean(
    a: Any, axis: Axis = None, dtype: Any = None, keepdims: bool = False, *, where: Any = True
) -> Tensor:
    """``np.nanmean`` on Tensors."""
    return ops.nanmean(_nan_masked(_cast(a, dtype), where), axis=axis, keepdims=keepdims)


def nanvar(
    a: Any, axis: Axis = None, dtype: Any = None, ddof: float = 0, keepdims: bool = False,
    *, where: Any = True, mean: Any = None, correction: Any = None,
) -> Tensor:  # fmt: skip
    """``np.nanvar`` on Tensors (``mean=`` a precomputed mean with keepdims, as in NumPy)."""
    if correction is not None:
        if ddof != 0:
            raise ValueError("nanvar/nanstd: ddof and correction can't be provided simultaneously")
        ddof = correction
    a = _nan_masked(_cast(a, dtype), where)
    if mean is None:
        return ops.nanvar(a, axis=axis, ddof=ddof, keepdims=keepdims)
    valid = ops.logical_not(ops.isnan(a))
    deviation = ops.where(valid, a - mean, 0.0)
    squares = ops.sum(squared_magnitude(deviation), axis=axis, keepdims=keepdims)
    count = ops.sum(ops.astype(valid, _float(a)), axis=axis, keepdims=keepdims)
    return squares / (count - ddof)


def nanstd(
    a: Any, axis: Axis = None, dtype: Any = None, ddof: float = 0, keepdims: bool = False,
    *, where: Any = True, mean: Any = None, correction: Any = None,
) -> Tensor:  # fmt: skip
    """``np.nanstd`` on Tensors."""
    return ops.sqrt(nanvar(a, axis, dtype, ddof, keepdims, where=where, mean=mean,
                           correction=correction))  # fmt: skip


def nanmax(
    a: Any, axis: Axis = None, keepdims: bool = False, initial: Any = None, where: Any = True
) -> Tensor:
    """``np.nanmax`` on Tensors (``where=`` needs ``initial=``, as in NumPy)."""
    _identity_for_where("fmax", where, initial)
    out = ops.nanmax(_nan_masked(a, where), axis=axis, keepdims=keepdims)
    return out if initial is None else ops.fmax(out, initial)


def nanmin(
    a: Any, axis: Axis = None, keepdims: bool = False, initial: Any = None, where: Any = True
) -> Tensor:
    """``np.nanmin`` on Tensors (``where=`` needs ``initial=``, as in NumPy)."""
    _identity_for_where("fmin", where, initial)
    out = ops.nanmin(_nan_masked(a, where), axis=axis, keepdims=keepdims)
    return out if initial is None else ops.fmin(out, initial)


def median(
    a: Any, axis: Axis = None, overwrite_input: bool = False, keepdims: bool = False
) -> Tensor:
    """``np.median`` on Tensors (``overwrite_input`` has nothing to overwrite)."""
    return ops.median(a, axis=axis, keepdims=keepdims)


def nanmedian(
    a: Any, axis: Axis = None, overwrite_input: bool = False, keepdims: bool = False
) -> Tensor:
    """``np.nanmedian`` on Tensors."""
    return ops.nanmedian(a, axis=axis, keepdims=keepdims)


def _quantile_function(op: Any, name: str) -> Any:
    def quantile(
        a: Any, q: Any, axis: Axis = None, overwrite_input: bool = False,
        method: str = "linear", keepdims: bool = False, *, weights: Any = None,
    ) -> Tensor:  # fmt: skip
        return op(a, q, axis=axis, method=method, keepdims=keepdims, weights=weights)

    quantile.__name__ = quantile.__qualname__ = name
    quantile.__doc__ = f"``np.{name}`` on Tensors (``weights`` with ``method='inverted_cdf'``)."
    return quantile


quantile = _quantile_function(ops.quantile, "quantile")
nanquantile = _quantile_function(ops.nanquantile, "nanquantile")
percentile = _quantile_function(ops.percentile, "percentile")
nanpercentile = _quantile_function(ops.nanpercentile, "nanpercentile")


def argmax(a: Any, axis: int | None = None, *, keepdims: bool = False) -> Tensor:
    """``np.argmax`` on Tensors (integer, no gradient)."""
    return ops.argmax(a, axis=axis, keepdims=keepdims)


def argmin(a: Any, axis: int | None = None, *, keepdims: bool = False) -> Tensor:
    """``np.argmin`` on Tensors (integer, no gradient)."""
    return ops.argmin(a, axis=axis, keepdims=keepdims)


def nanargmax(a: Any, axis: int | None = None, *, keepdims: bool = False) -> Tensor:
    """``np.nanargmax`` on Tensors (integer, no gradient)."""
    return ops.nanargmax(a, axis=axis, keepdims=keepdims)


def nanargmin(a: Any, axis: int | None = None, *, keepdims: bool = False) -> Tensor:
    """``np.nanargmin`` on Tensors (integer, no gradient)."""
    return ops.nanargmin(a, axis=axis, keepdims=keepdims)


def ptp(a: Any, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """``np.ptp`` on Tensors."""
    return ops.ptp(a, axis=axis, keepdims=keepdims)


def trace(a: Any, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
    """``np.trace`` on Tensors."""
    return ops.trace(a, offset, axis1, axis2, dtype=dtype)
