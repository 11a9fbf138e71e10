"""Sorting and searching: sort partition unique (with gradients); argsort argpartition
searchsorted lexsort (integer results, no gradient).

A sorted array is the input gathered in sorted order, ``take_along_axis(x, argsort(x))``:
its gradient scatters the cotangent back to where each element came from, and every
order of derivative comes from the gather's rule. Ties go in the order of a stable sort,
so tied elements each get the cotangent of the position they were sorted to.
"""

from __future__ import annotations

from collections import namedtuple
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.ops.primitive import Primitive, normalize_axis, shape_of

ArrayLike = Any


def _argsort_forward(xp: Any, x: Any, axis: int) -> Any:
    if xp is np:
        return np.argsort(x, axis=axis, kind="stable")
    return xp.argsort(x, axis=axis, stable=True)


_argsort = Primitive("argsort", _argsort_forward, differentiable=False)


def _sort_axis(x: ArrayLike, axis: int | None, op: str) -> tuple[Any, int]:
    """``x`` and the axis to sort along: the flattened input when ``axis`` is None."""
    if axis is None:
        return ops.reshape(x, (-1,)), 0
    shape = shape_of(x)
    if not shape:
        raise ValueError(f"{op}: a 0-d input cannot be sorted along an axis (use axis=None)")
    return x, normalize_axis(axis, len(shape), op)[0]


def argsort(
    x: ArrayLike, axis: int | None = -1, kind: str | None = None, order: Any = None,
    *, stable: bool | None = None,
) -> Tensor:  # fmt: skip
    """The indices that sort ``x`` along ``axis`` (a stable sort; integer, no gradient).

    >>> import tapegrad as tg
    >>> tg.argsort(tg.tensor([3.0, 1.0, 2.0])).numpy()
    array([1, 2, 0])
    """
    if order is not None:
        raise NotImplementedError("argsort: order= (structured arrays) is not supported")
    x, axis = _sort_axis(x, axis, "argsort")
    return _argsort(x, axis=axis)


def sort(
    x: ArrayLike, axis: int | None = -1, kind: str | None = None, order: Any = None,
    *, stable: bool | None = None,
) -> Tensor:  # fmt: skip
    """``x`` sorted along ``axis`` (flattened when None); NaN sorts last, as in NumPy.

    >>> import tapegrad as tg
    >>> tg.sort(tg.tensor([3.0, 1.0, 2.0])).numpy()
    array([1., 2., 3.])
    """
    if order is not None:
        raise NotImplementedError("sort: order= (structured arrays) is not supported")
    _check_sort_kind("sort", kind, stable)
    x, axis = _sort_axis(x, axis, "sort")
    return ops.take_along_axis(x, _argsort(x, axis=axis), axis)


def _check_sort_kind(op: str, kind: str | None, stable: bool | None) -> None:
    """NumPy's checks of ``kind=`` and ``stable=`` (every kind sorts to the same values)."""
    if kind is not None and stable is not None:
        raise ValueError(f"{op}: kind= and stable= cannot be given together, as in NumPy")
    if kind is not None and (
        not isinstance(kind, str) or kind[:1].lower() not in ("q", "h", "m", "s")
    ):
        raise ValueError(
            f"{op}: kind must be one of 'quicksort', 'heapsort', 'stable' or 'mergesort',"
            f" got {kind!r}"
        )


def _check_select_kind(op: str, kind: Any) -> None:
    """NumPy's check of ``kind=``: partitions have one, 'introselect'."""
    if kind != "introselect":
        raise ValueError(f"{op}: kind must be 'introselect', got {kind!r}")


def _argpartition_forward(xp: Any, x: Any, kth: Any, axis: int) -> Any:
    return backend.via_numpy(lambda a: np.argpartition(a, kth, axis=axis), xp, x)


_argpartition = Primitive("argpartition", _argpartition_forward, differentiable=False)


def argpartition(
    x: ArrayLike, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None
) -> Tensor:
    """Indices that put the ``kth`` elements where a sort would, smaller ones before them
    and larger ones after (integer, no gradient).

    >>> import tapegrad as tg
    >>> tg.argpartition(tg.tensor([3.0, 1.0, 2.0]), 1)
    tensor([1, 2, 0], dtype=int64)
    """
    x, axis = _sort_axis(x, axis, "argpartition")
    return _argpartition(x, kth=_static(kth), axis=axis)


def partition(
    x: ArrayLike, kth: Any, axis: int | None = -1, kind: str = "introselect", order: Any = None
) -> Tensor:
    """``x`` partially sorted: the ``kth`` elements in their sorted place, as ``np.partition``
    (the elements around them in the order NumPy's argpartition gives).

    >>> import tapegrad as tg
    >>> tg.partition(tg.tensor([3.0, 1.0, 2.0]), 1)
    tensor([1., 2., 3.], dtype=float64)
    """
    _check_select_kind("partition", kind)
    x, axis = _sort_axis(x, axis, "partition")
    return ops.take_along_axis(x, _argpartition(x, kth=_static(kth), axis=axis), axis)


def _static(kth: Any) -> Any:
    """``kth`` as a hashable constant (an int or a tuple of ints)."""
    if isinstance(kth, Tensor):
        kth = host_value(kth, "numpy.partition()")
    kth = np.asarray(kth)
    return int(kth) if kth.ndim == 0 else tuple(int(k) for k in kth.ravel())


def _searchsorted_forward(xp: Any, a: Any, v: Any, side: str, sorter: Any) -> Any:
    if xp is np:
        return np.searchsorted(a, v, side=side, sorter=sorter)  # type: ignore[call-overload]
    return xp.searchsorted(a, v, side=side, sorter=sorter)


