"""Sorting, partitioning, sets and differences: axis, kind, stable, kth; unique's index
outputs, equal_nan and sorted; assume_unique, return_indices; ediff1d's to_begin/to_end."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample


def _unique_weighted(m: Any, a: Any, **options: Any) -> Any:
    """``np.unique``'s values combined with each index output it returns, so one
    differentiable array checks every output against NumPy's: the values gathered back by
    the inverse (which must rebuild ``a``), times one plus the first indices and counts."""
    values, *indices = m.unique(a, **options)
    index = indices.pop(0) if options.get("return_index") else None
    inverse = indices.pop(0) if options.get("return_inverse") else None
    counts = indices.pop(0) if options.get("return_counts") else None
    axis = options.get("axis")
    out = values
    for weight in (index, counts):
        if weight is not None:
            shape = [1] * np.ndim(values)
            shape[0 if axis is None else axis] = -1
            out = out * (1.0 + np.reshape(np.asarray(weight), shape))
    if inverse is not None:
        gathered = m.take(values, np.asarray(inverse), axis=axis)
        out = m.concatenate([m.ravel(out), m.ravel(gathered)])
    return out


def _intersect_weighted(m: Any, a: Any, b: Any, **options: Any) -> Any:
    """``np.intersect1d(..., return_indices=True)``'s values times one plus each index."""
    values, in_a, in_b = m.intersect1d(a, b, **options)
    return values * (1.0 + np.asarray(in_a)) * (2.0 + np.asarray(in_b))


