"""numpy.linalg: UPLO, ord, axis, keepdims, QR modes, full_matrices, compute_uv, rcond, n."""

from __future__ import annotations

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Sample, spd

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
