"""scipy.stats's trimmed and robust statistics: tmean tvar tstd tsem tmin tmax trim_mean
trimboth trim1 iqr median_abs_deviation gstd, one row per keyword option
(tapegrad/scipy/stats/_trimmed.py and _robust.py). ``X``'s values lie in (0.3, 0.9), all
distinct, so limits inside that range leave some out and no sample sits on a tie.
"""

from __future__ import annotations

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "stats.tmean", "stats.tvar", "stats.tstd", "stats.tsem", "stats.tmin", "stats.tmax",
    "stats.trim_mean", "stats.trimboth", "stats.trim1", "stats.iqr",
    "stats.median_abs_deviation", "stats.gstd",
]  # fmt: skip

LIMITS = (0.4, 0.8)


def _limited(name: str) -> list[Sample]:
    """The rows every limits function (tmean tvar tstd tsem) shares."""
    rows = [
        Sample(f"stats.{name}", "default", lambda m, x, y: getattr(m.stats, name)(x)),
        Sample(
            f"stats.{name}",
            "limits, inclusive=(False, True)",
            lambda m, x, y: getattr(m.stats, name)(x, limits=LIMITS, inclusive=(False, True)),
        ),
        Sample(
            f"stats.{name}",
            "limits=(None, upper), axis=1, keepdims",
            lambda m, x, y: getattr(m.stats, name)(x, (None, 0.8), axis=1, keepdims=True),
        ),
        Sample(
            f"stats.{name}",
            "axis=None, keepdims, nan_policy='propagate'",
            lambda m, x, y: getattr(m.stats, name)(
                x, LIMITS, axis=None, keepdims=True, nan_policy="propagate"
            ),
        ),
        Sample(
            f"stats.{name}",
            "nan_policy='omit'",
            lambda m, x, y: getattr(m.stats, name)(x, LIMITS, axis=1, nan_policy="omit"),
        ),
    ]
    if name != "tmean":
        rows.append(
            Sample(
                f"stats.{name}",
                "ddof=0",
                lambda m, x, y: getattr(m.stats, name)(x, LIMITS, axis=0, ddof=0),
            )
        )
    return rows


def _bounded(name: str, keyword: str, limit: float) -> list[Sample]:
    """The rows of tmin (``lowerlimit``) and tmax (``upperlimit``)."""
    f = lambda m: getattr(m.stats, name)  # noqa: E731
    return [
        Sample(f"stats.{name}", "default", lambda m, x, y: f(m)(x)),
        Sample(f"stats.{name}", keyword, lambda m, x, y: f(m)(x, limit)),
        Sample(
            f"stats.{name}",
            f"{keyword}, inclusive=False, axis=1, keepdims",
            lambda m, x, y: f(m)(x, limit, axis=1, inclusive=False, keepdims=True),
        ),
        Sample(
            f"stats.{name}",
            "axis=None, nan_policy='propagate'",
            lambda m, x, y: f(m)(x, limit, axis=None, nan_policy="propagate"),
        ),
        Sample(
            f"stats.{name}",
            "nan_policy='omit'",
            lambda m, x, y: f(m)(x, limit, nan_policy="omit"),
        ),
    ]