_searchsorted = Primitive("searchsorted", _searchsorted_forward, differentiable=False)


def searchsorted(a: ArrayLike, v: ArrayLike, side: str = "left", sorter: Any = None) -> Tensor:
    """Where ``v``'s elements would go in the sorted 1-d ``a`` (integer, no gradient).

    >>> import tapegrad as tg
    >>> tg.searchsorted(tg.tensor([1.0, 2.0, 3.0]), 2.5).item()
    2
    """
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right', got {side!r}")
    if isinstance(sorter, Tensor):
        sorter = sorter.data
    return _searchsorted(a, v, side=side, sorter=sorter)


def _lexsort_forward(xp: Any, *keys: Any, axis: int) -> Any:
    if xp is np:
        return np.lexsort(keys, axis=axis)
    return backend.via_numpy(lambda *k: np.lexsort(k, axis=axis), xp, *keys)


_lexsort = Primitive("lexsort", _lexsort_forward, differentiable=False)


def lexsort(keys: Any, axis: int = -1) -> Tensor:
    """Indices that sort by the last key, then the one before, ... (integer, no gradient).

    >>> import tapegrad as tg
    >>> tg.lexsort([tg.tensor([1, 0, 1]), tg.tensor([2, 2, 1])])  # last key first
    tensor([2, 1, 0], dtype=int64)
    """
    if isinstance(keys, Tensor) or hasattr(keys, "shape"):
        keys = list(ops.unstack(keys)) if len(shape_of(keys)) > 1 else [keys]
    return _lexsort(*keys, axis=axis)


def unique(
    ar: ArrayLike,
    return_index: bool = False,
    return_inverse: bool = False,
    return_counts: bool = False,
    axis: int | None = None,
    *,
    equal_nan: bool = True,
    sorted: bool = True,  # noqa: A002 - NumPy's name
) -> Any:
    """The sorted unique elements (or slices along ``axis``), as ``np.unique``: the values
    are gathered from ``ar``, so they carry its gradient (each unique value the
    cotangent of its first occurrence); indices, inverse and counts are integers.

    >>> import tapegrad as tg
    >>> tg.unique(tg.tensor([2.0, 1.0, 2.0])).numpy()
    array([1., 2.])
    """
    host = host_value(ar, "numpy.unique()")
    _, index, inverse, counts = np.unique(
        host, return_index=True, return_inverse=True, return_counts=True, axis=axis,
        equal_nan=equal_nan,
    )  # fmt: skip
    if not sorted and not (return_index or return_inverse or return_counts):
        index = _unsorted_index(host, index, axis, equal_nan)
    values = ops.take(ar, index, axis=axis)
    wanted = ((return_index, index), (return_inverse, inverse), (return_counts, counts))
    extras = [_integers(found, ar) for asked, found in wanted if asked]
    return (values, *extras) if extras else values


def _unsorted_index(
    host: np.ndarray, index: np.ndarray, axis: int | None, equal_nan: bool
) -> np.ndarray:
    """The first indices of the unique values in the order ``np.unique(..., sorted=False)``
    gives them (a hash order for integers in NumPy 2.3+, else the sorted order), from the
    first indices ``index`` in the sorted order."""
    found = np.unique(host, axis=axis, equal_nan=equal_nan, sorted=False)
    in_order = np.take(host, index, axis=axis)
    if np.array_equal(found, in_order, equal_nan=in_order.dtype.kind in "fc"):
        return index
    if axis is not None:
        raise NotImplementedError("numpy.unique: sorted=False with axis is not supported")
    return index[np.searchsorted(in_order, found)]


def _integers(found: np.ndarray, like: Any) -> Tensor:
    return ops.asarray(found, like=like)


UniqueAll = namedtuple("UniqueAll", ["values", "indices", "inverse_indices", "counts"])
UniqueCounts = namedtuple("UniqueCounts", ["values", "counts"])
UniqueInverse = namedtuple("UniqueInverse", ["values", "inverse_indices"])


def _unique_parts(x: ArrayLike) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    values, index, inverse, counts = unique(
        x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False
    )
    return values, index, ops.reshape(inverse, shape_of(x)), counts


def unique_all(x: ArrayLike) -> UniqueAll:
    """The array API's unique_all: values, first indices, inverse indices (x's shape), counts.

    >>> import tapegrad as tg
    >>> tg.unique_all(tg.tensor([2.0, 1.0, 2.0])).counts
    tensor([1, 2], dtype=int64)
    """
    return UniqueAll(*_unique_parts(x))


def unique_counts(x: ArrayLike) -> UniqueCounts:
    """The unique values and how often each occurs.

    >>> import tapegrad as tg
    >>> tg.unique_counts(tg.tensor([2.0, 1.0, 2.0]))
    UniqueCounts(values=tensor([1., 2.], dtype=float64), counts=tensor([1, 2], dtype=int64))
    """
    values, _, _, counts = _unique_parts(x)
    return UniqueCounts(values, counts)


def unique_inverse(x: ArrayLike) -> UniqueInverse:
    """The unique values and, for each element of ``x``, the index of its value.

    >>> import tapegrad as tg
    >>> tg.unique_inverse(tg.tensor([2.0, 1.0, 2.0])).inverse_indices
    tensor([1, 0, 1], dtype=int64)
    """
    values, _, inverse, _ = _unique_parts(x)
    return UniqueInverse(values, inverse)


def unique_values(x: ArrayLike) -> Tensor:
    """The unique values, sorted.

    >>> import tapegrad as tg
    >>> tg.unique_values(tg.tensor([2.0, 1.0, 2.0]))
    tensor([1., 2.], dtype=float64)
    """
    return unique(x, equal_nan=False)
