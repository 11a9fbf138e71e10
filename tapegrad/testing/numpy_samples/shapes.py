"""Diagonals, padding and taking: offset, axis1/axis2, pad modes, take modes."""

from __future__ import annotations

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Sample

ROWS: list[Sample] = [
    Sample("trace", "offset=1", lambda m, x, y: m.trace(x * y, offset=1)),
    Sample("trace", "axis1, axis2", lambda m, x, y: m.trace(m.stack([x, y]), axis1=1, axis2=2)),
    Sample("diagonal", "offset=-1", lambda m, x, y: m.diagonal(x * y, offset=-1)),
    Sample(
        "diagonal",
        "axis1, axis2",
        lambda m, x, y: m.diagonal(m.stack([x, y]), offset=1, axis1=2, axis2=0),
    ),  # fmt: skip
    Sample("pad", "mode=constant", lambda m, x, y: m.pad(x * y, ((1, 0), (2, 1)))),
    Sample("pad", "constant_values", lambda m, x, y: m.pad(x, 1, constant_values=0.5)),
    Sample("pad", "mode=edge", lambda m, x, y: m.pad(x * y, 2, mode="edge")),
    Sample("pad", "mode=reflect", lambda m, x, y: m.pad(x, ((1, 2), (2, 1)), mode="reflect")),
    Sample("pad", "mode=symmetric", lambda m, x, y: m.pad(x * y, 2, mode="symmetric")),
    Sample("pad", "mode=wrap", lambda m, x, y: m.pad(x, ((0, 2), (3, 1)), mode="wrap")),
    Sample("take", "axis=1", lambda m, x, y: m.take(x * y, [0, 3, 3], axis=1)),
    Sample("take", "mode=wrap", lambda m, x, y: m.take(x, [5, -1, 13], mode="wrap")),
    Sample("take", "mode=clip", lambda m, x, y: m.take(x * y, [9, -2, 40], axis=None, mode="clip")),
    Sample(
        "take_along_axis",
        "axis=0",
        lambda m, x, y: m.take_along_axis(x, np.array([[2, 0, 1, 1]]), axis=0),
    ),  # fmt: skip
]
