"""Diagonals and triangles: diagonal trace diag diagflat tril triu.

Gathers (getitem with index arrays) and their adjoint scatters, and masks: every
order of derivative comes from those rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import normalize_axis, shape_of

ArrayLike = Any


def _diagonal_positions(rows: int, columns: int, offset: int) -> tuple[np.ndarray, np.ndarray]:
    """Row and column indices of the ``offset`` diagonal of a rows x columns matrix."""
    start_row, start_column = (0, offset) if offset >= 0 else (-offset, 0)
    length = max(0, min(rows - start_row, columns - start_column))
    steps = np.arange(length)
    return steps + start_row, steps + start_column


def diagonal(x: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The ``offset`` diagonal of the planes of ``axis1``/``axis2``, as the last axis.

    >>> import tapegrad as tg
    >>> tg.diagonal(tg.tensor([[1, 2], [3, 4]])).numpy()
    array([1, 4])
    """
    shape = shape_of(x)
    if len(shape) < 2:
        raise ValueError(f"diagonal: the input must be at least 2-d, got shape {shape}")
    a = normalize_axis(axis1, len(shape), "diagonal")[0]
    b = normalize_axis(axis2, len(shape), "diagonal")[0]
    if a == b:
        raise ValueError(f"diagonal: axis1 and axis2 cannot be the same ({axis1}, {axis2})")
    rest = [d for d in range(len(shape)) if d not in (a, b)]
    moved = ops.transpose(x, (*rest, a, b))
    rows, columns = _diagonal_positions(shape[a], shape[b], int(offset))
    return ops.getitem(moved, (Ellipsis, rows, columns))


def trace(
    x: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None
) -> Tensor:
    """The sum along a diagonal (see :func:`diagonal`).

    >>> import tapegrad as tg
    >>> tg.trace(tg.tensor([[1.0, 2.0], [3.0, 4.0]])).item()
    5.0
    """
    out = ops.sum(diagonal(x, offset, axis1, axis2), axis=-1)
    return out if dtype is None else ops.astype(out, dtype)


def diag(v: ArrayLike, k: int = 0) -> Tensor:
    """The ``k`` diagonal of a 2-d input, or a square matrix with a 1-d input on it.

    >>> import tapegrad as tg
    >>> tg.diag(tg.tensor([1.0, 2.0])).numpy()
    array([[1., 0.],
           [0., 2.]])
    """
    shape = shape_of(v)
    if len(shape) == 2:
        return diagonal(v, k)
    if len(shape) != 1:
        raise ValueError(f"diag: the input must be 1-d or 2-d, got shape {shape}")
    n = shape[0] + abs(int(k))
    rows, columns = _diagonal_positions(n, n, int(k))
    return ops.index_add(v, shape=(n, n), index=(rows, columns))


def diagflat(v: ArrayLike, k: int = 0) -> Tensor:
    """A square matrix with the flattened input on its ``k`` diagonal.

    >>> import tapegrad as tg
    >>> tg.diagflat(tg.tensor([1.0, 2.0]))
    tensor([[1., 0.],
            [0., 2.]], dtype=float64)
    """
    return diag(ops.reshape(v, (-1,)), k)


def _triangle(x: ArrayLike, k: int, lower: bool, op: str) -> Tensor:
    shape = shape_of(x)
    if not shape:
        raise ValueError(f"{op}: the input must be at least 1-d, got a 0-d input")
    rows, columns = shape[-2:] if len(shape) >= 2 else (shape[0], shape[0])  # as NumPy
    keep = np.tri(rows, columns, k if lower else k - 1, dtype=bool)
    if not lower:
        keep = ~keep
    dtype = getattr(x, "dtype", None)
    zero = False if dtype is not None and "bool" in str(dtype) else 0
    return ops.where(ops.asarray(keep, like=x) if hasattr(x, "shape") else keep, x, zero)


def tril(x: ArrayLike, k: int = 0) -> Tensor:
    """The lower triangle: elements above the ``k`` diagonal set to 0.

    >>> import tapegrad as tg
    >>> tg.tril(tg.tensor([[1, 2], [3, 4]])).numpy()
    array([[1, 0],
           [3, 4]])
    """
    return _triangle(x, int(k), True, "tril")


def triu(x: ArrayLike, k: int = 0) -> Tensor:
    """The upper triangle: elements below the ``k`` diagonal set to 0.

    >>> import tapegrad as tg
    >>> tg.triu(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([[1., 2.],
            [0., 4.]], dtype=float64)
    """
    return _triangle(x, int(k), False, "triu")
