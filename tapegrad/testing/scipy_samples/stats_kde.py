"""scipy.stats.gaussian_kde: its methods (evaluate, logpdf, pdf, __call__,
integrate_gaussian, integrate_box_1d) with each bandwidth, weights, on 1-d and n-d data.
"""

from __future__ import annotations

from typing import Any

from tapegrad.testing.numpy_samples.inputs import Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = ["stats.gaussian_kde"]


def _kde_cov(y: Any) -> Any:
    """An SPD 2x2 covariance from ``y``."""
    return y[:2, :2] @ y[:2, :2].T


ROWS: list[Sample] = [
    Sample(
        "stats.gaussian_kde",
        "evaluate, default",
        lambda m, x, y: m.stats.gaussian_kde(x[:2]).evaluate(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "logpdf, bw_method='scott'",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], bw_method="scott").logpdf(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "pdf, bw_method='silverman'",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], bw_method="silverman").pdf(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "__call__, bw_method=scalar",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], bw_method=0.6)(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "bw_method=callable",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], bw_method=lambda k: k.neff**-0.3)(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "weights",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], weights=y[2]).logpdf(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "1-d, weights, silverman",
        lambda m, x, y: m.stats.gaussian_kde(x[0], "silverman", weights=y[2])(y[1]),
    ),
    Sample(
        "stats.gaussian_kde",
        "one point (d,)",
        lambda m, x, y: m.stats.gaussian_kde(x[:2]).logpdf(y[:2, 1]),
    ),
    Sample(
        "stats.gaussian_kde",
        "integrate_gaussian",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], weights=x[2]).integrate_gaussian(
            y[:2, 0], _kde_cov(y)
        ),
    ),
    Sample(
        "stats.gaussian_kde",
        "integrate_box_1d",
        lambda m, x, y: m.stats.gaussian_kde(x[0], weights=x[1]).integrate_box_1d(
            y[0, 0], y[0, 1] + 0.3
        ),
    ),
]
