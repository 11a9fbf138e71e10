"""scipy.interpolate: RegularGridInterpolator's ``method`` (linear, nearest; at
construction and per call), ``bounds_error`` and ``fill_value`` (NaN, a number, None:
extrapolate), trailing value dimensions and a grid built from ``y`` (differentiable in the
grid for ``linear``). The values are ``x``; the points are built from ``y``."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "interpolate.RegularGridInterpolator",
    "interpolate.CubicSpline",
    "interpolate.CubicHermiteSpline",
    "interpolate.PchipInterpolator",
    "interpolate.Akima1DInterpolator",
    "interpolate.interp1d",
]

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


# The 1-d interpolants: values x[0] (or x's rows) on knots _KNOTS (or knots moved by y[0]),
# evaluated at y[1] scaled into (and, for extrapolation, past) the knots' range.
_KNOTS = np.array([0.0, 0.7, 1.5, 2.2])


def _at(y: Any) -> Any:
    """Four points inside the knots, none on one (0.3..0.9 scaled to 0.39..2.07)."""
    return y[1] * 2.8 - 0.45


def _beyond(y: Any) -> Any:
    """Four points, two beyond the knots' ends."""
    return y[2] * 5.5 - 2.3


def _moved(y: Any) -> Any:
    """Knots moved by y[0] (still increasing): gradients in the knots."""
    return _KNOTS + 0.1 * y[0]


_CLAMP = ((1, 0.5), (2, -1.0))
ROWS += [
    Sample(
        "interpolate.CubicSpline",
        "not-a-knot",
        lambda m, x, y: m.interpolate.CubicSpline(_KNOTS, x[0])(_at(y)),
    ),
    Sample(
        "interpolate.CubicSpline",
        "knots from y",
        lambda m, x, y: m.interpolate.CubicSpline(_moved(y), x[0])(_at(y)),
    ),
    Sample(
        "interpolate.CubicSpline",
        "3 points (a parabola), 2 points (a line)",
        lambda m, x, y: (
            m.interpolate.CubicSpline(_KNOTS[:3], x[0, :3])(_at(y))
            + m.interpolate.CubicSpline(_KNOTS[:2] + 0.1 * y[0, :2], x[1, :2])(_beyond(y))
        ),
    ),
    Sample(
        "interpolate.CubicSpline",
        "axis=1 (rows of x)",
        lambda m, x, y: m.interpolate.CubicSpline(_moved(y), x, axis=1)(_at(y)),
    ),
    Sample(
        "interpolate.CubicSpline",
        "axis=0 (columns of x.T), points (2, 2)",
        lambda m, x, y: m.interpolate.CubicSpline(_KNOTS, x.T, axis=0)(_at(y).reshape(2, 2)),
    ),
    Sample(
        "interpolate.CubicSpline",
        "extrapolate=False (points inside)",
        lambda m, x, y: m.interpolate.CubicSpline(_KNOTS, x[0], extrapolate=False)(_beyond(y)[1:3]),
    ),
    Sample(
        "interpolate.CubicSpline",
        "extrapolate=True (default)",
        lambda m, x, y: m.interpolate.CubicSpline(_KNOTS, x[0], extrapolate=True)(_beyond(y)),
    ),
    Sample(
        "interpolate.CubicSpline",
        "spline(x, nu=1), spline(x, 2)",
        lambda m, x, y: (
            m.interpolate.CubicSpline(_moved(y), x[0])(_at(y), nu=1)
            + m.interpolate.CubicSpline(_KNOTS, x[1])(_at(y), 2)
        ),
    ),
    Sample(
        "interpolate.CubicSpline",
        ".derivative(), .antiderivative(2)",
        lambda m, x, y: (
            m.interpolate.CubicSpline(_moved(y), x[0]).derivative()(_at(y))
            + m.interpolate.CubicSpline(_moved(y), x[1]).antiderivative(2)(_beyond(y))
        ),
    ),
    Sample(
        "interpolate.CubicSpline",
        ".integrate(a, b) (bounds from y, one past the end)",
        lambda m, x, y: m.interpolate.CubicSpline(_moved(y), x[0]).integrate(
            y[2, 0], 2.0 + y[2, 1]
        ),
    ),
    Sample(
        "interpolate.CubicSpline",
        ".c (the coefficients)",
        lambda m, x, y: m.interpolate.CubicSpline(_moved(y), x[0], bc_type="natural").c,
    ),
    Sample(
        "interpolate.CubicSpline",
        "bc_type='periodic' (and its periodic extrapolation)",
        lambda m, x, y: m.interpolate.CubicSpline(_moved(y), x[0] + x[0][::-1], bc_type="periodic")(
            _beyond(y)
        ),
    ),
    Sample(
        "interpolate.CubicSpline",
        "bc_type='periodic', .integrate over periods",
        lambda m, x, y: m.interpolate.CubicSpline(
            _KNOTS, x[0] + x[0][::-1], bc_type="periodic"
        ).integrate(-y[2, 0], 4.0 + y[2, 1]),
    ),
    Sample(
        "interpolate.CubicSpline",
        "bc_type='periodic', 3 points",
        lambda m, x, y: m.interpolate.CubicSpline(
            _KNOTS[:3], x[0, :3] + x[0, :3][::-1], bc_type="periodic"
        )(_at(y)),
    ),
]
for _bc in ("clamped", "natural", ("natural", "not-a-knot"), _CLAMP):
    ROWS.append(
        Sample("interpolate.CubicSpline", f"bc_type={_bc!r}",
               lambda m, x, y, bc=_bc: m.interpolate.CubicSpline(_moved(y), x[0], bc_type=bc)(
                   _beyond(y))),
    )  # fmt: skip
