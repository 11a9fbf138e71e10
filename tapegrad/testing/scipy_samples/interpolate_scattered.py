"""scipy.interpolate on scattered data: RBFInterpolator's every ``kernel``, ``degree``
(default, -1, above the minimum), ``epsilon`` (a number, from ``y``), ``smoothing`` (a
number, one per node, from ``x``), ``neighbors``, vector values and nodes moved by ``y``;
griddata's ``method`` (linear, nearest; cubic refused under a tape), ``fill_value``,
``rescale``, a tuple ``xi`` and 1-d points. The values are built from ``x``; the evaluation
points from ``y``."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Sample

FUNCTIONS: list[str] = ["interpolate.RBFInterpolator", "interpolate.griddata"]

# Six nodes in the unit square (a corner of each kind and two inside), none at a point.
_NODES = np.array([[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0], [0.5, 0.4], [0.3, 0.8]])


def _values(x: Any) -> Any:
    """Six values (6,) from x: its first two columns."""
    return x[:, :2].T.reshape(6)


def _points(y: Any) -> Any:
    """Three points (3, 2) inside the square from y's first two rows."""
    return y[0:2, :3].T


def _rbf(m: Any, x: Any, y: Any, **options: Any) -> Any:
    return m.interpolate.RBFInterpolator(_NODES, _values(x), **options)(_points(y))


ROWS: list[Sample] = []
for _kernel, _epsilon in (
    ("thin_plate_spline", None), ("linear", None), ("cubic", None), ("quintic", None),
    ("multiquadric", 1.3), ("inverse_multiquadric", 1.3), ("inverse_quadratic", 1.3),
    ("gaussian", 1.3),
):  # fmt: skip
    ROWS.append(
        Sample(
            "interpolate.RBFInterpolator",
            f"kernel={_kernel!r}" + ("" if _epsilon is None else f", epsilon={_epsilon}"),
            lambda m, x, y, kernel=_kernel, epsilon=_epsilon: _rbf(
                m, x, y, kernel=kernel, epsilon=epsilon
            ),
        )
    )
ROWS += [
    Sample(
        "interpolate.RBFInterpolator",
        "degree=-1 (no polynomial), kernel='gaussian', epsilon from y",
        lambda m, x, y: m.interpolate.RBFInterpolator(
            _NODES, _values(x), kernel="gaussian", epsilon=1.0 + y[2, 0], degree=-1
        )(_points(y)),
    ),
    Sample(
        "interpolate.RBFInterpolator",
        "degree=2 (above the minimum)",
        lambda m, x, y: _rbf(m, x, y, degree=2),
    ),
    Sample(
        "interpolate.RBFInterpolator",
        "smoothing=0.1",
        lambda m, x, y: _rbf(m, x, y, smoothing=0.1),
    ),
    Sample(
        "interpolate.RBFInterpolator",
        "smoothing per node, from x",
        lambda m, x, y: m.interpolate.RBFInterpolator(
            _NODES, _values(x), smoothing=0.1 * x[2, :2].reshape(2).repeat(3)
        )(_points(y)),
    ),
    Sample(
        "interpolate.RBFInterpolator",
        "neighbors=4",
        lambda m, x, y: _rbf(m, x, y, neighbors=4),
        twice=False,
    ),
    Sample(
        "interpolate.RBFInterpolator",
        "values (6, 2), nodes moved by y",
        lambda m, x, y: m.interpolate.RBFInterpolator(
            _NODES + 0.05 * y[:, :2].T.reshape(6)[:, None], x[:, :2].T.reshape(6)[:, None] * x[0]
        )(_points(y))[:, :2],
    ),
]


def _grid(m: Any, x: Any, y: Any, **options: Any) -> Any:
    return m.interpolate.griddata(_NODES, _values(x), _points(y), **options)


def _past(y: Any) -> Any:
    """Three points (3, 2), the last outside the square."""
    return y[0:2, :3].T + np.array([[0.0, 0.0], [0.0, 0.0], [0.7, 0.0]])


ROWS += [
    Sample("interpolate.griddata", "method='linear'", _grid, twice=False),
    Sample(
        "interpolate.griddata",
        "method='nearest'",
        lambda m, x, y: _grid(m, x, y, method="nearest"),
        twice=False,
    ),
    Sample(
        "interpolate.griddata",
        "fill_value=0.5 (a point outside the hull)",
        lambda m, x, y: m.interpolate.griddata(_NODES, _values(x), _past(y), fill_value=0.5),
        twice=False,
    ),
    Sample(
        "interpolate.griddata",
        "rescale=True, points a tuple of arrays, xi a tuple",
        lambda m, x, y: m.interpolate.griddata(
            (_NODES[:, 0] * 3.0, _NODES[:, 1]),
            _values(x),
            (3.0 * y[0, :3], y[1, :3]),
            rescale=True,
        ),  # fmt: skip
        twice=False,
    ),
    Sample(
        "interpolate.griddata",
        "1-d points, method='cubic'",
        lambda m, x, y: m.interpolate.griddata(
            np.array([0.0, 0.3, 0.5, 0.8, 1.0, 1.2]), _values(x), y[0] * 1.1, method="cubic"
        ),
        twice=False,
    ),
]
# griddata(method='cubic') in 2-d gives SciPy's values and refuses a gradient under a tape
# (tests/scipy/test_scipy_griddata.py): no row here, which calls without one.
