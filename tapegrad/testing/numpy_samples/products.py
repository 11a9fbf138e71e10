"""Products: convolution modes, tensordot's axes, cross's axes, einsum's grammar."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Sample

ROWS: list[Sample] = [
    Sample("convolve", "mode=same", lambda m, x, y: m.convolve(x[0], y[0, :3], mode="same")),
    Sample("convolve", "mode=valid", lambda m, x, y: m.convolve(x[0], y[1, :2], mode="valid")),
    Sample("correlate", "mode=full", lambda m, x, y: m.correlate(x[0], y[0, :3], mode="full")),
    Sample(
        "tensordot", "axes=([1], [1])", lambda m, x, y: m.tensordot(x, y, axes=([1], [1]))
    ),  # fmt: skip
    Sample("tensordot", "axes=0", lambda m, x, y: m.tensordot(x[0], y[1], axes=0)),
    Sample("cross", "axisa, axisb", lambda m, x, y: m.cross(x[:, :3].T, y[:, 1:], axisa=0)),
    Sample("einsum", "repeated subscript", lambda m, x, y: m.einsum("ii->i", x[:, :3] * y[:, :3])),
    Sample("einsum", "ellipsis", lambda m, x, y: m.einsum("...j,...j->...", x, y)),
    Sample("einsum", "interleaved", lambda m, x, y: m.einsum(x, [0, 1], y, [2, 1], [0, 2])),
    Sample("einsum", "implicit output", lambda m, x, y: m.einsum("ij,kj", x, y)),
]
