"""scipy.ndimage: interpolation at orders 0 to 5 in every ``mode`` (with ``cval``; orders 2
to 5 with and without the prefilter), ``spline_filter``/``spline_filter1d`` in every mode,
``shift``/``zoom``/``affine_transform``/``rotate`` options, and the linear filters'
``mode``, ``origin``, ``axes``, ``sigma``/``order``/``truncate``/``radius`` and ``size``.
The image is ``x``; coordinates, shifts and transforms are built from ``y`` (differentiable
at order 1), away from the integers where the interpolant has kinks."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "ndimage.map_coordinates", "ndimage.shift", "ndimage.zoom", "ndimage.affine_transform",
    "ndimage.rotate", "ndimage.correlate1d", "ndimage.convolve1d", "ndimage.correlate",
    "ndimage.convolve", "ndimage.gaussian_filter1d", "ndimage.gaussian_filter",
    "ndimage.uniform_filter1d", "ndimage.uniform_filter", "ndimage.sobel", "ndimage.prewitt",
    "ndimage.laplace", "ndimage.spline_filter", "ndimage.spline_filter1d",
]  # fmt: skip

MODES = ("constant", "nearest", "reflect", "mirror", "wrap", "grid-wrap", "grid-constant",
         "grid-mirror")  # fmt: skip
_SCALE = np.array([[7.0], [9.0]])  # y in (0.3, 0.9) -> coordinates in (-0.9, 5.1): past the edges
_LIFT = np.array([[-3.0], [-3.0]])
_W2 = np.array([[0.5, -1.0, 0.25], [1.5, 0.75, -0.5]])
_W1 = np.array([0.25, -1.0, 0.5, 2.0])


def _coordinates(y: Any) -> Any:
    return y[:2] * _SCALE + _LIFT


def _matrix(y: Any) -> Any:
    return y[:2, :2] * 0.5 + np.array([[0.8, 0.0], [0.0, 0.9]])


ROWS: list[Sample] = []
for _mode in MODES:
    for _order in range(6):
        ROWS.append(
            Sample(
                "ndimage.map_coordinates",
                f"order={_order}, mode={_mode}, cval",
                lambda m, x, y, mode=_mode, order=_order: m.ndimage.map_coordinates(
                    x, _coordinates(y), order=order, mode=mode, cval=0.25
                ),
            )
        )
    for _order in (3, 1):
        ROWS.append(
            Sample(
                "ndimage.shift",
                f"mode={_mode}, order={_order}",
                lambda m, x, y, mode=_mode, order=_order: m.ndimage.shift(
                    x, (y[0, 0] * 2 - 0.3, -y[0, 1] * 3), order=order, mode=mode, cval=0.5
                ),
            )
        )
    for _order in (4, 1):
        ROWS.append(
            Sample(
                "ndimage.affine_transform",
                f"mode={_mode}, order={_order}",
                lambda m, x, y, mode=_mode, order=_order: m.ndimage.affine_transform(
                    x, _matrix(y), offset=y[2, :2] - 0.2, order=order, mode=mode, cval=0.5
                ),
            )
        )
    ROWS.append(
        Sample(
            "ndimage.spline_filter",
            f"mode={_mode}",
            lambda m, x, y, mode=_mode: m.ndimage.spline_filter(x, mode=mode),
        )
    )
    ROWS.append(
        Sample(
            "ndimage.spline_filter1d",
            f"mode={_mode}, order=4",
            lambda m, x, y, mode=_mode: m.ndimage.spline_filter1d(x, 4, mode=mode),
        )
    )
    for _name in ("correlate", "convolve"):
        ROWS.append(
            Sample(
                f"ndimage.{_name}",
                f"mode={_mode}, cval",
                lambda m, x, y, mode=_mode, name=_name: getattr(m.ndimage, name)(
                    x, y[:2, :3], mode=mode, cval=0.5
                ),
            )
        )
        ROWS.append(
            Sample(
                f"ndimage.{_name}1d",
                f"mode={_mode}, cval",
                lambda m, x, y, mode=_mode, name=_name: getattr(m.ndimage, f"{name}1d")(
                    x, y[0], mode=mode, cval=0.5
                ),
            )
        )
    ROWS.append(
        Sample(
            "ndimage.gaussian_filter",
            f"mode={_mode}, cval",
            lambda m, x, y, mode=_mode: m.ndimage.gaussian_filter(x, 1.2, mode=mode, cval=0.5),
        )
    )
    ROWS.append(
        Sample(
            "ndimage.uniform_filter",
            f"mode={_mode}, cval",
            lambda m, x, y, mode=_mode: m.ndimage.uniform_filter(x, mode=mode, cval=0.5),
        )
    )
    for _name in ("sobel", "prewitt", "laplace"):
        ROWS.append(
            Sample(
                f"ndimage.{_name}",
                f"mode={_mode}, cval",
                lambda m, x, y, mode=_mode, name=_name: getattr(m.ndimage, name)(
                    x, mode=mode, cval=0.5
                ),
            )
        )

ROWS += (
    [
        Sample(
            f"ndimage.{name}",
            f"order={order}",
            lambda m, x, y, name=name, order=order: getattr(m.ndimage, name)(x, order),
        )
        for name, orders in [("spline_filter", (2, 4, 5)), ("spline_filter1d", (0, 1, 2, 3, 5))]
        for order in orders
    ]
    + [
        Sample(
            "ndimage.map_coordinates",
            f"order={order}, prefilter=False",
            lambda m, x, y, order=order: m.ndimage.map_coordinates(
                x, y[:2] * 2.5, order=order, mode="mirror", prefilter=False
            ),
        )
        for order in (2, 3, 4, 5)
    ]
    + [
        Sample(
            "ndimage.spline_filter1d",
            "axis=0, output=float64",
            lambda m, x, y: m.ndimage.spline_filter1d(x, axis=0, output=np.float64),
        ),
        Sample(
            "ndimage.spline_filter",
            "order=3, output=float64, mode=nearest",
            lambda m, x, y: m.ndimage.spline_filter(x, 3, output=np.float64, mode="nearest"),
        ),
        Sample(
            "ndimage.map_coordinates",
            "default order=3 (mode constant), prefilter",
            lambda m, x, y: m.ndimage.map_coordinates(x, y[:2] * 2, prefilter=True),
        ),
        Sample(
            "ndimage.zoom",
            "order=2, mode=mirror",
            lambda m, x, y: m.ndimage.zoom(x, 1.5, order=2, mode="mirror"),
        ),
        Sample(
            "ndimage.zoom",
            "order=5, grid_mode, mode=grid-wrap, prefilter=False",
            lambda m, x, y: m.ndimage.zoom(
                x, (1.3, 0.8), order=5, mode="grid-wrap", grid_mode=True, prefilter=False
            ),
        ),
        Sample(
            "ndimage.rotate",
            "angle, reshape=False, order=3, mode=reflect",
            lambda m, x, y: m.ndimage.rotate(x, y[0, 0] * 40, reshape=False, mode="reflect"),
        ),
        Sample(
            "ndimage.rotate",
            "reshape, order=5, mode=grid-constant, cval",
            lambda m, x, y: m.ndimage.rotate(x, 30.0, order=5, mode="grid-constant", cval=0.5),
        ),
        Sample(
            "ndimage.shift",
            "order=2, prefilter=False, mode=nearest",
            lambda m, x, y: m.ndimage.shift(x, y[1, 1], order=2, mode="nearest", prefilter=False),
        ),
        Sample(
            "ndimage.map_coordinates",
            "order=1, prefilter=False",
            lambda m, x, y: m.ndimage.map_coordinates(x, y[:2] * 2, order=1, prefilter=False),
        ),
        Sample(
            "ndimage.map_coordinates",
            "order=1, default mode (constant)",
            lambda m, x, y: m.ndimage.map_coordinates(x, y[:2] * np.array([[2.0], [3.0]]), order=1),
        ),
        Sample("ndimage.shift", "order=0", lambda m, x, y: m.ndimage.shift(x, 0.6, order=0)),
        Sample(
            "ndimage.shift",
            "order=1, prefilter",
            lambda m, x, y: m.ndimage.shift(x, y[1, 1], order=1, prefilter=False),
        ),
        Sample(
            "ndimage.zoom",
            "order=1, mode=nearest, cval",
            lambda m, x, y: m.ndimage.zoom(x, 1.5, order=1, mode="nearest", cval=0.5),
        ),
        Sample(
            "ndimage.zoom",
            "order=0, per axis",
            lambda m, x, y: m.ndimage.zoom(x, (1.4, 0.8), order=0, prefilter=False),
        ),
        Sample(
            "ndimage.zoom",
            "order=1, grid_mode, mode=grid-constant",
            lambda m, x, y: m.ndimage.zoom(x, 1.7, order=1, mode="grid-constant", grid_mode=True),
        ),
        Sample(
            "ndimage.affine_transform",
            "matrix (d,), output_shape, order=0",
            lambda m, x, y: m.ndimage.affine_transform(
                x, np.array([0.7, 0.6]), 0.2, output_shape=(4, 5), order=0, prefilter=False
            ),
        ),
        Sample(
            "ndimage.affine_transform",
            "homogeneous matrix (d, d + 1), order=1",
            lambda m, x, y: m.ndimage.affine_transform(
                x, y[:2, :3] * 0.4 + np.array([[0.8, 0.0, 0.1], [0.0, 0.9, 0.2]]), order=1
            ),
        ),
        Sample(
            "ndimage.rotate",
            "angle, axes, reshape=False, order=1, mode=nearest, cval",
            lambda m, x, y: m.ndimage.rotate(
                x, y[0, 0] * 40, axes=(0, 1), reshape=False, order=1, mode="nearest", cval=0.5
            ),
        ),
        Sample(
            "ndimage.rotate",
            "reshape, order=1, prefilter",
            lambda m, x, y: m.ndimage.rotate(x, 30.0, order=1, prefilter=False),
        ),
        Sample(
            "ndimage.rotate",
            "order=0, mode=reflect",
            lambda m, x, y: m.ndimage.rotate(x, 25.0, order=0, mode="reflect"),
        ),
        Sample(
            "ndimage.correlate1d",
            "axis=0, origin=-1",
            lambda m, x, y: m.ndimage.correlate1d(x, _W1, axis=0, origin=-1),
        ),
        Sample(
            "ndimage.convolve1d",
            "axis=0, origin=1",
            lambda m, x, y: m.ndimage.convolve1d(x, y[1, :3], axis=0, origin=1),
        ),
        Sample(
            "ndimage.correlate",
            "origin per axis",
            lambda m, x, y: m.ndimage.correlate(x, _W2, origin=(0, 1)),
        ),
        Sample(
            "ndimage.correlate",
            "axes=1, origin=-1",
            lambda m, x, y: m.ndimage.correlate(x, y[0], axes=1, origin=-1),
        ),
        Sample(
            "ndimage.convolve",
            "origin=-1",
            lambda m, x, y: m.ndimage.convolve(x, _W2, origin=-1),
        ),
        Sample(
            "ndimage.convolve",
            "axes=(0,)",
            lambda m, x, y: m.ndimage.convolve(x, y[1, :2], axes=(0,)),
        ),
        Sample(
            "ndimage.gaussian_filter1d",
            "axis=0, order=1, truncate",
            lambda m, x, y: m.ndimage.gaussian_filter1d(x, 0.8, axis=0, order=1, truncate=2.5),
        ),
        Sample(
            "ndimage.gaussian_filter1d",
            "order=2, radius, mode=nearest, cval",
            lambda m, x, y: m.ndimage.gaussian_filter1d(
                x, 1.5, order=2, radius=2, mode="nearest", cval=0.5
            ),
        ),
        Sample(
            "ndimage.gaussian_filter",
            "sigma and order per axis, truncate",
            lambda m, x, y: m.ndimage.gaussian_filter(x, (0.7, 1.3), order=(1, 0), truncate=3.0),
        ),
        Sample(
            "ndimage.gaussian_filter",
            "radius, axes, modes per axis",
            lambda m, x, y: m.ndimage.gaussian_filter(x, 1.0, radius=1, axes=(1,), mode=["wrap"]),
        ),
        Sample(
            "ndimage.uniform_filter1d",
            "size=2, axis=0, origin=-1, mode=nearest, cval",
            lambda m, x, y: m.ndimage.uniform_filter1d(
                x, 2, axis=0, origin=-1, mode="nearest", cval=0.5
            ),
        ),
        Sample(
            "ndimage.uniform_filter1d", "size=4", lambda m, x, y: m.ndimage.uniform_filter1d(x, 4)
        ),
        Sample(
            "ndimage.uniform_filter",
            "size per axis, origin, axes",
            lambda m, x, y: m.ndimage.uniform_filter(x, size=(2, 3), origin=(0, 1), axes=(0, 1)),
        ),
        Sample("ndimage.sobel", "axis=0", lambda m, x, y: m.ndimage.sobel(x, axis=0)),
        Sample("ndimage.prewitt", "axis=0", lambda m, x, y: m.ndimage.prewitt(x, axis=0)),
        Sample("ndimage.laplace", "axes=(1,)", lambda m, x, y: m.ndimage.laplace(x, axes=(1,))),
    ]
)

REFUSALS: list[Refusal] = [
    Refusal(
        f"ndimage.{name}",
        "output=",
        lambda m, x, y, name=name, args=args: getattr(m.ndimage, name)(
            x, *args, output=np.empty((3, 4))
        ),
    )
    for name, args in [
        ("map_coordinates", (np.zeros((2, 3, 4)),)), ("shift", (1.0,)), ("zoom", (1.0,)),
        ("affine_transform", (np.eye(2),)), ("rotate", (10.0,)), ("correlate1d", (_W1,)),
        ("convolve1d", (_W1,)), ("correlate", (_W2,)), ("convolve", (_W2,)),
        ("gaussian_filter1d", (1.0,)), ("gaussian_filter", (1.0,)),
        ("uniform_filter1d", (3,)), ("uniform_filter", ()), ("sobel", ()), ("prewitt", ()),
        ("laplace", ()),
    ]
]  # fmt: skip
