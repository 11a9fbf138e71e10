"""``reduce``, ``accumulate`` and ``reduceat`` of any differentiable binary ufunc, for the
ufuncs without a reduction of their own (``np.subtract.reduce``, ``np.logaddexp.reduce``,
``np.hypot.accumulate``, ``np.maximum.accumulate``, ``np.add.reduceat``...).

Each is NumPy's definition written out: a left fold of the binary op along the axis
(``((a0 op a1) op a2) ...``), one recorded op per element of the axis, so the gradient is
the chain rule through the fold. ``add``, ``multiply``, ``maximum`` and the rest that have a
reduction (tapegrad/numpy/ufunc_tables.py) use it instead: one op, not one per element.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor

_NO_VALUE = np._NoValue  # NumPy's "not given", which its own methods use for ``initial``


def _name(ufunc: Any, method: str) -> str:
    return f"numpy.{ufunc.__name__}.{method}"


def _check(ufunc: Any, method: str) -> None:
    if ufunc.nin != 2 or ufunc.nout != 1 or ufunc.signature is not None:
        raise ValueError(
            f"{_name(ufunc, method)}: only binary ufuncs with one output reduce "
            f"({ufunc.__name__} takes {ufunc.nin} inputs and gives {ufunc.nout} outputs)"
        )


def _axis(ufunc: Any, method: str, a: Tensor, axis: Any) -> tuple[Tensor, int]:
    """``a`` with the axis to fold moved first (flattened for ``axis=None``)."""
    ndim = len(a.shape)
    if method == "reduce":  # NumPy's own verdict on the axis, from an array of ones
        ufunc.reduce(np.ones((1,) * ndim), axis=axis)
    if axis is None:
        return ops.reshape(a, (-1,)), 0
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise NotImplementedError(
                f"{_name(ufunc, method)}: axis={axis!r} (more than one axis) is not supported "
                f"on Tensors for {ufunc.__name__}"
            )
        (axis,) = axis
    if not -ndim <= axis < ndim:
        raise np.exceptions.AxisError(axis, ndim, _name(ufunc, method))
    return ops.moveaxis(a, axis, 0), axis % ndim


def _start(ufunc: Any, initial: Any, where: Any, empty: bool) -> Any:
    """What the fold starts from: ``initial=``; else, where some elements may be left out
    (``where=``, an empty axis), the ufunc's identity; else None (the first element)."""
    if initial is not _NO_VALUE and initial is not None:
        return initial
    if where is True and not empty:
        return None
    if ufunc.identity is None:
        why = "where= is given" if where is not True else "the axis is empty"
        raise ValueError(
            f"{_name(ufunc, 'reduce')}: {why} and {ufunc.__name__} has no identity: "
            "give initial= (as NumPy asks)"
        )
    return ufunc.identity


def reduce(
    ufunc: Any, op: Callable[[Any, Any], Tensor], a: Any, axis: Any = 0, dtype: Any = None,
    out: Any = None, keepdims: bool = False, initial: Any = _NO_VALUE, where: Any = True,
) -> Tensor:  # fmt: skip
    """``ufunc.reduce(a, axis, dtype, keepdims=..., initial=..., where=...)`` as a fold."""
    del out  # None here: an ndarray out= is written by numpy/protocol.py
    _check(ufunc, "reduce")
    a = ops.astype(a, dtype) if dtype is not None else ops.asarray(a)
    moved, position = _axis(ufunc, "reduce", a, axis)
    start = _start(ufunc, initial, where, empty=moved.shape[0] == 0)
    mask = None
    if where is not True:
        mask = np.broadcast_to(np.asarray(where), a.shape)
        mask = np.moveaxis(mask.reshape(-1) if axis is None else mask, position, 0)
    result: Any = None
    if start is not None:
        result = ops.full(moved.shape[1:], start, dtype=np.result_type(a.dtype, start), like=a)
    for i in range(moved.shape[0]):
        if result is None:
            result = moved[i]
            continue
        step = op(result, moved[i])
        result = step if mask is None else ops.where(mask[i], step, result)
    if keepdims:
        if axis is None:
            return ops.reshape(result, (1,) * len(a.shape))
        return ops.expand_dims(result, position)
    return result


def accumulate(
    ufunc: Any, op: Callable[[Any, Any], Tensor], a: Any, axis: int = 0, dtype: Any = None,
    out: Any = None,
) -> Tensor:  # fmt: skip
    """``ufunc.accumulate(a, axis, dtype)``: every partial fold, stacked along the axis."""
    del out
    _check(ufunc, "accumulate")
    a = ops.astype(a, dtype) if dtype is not None else ops.asarray(a)
    if axis is None:
        raise TypeError(f"{_name(ufunc, 'accumulate')}: axis=None is not allowed (as in NumPy)")
    moved, position = _axis(ufunc, "accumulate", a, axis)
    partial: list[Tensor] = []
    for i in range(moved.shape[0]):
        partial.append(moved[i] if not partial else op(partial[-1], moved[i]))
    if not partial:
        return a
    return ops.stack(partial, axis=position)


def reduceat(
    ufunc: Any, reduce_: Callable[..., Tensor], a: Any, indices: Any, axis: int = 0,
    dtype: Any = None, out: Any = None,
) -> Tensor:  # fmt: skip
    """``ufunc.reduceat(a, indices, axis, dtype)``: ``reduce_`` over each slice
    ``indices[i]:indices[i + 1]``, or the element ``a[indices[i]]`` where the next index is
    not larger (NumPy's rule)."""
    del out
    _check(ufunc, "reduceat")
    a = ops.astype(a, dtype) if dtype is not None else ops.asarray(a)
    moved, position = _axis(ufunc, "reduceat", a, axis)
    n = moved.shape[0]
    starts = np.asarray(indices.data if isinstance(indices, Tensor) else indices)
    if starts.ndim != 1 or not np.issubdtype(starts.dtype, np.integer):
        raise TypeError(
            f"{_name(ufunc, 'reduceat')}: indices must be a 1-d array of integers, not "
            f"{starts.dtype} of shape {starts.shape}"
        )
    if np.any((starts < 0) | (starts >= n)):
        raise IndexError(f"{_name(ufunc, 'reduceat')}: indices {starts} out of range for {n}")
    pieces = []
    for i, start in enumerate(starts.tolist()):
        end = int(starts[i + 1]) if i + 1 < len(starts) else n
        if end > start:
            pieces.append(reduce_(moved[start:end], axis=0))
        else:
            pieces.append(moved[start])
    return ops.stack(pieces, axis=position)
