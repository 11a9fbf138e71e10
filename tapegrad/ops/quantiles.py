"""Quantiles and medians: quantile percentile median nanquantile nanpercentile nanmedian.

The sample sorted along the reduced axes (a gather) and the neighbours of each
quantile's position interpolated as NumPy does for each ``method``: differentiable to
any order in the sample (and in ``q`` for the continuous methods). Where a slice holds
NaN the result is NaN (the nan* variants skip NaN instead).

Complex samples: the quantiles refuse them, as NumPy's do; the medians compute NumPy's
(the mean of the lexicographically middle values) but, like ``max``, have no complex
gradient: recording one on a complex sample raises TypeError.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.sweep_raw import passthrough
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.ops.primitive import Primitive, normalize_axis, shape_of
from tapegrad.ops.rule_helpers import is_complex, is_floating, placed, result_dtype

ArrayLike = Any
Axis = int | tuple[int, ...] | None


# method -> (alpha, beta) of Hyndman and Fan's continuous estimators (NumPy's names)
_CONTINUOUS = {
    "linear": (1.0, 1.0),
    "interpolated_inverted_cdf": (0.0, 1.0),
    "hazen": (0.5, 0.5),
    "weibull": (0.0, 0.0),
    "median_unbiased": (1 / 3, 1 / 3),
    "normal_unbiased": (3 / 8, 3 / 8),
}
_ORDER_STATISTIC = ("lower", "higher", "nearest", "inverted_cdf", "closest_observation")
_DISCRETE = (*_ORDER_STATISTIC, "midpoint", "averaged_inverted_cdf")


def _virtual_index(n: Any, q: Any, method: str) -> Any:
    """Where quantile ``q`` lies in a sorted sample of ``n`` (NumPy's definitions); works on
    host arrays and, for the continuous methods, on Tensors (q's gradient)."""
    if method == "linear":  # (n - 1) q, as NumPy writes it
        return (n - 1) * q
    alpha, beta = _CONTINUOUS[method]
    return n * q + (alpha + q * (1 - alpha - beta)) - 1


def _neighbours(n: np.ndarray, q: np.ndarray, method: str) -> tuple[Any, Any, Any]:
    """Host arrays (lower index, upper index, weight of the upper) for each (q, slice)."""
    if method in _CONTINUOUS:
        v = _virtual_index(n, q, method)
        lower = np.floor(v)
        weight = v - lower
        # beyond either end both neighbours are that end (the weight then does not matter)
        lower = np.where(v >= n - 1, n - 1, np.where(v < 0, 0, lower))
        upper = np.where(v >= n - 1, n - 1, np.where(v < 0, 0, lower + 1))
        return lower.astype(np.intp), upper.astype(np.intp), weight
    v = (n - 1) * q
    if method == "lower":
        index = np.floor(v)
    elif method == "higher":
        index = np.ceil(v)
    elif method == "nearest":
        index = np.around(v)
    elif method == "midpoint":
        lower, upper = np.floor(v), np.ceil(v)
        return lower.astype(np.intp), upper.astype(np.intp), np.where(lower == upper, 0.0, 0.5)
    elif method == "averaged_inverted_cdf":
        v = n * q - 1
        lower = np.floor(v)
        weight = np.where(v - lower == 0, 0.5, 1.0)
        upper = np.clip(lower + 1, 0, n - 1)
        lower = np.clip(lower, 0, n - 1)
        return lower.astype(np.intp), upper.astype(np.intp), weight
    else:  # inverted_cdf, closest_observation: one order statistic
        v = n * q - 1 - (0.5 if method == "closest_observation" else 0.0)
        below = np.floor(v)
        at_boundary = v - below == 0
        if method == "closest_observation":
            at_boundary &= below % 2 == 1
        index = np.clip(np.where(at_boundary, below, below + 1), 0, None)
    index = np.clip(index, 0, n - 1).astype(np.intp)
    return index, index, np.zeros(np.shape(index))


def _weighted_index(
    weights: Any, data: np.ndarray, missing: np.ndarray, n: np.ndarray, qs: np.ndarray,
    shape: tuple[int, ...], axes: tuple[int, ...], kept: list[int], op: str,
) -> np.ndarray:  # fmt: skip
    """Host indices into each sorted slice of NumPy's weighted ``inverted_cdf``: the first
    order statistic whose cumulative weight reaches ``q`` of the slice's total (``weights``
    of ``x``'s shape, or of its shape along ``axes``; weights at NaN count 0 in the nan*
    variants, where ``missing`` marks them, and are otherwise kept as NumPy keeps them)."""
    w = np.asarray(host_value(weights, f"numpy.{op}()"))
    if w.shape != shape:
        if w.shape != tuple(shape[d] for d in axes):
            raise ValueError(
                f"{op}: the shape of weights must be that of a, or that of a along axis"
            )
        w = np.transpose(w, np.argsort(axes)).reshape(
            tuple(m if d in axes else 1 for d, m in enumerate(shape))
        )
    if np.any(w < 0):
        raise ValueError(f"{op}: weights must be non-negative")
    w = np.broadcast_to(w, shape).transpose((*kept, *axes)).reshape(data.shape)
    w = np.where(missing, 0, w)
    order = np.argsort(data, axis=-1)  # NaN last, as ops.sort orders them
    cdf = np.cumsum(np.take_along_axis(w, order, axis=-1), axis=-1, dtype=np.float64)
    total = cdf[..., -1:]
    if np.any((total == 0) & (n[..., None] > 0)) or not np.all(np.isfinite(total)):
        raise ValueError(f"{op}: weights included NaN, inf or were all zero")
    cdf = (cdf / np.where(total == 0, 1, total)).astype(qs.dtype)
    cdf[cdf == 0] = -1  # leading zero weights: q = 0 picks the first weighted element
    # NumPy's searchsorted(cdf, q, side="left"): the count of cdf values below q
    index = np.sum(cdf < qs[..., None], axis=-1)
    return np.clip(index, 0, np.maximum(n - 1, 0)).astype(np.intp)


def _lerp(a: Any, b: Any, t: Any, upper_half: np.ndarray) -> Any:
    """NumPy's lerp: ``a + (b - a) t``, from ``b``'s side where ``t >= 0.5`` (exact ends)."""
    difference = b - a
    return ops.where(upper_half, b - difference * (1 - t), a + difference * t)


def _quantile(
    x: ArrayLike, q: Any, axis: Axis, method: str, keepdims: bool, ignore_nan: bool, op: str,
    weights: Any = None,
) -> Tensor:  # fmt: skip
    if method not in _CONTINUOUS and method not in _DISCRETE:
        raise ValueError(f"{op}: {method!r} is not a valid method")
    if weights is not None and method != "inverted_cdf":
        raise ValueError(f"{op}: only method 'inverted_cdf' supports weights (got {method!r})")
    if weights is not None and axis is None and shape_of(weights) != shape_of(x):
        raise TypeError(f"{op}: axis must be given when the shapes of a and weights differ")
    if is_complex(x):
        raise TypeError(f"{op}: a must be an array of real numbers (as NumPy's {op})")
    q_host = np.asarray(host_value(q, f"numpy.{op}()"))
    if q_host.dtype.kind != "f":  # positions are computed in q's precision, as in NumPy
        q_host = q_host.astype(np.float64)
    if np.any((q_host < 0) | (q_host > 1)):
        raise ValueError(f"{op}: quantiles must be in the range [0, 1]")
    shape = shape_of(x)
    axes = normalize_axis(axis, len(shape), op)
    kept = [d for d in range(len(shape)) if d not in axes]
    kept_shape = tuple(shape[d] for d in kept)
    # the reduced axes flattened into one last axis, sorted (NaN last)
    flat = ops.reshape(ops.transpose(x, (*kept, *axes)), (*kept_shape, -1))
    ordered = ops.sort(flat, axis=-1)
    data = np.asarray(host_value(flat, f"numpy.{op}()"))
    missing = np.isnan(data) if data.dtype.kind in "fc" else np.zeros(data.shape, bool)
    # n in q's precision (NumPy's is a Python int, which keeps a float32 q float32)
    n = ((~missing).sum(axis=-1) if ignore_nan else np.full(kept_shape, data.shape[-1])).astype(
        q_host.dtype
    )
    qs = q_host.reshape(q_host.shape + (1,) * len(kept_shape))
    if weights is None:
        lower, upper, weight = _neighbours(n, qs, method)
    else:  # inverted_cdf of the weighted sample: one order statistic (no weight gradient)
        lower = upper = _weighted_index(
            weights, data, missing & ignore_nan, n, qs, shape, axes, kept, op
        )
        weight = np.zeros(lower.shape)
    out_shape = q_host.shape + kept_shape
    lower, upper = (np.broadcast_to(np.maximum(i, 0), out_shape) for i in (lower, upper))
    expanded = ops.reshape(ordered, (1,) * q_host.ndim + shape_of(ordered))
    a = ops.take_along_axis(expanded, lower[..., None], axis=-1)[..., 0]
    if method in _ORDER_STATISTIC:  # one element: no interpolation, x's dtype
        out = a
    else:
        b = ops.take_along_axis(expanded, upper[..., None], axis=-1)[..., 0]
        dtype = result_dtype(x, q)
        if dtype.kind not in "fc":
            dtype = np.dtype(np.float64)
        a, b = ops.astype(a, dtype), ops.astype(b, dtype)
        if isinstance(q, Tensor) and method in _CONTINUOUS:  # the weight as a function of q
            q_shaped = ops.reshape(q, qs.shape)
            v = _virtual_index(ops.asarray(n.astype(dtype), like=x), q_shaped, method)
            t = v - placed(np.floor(_virtual_index(n, qs, method)).astype(dtype), x)
        else:
            t = placed(np.broadcast_to(weight, out_shape).astype(dtype), x)
        out = _lerp(a, b, t, placed(np.broadcast_to(weight >= 0.5, out_shape), x))
    empty = n == 0 if ignore_nan else missing.any(axis=-1)
    if np.any(empty):
        out = ops.where(placed(np.broadcast_to(empty, out_shape), x), math.nan, out)
    if keepdims:
        reduced = tuple(1 if d in axes else m for d, m in enumerate(shape))
        out = ops.reshape(out, q_host.shape + reduced)
    return out


def quantile(
    x: ArrayLike, q: ArrayLike, axis: Axis = None, method: str = "linear", keepdims: bool = False,
    *, weights: ArrayLike = None,
) -> Tensor:  # fmt: skip
    """The ``q``-th quantiles (``0 <= q <= 1``) along ``axis``, by NumPy's ``method``s;
    differentiable in ``x`` (and in ``q`` for the continuous methods). A slice holding
    NaN gives NaN, as in NumPy. ``weights`` (``x``'s shape, or its shape along ``axis``;
    only with ``method="inverted_cdf"``, as in NumPy) weigh the sample: the result is an
    order statistic, piecewise constant in the weights (their gradient is 0).

    >>> import tapegrad as tg
    >>> tg.quantile(tg.tensor([1.0, 2.0, 3.0, 4.0]), 0.5).item()
    2.5
    """
    return _quantile(x, q, axis, method, keepdims, False, "quantile", weights)


def nanquantile(
    x: ArrayLike, q: ArrayLike, axis: Axis = None, method: str = "linear", keepdims: bool = False,
    *, weights: ArrayLike = None,
) -> Tensor:  # fmt: skip
    """:func:`quantile` of the non-NaN elements (NaN for an all-NaN slice).

    >>> import tapegrad as tg
    >>> tg.nanquantile(tg.tensor([1.0, float("nan"), 3.0]), 0.5)
    tensor(2., dtype=float64)
    """
    return _quantile(x, q, axis, method, keepdims, True, "nanquantile", weights)


def percentile(
    x: ArrayLike, q: ArrayLike, axis: Axis = None, method: str = "linear", keepdims: bool = False,
    *, weights: ArrayLike = None,
) -> Tensor:  # fmt: skip
    """The ``q``-th percentiles (``0 <= q <= 100``): :func:`quantile` of ``q / 100``.

    >>> import tapegrad as tg
    >>> tg.percentile(tg.tensor([1.0, 2.0, 4.0]), 50)
    tensor(2., dtype=float64)
    >>> tg.grad(lambda x: tg.percentile(x, 50))(tg.tensor([1.0, 2.0, 4.0]))
    tensor([0., 1., 0.], dtype=float64)
    """
    return _quantile(x, _hundredths(q), axis, method, keepdims, False, "percentile", weights)


def nanpercentile(
    x: ArrayLike, q: ArrayLike, axis: Axis = None, method: str = "linear", keepdims: bool = False,
    *, weights: ArrayLike = None,
) -> Tensor:  # fmt: skip
    """:func:`percentile` of the non-NaN elements.

    >>> import tapegrad as tg
    >>> tg.nanpercentile(tg.tensor([1.0, float("nan"), 3.0]), 50)
    tensor(2., dtype=float64)
    """
    return _quantile(x, _hundredths(q), axis, method, keepdims, True, "nanpercentile", weights)


def _hundredths(q: Any) -> Any:
    return q / 100 if isinstance(q, Tensor) else np.true_divide(q, 100)


def _median(x: ArrayLike, axis: Axis, keepdims: bool, ignore_nan: bool, op: str) -> Tensor:
    # The mean of the middle one or two elements, as NumPy computes it.
    shape = shape_of(x)
    axes = normalize_axis(axis, len(shape), op)
    kept = [d for d in range(len(shape)) if d not in axes]
    kept_shape = tuple(shape[d] for d in kept)
    flat = ops.reshape(ops.transpose(x, (*kept, *axes)), (*kept_shape, -1))
    if not is_floating(flat):
        flat = ops.astype(flat, np.float64)
    elif is_complex(flat):
        flat = _COMPLEX_MEDIANS[op](flat)
    ordered = ops.sort(flat, axis=-1)
    data = np.asarray(host_value(flat, f"numpy.{op}()"))
    missing = np.isnan(data)
    n = (~missing).sum(axis=-1) if ignore_nan else np.full(kept_shape, data.shape[-1])
    middle = [np.maximum((n - 1) // 2, 0), np.maximum(n // 2, 0)]
    pair = [ops.take_along_axis(ordered, i[..., None], axis=-1)[..., 0] for i in middle]
    out = ops.mean(ops.stack(pair), axis=0)
    empty = n == 0 if ignore_nan else missing.any(axis=-1)
    if np.any(empty):
        out = ops.where(placed(np.broadcast_to(empty, shape_of(out)), x), math.nan, out)
    if keepdims:
        out = ops.reshape(out, tuple(1 if d in axes else m for d, m in enumerate(shape)))
    return out


# The identity, declared real-only: it makes a median of watched complex values raise
# record()'s TypeError (a lexicographic order statistic, as max is), and costs real
# samples nothing (they skip it).
_COMPLEX_MEDIANS = {
    op: Primitive(op, lambda xp, x: x, complex_rules=False).defvjp(passthrough)
    for op in ("median", "nanmedian")
}


def median(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """The median along ``axis`` (the mean of the two middle values for an even count).

    >>> import tapegrad as tg
    >>> tg.median(tg.tensor([3.0, 1.0, 4.0, 2.0])).item()
    2.5
    """
    return _median(x, axis, keepdims, False, "median")


def nanmedian(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """The median of the non-NaN elements (NaN for an all-NaN slice).

    >>> import tapegrad as tg
    >>> tg.nanmedian(tg.tensor([1.0, float("nan"), 3.0]))
    tensor(2., dtype=float64)
    >>> tg.grad(tg.nanmedian)(tg.tensor([1.0, float("nan"), 3.0]))  # 0 at the NaN
    tensor([0.5, 0. , 0.5], dtype=float64)
    """
    return _median(x, axis, keepdims, True, "nanmedian")
