"""Products: convolution modes, tensordot's axes, cross's axes, einsum's grammar and
optimize=, the gufuncs' axes=/axis=/keepdims=, and the polynomial products' options."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample, Y

# polyfit's sample points and weights (constants: polyfit differentiates in y only).
_POINTS = np.arange(6.0)
_WEIGHTS = np.concatenate([Y[0], Y[1, :2]]) + 0.5


def _fitted(m: Any, x: Any, y: Any) -> Any:
    """Six values to fit, from both inputs."""
    return m.concatenate([x[0], y[0, :2]])


def _fitted_columns(m: Any, x: Any, y: Any) -> Any:
    """Two data sets (columns) of six values to fit."""
    return m.concatenate([x[:, :2], y[:, :2]])


ROWS: list[Sample] = [
    Sample("convolve", "mode=same", lambda m, x, y: m.convolve(x[0], y[0, :3], mode="same")),
    Sample("convolve", "mode=valid", lambda m, x, y: m.convolve(x[0], y[1, :2], mode="valid")),
    Sample("correlate", "mode=full", lambda m, x, y: m.correlate(x[0], y[0, :3], mode="full")),
    Sample("tensordot", "axes=([1], [1])", lambda m, x, y: m.tensordot(x, y, axes=([1], [1]))),
    Sample("tensordot", "axes=0", lambda m, x, y: m.tensordot(x[0], y[1], axes=0)),
    Sample("cross", "axisa, axisb", lambda m, x, y: m.cross(x[:, :3].T, y[:, 1:], axisa=0)),
    Sample("einsum", "repeated subscript", lambda m, x, y: m.einsum("ii->i", x[:, :3] * y[:, :3])),
    Sample("einsum", "ellipsis", lambda m, x, y: m.einsum("...j,...j->...", x, y)),
    Sample("einsum", "interleaved", lambda m, x, y: m.einsum(x, [0, 1], y, [2, 1], [0, 2])),
    Sample("einsum", "implicit output", lambda m, x, y: m.einsum("ij,kj", x, y)),
    # optimize= changes the contraction order, never the value
    Sample(
        "einsum", "optimize=True", lambda m, x, y: m.einsum("ij,kj,kl->il", x, y, x, optimize=True)
    ),
    Sample(
        "einsum",
        "optimize=False",
        lambda m, x, y: m.einsum("ij,kj,kl->il", x, y, x, optimize=False),
    ),
    Sample(
        "einsum",
        "optimize=greedy",
        lambda m, x, y: m.einsum("ij,kj,kl->il", x, y, x, optimize="greedy"),
    ),
    Sample(
        "einsum",
        "optimize=optimal",
        lambda m, x, y: m.einsum("ij,jk,kl->il", x, y.T, x, optimize="optimal"),
    ),
    Sample(
        "einsum",
        "optimize=explicit path",
        lambda m, x, y: m.einsum("ij,kj,kl->il", x, y, x, optimize=["einsum_path", (1, 2), (0, 1)]),
    ),
    # the gufuncs' axes=, axis=, keepdims=
    Sample("matmul", "axes=", lambda m, x, y: m.matmul(x, y.T, axes=[(1, 0), (1, 0), (1, 0)])),
    Sample(
        "matmul",
        "axes=, stacked",
        lambda m, x, y: m.matmul(m.stack([x, y]), y.T, axes=[(1, 2), (0, 1), (0, 2)]),
    ),
    Sample(
        "matmul", "axes=, a vector", lambda m, x, y: m.matmul(x, y[:, 0], axes=[(1, 0), (0,), (0,)])
    ),
    Sample("vecdot", "axis=0", lambda m, x, y: m.vecdot(x, y, axis=0)),
    Sample("vecdot", "axis=0, keepdims", lambda m, x, y: m.vecdot(x, y, axis=0, keepdims=True)),
    Sample("vecdot", "keepdims", lambda m, x, y: m.vecdot(x, y, keepdims=True)),
    Sample("vecdot", "axes=", lambda m, x, y: m.vecdot(x, y.T, axes=[(0,), (1,)])),
    Sample(
        "vecdot",
        "axes=, keepdims",
        lambda m, x, y: m.vecdot(x, y.T, axes=[(0,), (1,), (0,)], keepdims=True),
    ),
    Sample("matvec", "axes=", lambda m, x, y: m.matvec(x, y[:, 1], axes=[(1, 0), (0,), (0,)])),
    Sample(
        "matvec",
        "axes=, broadcast loops",
        lambda m, x, y: m.matvec(x[:, None, :3], y[None, :, :3], axes=[(0, 2), (2,), (1,)]),
    ),
    Sample("vecmat", "axes=", lambda m, x, y: m.vecmat(x[0], y.T, axes=[(0,), (0, 1), (0,)])),
    Sample(
        "vecmat",
        "axes=, stacked",
        lambda m, x, y: m.vecmat(x[:2], m.stack([y, x]), axes=[(1,), (2, 1), (0,)]),
    ),
    Sample("cross", "axisc=0", lambda m, x, y: m.cross(x[:, :3], y[:, 1:], axisc=0)),
    Sample("cross", "axis=0", lambda m, x, y: m.cross(x[:, :3].T, y[:, 1:].T, axis=0)),
    Sample(
        "cross",
        "axisa, axisb, axisc",
        lambda m, x, y: m.cross(x[:, :3].T, y[:, 1:], axisa=0, axisb=1, axisc=0),
    ),
    Sample("cross", "2-vectors", lambda m, x, y: m.cross(x[:, :2], y[:, 2:])),
    Sample("polyder", "m=2", lambda m, x, y: m.polyder(x[0], m=2)),
    Sample("polyder", "m=0", lambda m, x, y: m.polyder(x[0] * y[0], m=0)),
    Sample("polyint", "m=2", lambda m, x, y: m.polyint(x[0], m=2)),
    Sample("polyint", "k=scalar", lambda m, x, y: m.polyint(x[0], k=0.3)),
    Sample("polyint", "m=2, k=Tensor list", lambda m, x, y: m.polyint(x[0], m=2, k=[y[0, 0], 0.3])),
    Sample("polyint", "m=2, k=Tensor", lambda m, x, y: m.polyint(x[0], m=2, k=y[1, :2])),
    Sample(
        "polyfit",
        "rcond=0.1 (drops a singular value)",
        lambda m, x, y: m.polyfit(_POINTS, _fitted(m, x, y), 2, rcond=0.1),
    ),
    Sample("polyfit", "w=", lambda m, x, y: m.polyfit(_POINTS, _fitted(m, x, y), 2, w=_WEIGHTS)),
    Sample(
        "polyfit", "two data sets", lambda m, x, y: m.polyfit(_POINTS, _fitted_columns(m, x, y), 1)
    ),
    Sample(
        "polyfit",
        "full=True: coefficients",
        lambda m, x, y: m.polyfit(_POINTS, _fitted(m, x, y), 2, full=True)[0],
    ),
    Sample(
        "polyfit",
        "full=True: residuals",
        lambda m, x, y: m.polyfit(_POINTS, _fitted(m, x, y), 2, full=True)[1],
    ),
    Sample(
        "polyfit",
        "full=True, w=, two data sets: residuals",
        lambda m, x, y: m.polyfit(_POINTS, _fitted_columns(m, x, y), 2, w=_WEIGHTS, full=True)[1],
    ),
    Sample(
        "polyfit",
        "cov=True: coefficients",
        lambda m, x, y: m.polyfit(_POINTS, _fitted(m, x, y), 2, cov=True)[0],
    ),
    Sample(
        "polyfit",
        "cov=True: covariance",
        lambda m, x, y: m.polyfit(_POINTS, _fitted(m, x, y), 2, cov=True)[1],
    ),
    Sample(
        "polyfit",
        "cov=True, w=, two data sets: covariance",
        lambda m, x, y: m.polyfit(_POINTS, _fitted_columns(m, x, y), 1, w=_WEIGHTS, cov=True)[1],
    ),
    Sample(
        "polyfit",
        "cov=unscaled: covariance",
        lambda m, x, y: m.polyfit(_POINTS, _fitted(m, x, y), 2, cov="unscaled")[1] * x[0, 0],
    ),
]

# axis= and keepdims= of gufuncs whose core dimensions differ: NumPy raises TypeError for
# ndarrays (axis= needs one shared core dimension, keepdims= scalar outputs), and so does
# tapegrad, naming the keyword.
REFUSALS: list[Refusal] = [
    Refusal(
        "matmul",
        "axis=0 (as NumPy: TypeError)",
        lambda m, x, y: m.matmul(x, y.T, axis=0),
        TypeError,
    ),
    Refusal(
        "matmul",
        "keepdims=True (as NumPy: TypeError)",
        lambda m, x, y: m.matmul(x, y.T, keepdims=True),
        TypeError,
    ),
    Refusal(
        "matvec",
        "axis=0 (as NumPy: TypeError)",
        lambda m, x, y: m.matvec(x, y[0], axis=0),
        TypeError,
    ),
    Refusal(
        "matvec",
        "keepdims=True (as NumPy: TypeError)",
        lambda m, x, y: m.matvec(x, y[0], keepdims=True),
        TypeError,
    ),
    Refusal(
        "vecmat",
        "axis=0 (as NumPy: TypeError)",
        lambda m, x, y: m.vecmat(x[:, 0], y, axis=0),
        TypeError,
    ),
    Refusal(
        "vecmat",
        "keepdims=True (as NumPy: TypeError)",
        lambda m, x, y: m.vecmat(x[:, 0], y, keepdims=True),
        TypeError,
    ),
]
