"""scipy.linalg's special matrices: toeplitz, circulant, hankel, companion, convolution_matrix,
fiedler, fiedler_companion, leslie and block_diag, batched where SciPy batches them; complex
inputs through ``z.real + 2 z.imag`` (one real array, the conjugations seen)."""

from __future__ import annotations

from typing import Any

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "linalg.toeplitz",
    "linalg.circulant",
    "linalg.hankel",
    "linalg.companion",
    "linalg.convolution_matrix",
    "linalg.fiedler",
    "linalg.fiedler_companion",
    "linalg.leslie",
    "linalg.block_diag",
]


def _real(z: Any) -> Any:  # one real array from a complex one
    return z.real + 2.0 * z.imag


ROWS: list[Sample] = [
    Sample("linalg.toeplitz", "default", lambda m, x, y: m.linalg.toeplitz(x[0])),
    Sample("linalg.toeplitz", "r", lambda m, x, y: m.linalg.toeplitz(x[0, :3], r=y[1])),
    Sample("linalg.toeplitz", "r, batched", lambda m, x, y: m.linalg.toeplitz(x, r=y[:, :3])),
    Sample(
        "linalg.toeplitz",
        "r, batch shapes broadcast",
        lambda m, x, y: m.linalg.toeplitz(x[:, :2], r=y[0]),
    ),
    Sample(
        "linalg.toeplitz",
        "complex c, r=None conjugates",
        lambda m, x, y: _real(m.linalg.toeplitz(x[0] + 1j * y[0])),
    ),
    Sample(
        "linalg.toeplitz",
        "complex c and r",
        lambda m, x, y: _real(m.linalg.toeplitz(x[0] + 1j * y[0], r=y[1] - 1j * x[1])),
    ),
    Sample("linalg.circulant", "default", lambda m, x, y: m.linalg.circulant(x[0])),
    Sample("linalg.circulant", "batched", lambda m, x, y: m.linalg.circulant(x)),
    Sample(
        "linalg.circulant",
        "complex",
        lambda m, x, y: _real(m.linalg.circulant(x[1] + 1j * y[1])),
    ),
    Sample("linalg.hankel", "default", lambda m, x, y: m.linalg.hankel(x[0])),
    Sample("linalg.hankel", "r", lambda m, x, y: m.linalg.hankel(x[0], r=y[1, :3])),
    Sample("linalg.hankel", "r longer than c", lambda m, x, y: m.linalg.hankel(x[0, :2], r=y[1])),
    Sample(
        "linalg.hankel",
        "complex c and r",
        lambda m, x, y: _real(m.linalg.hankel(x[0] + 1j * y[0], r=y[1] - 1j * x[2])),
    ),
    Sample("linalg.companion", "default", lambda m, x, y: m.linalg.companion(x[0])),
    Sample("linalg.companion", "batched", lambda m, x, y: m.linalg.companion(x)),
    Sample("linalg.companion", "degree 1", lambda m, x, y: m.linalg.companion(x[0, :2])),
    Sample(
        "linalg.convolution_matrix",
        "mode=full (default)",
        lambda m, x, y: m.linalg.convolution_matrix(x[0], 3),
    ),
    Sample(
        "linalg.convolution_matrix",
        "mode=same, n > m",
        lambda m, x, y: m.linalg.convolution_matrix(x[0, :3], 5, mode="same"),
    ),
    Sample(
        "linalg.convolution_matrix",
        "mode=same, n < m",
        lambda m, x, y: m.linalg.convolution_matrix(x[0], 2, mode="same"),
    ),
    Sample(
        "linalg.convolution_matrix",
        "mode=valid, n > m",
        lambda m, x, y: m.linalg.convolution_matrix(x[0, :2], 4, mode="valid"),
    ),
    Sample(
        "linalg.convolution_matrix",
        "mode=valid, n < m, batched",
        lambda m, x, y: m.linalg.convolution_matrix(x, 2, mode="valid"),
    ),
    Sample(
        "linalg.convolution_matrix",
        "mode=full, batched",
        lambda m, x, y: m.linalg.convolution_matrix(y, 2, mode="full"),
    ),
    Sample("linalg.fiedler", "default", lambda m, x, y: m.linalg.fiedler(x[0])),
    Sample("linalg.fiedler", "batched", lambda m, x, y: m.linalg.fiedler(y)),
    Sample("linalg.fiedler_companion", "default", lambda m, x, y: m.linalg.fiedler_companion(x[0])),
    Sample("linalg.fiedler_companion", "batched", lambda m, x, y: m.linalg.fiedler_companion(y)),
    Sample(
        "linalg.fiedler_companion",
        "degree 11",
        lambda m, x, y: m.linalg.fiedler_companion(x.ravel()),
    ),
    Sample(
        "linalg.fiedler_companion",
        "degree 1",
        lambda m, x, y: m.linalg.fiedler_companion(x[0, :2]),
    ),
    Sample("linalg.leslie", "default", lambda m, x, y: m.linalg.leslie(x[0], y[0, :3])),
    Sample("linalg.leslie", "batched", lambda m, x, y: m.linalg.leslie(x, y[:, 1:])),
    Sample(
        "linalg.leslie",
        "batch shapes broadcast",
        lambda m, x, y: m.linalg.leslie(x, y[2, :3]),
    ),
    Sample("linalg.block_diag", "default", lambda m, x, y: m.linalg.block_diag(x, y[:2, :3])),
    Sample(
        "linalg.block_diag",
        "1-d and 0-d blocks",
        lambda m, x, y: m.linalg.block_diag(x[0], y[:2], x[1, 1:2].reshape(())),
    ),
]

REFUSALS: list[Refusal] = [
    Refusal(
        "linalg.convolution_matrix",
        "mode=circular",
        lambda m, x, y: m.linalg.convolution_matrix(x[0], 3, mode="circular"),
        ValueError,
    ),
    Refusal(
        "linalg.convolution_matrix",
        "n=0",
        lambda m, x, y: m.linalg.convolution_matrix(x[0], 0),
        ValueError,
    ),
]