ROWS: list[Sample] = [
    # sorting and partitioning
    Sample("sort", "axis=None", lambda m, x, y: m.sort(x * y, axis=None)),
    Sample("sort", "axis=-1", lambda m, x, y: m.sort(x, axis=-1)),
    Sample("sort", "kind=heapsort", lambda m, x, y: m.sort(x * y, kind="heapsort")),
    Sample("sort", "kind=stable", lambda m, x, y: m.sort(x, axis=0, kind="stable")),
    Sample("sort", "kind=mergesort", lambda m, x, y: m.sort(x, axis=1, kind="mergesort")),
    Sample("sort", "stable=True", lambda m, x, y: m.sort(x * y, axis=0, stable=True)),
    Sample(
        "partition", "kind=introselect", lambda m, x, y: m.partition(x * y, 1, kind="introselect")
    ),
    Sample("partition", "kth a list", lambda m, x, y: m.partition(x, [1, 2], axis=1)),
    Sample(
        "partition", "kth a list, axis=0", lambda m, x, y: m.partition(x * y, [0, 1, 2], axis=0)
    ),
    Sample("partition", "axis=None", lambda m, x, y: m.partition(x, [0, 5, 11], axis=None)),
    Sample(
        "trim_zeros",
        "trim=f",
        lambda m, x, y: m.trim_zeros(x[0] * np.array([0.0, 1.0, 1.0, 0.0]), trim="f"),
    ),
    Sample(
        "trim_zeros",
        "trim=b",
        lambda m, x, y: m.trim_zeros(x[0] * np.array([0.0, 1.0, 0.0, 0.0]), trim="b"),
    ),
    Sample(
        "trim_zeros",
        "trim=fb",
        lambda m, x, y: m.trim_zeros(x[1] * np.array([0.0, 0.0, 1.0, 0.0]), trim="fb"),
    ),
    Sample(
        "trim_zeros",
        "axis=0",
        lambda m, x, y: m.trim_zeros(x * np.array([[0.0], [1.0], [0.0]]), axis=0),
    ),
    Sample(
        "trim_zeros",
        "axis=None, trim=b",
        lambda m, x, y: m.trim_zeros(
            x * np.array([[1.0], [1.0], [0.0]]) * np.array([1.0, 1.0, 1.0, 0.0]),
            trim="b",
            axis=None,
        ),
    ),
    Sample(
        "trim_zeros",
        "axis=-1, trim=f",
        lambda m, x, y: m.trim_zeros(x * np.array([0.0, 0.0, 1.0, 1.0]), trim="f", axis=-1),
    ),
    # sets
    Sample(
        "unique",
        "return_counts",
        lambda m, x, y: _unique_weighted(
            m, m.concatenate([x[0], x[0, :2], y[1]]), return_counts=True
        ),
    ),
    Sample(
        "unique",
        "return_index",
        lambda m, x, y: _unique_weighted(
            m, m.concatenate([x[0], x[0, :2], y[1]]), return_index=True
        ),
    ),
    Sample(
        "unique",
        "return_inverse",
        lambda m, x, y: _unique_weighted(
            m, m.concatenate([x[0], x[0, :2], y[1]]), return_inverse=True
        ),
    ),
    Sample(
        "unique",
        "return_index, return_inverse, return_counts",
        lambda m, x, y: _unique_weighted(
            m,
            m.concatenate([x[1], y[2], x[1, 1:]]),
            return_index=True,
            return_inverse=True,
            return_counts=True,
        ),
    ),
    Sample(
        "unique",
        "axis=0",
        lambda m, x, y: m.unique(m.concatenate([x * y, y[:1], x[1:2] * y[1:2]]), axis=0),
    ),
    Sample(
        "unique",
        "axis=1, return_counts",
        lambda m, x, y: _unique_weighted(
            m, m.concatenate([x, x[:, 1:3]], axis=1), axis=1, return_counts=True
        ),
    ),
    Sample(
        "unique",
        "equal_nan=False",
        lambda m, x, y: m.nan_to_num(m.unique(m.append(x[0], [np.nan, np.nan]), equal_nan=False)),
    ),
    Sample(
        "unique",
        "equal_nan=True",
        lambda m, x, y: m.nan_to_num(m.unique(m.append(x[0], [np.nan, np.nan]), equal_nan=True)),
    ),
    Sample(
        "unique",
        "sorted=False",
        lambda m, x, y: m.unique(m.concatenate([x[0], y[0], x[0, 1:]]), sorted=False),
    ),
    Sample(
        "unique",
        "sorted=False on integers (NumPy's hash order)",
        lambda m, x, y: x[0] * m.unique(m.astype(m.floor(y * 10), np.int64), sorted=False)[:4],
    ),
    Sample(
        "intersect1d",
        "assume_unique",
        lambda m, x, y: m.intersect1d(x[0], m.concatenate([x[0, 1:3], y[0]]), assume_unique=True),
    ),
    Sample(
        "intersect1d",
        "return_indices",
        lambda m, x, y: _intersect_weighted(
            m, x[1] * y[1], m.concatenate([y[0], (x * y)[1, ::-2]]), return_indices=True
        ),
    ),
    Sample(
        "intersect1d",
        "assume_unique, return_indices",
        lambda m, x, y: _intersect_weighted(
            m, x.ravel(), m.concatenate([x[2], y[0]]), assume_unique=True, return_indices=True
        ),
    ),
    Sample(
        "setdiff1d",
        "assume_unique",
        lambda m, x, y: m.setdiff1d(
            x[0] * y[0], m.concatenate([(x * y)[0, 1:3], y[1]]), assume_unique=True
        ),
    ),
    Sample(
        "setdiff1d",
        "assume_unique=False",
        lambda m, x, y: m.setdiff1d(x.ravel(), m.concatenate([x[1], y[1]]), assume_unique=False),
    ),
    Sample(
        "setxor1d",
        "assume_unique",
        lambda m, x, y: m.setxor1d(x[0], m.concatenate([x[0, 1:3], y[0]]), assume_unique=True),
    ),
    Sample(
        "setxor1d",
        "assume_unique=False",
        lambda m, x, y: m.setxor1d(x[1] * y[1], y[2], assume_unique=False),
    ),
    # differences
    Sample(
        "ediff1d",
        "to_end, to_begin (Tensors)",
        lambda m, x, y: m.ediff1d(x, to_end=y[0, :2], to_begin=y[1, 0]),
    ),
    Sample(
        "ediff1d", "to_begin (a list)", lambda m, x, y: m.ediff1d(x[0] * y[0], to_begin=[1.0, 2.0])
    ),
    Sample("ediff1d", "to_end (a Tensor)", lambda m, x, y: m.ediff1d(x[1], to_end=x[2] * y[2])),
]

# Keywords NumPy checks: tapegrad checks them the same way rather than ignore them.
REFUSALS: list[Refusal] = [
    Refusal("sort", "kind='bogus'", lambda m, x, y: m.sort(x, kind="bogus"), ValueError),
    Refusal(
        "sort",
        "kind= with stable=",
        lambda m, x, y: m.sort(x, kind="heap", stable=True),
        ValueError,
    ),
    Refusal(
        "partition",
        "kind='quicksort'",
        lambda m, x, y: m.partition(x, 1, kind="quicksort"),
        ValueError,
    ),
]
