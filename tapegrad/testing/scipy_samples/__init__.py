"""Sample calls of tapegrad.scipy's functions, one per keyword option and mode, as
:mod:`tapegrad.testing.numpy_samples` has for NumPy's: ``call(m, x, y)`` runs through the
package ``m`` (``scipy`` or ``tapegrad.scipy``: ``m.linalg.solve(...)``) on the inputs ``X``
and ``Y`` of shape (3, 4) (:mod:`tapegrad.testing.numpy_samples.inputs`).

tests/scipy/test_scipy_options.py checks every row: tapegrad's values equal SciPy's on the
same input, with SciPy's shape and dtype; the gradient equals central finite differences
and, where ``twice``, so does the second derivative; the same call on plain arrays returns
exactly what SciPy returns; and every keyword of every function a family module lists has a
row (:data:`KEYWORDS_NOT_SAMPLED` aside).
"""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import MASK, Refusal, Sample, X, Y
from tapegrad.testing.scipy_samples import (
    cluster,
    fft,
    integrate,
    interpolate,
    interpolate_bsplines,
    interpolate_scattered,
    linalg_basic,
    linalg_decomp,
    linalg_factor,
    linalg_matfuncs,
    linalg_more,
    linalg_special,
    ndimage,
    signal,
    sparse,
    spatial,
    special_bessel,
    special_cdfs,
    special_elementary,
    special_gamma,
    special_integrals,
    stats_distributions,
    stats_kde,
    stats_moments,
    stats_multivariate,
    stats_robust,
    stats_statistics,
)

__all__ = ["FUNCTIONS", "KEYWORDS_NOT_SAMPLED", "MASK", "REFUSALS", "SAMPLES", "X", "Y"]
__all__ += ["Refusal", "Sample", "markdown", "options"]

SAMPLES: list[Sample] = []
REFUSALS: list[Refusal] = []
FUNCTIONS: list[str] = []  # "linalg.solve": the functions whose every keyword has a row
for _family in (
    linalg_basic, linalg_factor, linalg_decomp, linalg_matfuncs, linalg_special, linalg_more,
    special_integrals, special_gamma, special_bessel, special_elementary, special_cdfs,
    stats_statistics, stats_robust, stats_kde, stats_distributions, stats_multivariate,
    stats_moments, fft, integrate, signal, interpolate, interpolate_bsplines, interpolate_scattered,
    ndimage, cluster,
    spatial, sparse,
):  # fmt: skip
    SAMPLES += _family.ROWS
    REFUSALS += getattr(_family, "REFUSALS", [])
    FUNCTIONS += _family.FUNCTIONS

# Keywords that change how SciPy computes or stores, not what: no function needs a row.
KEYWORDS_NOT_SAMPLED = {
    "overwrite_a": "SciPy may reuse the input's memory; Tensors are never overwritten",
    "overwrite_b": "as overwrite_a",
    "overwrite_ab": "as overwrite_a",
    "check_finite": "raises ValueError on inf or NaN, as SciPy (tests/scipy/test_scipy_linalg.py)",
    "lapack_driver": "which LAPACK routine computes the same factorization",
    "driver": "as lapack_driver",
    "disp": "deprecated by SciPy (1.16): accepted and ignored",
    "blocksize": "deprecated by SciPy (1.16): accepted and ignored",
}


def options() -> dict[str, list[str]]:
    """``"linalg.solve" -> the options its rows exercise``, in the table's order."""
    out: dict[str, list[str]] = {}
    for row in SAMPLES:
        out.setdefault(row.name, []).append(row.option)
    for refusal in REFUSALS:
        out.setdefault(refusal.name, []).append(f"{refusal.option}: raises")
    return out


def markdown() -> str:
    """docs/scipy-coverage.md: the coverage table with each function's options beside it."""
    from tapegrad.scipy import coverage

    return coverage.markdown(checked=options())
