"""NumPy's signatures for the functions whose tapegrad op takes fewer or other arguments:
reshape round clip take where concatenate stack einsum zeros_like ones_like
empty_like size bincount apply_along_axis apply_over_axes iscomplex isreal iscomplexobj
isrealobj real_if_close, the numpy.linalg and numpy.fft helpers that are differentiable,
and the in-place functions, which refuse.

``np.X(t, ...)`` on Tensors lands here (``__array_function__``); ``out=`` was refused
before (numpy_protocol.py).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.numpy._arrays import asarray
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import normalize_axis, shape_of
from tapegrad.ops.rule_helpers import is_complex, result_dtype


def _tensor(a: Any) -> Any:
    """A Tensor (or a backend array) for ``a``: lists holding Tensors become arrays."""
    return asarray(a) if isinstance(a, (list, tuple)) and holds_tensor(a) else a


def reshape(
    a: Any, shape: Any = None, order: str = "C", *, newshape: Any = None, copy: bool | None = None
) -> Tensor:
    """``np.reshape`` on Tensors (``order="F"``: column-major, through transposes)."""
    if shape is None:
        if newshape is None:
            raise TypeError("reshape: the shape is missing")
        shape = newshape
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)
    if order == "F":
        return ops.transpose(ops.reshape(ops.transpose(a), shape[::-1]))
    if order not in ("C", "A"):
        raise ValueError(f"reshape: order must be 'C', 'F' or 'A', got {order!r}")
    return ops.reshape(a, shape)


def round(a: Any, decimals: int = 0) -> Tensor:  # noqa: A001 - NumPy's name
    """``np.round``: to ``decimals`` places, halves to even (no gradient)."""
    decimals = operator.index(decimals)
    dtype = getattr(a, "dtype", None)
    integer = dtype is not None and not backend.is_floating(dtype)
    if decimals == 0 or (integer and decimals > 0):
        return ops.round(a) if not integer else ops.copy(a)
    if integer:  # to tens, hundreds ...: in floats, then back
        scale = 10.0**-decimals
        return ops.astype(ops.round(ops.astype(a, np.float64) / scale) * scale, dtype)
    if decimals > 0:
        return ops.round(a * 10.0**decimals) / 10.0**decimals
    return ops.round(a / 10.0**-decimals) * 10.0**-decimals


def clip(
    a: Any,
    a_min: Any = None,
    a_max: Any = None,
    *,
    min: Any = None,
    max: Any = None,  # noqa: A002
) -> Tensor:
    """``np.clip`` on Tensors (``min=``/``max=`` as NumPy 2.1's names for the bounds)."""
    low = a_min if a_min is not None else min
    high = a_max if a_max is not None else max
    if low is None and high is None:
        raise ValueError("clip: at least one of a_min and a_max must be given")
    return ops.clip(a, low, high)


def take(a: Any, indices: Any, axis: int | None = None, mode: str = "raise") -> Tensor:
    """``np.take`` on Tensors; ``mode`` "wrap" and "clip" move out-of-range indices."""
    if mode != "raise":
        n = int(np.prod(shape_of(a))) if axis is None else shape_of(a)[axis]
        index = np.asarray(host_value(indices, "numpy.take()"))
        if mode == "wrap":
            indices = index % n
        elif mode == "clip":
            indices = np.clip(index, 0, n - 1)
        else:
            raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    return ops.take(a, indices, axis=axis)


def where(condition: Any, x: Any = None, y: Any = None) -> Any:
    """``np.where``: with one argument the indices of the nonzero elements."""
    if x is None and y is None:
        return ops.nonzero(ops.atleast_1d(condition) if not shape_of(condition) else condition)
    if x is None or y is None:
        raise ValueError("where: either both or neither of x and y should be given")
    return ops.where(condition, _tensor(x), _tensor(y))


def concatenate(
    arrays: Any, axis: int | None = 0, *, dtype: Any = None, casting: str = "same_kind"
) -> Tensor:
    """``np.concatenate``/``np.concat`` on Tensors."""
    out = ops.concatenate([_tensor(a) for a in arrays], axis=axis)
    return out if dtype is None else ops.astype(out, dtype)


def stack(arrays: Any, axis: int = 0, *, dtype: Any = None, casting: str = "same_kind") -> Tensor:
    """``np.stack`` on Tensors."""
    out = ops.stack([_tensor(a) for a in arrays], axis=axis)
    return out if dtype is None else ops.astype(out, dtype)


def einsum(
    *operands: Any, optimize: Any = False, dtype: Any = None, order: str = "K",
    casting: str = "safe",
) -> Tensor:  # fmt: skip
    """``np.einsum`` on Tensors (``optimize`` is accepted: the result is the same), with a
    subscripts string or in the interleaved form ``einsum(a, [0, 1], b, [1, 2], [0, 2])``.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> a = tg.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> tnp.einsum(a, [0, 1], a, [1, 2], [0, 2]).tolist() == tnp.einsum("ij,jk->ik", a, a).tolist()
    True
    """
    subscripts, *arrays = operands
    if not isinstance(subscripts, str):
        subscripts, arrays = _interleaved_subscripts(operands)
    if dtype is not None:
        arrays = [ops.astype(_tensor(a), dtype) for a in arrays]
    return ops.einsum(subscripts, *arrays)


def _like(fill: Any, a: Any, dtype: Any, shape: Any) -> Tensor:
    """A Tensor of ``fill`` with ``a``'s shape and dtype unless given (order, subok and
    device change nothing for a Tensor)."""
    shape = shape_of(a) if shape is None else shape
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    return ops.full(shape, fill, dtype=dtype if dtype is not None else result_dtype(a), like=a)


def zeros_like(
    a: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None,
    *, device: Any = None,
) -> Tensor:  # fmt: skip
    """``np.zeros_like`` on Tensors (no gradient)."""
    return _like(0, a, dtype, shape)


def ones_like(
    a: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None,
    *, device: Any = None,
) -> Tensor:  # fmt: skip
    """``np.ones_like`` on Tensors (no gradient)."""
    return _like(1, a, dtype, shape)


def empty_like(
    prototype: Any, dtype: Any = None, order: str = "K", subok: bool = True, shape: Any = None,
    *, device: Any = None,
) -> Tensor:  # fmt: skip
    """``np.empty_like`` on Tensors: zeros (uninitialized memory is no value to differentiate)."""
    return _like(0, prototype, dtype, shape)


def size(a: Any, axis: int | None = None) -> int:
    """``np.size``: the number of elements (along ``axis``)."""
    shape = shape_of(a)
    if axis is None:
        return int(np.prod(shape, dtype=np.int64))
    return shape[normalize_axis(axis, len(shape), "size")[0]]


def bincount(x: Any, weights: Any = None, minlength: int = 0) -> Tensor:
    """``np.bincount``: counts (no gradient), or sums of ``weights`` per bin, differentiable
    in the weights."""
    index = np.asarray(host_value(x, "numpy.bincount()"))
    if weights is None:
        return ops.asarray(np.bincount(index, minlength=minlength), like=x)
    length = max(int(index.max()) + 1 if index.size else 0, minlength)
    weights = ops.astype(_tensor(weights), result_dtype(weights, 1.0))
    return ops.index_add(weights, shape=(length,), index=index)


def apply_along_axis(func1d: Any, axis: int, arr: Any, *args: Any, **kwargs: Any) -> Tensor:
    """``np.apply_along_axis``: ``func1d`` on every 1-d slice along ``axis``, results
    stacked in its place (differentiable when ``func1d`` is)."""
    shape = shape_of(arr)
    (axis,) = normalize_axis(axis, len(shape), "apply_along_axis")
    moved = ops.moveaxis(arr, axis, -1)
    outer = shape_of(moved)[:-1]
    results = [_tensor(func1d(moved[index], *args, **kwargs)) for index in np.ndindex(*outer)]
    if not results:
        raise ValueError("apply_along_axis: cannot apply to 0-sized slices")
    stacked = ops.stack([asarray(r) if not hasattr(r, "shape") else r for r in results])
    result_shape = shape_of(stacked)[1:]
    out = ops.reshape(stacked, outer + result_shape)
    # the result's own axes go where `axis` was
    ndim_out = len(result_shape)
    order = list(range(len(outer)))
    order[axis:axis] = range(len(outer), len(outer) + ndim_out)
    return ops.transpose(out, tuple(order))


def apply_over_axes(func: Any, a: Any, axes: Any) -> Any:
    """``np.apply_over_axes``: ``func(a, axis)`` for each axis in turn, keeping dimensions."""
    out = a
    ndim = len(shape_of(a))
    for axis in np.atleast_1d(axes):
        axis = int(axis) % ndim
        result = func(out, axis)
        if len(shape_of(result)) == len(shape_of(out)):
            out = result
        else:
            out = ops.expand_dims(result, axis)
            if len(shape_of(out)) != len(shape_of(a)):
                raise ValueError(
                    "apply_over_axes: function is not returning an array of the correct shape"
                )
    return out


def iscomplex(x: Any) -> Tensor:
    """``np.iscomplex``: where the imaginary part is nonzero (boolean, no gradient)."""
    if not is_complex(x):
        return ops.zeros(shape_of(x), dtype=bool, like=x)
    return ops.not_equal(ops.imag(x), 0)


def isreal(x: Any) -> Tensor:
    """``np.isreal``: where the imaginary part is zero (boolean, no gradient)."""
    return ops.logical_not(iscomplex(x))


def iscomplexobj(x: Any) -> bool:
    """``np.iscomplexobj``: whether the dtype is complex."""
    return is_complex(x)


def isrealobj(x: Any) -> bool:
    """``np.isrealobj``: whether the dtype is not complex."""
    return not is_complex(x)


def real_if_close(a: Any, tol: float = 100) -> Any:
    """``np.real_if_close``: the real part when every imaginary part is negligible."""
    if not is_complex(a):
        return a
    eps = np.finfo(backend.dtype_name(a.dtype)).eps
    limit = tol * eps if tol > 1 else tol
    if bool(ops.all(ops.less(ops.abs(ops.imag(a)), limit))):
        return ops.real(a)
    return a


def in_place_only(name: str, advice: str) -> Any:
    """An implementation that refuses NumPy's in-place ``name`` on Tensors, with advice."""

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            f"numpy.{name} writes into its argument in place, and Tensors are immutable "
            f"(the gradient would be lost); {advice}"
        )

    refuse.__name__ = name
    return refuse