ROWS += [
    Sample(
        "interpolate.CubicSpline",
        "bc_type=((1, value), (2, value)), values from y",
        lambda m, x, y: m.interpolate.CubicSpline(
            _KNOTS, x[:2].T, bc_type=((1, y[0, :2]), (2, y[1, :2]))
        )(_at(y)),
    ),
    Sample(
        "interpolate.CubicHermiteSpline",
        "y, dydx from x, knots from y",
        lambda m, x, y: m.interpolate.CubicHermiteSpline(_moved(y), x[0], x[1])(_at(y)),
    ),
    Sample(
        "interpolate.CubicHermiteSpline",
        "axis=1, extrapolate=False",
        lambda m, x, y: m.interpolate.CubicHermiteSpline(
            _KNOTS, x[:2], x[1:], axis=1, extrapolate=False
        )(_beyond(y)[1:3]),
    ),
]
for _cls in ("PchipInterpolator", "Akima1DInterpolator"):
    ROWS += [
        Sample(
            f"interpolate.{_cls}",
            "knots from y",
            lambda m, x, y, cls=_cls: getattr(m.interpolate, cls)(_moved(y), x[0])(_at(y)),
        ),
        Sample(
            f"interpolate.{_cls}",
            "axis=1, extrapolate=True, nu=1",
            lambda m, x, y, cls=_cls: getattr(m.interpolate, cls)(
                _KNOTS, x, axis=1, extrapolate=True
            )(_beyond(y), 1),
        ),
        Sample(
            f"interpolate.{_cls}",
            "5 monotone points (x's cumulative sums), .integrate",
            lambda m, x, y, cls=_cls: getattr(m.interpolate, cls)(
                np.arange(5.0), _cumulative(x)
            ).integrate(0.3, 3.6),
        ),
        Sample(
            f"interpolate.{_cls}",
            "2 points",
            lambda m, x, y, cls=_cls: getattr(m.interpolate, cls)(_KNOTS[:2], x[0, :2])(
                _at(y) * 0.3
            ),
        ),
    ]
