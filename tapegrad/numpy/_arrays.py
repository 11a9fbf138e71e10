"""The functions NumPy cannot hand over to Tensors: array creation from nested lists,
``full``, ``r_``/``c_``, and the in-place writers.

``np.array([t0, t1])`` never reaches ``__array_function__`` (NEP 18 does not dispatch
it): NumPy converts each Tensor to an array, and the gradient is lost. These versions
look inside lists and tuples for Tensors; when there are none they are NumPy's own
functions (the same results, types and errors). When there are, NumPy's own rules
decide the result's layout and dtype (run on element numbers, ops/layout.py), and the
elements are gathered from the Tensors, so the gradient reaches every element.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.ops.layout import from_nested, gather_layout, holds_tensor, stand_in, stand_ins


def _with_ndmin(t: Tensor, ndmin: int) -> Tensor:
    if t.ndim >= ndmin:
        return t
    return ops.reshape(t, (1,) * (ndmin - t.ndim) + t.shape)


def array(
    object: Any, dtype: Any = None, *, copy: bool | None = True, order: str = "K",  # noqa: A002
    subok: bool = False, ndmin: int = 0, ndmax: int = 0, like: Any = None,
) -> Any:  # fmt: skip
    """``np.array`` that keeps the gradient of the Tensors inside ``object``.

    ``ndmax`` (NumPy 2.4) caps the dimensions made from nested sequences: NumPy's own
    check runs on stand-ins of the Tensors (too deep a nesting raises NumPy's ValueError),
    and within the cap the result is the uncapped one.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> x = tg.tensor(2.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tnp.array([[x, 1.0], [3.0, x * x]])
    >>> tape.gradient(y, x).item()
    5.0
    """
    if not holds_tensor(object):
        kwargs = {} if like is None else {"like": like}
        if ndmax:  # only then: NumPy before 2.4 has no ndmax
            kwargs["ndmax"] = ndmax
        return np.array(
            object, dtype=dtype, copy=copy, order=order, subok=subok, ndmin=ndmin, **kwargs
        )
    if ndmax:  # NumPy's own check of the nesting against ndmax, on stand-ins
        np.array(stand_ins(object), dtype=dtype, ndmin=ndmin, ndmax=ndmax)
    if isinstance(object, Tensor):
        out = object
        if dtype is not None and np.dtype(backend.dtype_name(out.dtype)) != np.dtype(dtype):
            out = ops.astype(out, dtype)
        elif copy and isinstance(object, Variable):  # a Variable changes: keep today's value
            out = ops.copy(out)
        return _with_ndmin(out, ndmin)
    return from_nested(object, dtype, ndmin)


def asarray(
    a: Any, dtype: Any = None, order: str | None = None, *, device: Any = None,
    copy: bool | None = None, like: Any = None,
) -> Any:  # fmt: skip
    """``np.asarray`` that keeps the gradient of the Tensors inside ``a`` (a Tensor is
    returned as it is: Tensors are immutable).

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> x = tg.tensor(3.0)
    >>> tg.grad(lambda x: tnp.sum(tnp.asarray([x, x * x])))(x)  # 1 + 2x
    tensor(7., dtype=float64)
    """
    if not holds_tensor(a):
        kwargs = {} if like is None else {"like": like}
        if device is not None:
            kwargs["device"] = device
        return np.asarray(a, dtype=dtype, order=order, copy=copy, **kwargs)
    return array(a, dtype=dtype, copy=bool(copy))


def asanyarray(
    a: Any, dtype: Any = None, order: str | None = None, *, device: Any = None,
    copy: bool | None = None, like: Any = None,
) -> Any:  # fmt: skip
    """``np.asanyarray``: as :func:`asarray`.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tg.grad(lambda x: tnp.sum(tnp.asanyarray([x, 2 * x])))(tg.tensor(1.0))
    tensor(3., dtype=float64)
    """
    if not holds_tensor(a):
        kwargs = {} if like is None else {"like": like}
        if device is not None:
            kwargs["device"] = device
        return np.asanyarray(a, dtype=dtype, order=order, copy=copy, **kwargs)
    return array(a, dtype=dtype, copy=bool(copy))


def ascontiguousarray(a: Any, dtype: Any = None, *, like: Any = None) -> Any:
    """``np.ascontiguousarray``: as :func:`asarray`, at least 1-d.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tnp.ascontiguousarray(tg.tensor(1.0)).shape
    (1,)
    """
    if not holds_tensor(a):
        return np.ascontiguousarray(a, dtype=dtype, **({} if like is None else {"like": like}))
    return array(a, dtype=dtype, copy=False, ndmin=1)


def asfortranarray(a: Any, dtype: Any = None, *, like: Any = None) -> Any:
    """``np.asfortranarray``: as :func:`asarray`, at least 1-d (memory order is NumPy's
    business: a Tensor's values are the same either way).

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tnp.asfortranarray(tg.tensor(1.0)).shape
    (1,)
    """
    if not holds_tensor(a):
        return np.asfortranarray(a, dtype=dtype, **({} if like is None else {"like": like}))
    return array(a, dtype=dtype, copy=False, ndmin=1)


def asarray_chkfinite(a: Any, dtype: Any = None, order: str | None = None) -> Any:
    """``np.asarray_chkfinite``: as :func:`asarray`; ValueError if it holds inf or NaN.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tnp.asarray_chkfinite([tg.tensor(1.0), 2.0])
    tensor([1., 2.], dtype=float64)
    """
    if not holds_tensor(a):
        return np.asarray_chkfinite(a, dtype=dtype, order=order)
    out = asarray(a, dtype=dtype)
    if backend.is_floating(out.dtype) and not bool(ops.all(ops.isfinite(out))):
        raise ValueError("array must not contain infs or NaNs")
    return out


def require(a: Any, dtype: Any = None, requirements: Any = None, *, like: Any = None) -> Any:
    """``np.require``: as :func:`asarray` (memory-layout requirements hold for Tensors).

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tnp.require([tg.tensor(1.0), 2.0])
    tensor([1., 2.], dtype=float64)
    """
    if not holds_tensor(a):
        return np.require(a, dtype=dtype, requirements=requirements)
    return asarray(a, dtype=dtype)


def full(
    shape: Any, fill_value: Any, dtype: Any = None, order: str = "C", *, device: Any = None,
    like: Any = None,
) -> Any:  # fmt: skip
    """``np.full``; a Tensor ``fill_value`` gets the gradient of every element.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tnp.full((2, 2), tg.tensor(3.0)).numpy()
    array([[3., 3.],
           [3., 3.]])
    """
    if not holds_tensor(fill_value):
        kwargs = {} if like is None else {"like": like}
        if device is not None:
            kwargs["device"] = device
        return np.full(shape, fill_value, dtype=dtype, order=order, **kwargs)
    value = asarray(fill_value)
    if dtype is not None:
        value = ops.astype(value, dtype)
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    return ops.broadcast_to(value, shape)


def full_like(
    a: Any, fill_value: Any, dtype: Any = None, order: str = "K", subok: bool = True,
    shape: Any = None, *, device: Any = None,
) -> Any:  # fmt: skip
    """``np.full_like``; a Tensor ``fill_value`` gets the gradient of every element.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tg.grad(lambda v: tnp.sum(tnp.full_like(tnp.zeros(3), v)))(tg.tensor(1.0))  # 3 elements
    tensor(3., dtype=float64)
    """
    if not holds_tensor(fill_value) and not holds_tensor(a):
        return np.full_like(a, fill_value, dtype=dtype, order=order, subok=subok, shape=shape)
    template = asarray(a)
    if shape is None:
        shape = template.shape
    if dtype is None:
        dtype = np.dtype(backend.dtype_name(template.dtype))
    if not holds_tensor(fill_value):
        return ops.full(shape, fill_value, dtype=dtype, like=template)
    return full(shape, fill_value, dtype=dtype)


def stack(arrays: Any, axis: int = 0, out: Any = None, *, dtype: Any = None,
          casting: str = "same_kind") -> Any:  # fmt: skip
    """``np.stack``; lists inside ``arrays`` that hold Tensors become arrays first.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> x = tg.tensor(2.0)
    >>> tnp.stack([[x, 1.0], [3.0, x]])
    tensor([[2., 1.],
            [3., 2.]], dtype=float64)
    """
    arrays = list(arrays)
    if not any(holds_tensor(a) for a in arrays):
        return np.stack(arrays, axis=axis, out=out, dtype=dtype, casting=casting)
    if out is not None:
        raise TypeError("numpy.stack(out=...) is not supported on Tensors: Tensors are immutable")
    items = [asarray(a) if isinstance(a, (list, tuple)) else a for a in arrays]
    result = ops.stack(items, axis=axis)
    return result if dtype is None else ops.astype(result, dtype)


class AxisConcatenator:
    """``tnp.r_`` and ``tnp.c_``: NumPy's ``r_``/``c_`` when no Tensor is inside the
    brackets; otherwise the same layout (NumPy's own rules) with the Tensors' gradients."""

    def __init__(self, numpy_concatenator: Any) -> None:
        self._numpy = numpy_concatenator

    def __getitem__(self, key: Any) -> Any:
        items = key if isinstance(key, tuple) else (key,)
        if not any(holds_tensor(i) for i in items):
            return self._numpy[key]
        # slices become the 1-d ranges r_ makes of them; lists holding Tensors, arrays
        items = tuple(
            np.r_[i] if isinstance(i, slice) else asarray(i) if isinstance(i, (list, tuple)) else i
            for i in items
        )  # fmt: skip
        positions = [k for k, i in enumerate(items) if not isinstance(i, str)]
        leaves = [items[k] for k in positions]

        def with_leaves(values: list[Any]) -> tuple[Any, ...]:
            replaced = list(items)
            for k, v in zip(positions, values):
                replaced[k] = v
            return tuple(replaced)

        dtype = np.asarray(self._numpy[with_leaves([stand_in(v) for v in leaves])]).dtype
        return gather_layout(leaves, lambda numbers: self._numpy[with_leaves(numbers)], dtype)

    def __len__(self) -> int:
        return 0


r_ = AxisConcatenator(np.r_)
c_ = AxisConcatenator(np.c_)


def put(a: Any, ind: Any, v: Any, mode: str = "raise", *, inplace: bool = True) -> Any:
    """``np.put``; on Tensors ``inplace=False`` returns the result (as ``jax.numpy.put``).

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tnp.put(tg.zeros(3), [0, 2], tg.tensor([7.0, 8.0]), inplace=False)
    tensor([7., 0., 8.], dtype=float64)
    """
    if inplace and not any(holds_tensor(x) for x in (a, ind, v)):
        return np.put(a, ind, v, mode=mode)
    return ops.put(a, ind, v, mode=mode, inplace=inplace)


def put_along_axis(
    arr: Any, indices: Any, values: Any, axis: int | None, *, inplace: bool = True
) -> Any:
    """``np.put_along_axis``; on Tensors ``inplace=False`` returns the result.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tnp.put_along_axis(tg.zeros((1, 3)), tnp.asarray([[1]]), 9.0, axis=1, inplace=False)
    tensor([[0., 9., 0.]], dtype=float64)
    """
    if inplace and not any(holds_tensor(x) for x in (arr, indices, values)):
        return np.put_along_axis(arr, indices, values, axis)
    return ops.put_along_axis(arr, indices, values, axis, inplace=inplace)


def place(arr: Any, mask: Any, vals: Any, *, inplace: bool = True) -> Any:
    """``np.place``; on Tensors ``inplace=False`` returns the result.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tnp.place(tg.zeros(3), [True, False, True], tg.tensor([7.0, 8.0]), inplace=False)
    tensor([7., 0., 8.], dtype=float64)
    """
    if inplace and not any(holds_tensor(x) for x in (arr, mask, vals)):
        return np.place(arr, mask, vals)
    return ops.place(arr, mask, vals, inplace=inplace)


def fill_diagonal(a: Any, val: Any, wrap: bool = False, *, inplace: bool = True) -> Any:
    """``np.fill_diagonal``; on Tensors ``inplace=False`` returns the result.

    >>> import tapegrad as tg
    >>> import tapegrad.numpy as tnp
    >>> tnp.fill_diagonal(tg.zeros((2, 2)), tg.tensor(5.0), inplace=False)
    tensor([[5., 0.],
            [0., 5.]], dtype=float64)
    """
    if inplace and not any(holds_tensor(x) for x in (a, val)):
        return np.fill_diagonal(a, val, wrap=wrap)
    return ops.fill_diagonal(a, val, wrap=wrap, inplace=inplace)
