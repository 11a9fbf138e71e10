"""Joining and splitting beyond concatenate/stack/split: hstack vstack dstack column_stack
append block insert delete array_split hsplit vsplit dsplit.

Built from concatenate, reshape and indexing (``insert`` and ``block`` through
layout.gather_layout), so their gradients come from those rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.layout import gather_layout, nested_leaves
from tapegrad.ops.primitive import normalize_axis, shape_of
from tapegrad.ops.rearranging import atleast_1d, atleast_2d, atleast_3d
from tapegrad.ops.rule_helpers import result_dtype

ArrayLike = Any


def _joined(arrays: Any, axis: int, dtype: Any, op: str) -> Tensor:
    arrays = list(arrays)
    if not arrays:
        raise ValueError(f"{op}: need at least one array")
    out = ops.concatenate(arrays, axis=axis)
    return out if dtype is None else ops.astype(out, dtype)


def hstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    """Join along axis 1 (axis 0 for 1-d inputs).

    >>> import tapegrad as tg
    >>> tg.hstack([tg.tensor([1, 2]), tg.tensor([3])]).numpy()
    array([1, 2, 3])
    """
    arrays = [atleast_1d(a) for a in tup]
    axis = 0 if arrays and len(shape_of(arrays[0])) == 1 else 1
    return _joined(arrays, axis, dtype, "hstack")


def vstack(tup: Any, *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    """Join along axis 0, 1-d inputs as rows.

    >>> import tapegrad as tg
    >>> tg.vstack([tg.tensor([1, 2]), tg.tensor([3, 4])]).shape
    (2, 2)
    """
    return _joined([atleast_2d(a) for a in tup], 0, dtype, "vstack")


row_stack = vstack


def dstack(tup: Any) -> Tensor:
    """Join along axis 2 (depth), inputs made at least 3-d first.

    >>> import tapegrad as tg
    >>> tg.dstack([tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0])]).shape
    (1, 2, 2)
    """
    return _joined([atleast_3d(a) for a in tup], 2, None, "dstack")


def column_stack(tup: Any) -> Tensor:
    """Join 1-d inputs as columns (and 2-d ones along axis 1).

    >>> import tapegrad as tg
    >>> tg.column_stack([tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0])])
    tensor([[1., 3.],
            [2., 4.]], dtype=float64)
    """
    columns = [ops.reshape(a, (-1, 1)) if len(shape_of(a)) < 2 else a for a in tup]
    return _joined(columns, 1, None, "column_stack")


def append(arr: ArrayLike, values: ArrayLike, axis: int | None = None) -> Tensor:
    """``values`` joined after ``arr`` along ``axis`` (both flattened when None).

    >>> import tapegrad as tg
    >>> tg.append(tg.tensor([1.0, 2.0]), 3.0)
    tensor([1., 2., 3.], dtype=float64)
    """
    if axis is None:
        return ops.concatenate([ops.reshape(arr, (-1,)), ops.reshape(values, (-1,))])
    return ops.concatenate([arr, values], axis=axis)


def _rebuild(nest: Any, leaves: Any) -> Any:
    if isinstance(nest, (list, tuple)):
        return type(nest)(_rebuild(item, leaves) for item in nest)
    return next(leaves)


def block(arrays: Any) -> Tensor:
    """Assemble an array from nested lists of blocks, as ``np.block``.

    >>> import tapegrad as tg
    >>> one = tg.tensor([[1.0]])
    >>> tg.block([[one, 2 * one], [3 * one, 4 * one]]).numpy()
    array([[1., 2.],
           [3., 4.]])
    """
    leaves = nested_leaves(arrays)
    dtype = result_dtype(*leaves)
    return gather_layout(leaves, lambda numbers: np.block(_rebuild(arrays, iter(numbers))), dtype)


def insert(arr: ArrayLike, obj: Any, values: ArrayLike, axis: int | None = None) -> Tensor:
    """``values`` inserted before the indices ``obj`` along ``axis`` (flattened when None),
    cast to ``arr``'s dtype, as ``np.insert``.

    >>> import tapegrad as tg
    >>> tg.insert(tg.tensor([1.0, 2.0]), 1, 5.0).numpy()
    array([1., 5., 2.])
    """
    dtype = result_dtype(arr)
    obj = obj.numpy() if isinstance(obj, Tensor) else obj

    def arrange(numbers: list[np.ndarray]) -> np.ndarray:
        # values' numbers are placed as NumPy places values: broadcast, repeated
        return np.insert(numbers[0], obj, numbers[1], axis=axis)

    return gather_layout([arr, values], arrange, dtype)


def delete(arr: ArrayLike, obj: Any, axis: int | None = None) -> Tensor:
    """``arr`` without the entries ``obj`` along ``axis`` (flattened when None).

    >>> import tapegrad as tg
    >>> tg.delete(tg.tensor([1.0, 2.0, 4.0]), 1)
    tensor([1., 4.], dtype=float64)
    """
    obj = obj.numpy() if isinstance(obj, Tensor) else obj
    return gather_layout(
        [arr], lambda numbers: np.delete(numbers[0], obj, axis=axis), result_dtype(arr)
    )


def _split_with(x: ArrayLike, pieces: list[np.ndarray], axis: int) -> list[Tensor]:
    lead = (slice(None),) * axis
    out, start = [], 0
    for piece in pieces:
        out.append(ops.getitem(x, (*lead, slice(start, start + len(piece)))))
        start += len(piece)
    return out


def array_split(x: ArrayLike, indices_or_sections: Any, axis: int = 0) -> list[Tensor]:
    """Split into pieces along ``axis``; unlike split, sections need not divide evenly.

    >>> import tapegrad as tg
    >>> tg.array_split(tg.arange(5.0), 2)
    [tensor([0., 1., 2.], dtype=float64), tensor([3., 4.], dtype=float64)]
    """
    shape = shape_of(x)
    (axis,) = normalize_axis(axis, len(shape), "array_split")
    pieces = np.array_split(np.arange(shape[axis]), indices_or_sections)
    return _split_with(x, pieces, axis)


def _split_along(x: ArrayLike, indices_or_sections: Any, axis: int, op: str) -> list[Tensor]:
    shape = shape_of(x)
    try:
        pieces = np.split(np.arange(shape[axis]), indices_or_sections)
    except ValueError as exc:
        raise ValueError(f"{op}: {exc} (shape {shape}, axis {axis})") from None
    return _split_with(x, pieces, axis)


def hsplit(x: ArrayLike, indices_or_sections: Any) -> list[Tensor]:
    """Split along axis 1 (axis 0 for 1-d input).

    >>> import tapegrad as tg
    >>> tg.hsplit(tg.arange(4.0), 2)
    [tensor([0., 1.], dtype=float64), tensor([2., 3.], dtype=float64)]
    """
    ndim = len(shape_of(x))
    if ndim == 0:
        raise ValueError("hsplit: the input must be at least 1-d")
    return _split_along(x, indices_or_sections, 1 if ndim > 1 else 0, "hsplit")


def vsplit(x: ArrayLike, indices_or_sections: Any) -> list[Tensor]:
    """Split along axis 0 of an input at least 2-d.

    >>> import tapegrad as tg
    >>> tg.vsplit(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), 2)
    [tensor([[1., 2.]], dtype=float64), tensor([[3., 4.]], dtype=float64)]
    """
    if len(shape_of(x)) < 2:
        raise ValueError("vsplit: the input must be at least 2-d")
    return _split_along(x, indices_or_sections, 0, "vsplit")


def dsplit(x: ArrayLike, indices_or_sections: Any) -> list[Tensor]:
    """Split along axis 2 of an input at least 3-d.

    >>> import tapegrad as tg
    >>> [t.shape for t in tg.dsplit(tg.ones((1, 1, 4)), 2)]
    [(1, 1, 2), (1, 1, 2)]
    """
    if len(shape_of(x)) < 3:
        raise ValueError("dsplit: the input must be at least 3-d")
    return _split_along(x, indices_or_sections, 2, "dsplit")
