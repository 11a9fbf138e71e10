"""Reductions, cumulative functions and differences: axis, keepdims, where=, initial=, ddof,
weights, methods of quantiles; n, prepend/append, edge_order, spacing, period."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import MASK, Sample

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
]
