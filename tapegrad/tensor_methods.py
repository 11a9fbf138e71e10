"""The rest of NumPy's array methods and operators on Tensors: ``% // divmod & | ^ ~ << >>``,
``ravel copy conj real imag cumprod round sort argsort argpartition partition diagonal
trace all any nonzero ptp searchsorted compress tolist mT nbytes itemsize``.

A mixin of :class:`~tapegrad.Tensor` (tensor.py keeps the common ones). Methods that
sort in place on an ndarray (``sort``, ``partition``) return the sorted Tensor instead:
Tensors are immutable (as JAX's arrays).
"""

from __future__ import annotations

from typing import Any

import numpy as _np

from tapegrad import backend as _backend

# The op library imports tensor.py, which imports this module first: ops are reached
# through tensor.py's own reference (``_tensor._ops``), bound once both are loaded.
from tapegrad import tensor as _tensor


class ArrayMethods:
    """NumPy array methods and operators that tensor.py does not define."""

    __slots__ = ()

    # --- operators -------------------------------------------------------------
    def __mod__(self, other: Any) -> Any:
        return _tensor._ops.remainder(self, other)

    def __rmod__(self, other: Any) -> Any:
        return _tensor._ops.remainder(other, self)

    def __floordiv__(self, other: Any) -> Any:
        return _tensor._ops.floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> Any:
        return _tensor._ops.floor_divide(other, self)

    def __divmod__(self, other: Any) -> Any:
        return _tensor._ops.divmod(self, other)

    def __rdivmod__(self, other: Any) -> Any:
        return _tensor._ops.divmod(other, self)

    def __and__(self, other: Any) -> Any:
        return _tensor._ops.bitwise_and(self, other)

    def __rand__(self, other: Any) -> Any:
        return _tensor._ops.bitwise_and(other, self)

    def __or__(self, other: Any) -> Any:
        return _tensor._ops.bitwise_or(self, other)

    def __ror__(self, other: Any) -> Any:
        return _tensor._ops.bitwise_or(other, self)

    def __xor__(self, other: Any) -> Any:
        return _tensor._ops.bitwise_xor(self, other)

    def __rxor__(self, other: Any) -> Any:
        return _tensor._ops.bitwise_xor(other, self)

    def __invert__(self) -> Any:
        return _tensor._ops.invert(self)

    def __lshift__(self, other: Any) -> Any:
        return _tensor._ops.left_shift(self, other)

    def __rlshift__(self, other: Any) -> Any:
        return _tensor._ops.left_shift(other, self)

    def __rshift__(self, other: Any) -> Any:
        return _tensor._ops.right_shift(self, other)

    def __rrshift__(self, other: Any) -> Any:
        return _tensor._ops.right_shift(other, self)

    # --- properties --------------------------------------------------------------
    @property
    def real(self) -> Any:
        return _tensor._ops.real(self)

    @property
    def imag(self) -> Any:
        return _tensor._ops.imag(self)

    @property
    def mT(self) -> Any:  # noqa: N802 - NumPy's name
        return _tensor._ops.matrix_transpose(self)

    @property
    def itemsize(self) -> int:
        return int(_np.dtype(_backend.dtype_name(self.dtype)).itemsize)  # type: ignore[attr-defined]

    @property
    def nbytes(self) -> int:
        return self.itemsize * self.size  # type: ignore[attr-defined]

    # --- methods -------------------------------------------------------------------
    def ravel(self, order: str = "C") -> Any:
        return _tensor._ops.ravel(self, order)

    def copy(self, order: str = "K") -> Any:
        return _tensor._ops.copy(self)

    def conj(self) -> Any:
        return _tensor._ops.conj(self)

    def conjugate(self) -> Any:
        return _tensor._ops.conj(self)

    def cumprod(self, axis: int | None = None, dtype: Any = None) -> Any:
        return _tensor._ops.cumprod(self, axis=axis, dtype=dtype)

    def round(self, decimals: int = 0) -> Any:
        from tapegrad.numpy._functions import round as round_

        return round_(self, decimals)

    def sort(self, axis: int = -1, kind: str | None = None, order: Any = None) -> Any:
        """The sorted Tensor (not in place, unlike ``ndarray.sort``: Tensors are immutable)."""
        return _tensor._ops.sort(self, axis=axis, kind=kind, order=order)

    def argsort(self, axis: int = -1, kind: str | None = None, order: Any = None) -> Any:
        return _tensor._ops.argsort(self, axis=axis, kind=kind, order=order)

    def partition(self, kth: Any, axis: int = -1, kind: str = "introselect") -> Any:
        """The partitioned Tensor (not in place, unlike ``ndarray.partition``)."""
        return _tensor._ops.partition(self, kth, axis=axis, kind=kind)

    def argpartition(self, kth: Any, axis: int = -1, kind: str = "introselect") -> Any:
        return _tensor._ops.argpartition(self, kth, axis=axis, kind=kind)

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
        return _tensor._ops.diagonal(self, offset, axis1, axis2)

    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Any:
        return _tensor._ops.trace(self, offset, axis1, axis2, dtype=dtype)

    def all(self, axis: Any = None, keepdims: bool = False) -> Any:
        return _tensor._ops.all(self, axis=axis, keepdims=keepdims)

    def any(self, axis: Any = None, keepdims: bool = False) -> Any:
        return _tensor._ops.any(self, axis=axis, keepdims=keepdims)

    def nonzero(self) -> Any:
        return _tensor._ops.nonzero(self)

    def ptp(self, axis: Any = None, keepdims: bool = False) -> Any:
        return _tensor._ops.ptp(self, axis=axis, keepdims=keepdims)

    def searchsorted(self, v: Any, side: str = "left", sorter: Any = None) -> Any:
        return _tensor._ops.searchsorted(self, v, side=side, sorter=sorter)

    def compress(self, condition: Any, axis: int | None = None) -> Any:
        return _tensor._ops.compress(condition, self, axis=axis)

    def tolist(self) -> Any:
        """The value as nested Python lists (it leaves the tape, as ``numpy()`` does)."""
        return self.numpy().tolist()  # type: ignore[attr-defined]
