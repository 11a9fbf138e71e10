"""scipy.linalg's solves, inverses, determinants, least squares, norms and banded solvers:
``lower``, ``trans``, ``assume_a``, ``transposed``, ``ord``, ``axis``, ``keepdims``, ``cond``,
``rcond``, ``atol``/``rtol``, ``(l, u)``..."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample, spd, square

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "linalg.solve", "linalg.inv", "linalg.det", "linalg.lstsq", "linalg.pinv", "linalg.pinvh",
    "linalg.norm", "linalg.solve_banded", "linalg.solveh_banded", "linalg.solve_circulant",
    "linalg.solve_toeplitz",
]  # fmt: skip

_UPPER = np.triu(np.ones((3, 3)), 1)  # junk in the triangle a one-triangle solver must not read
_LOWER = np.tril(np.ones((3, 3)), -1)
_DIAGONAL = np.eye(3)
_BAND = np.array([[0.0], [2.0], [0.0]])  # lifts the main diagonal of a (1, 1) band
_FIRST = np.array([1.0, 0.0, 0.0, 0.0])  # lifts c[0]: a well-conditioned circulant/Toeplitz


def _solve_row(option: str, a, **kw) -> Sample:  # type: ignore[no-untyped-def]
    return Sample("linalg.solve", option, lambda m, x, y: m.linalg.solve(a(x, y), y, **kw))


def _norm(order: Any, **options: Any) -> Callable[[Any, Any, Any], Any]:
    """``m.linalg.norm(x, ord=order, **options)``: one row per order."""
    return lambda m, x, y: m.linalg.norm(x, ord=order, **options)


ROWS: list[Sample] = [
    Sample("linalg.solve", "default", lambda m, x, y: m.linalg.solve(square(x, y), y)),
    Sample(
        "linalg.solve",
        "assume_a=pos, lower",
        lambda m, x, y: m.linalg.solve(spd(x), y[:, 0], assume_a="pos", lower=True),
    ),
    Sample(
        "linalg.solve",
        "assume_a=sym",
        lambda m, x, y: m.linalg.solve(spd(x) + np.triu(np.ones((3, 3)), 1), y, assume_a="sym"),
    ),
    Sample(
        "linalg.solve",
        "transposed",
        lambda m, x, y: m.linalg.solve(square(x, y), y, transposed=True),
    ),
    Sample(
        "linalg.solve",
        "assume_a=gen",
        lambda m, x, y: m.linalg.solve(square(x, y), y, assume_a="gen"),
    ),
    Sample(
        "linalg.solve",
        "assume_a=pos (upper read)",
        lambda m, x, y: m.linalg.solve(spd(x) + _LOWER, y, assume_a="pos"),
    ),
    Sample(
        "linalg.solve",
        "assume_a=sym, lower",
        lambda m, x, y: m.linalg.solve(spd(x) + _UPPER, y, assume_a="sym", lower=True),
    ),
    Sample(
        "linalg.solve",
        "assume_a=her",
        lambda m, x, y: m.linalg.solve(spd(x) + _LOWER, y, assume_a="her"),
    ),
    Sample(
        "linalg.solve",
        "assume_a=diagonal",
        lambda m, x, y: m.linalg.solve(square(x, y), y, assume_a="diagonal"),
    ),
    Sample(
        "linalg.solve",
        "assume_a=tridiagonal",
        lambda m, x, y: m.linalg.solve(square(x, y), y, assume_a="tridiagonal"),
    ),
    Sample(
        "linalg.solve",
        "assume_a=banded",
        lambda m, x, y: m.linalg.solve(square(x, y), y, assume_a="banded"),
    ),
    Sample(
        "linalg.solve",
        "assume_a=upper triangular",
        lambda m, x, y: m.linalg.solve(square(x, y), y, assume_a="upper triangular"),
    ),
    Sample(
        "linalg.solve",
        "assume_a=lower triangular, transposed",
        lambda m, x, y: m.linalg.solve(
            square(x, y), y, assume_a="lower triangular", transposed=True
        ),
    ),
    # inv
    Sample("linalg.inv", "default", lambda m, x, y: m.linalg.inv(square(x, y))),
    Sample(
        "linalg.inv",
        "assume_a=general",
        lambda m, x, y: m.linalg.inv(square(x, y), assume_a="general"),
    ),
    Sample(
        "linalg.inv",
        "assume_a=diagonal",  # SciPy 1.17 copies a's off-diagonal entries: give it zeros
        lambda m, x, y: m.linalg.inv(square(x, y) * _DIAGONAL, assume_a="diagonal"),
    ),
    Sample(
        "linalg.inv",
        "assume_a=upper triangular",
        lambda m, x, y: m.linalg.inv(square(x, y), assume_a="upper triangular"),
    ),
    Sample(
        "linalg.inv",
        "assume_a=lower triangular",
        lambda m, x, y: m.linalg.inv(square(x, y), assume_a="lower triangular"),
    ),
    Sample(
        "linalg.inv",
        "assume_a=pos",
        lambda m, x, y: m.linalg.inv(spd(x) + _LOWER, assume_a="pos"),
    ),
    Sample(
        "linalg.inv",
        "assume_a=sym, lower",
        lambda m, x, y: m.linalg.inv(spd(x) + _UPPER, assume_a="sym", lower=True),
    ),
    Sample(
        "linalg.inv",
        "assume_a=her, lower",
        lambda m, x, y: m.linalg.inv(spd(x) + _UPPER, assume_a="her", lower=True),
    ),
    # det
    Sample("linalg.det", "default", lambda m, x, y: m.linalg.det(square(x, y))),
    Sample(
        "linalg.det",
        "rectangular stack",
        lambda m, x, y: m.linalg.det(x[:, :2, None] * y[:, None, 2:]),
    ),
    # lstsq: (4, 3) a, so residues exist at full rank
    Sample("linalg.lstsq", "x", lambda m, x, y: m.linalg.lstsq(x.T, y.T)[0]),
    Sample("linalg.lstsq", "residues", lambda m, x, y: m.linalg.lstsq(x.T, y.T)[1]),
    Sample("linalg.lstsq", "residues (vector b)", lambda m, x, y: m.linalg.lstsq(x.T, y[0])[1]),
    Sample("linalg.lstsq", "s", lambda m, x, y: m.linalg.lstsq(x.T, y.T)[3]),
    Sample("linalg.lstsq", "x (wide a)", lambda m, x, y: m.linalg.lstsq(x, y[:, 0])[0]),
    Sample("linalg.lstsq", "cond", lambda m, x, y: m.linalg.lstsq(x.T, y.T, cond=0.15)[0]),
    # pinv
    Sample("linalg.pinv", "default", lambda m, x, y: m.linalg.pinv(x)),
    Sample("linalg.pinv", "atol", lambda m, x, y: m.linalg.pinv(x, atol=0.3)),
    Sample("linalg.pinv", "rtol", lambda m, x, y: m.linalg.pinv(x, rtol=0.15)),
    Sample("linalg.pinv", "return_rank", lambda m, x, y: m.linalg.pinv(x, return_rank=True)[0]),
    # pinvh: an indefinite matrix (eigenvalues -0.47, -0.33, 3.43), junk in the other triangle
    Sample(
        "linalg.pinvh", "default", lambda m, x, y: m.linalg.pinvh(spd(x) - 1.5 * _DIAGONAL + _UPPER)
    ),
    Sample(
        "linalg.pinvh",
        "lower=False",
        lambda m, x, y: m.linalg.pinvh(spd(x) - 1.5 * _DIAGONAL + _LOWER, lower=False),
    ),
    Sample(
        "linalg.pinvh", "atol", lambda m, x, y: m.linalg.pinvh(spd(x) - 1.5 * _DIAGONAL, atol=0.4)
    ),
    Sample(
        "linalg.pinvh", "rtol", lambda m, x, y: m.linalg.pinvh(spd(x) - 1.5 * _DIAGONAL, rtol=0.12)
    ),
    Sample(
        "linalg.pinvh",
        "return_rank",
        lambda m, x, y: m.linalg.pinvh(spd(x) - 1.5 * _DIAGONAL, return_rank=True)[0],
    ),
    # norm
    Sample("linalg.norm", "default", lambda m, x, y: m.linalg.norm(x)),
    Sample("linalg.norm", "default (vector)", lambda m, x, y: m.linalg.norm(x[0])),
    *(
        Sample("linalg.norm", f"ord={o!r}", _norm(o))
        for o in ("fro", "nuc", np.inf, -np.inf, 1, -1, 2, -2)
    ),
    *(
        Sample(
            "linalg.norm",
            f"ord={o!r}, axis=1",
            _norm(o, axis=1),
        )
        for o in (None, np.inf, -np.inf, 1, -1, 2, -2, 3, 0.5)
    ),
    Sample(
        "linalg.norm", "ord=0, axis=0", lambda m, x, y: m.linalg.norm(x, ord=0, axis=0), twice=False
    ),
    Sample(
        "linalg.norm",
        "axis=(1, 0), ord=nuc",
        lambda m, x, y: m.linalg.norm(x, ord="nuc", axis=(1, 0)),
    ),
    Sample("linalg.norm", "keepdims", lambda m, x, y: m.linalg.norm(x, keepdims=True)),
    Sample(
        "linalg.norm",
        "keepdims, ord=inf, axis=0",
        lambda m, x, y: m.linalg.norm(x, ord=np.inf, axis=0, keepdims=True),
    ),
    # banded solvers: ab from x (3, 4), n = 4
    Sample(
        "linalg.solve_banded",
        "l_and_u=(1, 1)",
        lambda m, x, y: m.linalg.solve_banded((1, 1), x + _BAND, y[0]),
    ),
    Sample(
        "linalg.solve_banded",
        "l_and_u=(0, 2), matrix b",
        lambda m, x, y: m.linalg.solve_banded((0, 2), x + np.roll(_BAND, 1), y.T),
    ),
    Sample(
        "linalg.solve_banded",
        "l_and_u=(2, 0)",
        lambda m, x, y: m.linalg.solve_banded((2, 0), x + np.roll(_BAND, -1), y[1]),
    ),
    Sample(
        "linalg.solveh_banded",
        "default (tridiagonal)",
        lambda m, x, y: m.linalg.solveh_banded(x[:2] + np.array([[0.0], [2.0]]), y[0]),
    ),
    Sample(
        "linalg.solveh_banded",
        "upper, two off-diagonals",
        lambda m, x, y: m.linalg.solveh_banded(x + np.roll(_BAND, 1) + 1.0, y.T),
    ),
    Sample(
        "linalg.solveh_banded",
        "lower",
        lambda m, x, y: m.linalg.solveh_banded(x + np.roll(_BAND, -1) + 1.0, y.T, lower=True),
    ),
    # solve_circulant: |fft(x[0] + [1, 0, 0, 0])| = 3, 0.585, 1.08, 0.585
    Sample(
        "linalg.solve_circulant",
        "default",
        lambda m, x, y: m.linalg.solve_circulant(x[0] + _FIRST, y[0]),
    ),
    Sample(
        "linalg.solve_circulant",
        "singular=lstsq, tol (two frequencies dropped)",
        lambda m, x, y: m.linalg.solve_circulant(x[0] + _FIRST, y[0], singular="lstsq", tol=0.8),
    ),
    Sample(
        "linalg.solve_circulant",
        "caxis=0",
        lambda m, x, y: m.linalg.solve_circulant(x.T + _FIRST[:, None], y[0], caxis=0),
    ),
    Sample(
        "linalg.solve_circulant",
        "baxis=1",
        lambda m, x, y: m.linalg.solve_circulant(x[0] + _FIRST, y, baxis=1),
    ),
    Sample(
        "linalg.solve_circulant",
        "outaxis=-1",
        lambda m, x, y: m.linalg.solve_circulant(x + _FIRST, y.T, outaxis=-1),
    ),
    # solve_toeplitz
    Sample(
        "linalg.solve_toeplitz",
        "c (symmetric)",
        lambda m, x, y: m.linalg.solve_toeplitz(x[0] + _FIRST, y[0]),
    ),
    Sample(
        "linalg.solve_toeplitz",
        "(c, r), matrix b",
        lambda m, x, y: m.linalg.solve_toeplitz((x[0] + _FIRST, y[1]), y.T),
    ),
]

# overwrite_ab is not in KEYWORDS_NOT_SAMPLED: accepted and ignored, as overwrite_a (ab is
# built afresh in each call, so SciPy may overwrite it)
ROWS += [
    Sample(
        "linalg.solve_banded",
        "overwrite_ab",
        lambda m, x, y: m.linalg.solve_banded((1, 1), x + _BAND, y[0], overwrite_ab=True),
    ),
    Sample(
        "linalg.solveh_banded",
        "overwrite_ab",
        lambda m, x, y: m.linalg.solveh_banded(x + np.roll(_BAND, 1) + 1.0, y.T, overwrite_ab=True),
    ),
]

# transposed with complex a: SciPy raises NotImplementedError too
REFUSALS: list[Refusal] = [
    Refusal(
        "linalg.solve",
        "transposed",
        lambda m, x, y: m.linalg.solve(square(x, y) * (1 + 1j), y, transposed=True),
    ),
]
