"""Shapes: diagonals and triangles, padding and taking, joining, splitting and reshaping,
choosing and putting, grids and ranges (offset, axis1/axis2, k, pad and take modes, axis,
num/endpoint/base)."""

from __future__ import annotations

import numpy as np

from tapegrad.testing.numpy_samples.inputs import MASK, Sample, in_place

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


ROWS += [
    # joining, splitting, reshaping
    Sample("append", "axis=0", lambda m, x, y: m.append(x, y[:1], axis=0)),
    Sample("append", "axis=1", lambda m, x, y: m.append(x * y, y[:, :2], axis=1)),
    Sample("concat", "axis=1", lambda m, x, y: m.concat([x, y * x], axis=1)),
    Sample("concat", "axis=None", lambda m, x, y: m.concat([x, y[:2]], axis=None)),
    Sample("array", "ndmin=3", lambda m, x, y: m.array(x[0] * y[0], ndmin=3)),
    Sample("array", "ndmin=2 on a list", lambda m, x, y: m.array([x[0, 0], y[1, 1]], ndmin=2)),
    Sample(
        "array", "ndmax=2", lambda m, x, y: m.array([[x[0, 0], y[1, 1]], [x[2, 3], 2.0]], ndmax=2)
    ),
    Sample("flip", "axis=0", lambda m, x, y: m.flip(x * y, axis=0)),
    Sample("flip", "axis=None", lambda m, x, y: m.flip(x, axis=None)),
    Sample("flip", "axis=(0, 1)", lambda m, x, y: m.flip(x * y, axis=(0, 1))),
    Sample(
        "permute_dims",
        "axes=(2, 0, 1)",
        lambda m, x, y: m.permute_dims(m.stack([x, y]), axes=(2, 0, 1)),
    ),
    Sample("permute_dims", "axes=None", lambda m, x, y: m.permute_dims(m.stack([x, y]), axes=None)),
    Sample(
        "transpose", "axes=(1, 2, 0)", lambda m, x, y: m.transpose(m.stack([x, y]), axes=(1, 2, 0))
    ),
    Sample("transpose", "axes given positionally", lambda m, x, y: m.transpose(x * y, (1, 0))),
    Sample("rollaxis", "start=1", lambda m, x, y: m.rollaxis(m.stack([x, y]), 2, start=1)),
    Sample("rollaxis", "start=3", lambda m, x, y: m.rollaxis(m.stack([x, y]), 0, start=3)),
    Sample("rot90", "k=2", lambda m, x, y: m.rot90(x * y, k=2)),
    Sample(
        "rot90", "k=-1, axes=(2, 0)", lambda m, x, y: m.rot90(m.stack([x, y]), k=-1, axes=(2, 0))
    ),
    Sample("rot90", "k=3, axes=(1, 0)", lambda m, x, y: m.rot90(x, k=3, axes=(1, 0))),
    Sample(
        "squeeze", "axis=(0, 2)", lambda m, x, y: m.squeeze(m.stack([x * y])[:, :, :1], axis=(0, 2))
    ),
    Sample("squeeze", "axis=-1", lambda m, x, y: m.squeeze(x[:, 1:2], axis=-1)),
    Sample("unstack", "axis=1", lambda m, x, y: m.unstack(x * y, axis=1)[2]),
    Sample("unstack", "axis=-1", lambda m, x, y: m.unstack(m.stack([x, y]), axis=-1)[3]),
    Sample("require", "requirements", lambda m, x, y: m.require(x * y, requirements=["C", "A"])),
    Sample("require", "requirements='F'", lambda m, x, y: m.require(x, requirements="F")),
    Sample("insert", "axis=None", lambda m, x, y: m.insert(x * y, [1, 5], y[0, :2], axis=None)),
    Sample("insert", "axis=0", lambda m, x, y: m.insert(x, 1, y[2], axis=0)),
    Sample("delete", "axis=None", lambda m, x, y: m.delete(x * y, [0, 7, 11], axis=None)),
    Sample("delete", "axis=0, a slice", lambda m, x, y: m.delete(x, slice(0, 2), axis=0)),
    Sample("compress", "axis=None", lambda m, x, y: m.compress(MASK.ravel(), x * y, axis=None)),
    Sample("compress", "axis=1", lambda m, x, y: m.compress([True, False, True], x, axis=1)),
    Sample("repeat", "axis=None", lambda m, x, y: m.repeat(x * y, 2, axis=None)),
    Sample("repeat", "axis=1, counts", lambda m, x, y: m.repeat(x, [1, 0, 2, 3], axis=1)),
    Sample("roll", "axis=None", lambda m, x, y: m.roll(x * y, 5, axis=None)),
    Sample("roll", "axis=(0, 1)", lambda m, x, y: m.roll(x, (1, -2), axis=(0, 1))),
    Sample("split", "axis=0, indices", lambda m, x, y: m.split(x * y, [1, 2], axis=0)[2]),
    Sample("array_split", "axis=0", lambda m, x, y: m.array_split(x, 2, axis=0)[0]),
    Sample("stack", "axis=1", lambda m, x, y: m.stack([x, y * x], axis=1)),
    # diagonals and triangles
    Sample("diag", "k=-1 (extract)", lambda m, x, y: m.diag(x * y, k=-1)),
    Sample("diag", "k=2 (extract)", lambda m, x, y: m.diag(x, k=2)),
    Sample("diag", "k=-2 (construct)", lambda m, x, y: m.diag(x[0] * y[0], k=-2)),
    Sample("diagflat", "k=1", lambda m, x, y: m.diagflat(x[:2, :2] * y[:2, :2], k=1)),
    Sample("diagflat", "k=-2", lambda m, x, y: m.diagflat(x[0], k=-2)),
    Sample("tril", "k=1", lambda m, x, y: m.tril(x * y, k=1)),
    Sample("tril", "k=-1", lambda m, x, y: m.tril(x, k=-1)),
    Sample("tril", "k=-2 on a stack", lambda m, x, y: m.tril(m.stack([x, y]), k=-2)),
    Sample("triu", "k=2", lambda m, x, y: m.triu(x * y, k=2)),
    Sample("triu", "k=-1", lambda m, x, y: m.triu(x, k=-1)),
    Sample("triu", "k=0 on a stack", lambda m, x, y: m.triu(m.stack([x, y]), k=0)),
    Sample("vander", "N=5, increasing", lambda m, x, y: m.vander(x[0], N=5, increasing=True)),
    Sample("vander", "N, increasing given positionally", lambda m, x, y: m.vander(y[1], 3, True)),
    Sample("vander", "N=None", lambda m, x, y: m.vander(x[0] * y[0], N=None)),
    Sample(
        "fill_diagonal",
        "wrap (given positionally)",
        lambda m, x, y: in_place(m, "fill_diagonal", m.concatenate([x, y]), y[0, :3], True),
    ),
    Sample(
        "fill_diagonal",
        "wrap=False, tall",
        lambda m, x, y: in_place(m, "fill_diagonal", m.concatenate([x, y]), y[0, 0], False),
    ),
    # choosing and putting
    Sample("choose", "mode=raise", lambda m, x, y: m.choose([[0, 1, 1, 0]], [x, y], mode="raise")),
    Sample(
        "choose", "mode=wrap", lambda m, x, y: m.choose([[0, 3, -1, 2]], [x, y * x], mode="wrap")
    ),
    Sample(
        "choose", "mode=clip", lambda m, x, y: m.choose([[0, 5, -1, 1]], [x, y, x * y], mode="clip")
    ),
    Sample(
        "put",
        "mode=wrap (given positionally)",
        lambda m, x, y: in_place(m, "put", x, [13, -1, 5], y[0, :3], "wrap"),
    ),
    Sample(
        "put",
        "mode=clip (given positionally)",
        lambda m, x, y: in_place(m, "put", x * y, [40, -3, 4], y[1, :3], "clip"),
    ),
    Sample(
        "put",
        "mode=raise (given positionally)",
        lambda m, x, y: in_place(m, "put", x, [2, 7], y[2, :2], "raise"),
    ),
    Sample("where", "x, y given positionally", lambda m, x, y: m.where(x > y, x * y, y)),
    Sample(
        "where", "x, y given positionally, broadcast", lambda m, x, y: m.where(MASK[0], x, y[1])
    ),
    Sample("full_like", "shape=(2, 5)", lambda m, x, y: m.full_like(x, y[0, 0], shape=(2, 5))),
    Sample(
        "full_like",
        "shape, fill_value broadcast",
        lambda m, x, y: m.full_like(x, y[0], shape=(2, 4)),
    ),
    # grids and ranges
    Sample(
        "linspace",
        "num, endpoint=False, axis=1",
        lambda m, x, y: m.linspace(x[0, 0], y[1], num=5, endpoint=False, axis=1),
    ),
    Sample(
        "linspace",
        "retstep: the samples",
        lambda m, x, y: m.linspace(x[0], y[1], num=4, retstep=True)[0],
    ),
    Sample(
        "linspace",
        "retstep: the step",
        lambda m, x, y: m.linspace(x[0], y[1], num=4, retstep=True)[1],
    ),
    Sample(
        "linspace",
        "retstep, endpoint=False: the step",
        lambda m, x, y: m.linspace(x[0, 1], y[1, 2], num=6, endpoint=False, retstep=True)[1],
    ),
    Sample("linspace", "axis=-1", lambda m, x, y: m.linspace(x, y, num=3, axis=-1)),
    Sample(
        "geomspace",
        "num, endpoint=False, axis=1",
        lambda m, x, y: m.geomspace(x[0, 0], y[1], num=5, endpoint=False, axis=1),
    ),
    Sample("geomspace", "axis=-1", lambda m, x, y: m.geomspace(x, y, num=3, axis=-1)),
    Sample(
        "logspace",
        "num, endpoint=False, axis=1",
        lambda m, x, y: m.logspace(x[0, 0], y[1], num=5, endpoint=False, axis=1),
    ),
    Sample("logspace", "base=2.0", lambda m, x, y: m.logspace(x[0], y[0], num=3, base=2.0)),
    Sample(
        "logspace",
        "base a Tensor",
        lambda m, x, y: m.logspace(x[0, 0], y[0, 0], num=4, base=y[1, 1] + 1.0),
    ),
    Sample("meshgrid", "indexing=ij", lambda m, x, y: m.meshgrid(x[0], y[0, :3], indexing="ij")[1]),
    Sample("meshgrid", "indexing=xy", lambda m, x, y: m.meshgrid(x[0], y[0, :3], indexing="xy")[1]),
    Sample("meshgrid", "sparse", lambda m, x, y: m.meshgrid(x[0], y[0, :3], sparse=True)[1]),
    Sample(
        "meshgrid",
        "sparse, indexing=ij, 3 inputs",
        lambda m, x, y: m.meshgrid(x[0], y[0, :3], x[1, :2], sparse=True, indexing="ij")[2],
    ),
    Sample(
        "linspace",
        "endpoint, axis=1, a scalar stop",
        lambda m, x, y: m.linspace(x[0], y[1, 1], num=4, endpoint=True, axis=1),
    ),
    Sample(
        "geomspace",
        "endpoint, axis=-1, a scalar stop",
        lambda m, x, y: m.geomspace(x[1], y[1, 1], num=4, endpoint=True, axis=-1),
    ),
    Sample(
        "logspace",
        "endpoint, axis=1, a scalar stop",
        lambda m, x, y: m.logspace(x[2], y[2, 1], num=3, endpoint=True, axis=1),
    ),
]
