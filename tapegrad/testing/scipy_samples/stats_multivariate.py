"""scipy.stats's multivariate distributions: multinomial, dirichlet_multinomial,
multivariate_t, wishart, invwishart and matrix_normal, in each differentiable parameter; their
counts are refusals (LookupError).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample
from tapegrad.testing.scipy_samples.stats_distributions import _differentiated

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = ["stats.multivariate_t.logpdf", "stats.matrix_normal.logpdf"]
COUNTS = np.array([[1, 2, 0, 3], [0, 0, 6, 0], [1, 1, 3, 1]])


def _simplex(y: Any) -> Any:
    return y[0] / y[0].sum()


def _spd(x: Any) -> Any:
    return x @ x.T + np.eye(3)


ROWS: list[Sample] = [
    Sample(
        "stats.multinomial.logpmf",
        "in p",
        lambda m, x, y: m.stats.multinomial.logpmf(COUNTS, 6, _simplex(y)) + 0.0 * x[0, 0],
    ),
    Sample(
        "stats.multinomial.pmf",
        "in p, broadcast p",
        lambda m, x, y: m.stats.multinomial.pmf(COUNTS, 6, x / x.sum(axis=1, keepdims=True)),
    ),
    Sample(
        "stats.multinomial.mean", "in p", lambda m, x, y: m.stats.multinomial.mean(6, _simplex(y))
    ),
    Sample(
        "stats.multinomial.cov", "in p", lambda m, x, y: m.stats.multinomial.cov(6, _simplex(y))
    ),
    Sample(
        "stats.dirichlet_multinomial.logpmf",
        "in alpha",
        lambda m, x, y: m.stats.dirichlet_multinomial.logpmf(COUNTS, 1.0 + 2.0 * y[0], 6),
    ),
    Sample(
        "stats.dirichlet_multinomial.pmf",
        "in alpha",
        lambda m, x, y: m.stats.dirichlet_multinomial.pmf(COUNTS, 0.5 + x, 6),
    ),
    Sample(
        "stats.dirichlet_multinomial.mean",
        "in alpha",
        lambda m, x, y: m.stats.dirichlet_multinomial.mean(1.0 + y, 6),
    ),
    Sample(
        "stats.multivariate_t.logpdf",
        "loc, shape, df",
        lambda m, x, y: m.stats.multivariate_t.logpdf(
            x[:, :3], loc=y[0, :3], shape=_spd(y), df=2.5 + y[1, 0]
        ),
    ),
    Sample(
        "stats.multivariate_t.logpdf",
        "default (d = 1)",
        lambda m, x, y: m.stats.multivariate_t.logpdf(x[0]),
    ),
    Sample(
        "stats.multivariate_t.logpdf",
        "shape diagonal, df=inf",
        lambda m, x, y: m.stats.multivariate_t.logpdf(x, loc=y[0], shape=0.5 + y[1], df=np.inf),
    ),
    Sample(
        "stats.multivariate_t.pdf",
        "loc, shape, df",
        lambda m, x, y: m.stats.multivariate_t.pdf(
            x[:, :3], y[0, :3], _spd(y) * 0.3, 3.0 + y[1, 0]
        ),
    ),
    Sample(
        "stats.wishart.logpdf",
        "in x, df, scale",
        lambda m, x, y: m.stats.wishart.logpdf(_spd(x), 3.5 + y[0, 0], _spd(y)),
    ),
    Sample(
        "stats.wishart.pdf",
        "in x, df, scale",
        lambda m, x, y: m.stats.wishart.pdf(_spd(x) * 0.5, 4.5 + y[0, 0], _spd(y) * 0.3),
    ),
    Sample(
        "stats.invwishart.logpdf",
        "in x, df, scale",
        lambda m, x, y: m.stats.invwishart.logpdf(_spd(x), 3.5 + y[0, 0], _spd(y)),
    ),
    Sample(
        "stats.invwishart.pdf",
        "in x, df, scale",
        lambda m, x, y: m.stats.invwishart.pdf(_spd(x), 4.5 + y[0, 0], _spd(y)),
    ),
    Sample(
        "stats.matrix_normal.logpdf",
        "mean, rowcov, colcov",
        lambda m, x, y: m.stats.matrix_normal.logpdf(
            x, mean=y, rowcov=_spd(y), colcov=y.T @ y + np.eye(4)
        ),
    ),
    Sample(
        "stats.matrix_normal.pdf",
        "mean, scalar rowcov, colcov",
        lambda m, x, y: m.stats.matrix_normal.pdf(
            x[:2, :2], mean=y[:2, :2], rowcov=0.5 + y[2, 0], colcov=0.5 + y[2, 1:3]
        ),
    ),
]
REFUSALS: list[Refusal] = [
    Refusal(
        "stats.multinomial.logpmf",
        "x",
        _differentiated(
            lambda m, x, y: m.stats.multinomial.logpmf(y * 0.0 + COUNTS, 6, [0.25] * 4)
        ),
        LookupError,
    ),
    Refusal(
        "stats.dirichlet_multinomial.logpmf",
        "n",
        _differentiated(
            lambda m, x, y: m.stats.dirichlet_multinomial.logpmf(COUNTS, 1.0 + x, y[0, 0] * 0 + 6)
        ),
        LookupError,
    ),
]