def linalg_trace(x: Any, *, offset: int = 0, dtype: Any = None) -> Tensor:
    """``np.linalg.trace``: the trace of the last two axes (the array API's)."""
    return ops.trace(x, offset, -2, -1, dtype=dtype)


def linalg_diagonal(x: Any, *, offset: int = 0) -> Tensor:
    """``np.linalg.diagonal``: the diagonal of the last two axes (the array API's)."""
    return ops.diagonal(x, offset, -2, -1)


def linalg_cross(x1: Any, x2: Any, *, axis: int = -1) -> Tensor:
    """``np.linalg.cross``: cross products of 3-vectors along ``axis``."""
    if shape_of(x1)[axis] != 3 or shape_of(x2)[axis] != 3:
        raise ValueError("linalg.cross: both inputs must have 3 elements along axis")
    return ops.cross(x1, x2, axis=axis)


def _interleaved_subscripts(operands: tuple[Any, ...]) -> tuple[str, list[Any]]:
    """``(a, [0, 1], b, [1, 2], [0, 2])`` as ``("ab,bc->ac", [a, b])``: NumPy's interleaved
    einsum form, axes named by ints (0-51) and ``...``."""
    letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def named(sublist: Any) -> str:
        try:
            return "".join(
                "..." if axis is Ellipsis else letters[operator.index(axis)] for axis in sublist
            )
        except (IndexError, TypeError) as exc:
            raise ValueError(
                f"einsum: a sublist holds ints 0-51 and Ellipsis, got {sublist!r}"
            ) from exc

    arrays, inputs = list(operands[0::2][: len(operands) // 2]), operands[1::2]
    inputs = inputs[: len(arrays)]
    output = operands[-1] if len(operands) % 2 else None
    subscripts = ",".join(named(s) for s in inputs)
    if output is not None:
        subscripts += "->" + named(output)
    return subscripts, arrays
