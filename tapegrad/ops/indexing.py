"""Indexing: getitem (basic slices, integer arrays, boolean masks), take, take_along_axis.

The adjoint of gathering is scatter-adding (``index_add``), where repeated
indices accumulate; the adjoint of ``index_add`` is gathering again, so both
are differentiable to any order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, normalize_axis, shape_of

ArrayLike = Any


def normalize_index(index: Any) -> tuple[Any, ...]:
    """``index`` as a tuple of ints, slices, None, Ellipsis and backend arrays."""
    if not isinstance(index, tuple):
        index = (index,)
    out = []
    for item in index:
        if isinstance(item, Tensor):
            item = item._data
        elif isinstance(item, list):
            item = _list_index(item)
        out.append(item)
    return tuple(out)


def _accumulates(index: tuple[Any, ...]) -> bool:
    """Whether an index may repeat positions: it holds an integer array."""
    for item in index:
        dtype = getattr(item, "dtype", None)
        if dtype is not None and "bool" not in str(dtype):
            return True
    return False


def _index_add_forward(xp: Any, values: Any, shape: tuple[int, ...], index: tuple) -> Any:
    target = backend.zeros(xp, shape, like=values)
    if _accumulates(index):
        return backend.scatter_add(xp, target, index, values)
    return backend.index_set(xp, target, index, values)


def _index_add_vjp(g: Any, ans: Any, values: Any, shape: tuple[int, ...], index: tuple) -> Any:
    if type(g) is np.ndarray:  # the sweep's raw mode: getitem's forward, no Tensor
        return g[index]
    return _getitem(g, index=index)


_index_add = Primitive("index_add", _index_add_forward, complex_rules=True).defvjp(_index_add_vjp)


def index_add(values: ArrayLike, shape: tuple[int, ...], index: Any) -> Tensor:
    """Zeros of ``shape`` with ``values`` added at ``index`` (repeats accumulate).

    >>> import tapegrad as tg
    >>> tg.index_add(tg.tensor([1.0, 2.0, 3.0]), (2,), [0, 1, 0])  # zeros(2), then add at index
    tensor([4., 2.], dtype=float64)
    """
    return _index_add(values, shape=tuple(shape), index=normalize_index(index))


def _getitem_vjp(g: Any, ans: Any, x: Any, index: tuple) -> Any:
    if type(g) is np.ndarray:  # the sweep's raw mode: index_add's forward, no Tensor
        return _index_add_forward(np, g, shape_of(x), index)
    return _index_add(g, shape=shape_of(x), index=index)


_getitem = Primitive("getitem", backend.gather, complex_rules=True).defvjp(_getitem_vjp)


def getitem(x: ArrayLike, index: Any) -> Tensor:
    """``x[index]``: basic slices, integer arrays and boolean masks, as in NumPy.

    >>> import tapegrad as tg
    >>> tg.getitem(tg.tensor([1.0, 2.0, 4.0]), [0, 0, 2])
    tensor([1., 1., 4.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(x[[0, 0, 2]]))(tg.tensor([1.0, 2.0, 4.0]))  # duplicates add
    tensor([2., 0., 1.], dtype=float64)
    """
    return _getitem(x, index=normalize_index(index))


def take(x: ArrayLike, indices: Any, axis: int | None = None) -> Tensor:
    """Elements of ``x`` at ``indices`` along ``axis`` (of the flattened ``x`` when None).

    >>> import tapegrad as tg
    >>> tg.take(tg.tensor([1.0, 2.0, 4.0]), [2, 0])
    tensor([4., 1.], dtype=float64)
    """
    if axis is None:
        from tapegrad.ops.shape import reshape

        return getitem(reshape(x, (-1,)), indices)
    (axis,) = normalize_axis(axis, len(shape_of(x)), "take")
    return getitem(x, (slice(None),) * axis + (_as_index_array(indices),))


def take_along_axis(x: ArrayLike, indices: Any, axis: int) -> Tensor:
    """Pick values of ``x`` along ``axis`` at ``indices`` of the same rank (NumPy's rules).

    >>> import tapegrad as tg
    >>> tg.take_along_axis(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), tg.tensor([[1], [0]]), axis=1)
    tensor([[2.],
            [3.]], dtype=float64)
    """
    shape = shape_of(x)
    indices = _as_index_array(indices)
    if indices.ndim != len(shape):
        raise ValueError(
            f"take_along_axis: indices of shape {tuple(indices.shape)} must have as many "
            f"dimensions as x of shape {shape}"
        )
    (axis,) = normalize_axis(axis, len(shape), "take_along_axis")
    xp = backend.namespace(indices)
    index = []
    for d, n in enumerate(shape):
        if d == axis:
            index.append(indices)
        else:
            grid = [1] * len(shape)
            grid[d] = n
            index.append(xp.reshape(xp.arange(n), tuple(grid)))
    return getitem(x, tuple(index))


def _as_index_array(indices: Any) -> Any:
    if isinstance(indices, Tensor):
        return indices._data
    if backend.is_foreign(indices):
        return indices
    return _list_index(indices)


def _list_index(indices: Any) -> np.ndarray:
    """A list (or other sequence) of indices as an array; ``[]`` selects nothing, as in
    NumPy, rather than becoming a float64 array that NumPy refuses as an index."""
    array = np.asarray(indices)
    if array.size == 0 and array.dtype.kind == "f":
        return array.astype(np.intp)
    return array