ROWS += [
    Sample(
        "interpolate.Akima1DInterpolator",
        "method='makima'",
        lambda m, x, y: m.interpolate.Akima1DInterpolator(_moved(y), x[0], method="makima")(_at(y)),
    ),
    Sample(
        "interpolate.Akima1DInterpolator",
        "method='akima', extrapolate=False (default)",
        lambda m, x, y: m.interpolate.Akima1DInterpolator(_KNOTS, x[0], method="akima")(
            _beyond(y)[1:3]
        ),
    ),
]
_POINTS = np.array([0.0, 0.7, 1.5, 2.2, 3.0])
_INTERP1D_KINDS = (
    "linear", "slinear", "quadratic", "cubic", "nearest", "nearest-up", "zero", "previous", "next",
)  # fmt: skip
for _kind in _INTERP1D_KINDS:
    _smooth = _kind in ("linear", "slinear", "cubic")
    ROWS += [
        Sample(
            "interpolate.interp1d",
            f"kind={_kind!r}",
            lambda m, x, y, kind=_kind: m.interpolate.interp1d(
                _POINTS + (0.1 * y[0, 0] if kind in ("linear", "cubic") else 0.0),
                _five(x),
                kind=kind,
            )(_at(y) * 1.2),
        ),
        Sample(
            "interpolate.interp1d",
            f"kind={_kind!r}, fill_value='extrapolate'",
            lambda m, x, y, kind=_kind: m.interpolate.interp1d(
                _POINTS, _five(x), kind=kind, fill_value="extrapolate"
            )(_beyond(y) * 1.2),
        ),
    ]
ROWS += [
    Sample(
        "interpolate.interp1d",
        "kind=3 (an integer order), axis=0",
        lambda m, x, y: m.interpolate.interp1d(_POINTS, _five(x).T, kind=3, axis=0)(_at(y)),
    ),
    Sample(
        "interpolate.interp1d",
        "bounds_error=False, fill_value=(below, above)",
        lambda m, x, y: m.interpolate.interp1d(
            _POINTS, _five(x), bounds_error=False, fill_value=(-1.0, 2.0)
        )(_beyond(y) * 1.2),
    ),
    Sample(
        "interpolate.interp1d",
        "fill_value=nan (default) with bounds_error=False",
        lambda m, x, y: m.interpolate.interp1d(
            _POINTS, _five(x), bounds_error=False, fill_value=np.nan
        )(_beyond(y)[1:3]),
    ),
    Sample(
        "interpolate.interp1d",
        "unsorted x (assume_sorted=False), copy=False",
        lambda m, x, y: m.interpolate.interp1d(
            _POINTS[::-1], _five(x), kind="cubic", copy=False, assume_sorted=False
        )(_at(y)),
    ),
    Sample(
        "interpolate.interp1d",
        "assume_sorted=True",
        lambda m, x, y: m.interpolate.interp1d(_POINTS, _five(x), assume_sorted=True)(_at(y)),
    ),
]
REFUSALS += [
    Refusal(
        "interpolate.interp1d",
        "bounds_error=True",
        lambda m, x, y: m.interpolate.interp1d(_POINTS, _five(x), bounds_error=True)(
            _beyond(y) * 1.2
        ),
        ValueError,
    ),
    Refusal(
        "interpolate.CubicSpline",
        "bc_type='periodic' needs y[0] == y[-1]",
        lambda m, x, y: m.interpolate.CubicSpline(_KNOTS, x[0], bc_type="periodic"),
        ValueError,
    ),
]


def _five(x: Any) -> Any:
    """Five values per row (3, 5) from x: its four columns and their mean."""
    return x @ _SPREAD


_SPREAD = np.hstack([np.eye(4), np.full((4, 1), 0.25)])


def _cumulative(x: Any) -> Any:
    """Five increasing values from x's first row: 0 and its cumulative sums."""
    return (x[0] @ np.triu(np.ones((4, 4)))) @ np.hstack([np.zeros((4, 1)), np.eye(4)])
