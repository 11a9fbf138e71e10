"""scipy.stats's statistics of samples: zscore, sem and entropy, one row per keyword option
(tapegrad/scipy/stats/_statistics.py).
"""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = ["stats.zscore", "stats.sem", "stats.entropy"]

ROWS: list[Sample] = [
    Sample("stats.zscore", "default", lambda m, x, y: m.stats.zscore(x)),
    Sample("stats.zscore", "axis=1, ddof=1", lambda m, x, y: m.stats.zscore(x, axis=1, ddof=1)),
    Sample("stats.zscore", "axis=None", lambda m, x, y: m.stats.zscore(x, axis=None)),
    Sample(
        "stats.zscore",
        "nan_policy='propagate'",
        lambda m, x, y: m.stats.zscore(x, nan_policy="propagate"),
    ),
    Sample(
        "stats.zscore",
        "nan_policy='omit'",
        lambda m, x, y: m.stats.zscore(x, axis=1, nan_policy="omit"),
    ),
    Sample("stats.sem", "default", lambda m, x, y: m.stats.sem(x)),
    Sample("stats.sem", "axis=1, ddof=0", lambda m, x, y: m.stats.sem(x, axis=1, ddof=0)),
    Sample(
        "stats.sem", "axis=None, keepdims", lambda m, x, y: m.stats.sem(x, axis=None, keepdims=True)
    ),
    Sample("stats.sem", "keepdims=True", lambda m, x, y: m.stats.sem(x, keepdims=True)),
    Sample("stats.sem", "nan_policy='omit'", lambda m, x, y: m.stats.sem(x, nan_policy="omit")),
    Sample("stats.entropy", "default", lambda m, x, y: m.stats.entropy(x)),
    Sample("stats.entropy", "qk", lambda m, x, y: m.stats.entropy(x, qk=y)),
    Sample("stats.entropy", "base=2, axis=1", lambda m, x, y: m.stats.entropy(x, base=2, axis=1)),
    Sample(
        "stats.entropy",
        "keepdims, nan_policy='propagate'",
        lambda m, x, y: m.stats.entropy(x, y, keepdims=True, nan_policy="propagate"),
    ),
]

REFUSALS: list[Refusal] = [
    Refusal(
        "stats.entropy",
        "nan_policy='omit'",
        lambda m, x, y: m.stats.entropy(x, nan_policy="omit"),
        NotImplementedError,
    ),
]
