"""Elementwise functions: interpolation's left/right/period, clip's bounds, ufunc methods."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Sample

ROWS: list[Sample] = [
    Sample(
        "interp",
        "left, right",
        lambda m, x, y: m.interp(
            x[0] * 2.0 - 0.3, m.sort(y[1]), x[2] * y[2], left=x[1, 0], right=0.1
        ),
        False,
    ),  # fmt: skip
    Sample(
        "interp",
        "period",
        lambda m, x, y: m.interp(x[0] * 9.0, [0.0, 2.0, 5.0], y[1, :3], period=6.0),
        False,
    ),  # fmt: skip
    Sample("clip", "Tensor bounds", lambda m, x, y: m.clip(x, y - 0.2, y + 0.05), False),
    Sample("clip", "a_max only", lambda m, x, y: m.clip(x, None, 0.6), False),
    Sample("add.reduce", "axis=1", lambda m, x, y: m.add.reduce(x * y, axis=1)),
    Sample("multiply.reduce", "axis=0", lambda m, x, y: m.multiply.reduce(x)),
    Sample("add.accumulate", "axis=1", lambda m, x, y: m.add.accumulate(x * y, axis=1)),
    Sample("multiply.accumulate", "axis=0", lambda m, x, y: m.multiply.accumulate(x)),
    Sample("multiply.outer", "outer", lambda m, x, y: m.multiply.outer(x[0], y[1])),
    Sample("maximum.reduce", "axis=0", lambda m, x, y: m.maximum.reduce(x * y), False),
]
