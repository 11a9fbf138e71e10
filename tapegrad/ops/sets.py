"""Set operations on 1-d arrays: union1d intersect1d setdiff1d setxor1d.

NumPy decides which elements are kept (on the host values); the kept values are
gathered from the inputs, so they carry the inputs' gradients (each value that of the
occurrence NumPy picks: the first, as ``unique`` does).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor, host_value

ArrayLike = Any


def _flat(x: ArrayLike) -> Any:
    return ops.reshape(x, (-1,))


def union1d(ar1: ArrayLike, ar2: ArrayLike) -> Tensor:
    """The sorted unique values found in either input.

    >>> import tapegrad as tg
    >>> tg.union1d(tg.tensor([3.0, 1.0]), [1.0, 2.0]).numpy()
    array([1., 2., 3.])
    """
    return ops.unique(ops.concatenate([_flat(ar1), _flat(ar2)]))


def intersect1d(
    ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False, return_indices: bool = False
) -> Any:
    """The sorted unique values found in both inputs (gathered from ``ar1``); with
    ``return_indices``, also where each first occurs in the flattened inputs.

    >>> import tapegrad as tg
    >>> tg.intersect1d(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([3.0, 1.0]))
    tensor([1., 3.], dtype=float64)
    """
    host1 = np.asarray(host_value(ar1, "numpy.intersect1d()")).ravel()
    host2 = np.asarray(host_value(ar2, "numpy.intersect1d()")).ravel()
    _, index1, index2 = np.intersect1d(host1, host2, assume_unique, return_indices=True)
    values = ops.take(_flat(ar1), index1)
    if not return_indices:
        return values
    return values, ops.asarray(index1, like=values), ops.asarray(index2, like=values)


def setdiff1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> Tensor:
    """The unique values of ``ar1`` not in ``ar2`` (sorted unless ``assume_unique``).

    >>> import tapegrad as tg
    >>> tg.setdiff1d(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([3.0, 1.0]))
    tensor([2.], dtype=float64)
    """
    host1 = np.asarray(host_value(ar1, "numpy.setdiff1d()")).ravel()
    host2 = np.asarray(host_value(ar2, "numpy.setdiff1d()")).ravel()
    if assume_unique:
        index = np.flatnonzero(~np.isin(host1, host2, assume_unique=True))
    else:
        _, first = np.unique(host1, return_index=True)
        index = first[~np.isin(host1[first], host2)]
    return ops.take(_flat(ar1), index)


def setxor1d(ar1: ArrayLike, ar2: ArrayLike, assume_unique: bool = False) -> Tensor:
    """The sorted unique values found in exactly one of the inputs.

    >>> import tapegrad as tg
    >>> tg.setxor1d(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([3.0, 4.0]))
    tensor([1., 2., 4.], dtype=float64)
    """
    joined = ops.concatenate([_flat(ar1), _flat(ar2)])
    host1 = np.asarray(host_value(ar1, "numpy.setxor1d()")).ravel()
    host2 = np.asarray(host_value(ar2, "numpy.setxor1d()")).ravel()
    if not assume_unique:
        host1, host2 = np.unique(host1), np.unique(host2)
    keep = np.setxor1d(host1, host2, assume_unique=True)
    host = np.asarray(host_value(joined, "numpy.setxor1d()"))
    _, first = np.unique(host, return_index=True)
    index = first[np.isin(host[first], keep)]
    return ops.take(joined, index)
