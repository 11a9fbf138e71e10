"""scipy.special's distribution functions (bdtr ... fdtri), one row per function and per
argument with a gradient (tapegrad/scipy/special/distribution_cdfs.py). The counts are
constants; a continuous shape from ``y`` is first order only (``twice=False``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

FUNCTIONS: list[str] = []  # SciPy's ufuncs: no keywords to cover

_K, _N = [0, 1, 2, 3], [4, 5, 6, 9]


def _rows(
    name: str, call: Callable[..., Any], shaped: Callable[..., Any] | None = None
) -> list[Sample]:
    rows = [Sample(f"special.{name}", "x", call)]
    if shaped is not None:
        rows.append(Sample(f"special.{name}", "x and a shape", shaped, twice=False))
    return rows


ROWS: list[Sample] = [
    *_rows("bdtr", lambda m, x, y: m.special.bdtr(_K, _N, x)),
    *_rows("bdtrc", lambda m, x, y: m.special.bdtrc(_K, _N, x)),
    *_rows("nbdtr", lambda m, x, y: m.special.nbdtr(_K, _N, x)),
    *_rows("nbdtrc", lambda m, x, y: m.special.nbdtrc(_K, _N, x)),
    *_rows("pdtr", lambda m, x, y: m.special.pdtr(_K, 4 * x)),
    *_rows("pdtrc", lambda m, x, y: m.special.pdtrc(_K, 4 * x)),
    *_rows(
        "chdtr",
        lambda m, x, y: m.special.chdtr(3.0, 5 * x),
        lambda m, x, y: m.special.chdtr(1 + 4 * y, 5 * x),
    ),
    *_rows(
        "chdtrc",
        lambda m, x, y: m.special.chdtrc(3.0, 5 * x),
        lambda m, x, y: m.special.chdtrc(1 + 4 * y, 5 * x),
    ),
    *_rows(
        "chdtri",
        lambda m, x, y: m.special.chdtri(3.0, x),
        lambda m, x, y: m.special.chdtri(1 + 4 * y, x),
    ),
    *_rows(
        "gdtr",
        lambda m, x, y: m.special.gdtr(1.5, 2.0, 3 * x),
        lambda m, x, y: m.special.gdtr(2 * y, 1 + 2 * y, 3 * x),
    ),
    *_rows(
        "gdtrc",
        lambda m, x, y: m.special.gdtrc(1.5, 2.0, 3 * x),
        lambda m, x, y: m.special.gdtrc(2 * y, 1 + 2 * y, 3 * x),
    ),
    *_rows(
        "fdtr",
        lambda m, x, y: m.special.fdtr(3.0, 5.0, 2 * x),
        lambda m, x, y: m.special.fdtr(1 + 4 * y, 2 + 3 * y, 2 * x),
    ),
    *_rows(
        "fdtrc",
        lambda m, x, y: m.special.fdtrc(3.0, 5.0, 2 * x),
        lambda m, x, y: m.special.fdtrc(1 + 4 * y, 2 + 3 * y, 2 * x),
    ),
    *_rows(
        "fdtri",
        lambda m, x, y: m.special.fdtri(3.0, 5.0, x),
        lambda m, x, y: m.special.fdtri(1 + 4 * y, 2 + 3 * y, x),
    ),
]

REFUSALS: list[Refusal] = []  # a gradient in a count: tests/scipy/test_scipy_special_families.py
