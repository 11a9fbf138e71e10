"""scipy.linalg's solves, inverses, determinants, least squares, norms and banded solvers:
``lower``, ``trans``, ``assume_a``, ``transposed``, ``ord``, ``axis``, ``keepdims``, ``cond``,
``rcond``, ``atol``/``rtol``, ``(l, u)``..."""

from __future__ import annotations

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample, spd, square

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = ["linalg.solve"]

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
]

REFUSALS: list[Refusal] = []
