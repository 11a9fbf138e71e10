"""scipy.interpolate: RegularGridInterpolator's ``method`` (linear, nearest; at
construction and per call), ``bounds_error`` and ``fill_value`` (NaN, a number, None:
extrapolate), trailing value dimensions and a grid built from ``y`` (differentiable in the
grid for ``linear``). The values are ``x``; the points are built from ``y``."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = ["interpolate.RegularGridInterpolator"]

_GRID = (np.array([0.0, 0.4, 1.0]), np.array([0.1, 0.3, 0.6, 0.9]))


def _inside(y: Any) -> Any:
    """Four points (4, 2) inside the grid, none on its lines."""
    return (y[1:3] * np.array([[1.0], [0.8]]) + np.array([[0.05], [0.08]])).T


def _past(y: Any) -> Any:
    """Points (4, 2) some beyond the grid's ends (0.3..0.9 scaled to -0.1..1.7)."""
    return (y[1:3] * np.array([[2.8], [1.2]]) - np.array([[0.95], [0.2]])).T


ROWS: list[Sample] = []
for _method in ("linear", "nearest"):
    ROWS += [
        Sample(
            "interpolate.RegularGridInterpolator",
            f"method={_method}",
            lambda m, x, y, method=_method: m.interpolate.RegularGridInterpolator(
                _GRID, x, method=method
            )(_inside(y)),
            twice=_method == "linear",
        ),
        Sample(
            "interpolate.RegularGridInterpolator",
            f"method={_method}, bounds_error=False (inside)",
            lambda m, x, y, method=_method: m.interpolate.RegularGridInterpolator(
                _GRID, x, method=method, bounds_error=False
            )(_inside(y)),
        ),
        Sample(
            "interpolate.RegularGridInterpolator",
            f"method={_method}, bounds_error=False, fill_value=0.5",
            lambda m, x, y, method=_method: m.interpolate.RegularGridInterpolator(
                _GRID, x, method=method, bounds_error=False, fill_value=0.5
            )(_past(y)),
        ),
        Sample(
            "interpolate.RegularGridInterpolator",
            f"method={_method}, fill_value=None (extrapolate)",
            lambda m, x, y, method=_method: m.interpolate.RegularGridInterpolator(
                _GRID, x, method=method, bounds_error=False, fill_value=None
            )(_past(y)),
        ),
    ]
ROWS += [
    Sample(
        "interpolate.RegularGridInterpolator",
        "call method=nearest",
        lambda m, x, y: m.interpolate.RegularGridInterpolator(_GRID, x)(
            _inside(y), method="nearest"
        ),
    ),
    Sample(
        "interpolate.RegularGridInterpolator",
        "1-d grid, trailing value axes",
        lambda m, x, y: m.interpolate.RegularGridInterpolator((_GRID[0],), x)(
            y[0, :, None] * 0.9 + 0.05
        ),
    ),
    Sample(
        "interpolate.RegularGridInterpolator",
        "grid points from y (linear)",
        lambda m, x, y: m.interpolate.RegularGridInterpolator(
            (np.array([0.0, 1.0, 2.0]) + 0.1 * y[0, :3], np.arange(4.0) + 0.1 * y[1]), x
        )((y[1:3] * np.array([[2.0], [3.0]])).T),
    ),
]

REFUSALS: list[Refusal] = [
    Refusal(
        "interpolate.RegularGridInterpolator",
        "method=cubic",
        lambda m, x, y: m.interpolate.RegularGridInterpolator(_GRID, x, method="cubic")(_inside(y)),
    ),
    Refusal(
        "interpolate.RegularGridInterpolator",
        "solver=, solver_args=",
        lambda m, x, y: m.interpolate.RegularGridInterpolator(
            _GRID, x, solver=object(), solver_args={}
        )(_inside(y)),
    ),
    Refusal(
        "interpolate.RegularGridInterpolator",
        "bounds_error=True",
        lambda m, x, y: m.interpolate.RegularGridInterpolator(_GRID, x, bounds_error=True)(
            _past(y)
        ),
        ValueError,
    ),
]
