"""Reductions, cumulative functions and differences: axis, keepdims, where=, initial=, ddof,
weights, methods of quantiles; n, prepend/append, edge_order, spacing, period."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import MASK, Sample, X

# Where holes() keeps x (NaN elsewhere): every row and column keeps two elements or more,
# so the nan* variances and deviations of each slice are positive. WHERE: the where= mask
# the nan* rows add on top, which leaves two or more in every row.
KEEP = ~np.array([[0, 1, 0, 0], [0, 0, 1, 1], [1, 0, 0, 0]], bool)
WHERE = ~np.array([[0, 0, 0, 1], [0, 0, 0, 0], [0, 1, 0, 0]], bool)


def holes(m: Any, x: Any) -> Any:
    """``x`` with NaN where KEEP is false: what the nan* reductions skip."""
    return m.where(KEEP, x, np.nan)


def near_zero(x: Any, y: Any) -> Any:
    """Small values (``x - X`` is 0 at the sample, ``1e-5 y`` about 5e-6) whose float32 cast
    is exact to ~1e-12: central differences through a ``dtype=np.float32`` reduction stay
    accurate (in x; in y to the absolute tolerance), where on ``x`` itself float32 rounding
    (~6e-8 at 0.5) over the step 1e-6 would be a 3% error."""
    return (x - X) + 1e-5 * y


ROWS: list[Sample] = [
    Sample("sum", "axis=None", lambda m, x, y: m.sum(x * y)),
    Sample("sum", "axis=0", lambda m, x, y: m.sum(x * y, axis=0)),
    Sample("sum", "axis=(0, 1), keepdims", lambda m, x, y: m.sum(x, axis=(0, 1), keepdims=True)),
    Sample("sum", "axis=-1, keepdims", lambda m, x, y: m.sum(x * y, axis=-1, keepdims=True)),
    Sample("sum", "where=", lambda m, x, y: m.sum(x * y, axis=1, where=MASK)),
    Sample("sum", "initial=", lambda m, x, y: m.sum(x, axis=0, initial=2.5)),
    Sample("prod", "axis=1", lambda m, x, y: m.prod(x, axis=1)),
    Sample("prod", "keepdims", lambda m, x, y: m.prod(x, axis=0, keepdims=True)),
    Sample("prod", "where=", lambda m, x, y: m.prod(x, axis=1, where=MASK)),
    Sample("prod", "initial=", lambda m, x, y: m.prod(x, initial=0.5)),
    Sample("mean", "axis=None", lambda m, x, y: m.mean(x * y)),
    Sample("mean", "axis=0, keepdims", lambda m, x, y: m.mean(x, axis=0, keepdims=True)),
    Sample("mean", "where=", lambda m, x, y: m.mean(x, axis=1, where=MASK)),
    Sample("max", "axis=None", lambda m, x, y: m.max(x + y), twice=False),
    Sample("max", "axis=1, keepdims", lambda m, x, y: m.max(x, axis=1, keepdims=True), False),
    Sample(
        "max", "where=, initial=", lambda m, x, y: m.max(x, axis=1, where=MASK, initial=0.0), False
    ),  # fmt: skip
    Sample("min", "axis=0", lambda m, x, y: m.min(x * y, axis=0), twice=False),
    Sample(
        "min", "where=, initial=", lambda m, x, y: m.min(x, axis=0, where=MASK, initial=1.0), False
    ),  # fmt: skip
    Sample("var", "ddof=0", lambda m, x, y: m.var(x * y)),
    Sample("var", "axis=1, ddof=1", lambda m, x, y: m.var(x, axis=1, ddof=1)),
    Sample("var", "keepdims", lambda m, x, y: m.var(x, axis=0, keepdims=True)),
    Sample("var", "where=", lambda m, x, y: m.var(x, axis=1, where=MASK)),
    Sample("std", "axis=0, ddof=1", lambda m, x, y: m.std(x, axis=0, ddof=1)),
    Sample("std", "keepdims", lambda m, x, y: m.std(x * y, axis=1, keepdims=True)),
    Sample("nansum", "axis=1", lambda m, x, y: m.nansum(x * y, axis=1)),
    Sample("nanmean", "axis=0, keepdims", lambda m, x, y: m.nanmean(x, axis=0, keepdims=True)),
    Sample("nanvar", "ddof=1", lambda m, x, y: m.nanvar(x, axis=1, ddof=1)),
    Sample("average", "weights", lambda m, x, y: m.average(x, axis=1, weights=y)),
    Sample(
        "average",
        "weights, keepdims",
        lambda m, x, y: m.average(x, axis=0, weights=y, keepdims=True),
    ),  # fmt: skip
    Sample(
        "average", "returned", lambda m, x, y: m.average(x, axis=0, weights=y, returned=True)[0]
    ),  # fmt: skip
    Sample("ptp", "axis=1", lambda m, x, y: m.ptp(x * y, axis=1), twice=False),
    Sample("median", "axis=0", lambda m, x, y: m.median(x, axis=0), twice=False),
    Sample("median", "keepdims", lambda m, x, y: m.median(x, axis=1, keepdims=True), False),
    Sample("quantile", "method=linear", lambda m, x, y: m.quantile(x, 0.3, axis=1), False),
    Sample(
        "quantile",
        "method=nearest",
        lambda m, x, y: m.quantile(x, 0.3, axis=1, method="nearest"),
        False,
    ),  # fmt: skip
    Sample(
        "quantile",
        "method=midpoint",
        lambda m, x, y: m.quantile(x, 0.4, axis=0, method="midpoint"),
        False,
    ),  # fmt: skip
    Sample(
        "percentile", "keepdims", lambda m, x, y: m.percentile(x, 70, axis=1, keepdims=True), False
    ),  # fmt: skip
    Sample("cumsum", "axis=0", lambda m, x, y: m.cumsum(x * y, axis=0)),
    Sample("cumprod", "axis=None", lambda m, x, y: m.cumprod(x)),
    Sample("diff", "n=2, axis=0", lambda m, x, y: m.diff(x * y, n=2, axis=0)),
    Sample(
        "diff", "prepend, append", lambda m, x, y: m.diff(x, axis=1, prepend=y[:, :1], append=0.5)
    ),  # fmt: skip
    Sample("gradient", "axis=1", lambda m, x, y: m.gradient(x * y, axis=1)),
    Sample("gradient", "edge_order=2", lambda m, x, y: m.gradient(x, axis=1, edge_order=2)),
    Sample("gradient", "spacing", lambda m, x, y: m.gradient(x[0] * y[0], 0.5)),
    Sample("unwrap", "period", lambda m, x, y: m.unwrap(x * 10.0, period=3.0, axis=1), False),
    Sample("trapezoid", "dx, axis", lambda m, x, y: m.trapezoid(x * y, dx=0.3, axis=0)),
    Sample("trapezoid", "x=", lambda m, x, y: m.trapezoid(x[0] * y[0], x=m.cumsum(y[1]))),
    # dtype=: a float64 accumulator on float64 input, and casts NumPy makes before reducing
    Sample("sum", "dtype=float64", lambda m, x, y: m.sum(x * y, axis=1, dtype=np.float64)),
    Sample(
        "sum", "dtype=float32", lambda m, x, y: m.sum(near_zero(x, y), axis=0, dtype=np.float32)
    ),  # fmt: skip
    Sample("sum", "dtype=complex128", lambda m, x, y: m.sum(x * y, axis=0, dtype=np.complex128)),
    Sample("mean", "dtype=float64", lambda m, x, y: m.mean(x * y, axis=0, dtype=np.float64)),
    Sample(
        "mean", "dtype=float32", lambda m, x, y: m.mean(near_zero(x, y), axis=1, dtype=np.float32)
    ),  # fmt: skip
    Sample("cumsum", "dtype=float64", lambda m, x, y: m.cumsum(x * y, axis=1, dtype=np.float64)),
    Sample(
        "cumsum", "dtype=float32", lambda m, x, y: m.cumsum(near_zero(x, y), axis=0, dtype="f4")
    ),  # fmt: skip
    # amax/amin: NumPy's other names of max/min
    Sample("amax", "axis=1, keepdims", lambda m, x, y: m.amax(x * y, axis=1, keepdims=True), False),
    Sample(
        "amax",
        "where=, initial=",
        lambda m, x, y: m.amax(x, axis=0, where=MASK, initial=0.4),
        False,
    ),  # fmt: skip
    Sample(
        "amin", "axis=0, keepdims", lambda m, x, y: m.amin(x + y, axis=0, keepdims=True), False
    ),  # fmt: skip
    Sample(
        "amin",
        "where=, initial=",
        lambda m, x, y: m.amin(x, axis=1, where=MASK, initial=0.5),
        False,
    ),  # fmt: skip
    Sample("min", "axis=1, keepdims", lambda m, x, y: m.min(x * y, axis=1, keepdims=True), False),
    Sample("ptp", "axis=0, keepdims", lambda m, x, y: m.ptp(x + y, axis=0, keepdims=True), False),
    # var/std: where=, mean= (NumPy 2's precomputed mean, keepdims shape), correction= (ddof)
    Sample("var", "mean=", lambda m, x, y: m.var(x, axis=1, mean=m.mean(x, 1, keepdims=True))),
    Sample(
        "var", "mean= (not the mean), ddof", lambda m, x, y: m.var(x, axis=0, ddof=1, mean=y[:1])
    ),  # fmt: skip
    Sample("var", "correction=", lambda m, x, y: m.var(x * y, axis=0, correction=1)),
    Sample("std", "where=", lambda m, x, y: m.std(x * y, axis=1, where=MASK)),
    Sample(
        "std", "mean=, keepdims", lambda m, x, y: m.std(x, axis=0, mean=y[1:2], keepdims=True)
    ),  # fmt: skip
    Sample("std", "correction=", lambda m, x, y: m.std(x, axis=1, correction=2)),
    # nan*: NaN where KEEP is false, skipped (zero gradient there)
    Sample(
        "nansum",
        "NaN, axis=0, keepdims",
        lambda m, x, y: m.nansum(holes(m, x) * y, axis=0, keepdims=True),
    ),
    Sample("nansum", "where=", lambda m, x, y: m.nansum(holes(m, x), axis=1, where=WHERE)),
    Sample(
        "nansum", "NaN, initial=", lambda m, x, y: m.nansum(holes(m, x * y), axis=1, initial=1.5)
    ),
    Sample(
        "nanprod",
        "NaN, axis=1, keepdims",
        lambda m, x, y: m.nanprod(holes(m, x), axis=1, keepdims=True),
    ),
    Sample("nanprod", "where=", lambda m, x, y: m.nanprod(holes(m, x + y), axis=0, where=WHERE)),
    Sample("nanprod", "NaN, initial=", lambda m, x, y: m.nanprod(holes(m, x), axis=0, initial=2.0)),
    Sample("nanmean", "where=", lambda m, x, y: m.nanmean(holes(m, x * y), axis=0, where=WHERE)),
    Sample("nanmean", "NaN, axis=1", lambda m, x, y: m.nanmean(holes(m, x + y), axis=1)),
    Sample(
        "nanmax",
        "NaN, axis=1, keepdims",
        lambda m, x, y: m.nanmax(holes(m, x * y), axis=1, keepdims=True),
        False,
    ),
    Sample(
        "nanmax",
        "where=, initial=",
        lambda m, x, y: m.nanmax(holes(m, x), axis=0, where=WHERE, initial=0.35),
        False,
    ),
    Sample(
        "nanmin",
        "NaN, axis=0, keepdims",
        lambda m, x, y: m.nanmin(holes(m, x + y), axis=0, keepdims=True),
        False,
    ),
    Sample(
        "nanmin",
        "where=, initial=",
        lambda m, x, y: m.nanmin(holes(m, x), axis=1, where=WHERE, initial=0.7),
        False,
    ),
    Sample(
        "nanvar",
        "NaN, axis=0, keepdims",
        lambda m, x, y: m.nanvar(holes(m, x * y), axis=0, keepdims=True),
    ),
    Sample("nanvar", "where=", lambda m, x, y: m.nanvar(holes(m, x), axis=1, where=WHERE)),
    Sample("nanvar", "NaN, mean=", lambda m, x, y: m.nanvar(holes(m, x), axis=1, mean=y[:, :1])),
    Sample(
        "nanvar",
        "NaN, correction=",
        lambda m, x, y: m.nanvar(holes(m, x + y), axis=0, correction=0.5),
    ),
    Sample("nanstd", "NaN, ddof=1", lambda m, x, y: m.nanstd(holes(m, x), axis=0, ddof=1)),
    Sample(
        "nanstd", "NaN, keepdims", lambda m, x, y: m.nanstd(holes(m, x * y), axis=1, keepdims=True)
    ),
    Sample("nanstd", "where=", lambda m, x, y: m.nanstd(holes(m, x), axis=1, where=WHERE)),
    Sample(
        "nanstd",
        "NaN, mean=",
        lambda m, x, y: m.nanstd(
            holes(m, x), axis=0, mean=m.nanmean(holes(m, y), 0, keepdims=True)
        ),
    ),
    Sample(
        "nanstd", "NaN, correction=", lambda m, x, y: m.nanstd(holes(m, x), axis=1, correction=1)
    ),
    Sample(
        "nanmedian",
        "NaN, axis=1, keepdims",
        lambda m, x, y: m.nanmedian(holes(m, x * y), axis=1, keepdims=True),
        False,
    ),
    # quantiles: one row per method (the order statistics are gathers: twice=False)
    Sample(
        "quantile",
        "method=lower",
        lambda m, x, y: m.quantile(x, [0.3, 0.8], axis=1, method="lower"),
        False,
    ),
    Sample(
        "quantile",
        "method=higher",
        lambda m, x, y: m.quantile(x, [0.3, 0.8], axis=1, method="higher"),
        False,
    ),
    Sample(
        "quantile",
        "method=inverted_cdf",
        lambda m, x, y: m.quantile(x, [0.3, 0.8], axis=1, method="inverted_cdf"),
        False,
    ),
    Sample(
        "quantile",
        "method=averaged_inverted_cdf",
        lambda m, x, y: m.quantile(x, [0.3, 0.5], axis=1, method="averaged_inverted_cdf"),
        False,
    ),
    Sample(
        "quantile",
        "method=closest_observation",
        lambda m, x, y: m.quantile(x, [0.3, 0.8], axis=1, method="closest_observation"),
        False,
    ),
    Sample(
        "quantile",
        "method=interpolated_inverted_cdf",
        lambda m, x, y: m.quantile(x, [0.3, 0.8], axis=1, method="interpolated_inverted_cdf"),
    ),
    Sample(
        "quantile",
        "method=hazen",
        lambda m, x, y: m.quantile(x, [0.3, 0.8], axis=0, method="hazen"),
    ),
    Sample(
        "quantile",
        "method=weibull",
        lambda m, x, y: m.quantile(x, [0.3, 0.7], axis=1, method="weibull"),
    ),
    Sample(
        "quantile",
        "method=median_unbiased",
        lambda m, x, y: m.quantile(x * y, [0.3, 0.8], axis=1, method="median_unbiased"),
    ),
    Sample(
        "quantile",
        "method=normal_unbiased",
        lambda m, x, y: m.quantile(x, [0.3, 0.8], axis=0, method="normal_unbiased"),
    ),
    Sample(
        "quantile",
        "method=linear (continuous in x)",
        lambda m, x, y: m.quantile(x + y, 0.3, axis=1, method="linear"),
    ),
    Sample(
        "quantile",
        "weights (a's shape), inverted_cdf",
        lambda m, x, y: m.quantile(x, [0.2, 0.6], axis=1, method="inverted_cdf", weights=y),
        False,
    ),
    Sample(
        "quantile",
        "weights (1-d along axis)",
        lambda m, x, y: m.quantile(
            x, 0.45, axis=0, method="inverted_cdf", weights=[1.0, 3.0, 2.0], keepdims=True
        ),
        False,
    ),
    Sample(
        "quantile",
        "weights, axis=None",
        lambda m, x, y: m.quantile(x * y, [0.0, 0.5, 1.0], method="inverted_cdf", weights=X),
        False,
    ),
    Sample(
        "percentile",
        "method=weibull",
        lambda m, x, y: m.percentile(x, [20.0, 75.0], axis=1, method="weibull"),
    ),
    Sample(
        "percentile",
        "method=lower",
        lambda m, x, y: m.percentile(x * y, 40.0, axis=0, method="lower"),
        False,
    ),
    Sample(
        "percentile",
        "weights, inverted_cdf",
        lambda m, x, y: m.percentile(x, [30.0, 65.0], axis=1, method="inverted_cdf", weights=y),
        False,
    ),
    Sample(
        "nanquantile",
        "NaN, axis=1, method=hazen, keepdims",
        lambda m, x, y: m.nanquantile(
            holes(m, x), [0.3, 0.6], axis=1, method="hazen", keepdims=True
        ),
    ),
    Sample(
        "nanquantile",
        "NaN, axis=0, method=higher",
        lambda m, x, y: m.nanquantile(holes(m, x * y), 0.7, axis=0, method="higher"),
        False,
    ),
    Sample(
        "nanquantile",
        "NaN, weights, inverted_cdf",
        lambda m, x, y: m.nanquantile(
            holes(m, x), [0.3, 0.8], axis=1, method="inverted_cdf", weights=y
        ),
        False,
    ),
    Sample(
        "nanpercentile",
        "NaN, method=midpoint, keepdims",
        lambda m, x, y: m.nanpercentile(
            holes(m, x), 40.0, axis=0, method="midpoint", keepdims=True
        ),
        False,
    ),
    Sample(
        "nanpercentile",
        "NaN, weights, inverted_cdf",
        lambda m, x, y: m.nanpercentile(
            holes(m, x + y), [25.0, 90.0], axis=0, method="inverted_cdf", weights=y * y
        ),
        False,
    ),
    # the array API's cumulative functions
    Sample("cumulative_sum", "axis=1", lambda m, x, y: m.cumulative_sum(x * y, axis=1)),
    Sample(
        "cumulative_sum",
        "axis=0, include_initial",
        lambda m, x, y: m.cumulative_sum(x, axis=0, include_initial=True),
    ),
    Sample(
        "cumulative_prod",
        "axis=1, include_initial",
        lambda m, x, y: m.cumulative_prod(x + y, axis=1, include_initial=True),
    ),
    Sample(
        "bincount",
        "weights, minlength",
        lambda m, x, y: m.bincount([3, 0, 3, 1], weights=x[1] * y[1], minlength=6),
    ),
    # cov/corrcoef: variables in rows or (rowvar=False) in columns, y joined as more variables
    Sample("cov", "y=, rowvar=False", lambda m, x, y: m.cov(x, y=y, rowvar=False)),
    Sample("cov", "bias", lambda m, x, y: m.cov(x * y, bias=True)),
    Sample("cov", "ddof=2", lambda m, x, y: m.cov(x, y[:1], ddof=2)),
    Sample("cov", "fweights", lambda m, x, y: m.cov(x, fweights=[1, 3, 2, 1])),
    Sample("cov", "aweights", lambda m, x, y: m.cov(x, aweights=y[0])),
    Sample(
        "cov",
        "fweights, aweights, ddof=0",
        lambda m, x, y: m.cov(
            x.T, rowvar=False, fweights=[2, 1, 1, 3], aweights=y[1] + 0.5, ddof=0
        ),
    ),
    Sample("corrcoef", "y=, rowvar=False", lambda m, x, y: m.corrcoef(x, y=y, rowvar=False)),
    Sample("corrcoef", "rowvar=True", lambda m, x, y: m.corrcoef(x + y, rowvar=True)),
]
