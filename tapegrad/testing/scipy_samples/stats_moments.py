"""scipy.stats's moment statistics: moment, skew, kurtosis, variation, gmean, hmean, pmean,
describe and pearsonr, one row per keyword option (tapegrad/scipy/stats/_moments.py).
"""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "stats.moment", "stats.skew", "stats.kurtosis", "stats.variation", "stats.gmean",
    "stats.hmean", "stats.pmean", "stats.describe", "stats.pearsonr",
]  # fmt: skip
ROWS: list[Sample] = [
    Sample("stats.moment", "order=3", lambda m, x, y: m.stats.moment(x, order=3)),
    Sample("stats.moment", "order=0", lambda m, x, y: m.stats.moment(x, 0) + y[0]),
    Sample(
        "stats.moment",
        "center, axis=1, keepdims",
        lambda m, x, y: m.stats.moment(x, 2, axis=1, center=0.5, keepdims=True),
    ),
    Sample(
        "stats.moment",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.moment(x, 4, axis=None, nan_policy="propagate"),
    ),
    Sample("stats.skew", "default", lambda m, x, y: m.stats.skew(x)),
    Sample(
        "stats.skew",
        "axis=1, bias=False, keepdims",
        lambda m, x, y: m.stats.skew(x, axis=1, bias=False, keepdims=True),
    ),
    Sample(
        "stats.skew",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.skew(x, axis=None, nan_policy="propagate"),
    ),
    Sample("stats.kurtosis", "default", lambda m, x, y: m.stats.kurtosis(x, axis=1)),
    Sample(
        "stats.kurtosis",
        "fisher=False, bias=False",
        lambda m, x, y: m.stats.kurtosis(x, axis=1, fisher=False, bias=False),
    ),
    Sample(
        "stats.kurtosis",
        "axis=None, keepdims, nan_policy='propagate'",
        lambda m, x, y: m.stats.kurtosis(x, axis=None, keepdims=True, nan_policy="propagate"),
    ),
    Sample("stats.variation", "default", lambda m, x, y: m.stats.variation(x)),
    Sample(
        "stats.variation",
        "axis=1, ddof=1, keepdims, nan_policy='propagate'",
        lambda m, x, y: m.stats.variation(x, axis=1, ddof=1, keepdims=True, nan_policy="propagate"),
    ),
    Sample("stats.gmean", "default", lambda m, x, y: m.stats.gmean(x)),
    Sample(
        "stats.gmean",
        "axis=1, weights, keepdims",
        lambda m, x, y: m.stats.gmean(x, axis=1, weights=y, keepdims=True),
    ),
    Sample(
        "stats.gmean",
        "axis=None, dtype=float64, nan_policy='propagate'",
        lambda m, x, y: m.stats.gmean(x, axis=None, dtype="float64", nan_policy="propagate"),
    ),
    Sample("stats.hmean", "default", lambda m, x, y: m.stats.hmean(x)),
    Sample(
        "stats.hmean",
        "axis=1, weights, keepdims, dtype=None",
        lambda m, x, y: m.stats.hmean(x, axis=1, dtype=None, weights=y, keepdims=True),
    ),
    Sample(
        "stats.hmean",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.hmean(x, axis=None, nan_policy="propagate"),
    ),
    Sample("stats.pmean", "p=2.5", lambda m, x, y: m.stats.pmean(x, 2.5)),
    Sample("stats.pmean", "p=0", lambda m, x, y: m.stats.pmean(x, 0, weights=y)),
    Sample(
        "stats.pmean",
        "p=-1.5, axis=1, weights, keepdims, dtype=None",
        lambda m, x, y: m.stats.pmean(x, -1.5, axis=1, dtype=None, weights=y, keepdims=True),
    ),
    Sample(
        "stats.pmean",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.pmean(x, 3.0, axis=None, nan_policy="propagate"),
    ),
    Sample("stats.describe", "mean", lambda m, x, y: m.stats.describe(x).mean),
    Sample("stats.describe", "minmax", lambda m, x, y: m.stats.describe(x).minmax[1]),
    Sample(
        "stats.describe",
        "variance, axis=1, ddof=0",
        lambda m, x, y: m.stats.describe(x, axis=1, ddof=0).variance,
    ),
    Sample(
        "stats.describe",
        "skewness, bias=False",
        lambda m, x, y: m.stats.describe(x, axis=1, bias=False).skewness,
    ),
    Sample(
        "stats.describe",
        "kurtosis, axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.describe(x, axis=None, nan_policy="propagate").kurtosis,
    ),
    Sample("stats.pearsonr", "statistic", lambda m, x, y: m.stats.pearsonr(x, y, axis=1).statistic),
    Sample(
        "stats.pearsonr",
        "pvalue, alternative='two-sided'",
        lambda m, x, y: m.stats.pearsonr(x, y, alternative="two-sided", axis=1).pvalue,
    ),
    Sample(
        "stats.pearsonr",
        "pvalue, alternative='less', axis=None",
        lambda m, x, y: m.stats.pearsonr(x, y, alternative="less", axis=None).pvalue,
    ),
    Sample(
        "stats.pearsonr",
        "pvalue, alternative='greater', axis=0",
        lambda m, x, y: m.stats.pearsonr(x, y, alternative="greater", axis=0).pvalue,
    ),
]
REFUSALS: list[Refusal] = [
    Refusal(
        "stats.skew",
        "nan_policy='omit'",
        lambda m, x, y: m.stats.skew(x, nan_policy="omit"),
        NotImplementedError,
    ),
    Refusal(
        "stats.pearsonr",
        "method=PermutationMethod",
        lambda m, x, y: m.stats.pearsonr(
            x, y, method=__import__("scipy.stats").stats.PermutationMethod()
        ),
        NotImplementedError,
    ),
]
