"""scipy.interpolate's B-splines: BSpline's ``extrapolate`` (True, False, periodic),
``axis``, ``nu``, derivative, antiderivative and integrate (bounds from ``y``), and
make_interp_spline's degrees ``k`` 0-4, ``bc_type`` (natural, periodic, explicit values
from ``y``), ``axis`` and given knots ``t``. The coefficients and values are ``x``; the
points are built from ``y``."""

from __future__ import annotations

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Sample
from tapegrad.testing.scipy_samples.interpolate import _at, _beyond, _five

# The B-splines: coefficients x (rows of 4), knots _T (degree 2), evaluated at _at(y).
_T = np.array([0.0, 0.0, 0.0, 1.1, 2.2, 2.2, 2.2])
_SITES5 = np.array([0.0, 0.5, 1.1, 1.6, 2.2])
FUNCTIONS: list[str] = ["interpolate.BSpline", "interpolate.make_interp_spline"]
ROWS: list[Sample] = [
    Sample(
        "interpolate.BSpline",
        "k=2, points from y",
        lambda m, x, y: m.interpolate.BSpline(_T, x[0], 2)(_at(y)),
        twice=True,
    ),
    Sample(
        "interpolate.BSpline",
        "axis=1 (rows of x), nu=1, extrapolate=True",
        lambda m, x, y: m.interpolate.BSpline(_T, x, 2, extrapolate=True, axis=1)(_beyond(y), nu=1),
    ),
    Sample(
        "interpolate.BSpline",
        "extrapolate=False (points inside), extrapolate='periodic'",
        lambda m, x, y: (
            m.interpolate.BSpline(_T, x[0], 2, extrapolate=False)(_at(y) * 0.9)
            + m.interpolate.BSpline(_T, x[1], 2, extrapolate="periodic")(_beyond(y))
        ),
    ),
    Sample(
        "interpolate.BSpline",
        ".derivative(), .antiderivative(2), .integrate(a, b) (bounds from y)",
        lambda m, x, y: (
            m.interpolate.BSpline(_T, x[0], 2).derivative()(_at(y))
            + m.interpolate.BSpline(_T, x[1], 2).antiderivative(2)(_beyond(y))
            + m.interpolate.BSpline(_T, x[2], 2).integrate(y[2, 0], 2.0 + y[2, 1])
        ),
    ),
]
for _k in (0, 1, 2, 3, 4):
    ROWS.append(
        Sample("interpolate.make_interp_spline", f"k={_k}",
               lambda m, x, y, k=_k: m.interpolate.make_interp_spline(
                   _SITES5, _five(x)[0], k=k)(_at(y)))
    )  # fmt: skip
ROWS += [
    Sample(
        "interpolate.make_interp_spline",
        "bc_type='natural', axis=1 (rows of x)",
        lambda m, x, y: m.interpolate.make_interp_spline(
            _SITES5, _five(x), bc_type="natural", axis=1
        )(_at(y)),
        twice=True,
    ),
    Sample(
        "interpolate.make_interp_spline",
        "bc_type='periodic'",
        lambda m, x, y: m.interpolate.make_interp_spline(
            _SITES5,
            _five(x)[0] * np.array([1.0, 1, 1, 1, 0]) + x[0, 0] * np.eye(5)[4],
            bc_type="periodic",
        )(_beyond(y)),
    ),
    Sample(
        "interpolate.make_interp_spline",
        "bc_type=([(1, value)], [(2, value)]), values from y; t= (given knots)",
        lambda m, x, y: (
            m.interpolate.make_interp_spline(
                _SITES5, _five(x)[0], bc_type=([(1, y[0, 0])], [(2, y[0, 1])])
            )(_at(y))
            + m.interpolate.make_interp_spline(
                _SITES5[:4], x[1], k=1, t=np.r_[0.0, _SITES5[:4], 1.6]
            )(_at(y) * 0.5)
        ),
    ),
]
