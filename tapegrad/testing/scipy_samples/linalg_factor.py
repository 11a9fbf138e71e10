"""scipy.linalg's Cholesky and LU factorizations and the triangular solves they feed:
``lower``, ``trans``, ``unit_diagonal``, ``permute_l``, ``p_indices``."""

from __future__ import annotations

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample, spd, square

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "linalg.cholesky", "linalg.cho_factor", "linalg.cho_solve", "linalg.solve_triangular",
    "linalg.lu", "linalg.lu_factor", "linalg.lu_solve",
]  # fmt: skip

_JUNK = np.array([[0.0, 5.0, -3.0], [7.0, 0.0, 2.0], [-4.0, 6.0, 0.0]])  # off one triangle

ROWS: list[Sample] = [
    Sample(
        "linalg.cholesky", "lower=False", lambda m, x, y: m.linalg.cholesky(spd(x) + np.tril(_JUNK))
    ),
    Sample(
        "linalg.cholesky",
        "lower=True",
        lambda m, x, y: m.linalg.cholesky(spd(y) + np.triu(_JUNK), lower=True),
    ),
    Sample("linalg.cho_factor", "lower=False", lambda m, x, y: m.linalg.cho_factor(spd(x))[0]),
    Sample(
        "linalg.cho_factor",
        "lower=True",
        lambda m, x, y: m.linalg.cho_factor(spd(x), lower=True)[0],
    ),
    Sample(
        "linalg.cho_solve",
        "upper factor",
        lambda m, x, y: m.linalg.cho_solve(m.linalg.cho_factor(spd(x)), y),
    ),
    Sample(
        "linalg.cho_solve",
        "lower factor, vector b",
        lambda m, x, y: m.linalg.cho_solve(m.linalg.cho_factor(spd(x), lower=True), y[:, 1]),
    ),
    Sample(
        "linalg.solve_triangular",
        "lower=False",
        lambda m, x, y: m.linalg.solve_triangular(square(x, y), y),
    ),
    Sample(
        "linalg.solve_triangular",
        "lower=True, trans=1",
        lambda m, x, y: m.linalg.solve_triangular(square(x, y), y, trans=1, lower=True),
    ),
    Sample(
        "linalg.solve_triangular",
        "trans=T, unit_diagonal",
        lambda m, x, y: m.linalg.solve_triangular(
            square(x, y), y[:, 0], trans="T", unit_diagonal=True
        ),
    ),
    Sample(
        "linalg.solve_triangular",
        "trans=2 (real)",
        lambda m, x, y: m.linalg.solve_triangular(square(x, y), y, trans=2, lower=True),
    ),
    Sample(
        "linalg.lu",
        "the factors",
        lambda m, x, y: m.linalg.lu(square(x, y))[1] + m.linalg.lu(square(x, y))[2],
    ),
    Sample("linalg.lu", "permute_l", lambda m, x, y: m.linalg.lu(square(y, x), permute_l=True)[0]),
    Sample(
        "linalg.lu",
        "p_indices",
        lambda m, x, y: m.linalg.lu(square(x, y) * -1.0, p_indices=True)[2],
    ),
    Sample("linalg.lu_factor", "default", lambda m, x, y: m.linalg.lu_factor(square(x, y))[0]),
    Sample(
        "linalg.lu_solve",
        "trans=0",
        lambda m, x, y: m.linalg.lu_solve(m.linalg.lu_factor(square(x, y)), y),
    ),
    Sample(
        "linalg.lu_solve",
        "trans=1, vector b",
        lambda m, x, y: m.linalg.lu_solve(m.linalg.lu_factor(square(x, y)), y[:, 2], trans=1),
    ),
]

REFUSALS: list[Refusal] = [
    Refusal("linalg.lu", "rectangular", lambda m, x, y: m.linalg.lu(x)),
]