ROWS: list[Sample] = [
    *_limited("tmean"),
    *_limited("tvar"),
    *_limited("tstd"),
    *_limited("tsem"),
    *_bounded("tmin", "lowerlimit", 0.4),
    *_bounded("tmax", "upperlimit", 0.8),
    Sample("stats.trim_mean", "default", lambda m, x, y: m.stats.trim_mean(x, 0.34)),
    Sample(
        "stats.trim_mean",
        "axis=1, keepdims",
        lambda m, x, y: m.stats.trim_mean(x, 0.25, axis=1, keepdims=True),
    ),
    Sample(
        "stats.trim_mean",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.trim_mean(x, 0.2, axis=None, nan_policy="propagate"),
    ),
    Sample("stats.trimboth", "default", lambda m, x, y: m.stats.trimboth(x, 0.34) * y[0]),
    Sample(
        "stats.trimboth",
        "axis=1",
        lambda m, x, y: m.stats.trimboth(x, 0.25, axis=1) * y[:, :2],
    ),
    Sample(
        "stats.trimboth",
        "axis=None",
        lambda m, x, y: m.stats.trimboth(x, 0.25, axis=None) * y.reshape(-1)[:6],
    ),
    Sample("stats.trim1", "default", lambda m, x, y: m.stats.trim1(x, 0.34) * y[:2]),
    Sample(
        "stats.trim1",
        "tail='left', axis=1",
        lambda m, x, y: m.stats.trim1(x, 0.25, tail="left", axis=1) * y[:, :3],
    ),
    Sample(
        "stats.trim1",
        "axis=None",
        lambda m, x, y: m.stats.trim1(x, 0.5, axis=None) * y.reshape(-1)[:6],
    ),
    Sample("stats.iqr", "default", lambda m, x, y: m.stats.iqr(x)),
    Sample(
        "stats.iqr",
        "axis=1, rng=(10, 80), keepdims",
        lambda m, x, y: m.stats.iqr(x, axis=1, rng=(10, 80), keepdims=True),
    ),
    Sample("stats.iqr", "scale='normal'", lambda m, x, y: m.stats.iqr(x, axis=0, scale="normal")),
    Sample("stats.iqr", "scale=2.0", lambda m, x, y: m.stats.iqr(x, scale=2.0)),
    Sample(
        "stats.iqr",
        "interpolation='midpoint'",
        lambda m, x, y: m.stats.iqr(x, axis=0, interpolation="midpoint"),
    ),
    Sample(
        "stats.iqr",
        "interpolation='lower'",
        lambda m, x, y: m.stats.iqr(x, axis=1, interpolation="lower"),
    ),
    Sample(
        "stats.iqr",
        "interpolation='nearest', nan_policy='propagate'",
        lambda m, x, y: m.stats.iqr(x, interpolation="nearest", nan_policy="propagate"),
    ),
    Sample("stats.iqr", "nan_policy='omit'", lambda m, x, y: m.stats.iqr(x, nan_policy="omit")),
    Sample(
        "stats.median_abs_deviation",
        "default",
        lambda m, x, y: m.stats.median_abs_deviation(x),
    ),
    Sample(
        "stats.median_abs_deviation",
        "axis=0, scale='normal', keepdims",
        lambda m, x, y: m.stats.median_abs_deviation(x, axis=0, scale="normal", keepdims=True),
    ),
    Sample(
        "stats.median_abs_deviation",
        "center=mean, scale=2.0",
        lambda m, x, y: m.stats.median_abs_deviation(x, center=np.mean, scale=2.0),
    ),
    Sample(
        "stats.median_abs_deviation",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.median_abs_deviation(x, axis=None, nan_policy="propagate"),
    ),
    Sample(
        "stats.median_abs_deviation",
        "nan_policy='omit'",
        lambda m, x, y: m.stats.median_abs_deviation(x, nan_policy="omit"),
    ),
    Sample("stats.gstd", "default", lambda m, x, y: m.stats.gstd(x)),
    Sample(
        "stats.gstd",
        "axis=1, ddof=0, keepdims",
        lambda m, x, y: m.stats.gstd(x, axis=1, ddof=0, keepdims=True),
    ),
    Sample(
        "stats.gstd",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.gstd(x, axis=None, nan_policy="propagate"),
    ),
    Sample("stats.gstd", "nan_policy='omit'", lambda m, x, y: m.stats.gstd(x, nan_policy="omit")),
]

REFUSALS: list[Refusal] = [
    Refusal(
        "stats.trim_mean",
        "nan_policy='omit'",
        lambda m, x, y: m.stats.trim_mean(x, 0.25, nan_policy="omit"),
        NotImplementedError,
    ),
]
