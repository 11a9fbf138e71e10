"""scipy.linalg's remaining functions: banded Cholesky and eigenproblems, rq,
orthogonal_procrustes, subspace_angles, diagsvd, matmul_toeplitz, cdf2rdf,
clarkson_woodruff_transform, expm_cond, the Riccati solvers; ldl, qz, ordqz, cossin and
the QR updates refused on Tensors."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample, spd, square


def _stack(diagonal: Any, off: Any, lower: bool) -> Any:
    """``[diagonal, off]`` (lower storage) or ``[off, diagonal]`` (upper) as a (2, n) matrix
    by a product with constants (the same on NumPy arrays and Tensors)."""
    first, second = np.array([[1.0], [0.0]]), np.array([[0.0], [1.0]])
    if lower:
        return first * diagonal + second * off
    return first * off + second * diagonal


def _lower_band(x: Any, y: Any) -> Any:
    return _stack(x[0] + 2.0, y[1] * 0.5, True)


def _upper_band(x: Any, y: Any) -> Any:
    return _stack(x[0] + 2.0, y[1] * 0.5, False)


def _conjugate_pairs(x: Any, y: Any) -> tuple[Any, Any]:
    """Eigenvalues ``[a + bi, a - bi, c]`` and a complex 3 x 3 "eigenvector" matrix."""
    w = x[0, :3] * np.array([1.0, 0.0, 1.0]) + x[0, :1] * np.array([0.0, 1.0, 0.0])
    w = w + 1j * (x[1, :1] * np.array([1.0, -1.0, 0.0]))
    v = x[:, :3] + 1j * y[:, :3]
    return w, v


def _stable(x: Any, y: Any) -> Any:
    """A 3 x 3 matrix of norm below 1."""
    return (x @ y.T) * 0.25


# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "linalg.solve_lyapunov", "linalg.diagsvd", "linalg.matmul_toeplitz", "linalg.rq",
    "linalg.orthogonal_procrustes", "linalg.subspace_angles", "linalg.cholesky_banded",
    "linalg.cho_solve_banded", "linalg.eig_banded", "linalg.eigvals_banded", "linalg.cdf2rdf",
    "linalg.clarkson_woodruff_transform", "linalg.expm_cond", "linalg.solve_continuous_are",
    "linalg.solve_discrete_are",
]  # fmt: skip

ROWS: list[Sample] = [
    Sample(
        "linalg.solve_lyapunov",
        "default",
        lambda m, x, y: m.linalg.solve_lyapunov(square(x, y), spd(y)),
    ),
    Sample("linalg.diagsvd", "M = len(s)", lambda m, x, y: m.linalg.diagsvd(x[0, :3], 3, 5)),
    Sample("linalg.diagsvd", "N = len(s)", lambda m, x, y: m.linalg.diagsvd(x[0, :3], 4, 3)),
    Sample("linalg.diagsvd", "a stack of s", lambda m, x, y: m.linalg.diagsvd(x[:, :2], 2, 3)),
    Sample("linalg.matmul_toeplitz", "c", lambda m, x, y: m.linalg.matmul_toeplitz(x[0], y.T)),
    Sample(
        "linalg.matmul_toeplitz",
        "(c, r), a vector x",
        lambda m, x, y: m.linalg.matmul_toeplitz((x[0, :3], y[0]), y[1]),
    ),
    Sample(
        "linalg.matmul_toeplitz",
        "workers=2, check_finite=True",
        lambda m, x, y: m.linalg.matmul_toeplitz(
            (x[:, 0], y[1]), x.T, check_finite=True, workers=2
        ),
    ),
    Sample("linalg.rq", "mode=full, R", lambda m, x, y: m.linalg.rq(x, mode="full")[0]),
    Sample("linalg.rq", "mode=full, Q", lambda m, x, y: m.linalg.rq(x)[1]),
    Sample("linalg.rq", "tall, R", lambda m, x, y: m.linalg.rq(y.T)[0]),
    Sample("linalg.rq", "tall, Q", lambda m, x, y: m.linalg.rq(y.T)[1]),
    Sample("linalg.rq", "mode=economic, R", lambda m, x, y: m.linalg.rq(x, mode="economic")[0]),
    Sample("linalg.rq", "mode=economic, Q", lambda m, x, y: m.linalg.rq(y, mode="economic")[1]),
    Sample(
        "linalg.rq", "mode=economic, tall", lambda m, x, y: m.linalg.rq(x.T, mode="economic")[1]
    ),
    Sample("linalg.rq", "mode=r", lambda m, x, y: m.linalg.rq(x, mode="r")),
    Sample("linalg.rq", "mode=r, tall", lambda m, x, y: m.linalg.rq(y.T, mode="r")),
    Sample("linalg.rq", "lwork=64", lambda m, x, y: m.linalg.rq(square(x, y), lwork=64)[1]),
    Sample(
        "linalg.orthogonal_procrustes",
        "R",
        lambda m, x, y: m.linalg.orthogonal_procrustes(x.T, y.T)[0],
    ),
    Sample(
        "linalg.orthogonal_procrustes",
        "scale",
        lambda m, x, y: m.linalg.orthogonal_procrustes(x, y)[1],
    ),
    Sample(
        "linalg.subspace_angles",
        "2 and 2 columns in R^4",
        lambda m, x, y: m.linalg.subspace_angles(x.T[:, :2], y.T[:, :2]),
    ),
    Sample(
        "linalg.subspace_angles",
        "1 and 2 columns",
        lambda m, x, y: m.linalg.subspace_angles(x[:, :1], y[:, 1:3]),
    ),
    Sample(
        "linalg.subspace_angles",
        "2 and 1 columns",
        lambda m, x, y: m.linalg.subspace_angles(x[:, 1:3], y[:, :1]),
    ),
    Sample(
        "linalg.subspace_angles",
        "a small angle",
        lambda m, x, y: m.linalg.subspace_angles(x.T[:, :1], x.T[:, :1] + 0.1 * y.T[:, :1]),
    ),
    Sample(
        "linalg.cholesky_banded",
        "upper",
        lambda m, x, y: m.linalg.cholesky_banded(_upper_band(x, y)),
    ),
    Sample(
        "linalg.cholesky_banded",
        "lower=True",
        lambda m, x, y: m.linalg.cholesky_banded(_lower_band(x, y), lower=True),
    ),
    Sample(
        "linalg.cho_solve_banded",
        "upper",
        lambda m, x, y: m.linalg.cho_solve_banded(
            (m.linalg.cholesky_banded(_upper_band(x, y)), False), y[0]
        ),
    ),
    Sample(
        "linalg.cho_solve_banded",
        "lower, a matrix b",
        lambda m, x, y: m.linalg.cho_solve_banded(
            (m.linalg.cholesky_banded(_lower_band(x, y), lower=True), True), y.T
        ),
    ),
    Sample(
        "linalg.eig_banded",
        "upper, vectors",
        lambda m, x, y: m.linalg.eig_banded(_upper_band(x, y))[1],
    ),
    Sample(
        "linalg.eig_banded",
        "lower=True, values",
        lambda m, x, y: m.linalg.eig_banded(_lower_band(x, y), lower=True)[0],
    ),
    Sample(
        "linalg.eig_banded",
        "eigvals_only=True",
        lambda m, x, y: m.linalg.eig_banded(_upper_band(x, y), eigvals_only=True),
    ),
    Sample(
        "linalg.eig_banded",
        "select=i, select_range=(1, 2)",
        lambda m, x, y: m.linalg.eig_banded(
            _lower_band(x, y), lower=True, select="i", select_range=(1, 2)
        )[1],
    ),
    Sample(
        "linalg.eig_banded",
        "select=v, max_ev=4, overwrite_a_band=True",
        lambda m, x, y: m.linalg.eig_banded(
            _upper_band(x, y),
            select="v",
            select_range=(0.0, 2.5),
            max_ev=4,
            overwrite_a_band=True,
        )[1],
    ),  # fmt: skip
    Sample(
        "linalg.eigvals_banded",
        "upper",
        lambda m, x, y: m.linalg.eigvals_banded(_upper_band(x, y)),
    ),
    Sample(
        "linalg.eigvals_banded",
        "lower=True, select=i, select_range, overwrite_a_band",
        lambda m, x, y: m.linalg.eigvals_banded(
            _lower_band(x, y),
            lower=True,
            select="i",
            select_range=(0, 1),
            overwrite_a_band=False,
        ),
    ),  # fmt: skip
    Sample(
        "linalg.eigvals_banded",
        "select=v",
        lambda m, x, y: m.linalg.eigvals_banded(
            _upper_band(x, y), select="v", select_range=(2.0, 9.0)
        ),
    ),
    Sample(
        "linalg.cdf2rdf",
        "wr",
        lambda m, x, y: m.linalg.cdf2rdf(*_conjugate_pairs(x, y))[0],
    ),
    Sample(
        "linalg.cdf2rdf",
        "vr",
        lambda m, x, y: m.linalg.cdf2rdf(*_conjugate_pairs(x, y))[1],
    ),
    Sample(
        "linalg.clarkson_woodruff_transform",
        "rng=0",
        lambda m, x, y: m.linalg.clarkson_woodruff_transform(x.T, 2, rng=0),
    ),
    Sample(
        "linalg.clarkson_woodruff_transform",
        "seed=3 (legacy)",
        lambda m, x, y: m.linalg.clarkson_woodruff_transform(y.T, 3, seed=3),
    ),
    Sample("linalg.expm_cond", "default", lambda m, x, y: m.linalg.expm_cond(square(x, y) * 0.3)),
    Sample(
        "linalg.solve_continuous_are",
        "default",
        lambda m, x, y: m.linalg.solve_continuous_are(
            _stable(x, y), y[:, :2], spd(x), spd(y)[:2, :2]
        ),
    ),
    Sample(
        "linalg.solve_continuous_are",
        "e=, balanced=False",
        lambda m, x, y: m.linalg.solve_continuous_are(
            _stable(x, y),
            y[:, :2],
            spd(x),
            spd(y)[:2, :2],
            e=square(x, y) * 0.3,
            balanced=False,
        ),
    ),  # fmt: skip
    Sample(
        "linalg.solve_continuous_are",
        "s=",
        lambda m, x, y: m.linalg.solve_continuous_are(
            _stable(x, y), y[:, :2], spd(x) * 2.0, spd(y)[:2, :2], s=x[:, 2:] * 0.2
        ),
    ),
    Sample(
        "linalg.solve_continuous_are",
        "e=, s=",
        lambda m, x, y: m.linalg.solve_continuous_are(
            _stable(x, y),
            y[:, :2],
            spd(x) * 2.0,
            spd(y)[:2, :2],
            e=square(x, y) * 0.3,
            s=x[:, 2:] * 0.2,
        ),
    ),  # fmt: skip
    Sample(
        "linalg.solve_discrete_are",
        "default",
        lambda m, x, y: m.linalg.solve_discrete_are(
            square(x, y) * 0.4, y[:, :2], spd(x), spd(y)[:2, :2]
        ),
    ),
    Sample(
        "linalg.solve_discrete_are",
        "e=, balanced=False",
        lambda m, x, y: m.linalg.solve_discrete_are(
            _stable(x, y),
            y[:, :2],
            spd(x),
            spd(y)[:2, :2],
            e=square(x, y) * 0.4,
            balanced=False,
        ),
    ),  # fmt: skip
    Sample(
        "linalg.solve_discrete_are",
        "s=",
        lambda m, x, y: m.linalg.solve_discrete_are(
            square(x, y) * 0.4, y[:, :2], spd(x) * 2.0, spd(y)[:2, :2], s=x[:, 2:] * 0.2
        ),
    ),
    Sample(
        "linalg.solve_discrete_are",
        "e=, s=",
        lambda m, x, y: m.linalg.solve_discrete_are(
            _stable(x, y),
            y[:, :2],
            spd(x) * 2.0,
            spd(y)[:2, :2],
            e=square(x, y) * 0.4,
            s=x[:, 2:] * 0.2,
        ),
    ),  # fmt: skip
]

REFUSALS: list[Refusal] = [
    Refusal("linalg.ldl", "ldl", lambda m, x, y: m.linalg.ldl(spd(x))),
    Refusal("linalg.qz", "qz", lambda m, x, y: m.linalg.qz(square(x, y), spd(y))),
    Refusal("linalg.ordqz", "ordqz", lambda m, x, y: m.linalg.ordqz(square(x, y), spd(y))),
    Refusal(
        "linalg.cossin",
        "cossin",
        lambda m, x, y: m.linalg.cossin(m.linalg.qr(square(x, y))[0], p=1, q=1),
    ),
    Refusal(
        "linalg.qr_update",
        "qr_update",
        lambda m, x, y: m.linalg.qr_update(*m.linalg.qr(square(x, y)), x[:, 0], y[:, 0]),
    ),
    Refusal(
        "linalg.qr_insert",
        "qr_insert",
        lambda m, x, y: m.linalg.qr_insert(*m.linalg.qr(square(x, y)), x[:, 0], 1),
    ),
    Refusal(
        "linalg.qr_delete",
        "qr_delete",
        lambda m, x, y: m.linalg.qr_delete(*m.linalg.qr(square(x, y)), 1),
    ),
]
