"""numpy.linalg: UPLO, ord, axis, keepdims, QR modes, full_matrices, compute_uv, rcond, n."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Sample, spd, square

ROWS: list[Sample] = [
    Sample("linalg.eigh", "UPLO=L", lambda m, x, y: m.linalg.eigh(spd(x)).eigenvalues),
    Sample("linalg.eigh", "UPLO=U", lambda m, x, y: m.linalg.eigh(spd(x), "U").eigenvalues),
    Sample(
        "linalg.eigh",
        "eigenvectors, UPLO=U",
        lambda m, x, y: m.linalg.eigh(spd(x) + m.triu(y[:, :3], 1), "U").eigenvectors ** 2,
    ),
    Sample(
        "linalg.eigvalsh",
        "UPLO=U",
        lambda m, x, y: m.linalg.eigvalsh(m.tril(x[:, :3]) + spd(y), "U"),
    ),
    Sample("linalg.norm", "ord=None", lambda m, x, y: m.linalg.norm(x * y)),
    Sample(
        "linalg.norm", "ord=1, axis=1", lambda m, x, y: m.linalg.norm(x - 0.6, ord=1, axis=1), False
    ),  # fmt: skip
    Sample("linalg.norm", "ord=inf", lambda m, x, y: m.linalg.norm(x[0] - y[0], ord=np.inf), False),
    Sample("linalg.norm", "ord=fro", lambda m, x, y: m.linalg.norm(x, ord="fro")),
    Sample("linalg.norm", "ord=nuc", lambda m, x, y: m.linalg.norm(x, ord="nuc")),
    Sample("linalg.norm", "ord=2 (matrix)", lambda m, x, y: m.linalg.norm(x, ord=2)),
    Sample(
        "linalg.norm", "ord=-1 (matrix)", lambda m, x, y: m.linalg.norm(spd(x), ord=-1), False
    ),  # fmt: skip
    Sample("linalg.norm", "keepdims", lambda m, x, y: m.linalg.norm(x, axis=0, keepdims=True)),
    Sample("linalg.norm", "ord=3", lambda m, x, y: m.linalg.norm(x[1] - 0.4, ord=3)),
    Sample("linalg.qr", "mode=reduced", lambda m, x, y: m.abs(m.linalg.qr(x.T).R)),
    Sample("linalg.qr", "mode=r", lambda m, x, y: m.abs(m.linalg.qr(x.T, mode="r"))),
    Sample("linalg.qr", "mode=complete", lambda m, x, y: m.abs(m.linalg.qr(x, mode="complete").R)),
    Sample("linalg.svd", "compute_uv=False", lambda m, x, y: m.linalg.svd(x, compute_uv=False)),
    Sample(
        "linalg.svd",
        "full_matrices=False",
        lambda m, x, y: m.abs(m.linalg.svd(x, full_matrices=False).U),
    ),  # fmt: skip
    Sample("linalg.pinv", "rcond", lambda m, x, y: m.linalg.pinv(x, rcond=1e-10)),
    Sample("linalg.lstsq", "rcond=None", lambda m, x, y: m.linalg.lstsq(x.T, y[0], rcond=None)[0]),
    Sample("linalg.matrix_power", "n=3", lambda m, x, y: m.linalg.matrix_power(spd(x), 3)),
    Sample(
        "linalg.matrix_power", "n=-2", lambda m, x, y: m.linalg.matrix_power(spd(x), -2)
    ),  # fmt: skip
    Sample("linalg.slogdet", "sign, logabsdet", lambda m, x, y: m.linalg.slogdet(spd(x))[1]),
    Sample(
        "linalg.tensorsolve", "axes", lambda m, x, y: m.linalg.tensorsolve(spd(x), y[:, 0])
    ),  # fmt: skip
]


def _general(x: Any, y: Any) -> Any:
    """A non-symmetric 3 x 3 matrix with a complex-conjugate pair of eigenvalues."""
    return x[:, :3] - y[:, 1:].T


def _indefinite(m: Any, x: Any) -> Any:
    """A symmetric 3 x 3 matrix with eigenvalues of both signs, distinct in magnitude."""
    return spd(x) - 1.5 * m.eye(3)


ROWS += [
    # products: the vector axis
    Sample("linalg.vecdot", "axis=0", lambda m, x, y: m.linalg.vecdot(x, y, axis=0)),
    Sample("linalg.vecdot", "axis=-1", lambda m, x, y: m.linalg.vecdot(x * y, y, axis=-1)),
    Sample("linalg.cross", "axis=0", lambda m, x, y: m.linalg.cross(x, y, axis=0)),
    Sample("linalg.cross", "axis=-2", lambda m, x, y: m.linalg.cross(x[None], y, axis=-2)),
    # cholesky reads the upper triangle when upper (the lower one holds garbage)
    Sample(
        "linalg.cholesky",
        "upper=True",
        lambda m, x, y: m.linalg.cholesky(spd(x) + m.tril(y[:, :3], -1), upper=True),
    ),
    Sample(
        "linalg.cholesky",
        "upper=False",
        lambda m, x, y: m.linalg.cholesky(spd(x) + m.triu(y[:, :3], 1), upper=False),
    ),
    # cond: every p (the max/min of absolute sums has kinks: no second derivative checked)
    Sample("linalg.cond", "p=None", lambda m, x, y: m.linalg.cond(square(x, y), p=None)),
    Sample("linalg.cond", "p=fro", lambda m, x, y: m.linalg.cond(square(x, y), p="fro")),
    Sample("linalg.cond", "p=nuc", lambda m, x, y: m.linalg.cond(square(x, y), p="nuc")),
    Sample("linalg.cond", "p=inf", lambda m, x, y: m.linalg.cond(square(x, y), p=np.inf), False),
    Sample("linalg.cond", "p=-inf", lambda m, x, y: m.linalg.cond(square(x, y), p=-np.inf), False),
    Sample("linalg.cond", "p=1", lambda m, x, y: m.linalg.cond(square(x, y), p=1), False),
    Sample("linalg.cond", "p=-1", lambda m, x, y: m.linalg.cond(square(x, y), p=-1), False),
    Sample("linalg.cond", "p=2", lambda m, x, y: m.linalg.cond(x, p=2)),
    Sample("linalg.cond", "p=-2", lambda m, x, y: m.linalg.cond(square(x, y), p=-2)),
    Sample(
        "linalg.cond",
        "p=fro (stack)",
        lambda m, x, y: m.linalg.cond(m.stack([spd(x), spd(y)]), "fro"),
    ),  # fmt: skip
    # matrix_norm: every ord, on a stack of 3 x 4 matrices
    Sample(
        "linalg.matrix_norm",
        "keepdims",
        lambda m, x, y: m.linalg.matrix_norm(x[None] * y[:, None], keepdims=True),
    ),
    Sample(
        "linalg.matrix_norm",
        "ord=nuc, keepdims",
        lambda m, x, y: m.linalg.matrix_norm(x[None] * y[:, None], ord="nuc", keepdims=True),
    ),
    Sample("linalg.matrix_norm", "ord=fro", lambda m, x, y: m.linalg.matrix_norm(x * y, ord="fro")),
    Sample(
        "linalg.matrix_norm",
        "ord=2",
        lambda m, x, y: m.linalg.matrix_norm(x[None] * y[:, None], ord=2),
    ),
    Sample(
        "linalg.matrix_norm",
        "ord=-2",
        lambda m, x, y: m.linalg.matrix_norm(x[None] * y[:, None], ord=-2),
    ),
    Sample(
        "linalg.matrix_norm", "ord=1", lambda m, x, y: m.linalg.matrix_norm(x - y, ord=1), False
    ),
    Sample(
        "linalg.matrix_norm", "ord=-1", lambda m, x, y: m.linalg.matrix_norm(x - y, ord=-1), False
    ),
    Sample(
        "linalg.matrix_norm",
        "ord=inf, keepdims",
        lambda m, x, y: m.linalg.matrix_norm(x - y, ord=np.inf, keepdims=True),
        False,
    ),
    Sample(
        "linalg.matrix_norm",
        "ord=-inf",
        lambda m, x, y: m.linalg.matrix_norm(x - y, ord=-np.inf),
        False,
    ),
    # pinv: rtol, and hermitian reading the lower triangle only (the upper holds garbage)
    Sample("linalg.pinv", "rtol=1e-10", lambda m, x, y: m.linalg.pinv(x, rtol=1e-10)),
    # a cutoff that drops a singular value that is not 0 (x's are 1.98, 0.41, 0.18)
    Sample("linalg.pinv", "rtol=0.15 (drops one)", lambda m, x, y: m.linalg.pinv(x, rtol=0.15)),
    Sample("linalg.pinv", "rcond=0.15 (drops one)", lambda m, x, y: m.linalg.pinv(x, 0.15)),
    Sample(
        "linalg.lstsq",
        "rcond=0.15 (drops one)",
        lambda m, x, y: m.linalg.lstsq(x.T, y.T, rcond=0.15)[0],
    ),
    Sample(
        "linalg.pinv",
        "hermitian=True, rtol=0.4 (drops two)",
        lambda m, x, y: m.linalg.pinv(_indefinite(m, x), hermitian=True, rtol=0.4),
    ),
    Sample("linalg.pinv", "rtol=None", lambda m, x, y: m.linalg.pinv(x * y, rtol=None)),
    Sample(
        "linalg.pinv",
        "hermitian=True",
        lambda m, x, y: m.linalg.pinv(_indefinite(m, x), hermitian=True),
    ),  # fmt: skip
    Sample(
        "linalg.pinv",
        "hermitian=True (lower triangle)",
        lambda m, x, y: m.linalg.pinv(spd(x) + m.triu(y[:, :3], 1), hermitian=True),
    ),
    # svd of a Hermitian matrix through eigh: NumPy's values and signs exactly
    Sample(
        "linalg.svd",
        "hermitian=True, S",
        lambda m, x, y: m.linalg.svd(_indefinite(m, x), hermitian=True).S,
    ),
    Sample(
        "linalg.svd",
        "hermitian=True, U",
        lambda m, x, y: m.linalg.svd(_indefinite(m, x), hermitian=True).U,
    ),
    Sample(
        "linalg.svd",
        "hermitian=True, Vh",
        lambda m, x, y: m.linalg.svd(_indefinite(m, x), hermitian=True).Vh,
    ),
    Sample(
        "linalg.svd",
        "hermitian=True, compute_uv=False",
        lambda m, x, y: m.linalg.svd(_indefinite(m, x), compute_uv=False, hermitian=True),
    ),
    Sample(
        "linalg.svd",
        "hermitian=True (lower triangle)",
        lambda m, x, y: m.linalg.svd(spd(x) + m.triu(y[:, :3], 1), hermitian=True).U,
    ),
    # singular vectors, eigenvectors and Q: NumPy's own, signs included
    Sample("linalg.svd", "U (signs)", lambda m, x, y: m.linalg.svd(x).U),
    Sample(
        "linalg.svd",
        "Vh (signs), full_matrices=False",
        lambda m, x, y: m.linalg.svd(x, full_matrices=False).Vh,
    ),
    Sample(
        "linalg.eigh", "eigenvectors (signs)", lambda m, x, y: m.linalg.eigh(spd(x)).eigenvectors
    ),
    Sample(
        "linalg.eigh",
        "eigenvectors (signs), UPLO=U",
        lambda m, x, y: m.linalg.eigh(spd(x) + m.tril(y[:, :3], -1), UPLO="U").eigenvectors,
    ),
    Sample("linalg.qr", "Q (signs)", lambda m, x, y: m.linalg.qr(x.T).Q),
    Sample("linalg.qr", "R (signs)", lambda m, x, y: m.linalg.qr(x.T * y.T).R),
    Sample(
        "linalg.qr", "mode=complete, R (signs)", lambda m, x, y: m.linalg.qr(x.T, mode="complete").R
    ),
    Sample(
        "linalg.eig",
        "eigenvectors (signs)",
        lambda m, x, y: m.linalg.eig(square(x, y)).eigenvectors,
    ),
    # eig of a non-symmetric matrix: a complex pair, in LAPACK's order
    Sample(
        "linalg.eig",
        "complex eigenvalues, real",
        lambda m, x, y: m.real(m.linalg.eig(_general(x, y)).eigenvalues),
    ),
    Sample(
        "linalg.eig",
        "complex eigenvalues, imag",
        lambda m, x, y: m.imag(m.linalg.eig(_general(x, y)).eigenvalues),
    ),
    Sample(
        "linalg.eig",
        "complex eigenvectors, real",
        lambda m, x, y: m.real(m.linalg.eig(_general(x, y)).eigenvectors),
    ),
    Sample(
        "linalg.eig",
        "complex eigenvectors, imag",
        lambda m, x, y: m.imag(m.linalg.eig(_general(x, y)).eigenvectors),
    ),
    Sample(
        "linalg.eigvals", "complex, real", lambda m, x, y: m.real(m.linalg.eigvals(_general(x, y)))
    ),
    Sample(
        "linalg.eigvals", "complex, imag", lambda m, x, y: m.imag(m.linalg.eigvals(_general(x, y)))
    ),
    Sample(
        "linalg.eigvals",
        "complex, sorted",
        lambda m, x, y: m.sort(m.abs(m.linalg.eigvals(_general(x, y) + m.eye(3)))),
    ),
    # vector_norm: every ord, axis tuples, keepdims
    Sample("linalg.vector_norm", "ord=0", lambda m, x, y: m.linalg.vector_norm(x - y, ord=0)),
    Sample(
        "linalg.vector_norm", "ord=1", lambda m, x, y: m.linalg.vector_norm(x - y, ord=1), False
    ),
    Sample(
        "linalg.vector_norm",
        "ord=2, axis=0",
        lambda m, x, y: m.linalg.vector_norm(x * y, ord=2, axis=0),
    ),
    Sample(
        "linalg.vector_norm",
        "ord=inf",
        lambda m, x, y: m.linalg.vector_norm(x - y, ord=np.inf),
        False,
    ),
    Sample(
        "linalg.vector_norm",
        "ord=-inf, axis=1",
        lambda m, x, y: m.linalg.vector_norm(x - 0.6, ord=-np.inf, axis=1),
        False,
    ),
    Sample("linalg.vector_norm", "ord=3", lambda m, x, y: m.linalg.vector_norm(x - y, ord=3)),
    Sample("linalg.vector_norm", "ord=-1", lambda m, x, y: m.linalg.vector_norm(x - 0.2, ord=-1)),
    Sample(
        "linalg.vector_norm",
        "ord=0.5, axis=-1",
        lambda m, x, y: m.linalg.vector_norm(x, ord=0.5, axis=-1),
    ),
    Sample(
        "linalg.vector_norm",
        "axis=(0, 1), keepdims",
        lambda m, x, y: m.linalg.vector_norm(x * y, axis=(0, 1), keepdims=True),
    ),
    Sample(
        "linalg.vector_norm",
        "axis=(-1, 0), ord=3",
        lambda m, x, y: m.linalg.vector_norm(x[None] * y[:, None], axis=(-1, 0), ord=3),
    ),
    Sample(
        "linalg.vector_norm",
        "axis=(0, 2), ord=inf, keepdims",
        lambda m, x, y: m.linalg.vector_norm(
            x[None] - y[:, None], axis=(0, 2), ord=np.inf, keepdims=True
        ),
        False,
    ),
    Sample(
        "linalg.vector_norm",
        "keepdims, axis=1",
        lambda m, x, y: m.linalg.vector_norm(x, axis=1, keepdims=True),
    ),
]
