"""scipy.linalg's decompositions: svd, qr, eig, eigh (generalized, subsets), polar, null_space,
orth, tridiagonal eigenproblems.

Eigen- and singular vectors are compared with their signs (SciPy's): tapegrad.scipy gives
SciPy's. Complex outputs are read through ``.real``, ``.imag`` or ``abs``."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample, spd, square

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "linalg.svd",
    "linalg.svdvals",
    "linalg.qr",
    "linalg.eig",
    "linalg.eigvals",
    "linalg.eigh",
    "linalg.eigvalsh",
    "linalg.polar",
    "linalg.null_space",
    "linalg.orth",
    "linalg.eigh_tridiagonal",
    "linalg.eigvalsh_tridiagonal",
    "linalg.schur",
    "linalg.hessenberg",
    "linalg.rsf2csf",
]

_UPPER = np.triu(np.ones((3, 3)), 1)  # added to the triangle that is not read


def _skewed(x: Any, y: Any) -> Any:
    """A real 3 x 3 matrix with a pair of complex eigenvalues."""
    return square(x, y) + 2.0 * (x[:, :3] - x[:, :3].T)


ROWS: list[Sample] = [
    # svd svdvals
    Sample("linalg.svd", "default, U", lambda m, x, y: m.linalg.svd(x)[0]),
    Sample(
        "linalg.svd", "full_matrices, Vh", lambda m, x, y: m.linalg.svd(x, full_matrices=True)[2]
    ),
    Sample("linalg.svd", "tall, full_matrices, U", lambda m, x, y: m.linalg.svd(x.T)[0]),
    Sample(
        "linalg.svd",
        "full_matrices=False, Vh",
        lambda m, x, y: m.linalg.svd(x, full_matrices=False)[2],
    ),
    Sample(
        "linalg.svd",
        "tall, full_matrices=False, U",
        lambda m, x, y: m.linalg.svd(x.T, full_matrices=False)[0],
    ),
    Sample("linalg.svd", "compute_uv=False", lambda m, x, y: m.linalg.svd(x, compute_uv=False)),
    Sample(
        "linalg.svd",
        "lapack_driver=gesvd, U",
        lambda m, x, y: m.linalg.svd(x.T, lapack_driver="gesvd")[0],
    ),
    Sample("linalg.svdvals", "default", lambda m, x, y: m.linalg.svdvals(x)),
    Sample("linalg.svdvals", "tall", lambda m, x, y: m.linalg.svdvals(x.T + y.T)),
    # qr
    Sample("linalg.qr", "default (mode=full), Q", lambda m, x, y: m.linalg.qr(x)[0]),
    Sample("linalg.qr", "mode=full, R", lambda m, x, y: m.linalg.qr(x, mode="full")[1]),
    Sample("linalg.qr", "tall, mode=full, Q", lambda m, x, y: m.linalg.qr(x.T)[0]),
    Sample("linalg.qr", "tall, mode=full, R", lambda m, x, y: m.linalg.qr(x.T)[1]),
    Sample(
        "linalg.qr",
        "tall, mode=economic, Q",
        lambda m, x, y: m.linalg.qr(x.T, mode="economic")[0],
    ),
    Sample("linalg.qr", "mode=economic, R", lambda m, x, y: m.linalg.qr(x, mode="economic")[1]),
    Sample("linalg.qr", "mode=r", lambda m, x, y: m.linalg.qr(x, mode="r")[0]),
    Sample("linalg.qr", "tall, mode=r", lambda m, x, y: m.linalg.qr(x.T, mode="r")[0]),
    Sample("linalg.qr", "pivoting, Q", lambda m, x, y: m.linalg.qr(x, pivoting=True)[0]),
    Sample("linalg.qr", "pivoting, R", lambda m, x, y: m.linalg.qr(x, pivoting=True)[1]),
    Sample(
        "linalg.qr",
        "tall, mode=economic, pivoting, R",
        lambda m, x, y: m.linalg.qr(x.T, mode="economic", pivoting=True)[1],
    ),
    Sample(
        "linalg.qr",
        "mode=r, pivoting",
        lambda m, x, y: m.linalg.qr(x.T, mode="r", pivoting=True)[0],
    ),
    Sample("linalg.qr", "lwork", lambda m, x, y: m.linalg.qr(square(x, y), lwork=64)[1]),
    # eig eigvals
    Sample("linalg.eig", "default, w", lambda m, x, y: m.linalg.eig(square(x, y))[0].real),
    Sample("linalg.eig", "default, v", lambda m, x, y: m.linalg.eig(square(x, y))[1]),
    Sample("linalg.eig", "complex, w", lambda m, x, y: m.linalg.eig(_skewed(x, y))[0].imag),
    Sample("linalg.eig", "complex, |v|", lambda m, x, y: abs(m.linalg.eig(_skewed(x, y))[1])),
    Sample(
        "linalg.eig",
        "left, vl",
        lambda m, x, y: m.linalg.eig(square(x, y), left=True)[1],
    ),
    Sample(
        "linalg.eig",
        "left, right=False, vl",
        lambda m, x, y: m.linalg.eig(square(x, y), left=True, right=False)[1],
    ),
    Sample(
        "linalg.eig",
        "left, complex, |vl|",
        lambda m, x, y: abs(m.linalg.eig(_skewed(x, y), left=True, right=False)[1]),
    ),
    Sample(
        "linalg.eig",
        "left=False, right=False",
        lambda m, x, y: m.linalg.eig(square(x, y), left=False, right=False).real,
    ),
    Sample("linalg.eig", "b, w", lambda m, x, y: m.linalg.eig(square(x, y), spd(y))[0].real),
    Sample("linalg.eig", "b, v", lambda m, x, y: m.linalg.eig(square(x, y), b=spd(y))[1]),
    Sample(
        "linalg.eig",
        "b, left, vl",
        lambda m, x, y: m.linalg.eig(square(x, y), spd(y), left=True)[1],
    ),
    Sample(
        "linalg.eig",
        "homogeneous_eigvals",
        lambda m, x, y: m.linalg.eig(square(x, y), homogeneous_eigvals=True)[0].real,
    ),
    Sample("linalg.eigvals", "default", lambda m, x, y: m.linalg.eigvals(square(x, y)).real),
    Sample("linalg.eigvals", "complex", lambda m, x, y: m.linalg.eigvals(_skewed(x, y)).imag),
    Sample("linalg.eigvals", "b", lambda m, x, y: m.linalg.eigvals(square(x, y), b=spd(y)).real),
    Sample(
        "linalg.eigvals",
        "homogeneous_eigvals",
        lambda m, x, y: m.linalg.eigvals(square(x, y), homogeneous_eigvals=True).real,
    ),
    # eigh eigvalsh
    Sample("linalg.eigh", "default, w", lambda m, x, y: m.linalg.eigh(spd(x))[0]),
    # SciPy's default driver (evr) picks eigenvector signs that jump under perturbations of 1e-6
    # (not a continuous function of a): |v| there, the signs with driver=evd and the subsets.
    Sample("linalg.eigh", "default, |v|", lambda m, x, y: abs(m.linalg.eigh(spd(x))[1])),
    Sample(
        "linalg.eigh",
        "lower, |v|",
        lambda m, x, y: abs(m.linalg.eigh(spd(x) + _UPPER.T, lower=True)[1]),
    ),
    Sample(
        "linalg.eigh",
        "lower=False, v",
        lambda m, x, y: m.linalg.eigh(spd(x) + _UPPER, lower=False, driver="evd")[1],
    ),
    Sample("linalg.eigh", "eigvals_only", lambda m, x, y: m.linalg.eigh(spd(x), eigvals_only=True)),
    Sample("linalg.eigh", "b, w", lambda m, x, y: m.linalg.eigh(spd(x), spd(y))[0]),
    Sample("linalg.eigh", "b, v", lambda m, x, y: m.linalg.eigh(spd(x), b=spd(y))[1]),
    Sample(
        "linalg.eigh",
        "b, lower=False, v",
        lambda m, x, y: m.linalg.eigh(spd(x) + _UPPER, spd(y) + _UPPER, lower=False)[1],
    ),
    Sample(
        "linalg.eigh",
        "b, eigvals_only",
        lambda m, x, y: m.linalg.eigh(spd(x), spd(y), eigvals_only=True),
    ),
    Sample("linalg.eigh", "b, type=2, v", lambda m, x, y: m.linalg.eigh(spd(x), spd(y), type=2)[1]),
    Sample("linalg.eigh", "b, type=2, w", lambda m, x, y: m.linalg.eigh(spd(x), spd(y), type=2)[0]),
    Sample("linalg.eigh", "b, type=3, v", lambda m, x, y: m.linalg.eigh(spd(x), spd(y), type=3)[1]),
    Sample(
        "linalg.eigh",
        "subset_by_index, v",
        lambda m, x, y: m.linalg.eigh(spd(x), subset_by_index=[1, 2])[1],
    ),
    Sample(
        "linalg.eigh",
        "subset_by_index, w",
        lambda m, x, y: m.linalg.eigh(spd(x), subset_by_index=[0, 1])[0],
    ),
    Sample(
        "linalg.eigh",
        "subset_by_value, v",
        lambda m, x, y: m.linalg.eigh(spd(x), subset_by_value=(1.1, 10.0))[1],
    ),
    Sample(
        "linalg.eigh",
        "b, subset_by_value, eigvals_only",
        lambda m, x, y: m.linalg.eigh(
            spd(x), spd(y), subset_by_value=(0.8, 2.0), eigvals_only=True
        ),
    ),
    Sample(
        "linalg.eigh",
        "b, type=2, subset_by_index, v",
        lambda m, x, y: m.linalg.eigh(spd(x), spd(y), type=2, subset_by_index=[2, 2])[1],
    ),
    Sample("linalg.eigh", "driver=evd, v", lambda m, x, y: m.linalg.eigh(spd(x), driver="evd")[1]),
    Sample(
        "linalg.eigh",
        "driver=gv, b, v",
        lambda m, x, y: m.linalg.eigh(spd(x), spd(y), driver="gv")[1],
    ),
    Sample("linalg.eigvalsh", "default", lambda m, x, y: m.linalg.eigvalsh(spd(x))),
    Sample(
        "linalg.eigvalsh",
        "lower=False",
        lambda m, x, y: m.linalg.eigvalsh(spd(x) + _UPPER, lower=False),
    ),
    Sample("linalg.eigvalsh", "b", lambda m, x, y: m.linalg.eigvalsh(spd(x), b=spd(y))),
    Sample(
        "linalg.eigvalsh", "b, type=3", lambda m, x, y: m.linalg.eigvalsh(spd(x), spd(y), type=3)
    ),
    Sample(
        "linalg.eigvalsh",
        "subset_by_index",
        lambda m, x, y: m.linalg.eigvalsh(spd(x), subset_by_index=(1, 2)),
    ),
    Sample(
        "linalg.eigvalsh",
        "subset_by_value",
        lambda m, x, y: m.linalg.eigvalsh(spd(x), subset_by_value=(-1.0, 1.1)),
    ),
    # polar null_space orth
    Sample("linalg.polar", "default, u", lambda m, x, y: m.linalg.polar(square(x, y))[0]),
    Sample("linalg.polar", "side=right, p", lambda m, x, y: m.linalg.polar(x.T, side="right")[1]),
    Sample("linalg.polar", "side=left, u", lambda m, x, y: m.linalg.polar(x, side="left")[0]),
    Sample("linalg.polar", "side=left, p", lambda m, x, y: m.linalg.polar(x, side="left")[1]),
    Sample("linalg.null_space", "default", lambda m, x, y: m.linalg.null_space(x)),
    Sample("linalg.null_space", "rcond", lambda m, x, y: m.linalg.null_space(x + y, rcond=1e-8)),
    Sample("linalg.orth", "default", lambda m, x, y: m.linalg.orth(x)),
    Sample("linalg.orth", "tall, rcond", lambda m, x, y: m.linalg.orth(x.T, rcond=1e-8)),
    # eigh_tridiagonal eigvalsh_tridiagonal
    Sample(
        "linalg.eigh_tridiagonal",
        "default, w",
        lambda m, x, y: m.linalg.eigh_tridiagonal(x[0], y[0, :3])[0],
    ),
    Sample(
        "linalg.eigh_tridiagonal",
        "default, v",
        lambda m, x, y: m.linalg.eigh_tridiagonal(x[0], y[0, :3])[1],
    ),
    Sample(
        "linalg.eigh_tridiagonal",
        "eigvals_only",
        lambda m, x, y: m.linalg.eigh_tridiagonal(x[1], y[1, :3], eigvals_only=True),
    ),
    Sample(
        "linalg.eigh_tridiagonal",
        "select=v, select_range, v",
        lambda m, x, y: m.linalg.eigh_tridiagonal(
            x[0], y[0, :3], select="v", select_range=(0.0, 2.0)
        )[1],
    ),
    Sample(
        "linalg.eigh_tridiagonal",
        "select=i, select_range, w",
        lambda m, x, y: m.linalg.eigh_tridiagonal(x[0], y[0, :3], select="i", select_range=(1, 2))[
            0
        ],
    ),
    Sample(
        "linalg.eigh_tridiagonal",
        "tol, lapack_driver=stebz, v",
        lambda m, x, y: m.linalg.eigh_tridiagonal(
            x[0], y[0, :3], select="i", select_range=(0, 3), tol=1e-13, lapack_driver="stebz"
        )[1],
    ),
    Sample(
        "linalg.eigh_tridiagonal",
        "lapack_driver=stev, v",
        lambda m, x, y: m.linalg.eigh_tridiagonal(x[2], y[2, :3], lapack_driver="stev")[1],
    ),
    Sample(
        "linalg.eigvalsh_tridiagonal",
        "default",
        lambda m, x, y: m.linalg.eigvalsh_tridiagonal(x[0], y[0, :3]),
    ),
    Sample(
        "linalg.eigvalsh_tridiagonal",
        "select=i, select_range",
        lambda m, x, y: m.linalg.eigvalsh_tridiagonal(
            x[0], y[0, :3], select="i", select_range=(0, 1)
        ),
    ),
    Sample(
        "linalg.eigvalsh_tridiagonal",
        "select=v, select_range",
        lambda m, x, y: m.linalg.eigvalsh_tridiagonal(
            x[0], y[0, :3], select="v", select_range=(-1.0, 1.0)
        ),
    ),
    Sample(
        "linalg.eigvalsh_tridiagonal",
        "tol",
        lambda m, x, y: m.linalg.eigvalsh_tridiagonal(
            x[1], y[1, :3], select="i", select_range=(0, 3), tol=1e-13
        ),
    ),
]

REFUSALS: list[Refusal] = [
    Refusal("linalg.qr", "mode=raw", lambda m, x, y: m.linalg.qr(x, mode="raw")),
    Refusal(
        "linalg.eig",
        "homogeneous_eigvals",
        lambda m, x, y: m.linalg.eig(square(x, y), spd(y), homogeneous_eigvals=True),
    ),
    Refusal(
        "linalg.eigvals",
        "homogeneous_eigvals",
        lambda m, x, y: m.linalg.eigvals(square(x, y), spd(y), homogeneous_eigvals=True),
    ),
    Refusal(
        "linalg.schur", "output", lambda m, x, y: m.linalg.schur(square(x, y), output="complex")
    ),
    Refusal("linalg.schur", "lwork", lambda m, x, y: m.linalg.schur(square(x, y), lwork=64)),
    Refusal("linalg.schur", "sort", lambda m, x, y: m.linalg.schur(square(x, y), sort="lhp")),
    Refusal(
        "linalg.hessenberg",
        "calc_q",
        lambda m, x, y: m.linalg.hessenberg(square(x, y), calc_q=True),
    ),
    Refusal("linalg.rsf2csf", "T, Z", lambda m, x, y: m.linalg.rsf2csf(square(x, y), spd(x))),
    Refusal(
        "linalg.qr_multiply",
        "mode",
        lambda m, x, y: m.linalg.qr_multiply(square(x, y), y, mode="left"),
    ),
    Refusal(
        "linalg.qr_multiply",
        "pivoting, conjugate",
        lambda m, x, y: m.linalg.qr_multiply(square(x, y), y[:, :3], pivoting=True, conjugate=True),
    ),
]
