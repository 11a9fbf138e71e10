"""Tensor's operators and array methods: the op library's functions, set on Tensor here.

The engine's Tensor (tapegrad/core/tensor.py) knows nothing of the ops; when the op
library is imported, this module sets each method of :class:`ArrayMethods` on it, as HIPS
autograd's NumPy layer sets its box's operators (tapegrad/core/tensor_methods.py declares
them for type checkers). ``t.sum(axis)``, ``t.reshape(shape)``, ``t.exp()`` and the rest
are the functions of the same name (``tg.sum(t, axis)``, ...); the operators are
``tg.add``, ``tg.matmul``, ``tg.getitem`` and so on, recorded like them. ``+ - * / ** @``
and unary ``-`` are set where their primitives are defined (ops/arithmetic.py,
ops/linalg.py), as the primitives' calls themselves. Methods that sort in place on an
ndarray (``sort``, ``partition``) return the sorted Tensor instead: Tensors are immutable
(as JAX's arrays).
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.arithmetic import _add, _divide, _multiply, _power, _subtract
from tapegrad.ops.linalg import _matmul


class ArrayMethods:
    """NumPy's array methods and operators on Tensors, each the op of the same name."""

    __slots__ = ()

    # --- operators -------------------------------------------------------------
    # The reflected forms call the primitive, as the op functions do.
    def __radd__(self, other: Any) -> Tensor:
        return _add._binary(other, self)

    def __rsub__(self, other: Any) -> Tensor:
        return _subtract._binary(other, self)

    def __rmul__(self, other: Any) -> Tensor:
        return _multiply._binary(other, self)

    def __rtruediv__(self, other: Any) -> Tensor:
        return _divide._binary(other, self)

    def __rpow__(self, other: Any) -> Tensor:
        return _power._binary(other, self)

    def __rmatmul__(self, other: Any) -> Tensor:
        return _matmul._binary(other, self)

    def __abs__(self) -> Tensor:
        return ops.abs(self)

    def __eq__(self, other: Any) -> Tensor:  # type: ignore[override]
        return ops.equal(self, other)

    def __ne__(self, other: Any) -> Tensor:  # type: ignore[override]
        return ops.not_equal(self, other)

    def __lt__(self, other: Any) -> Tensor:
        return ops.less(self, other)

    def __le__(self, other: Any) -> Tensor:
        return ops.less_equal(self, other)

    def __gt__(self, other: Any) -> Tensor:
        return ops.greater(self, other)

    def __ge__(self, other: Any) -> Tensor:
        return ops.greater_equal(self, other)

    def __getitem__(self, index: Any) -> Tensor:
        return ops.getitem(self, index)

    def __mod__(self, other: Any) -> Tensor:
        return ops.remainder(self, other)

    def __rmod__(self, other: Any) -> Tensor:
        return ops.remainder(other, self)

    def __floordiv__(self, other: Any) -> Tensor:
        return ops.floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> Tensor:
        return ops.floor_divide(other, self)

    def __divmod__(self, other: Any) -> tuple[Tensor, Tensor]:
        return ops.divmod(self, other)

    def __rdivmod__(self, other: Any) -> tuple[Tensor, Tensor]:
        return ops.divmod(other, self)

    def __and__(self, other: Any) -> Tensor:
        return ops.bitwise_and(self, other)

    def __rand__(self, other: Any) -> Tensor:
        return ops.bitwise_and(other, self)

    def __or__(self, other: Any) -> Tensor:
        return ops.bitwise_or(self, other)

    def __ror__(self, other: Any) -> Tensor:
        return ops.bitwise_or(other, self)

    def __xor__(self, other: Any) -> Tensor:
        return ops.bitwise_xor(self, other)

    def __rxor__(self, other: Any) -> Tensor:
        return ops.bitwise_xor(other, self)

    def __invert__(self) -> Tensor:
        return ops.invert(self)

    def __lshift__(self, other: Any) -> Tensor:
        return ops.left_shift(self, other)

    def __rlshift__(self, other: Any) -> Tensor:
        return ops.left_shift(other, self)

    def __rshift__(self, other: Any) -> Tensor:
        return ops.right_shift(self, other)

    def __rrshift__(self, other: Any) -> Tensor:
        return ops.right_shift(other, self)

    # --- properties ----------------------------------------------------------------
    @property
    def T(self) -> Tensor:
        """The transpose (axes reversed), as :func:`tapegrad.transpose`."""
        return ops.transpose(self)

    @property
    def real(self) -> Tensor:
        """The real part, as :func:`tapegrad.real`."""
        return ops.real(self)

    @property
    def imag(self) -> Tensor:
        """The imaginary part, as :func:`tapegrad.imag`."""
        return ops.imag(self)

    @property
    def mT(self) -> Tensor:  # noqa: N802 - NumPy's name
        """The transpose of the last two axes, as :func:`tapegrad.matrix_transpose`."""
        return ops.matrix_transpose(self)

    # --- methods ---------------------------------------------------------------
    def to(self, device: str) -> Tensor:
        """A copy of this Tensor on ``device`` (``"cpu"``, ``"gpu"``, ``"gpu:N"``)."""
        return ops.to_device(self, device)

    def astype(self, dtype: Any) -> Tensor:
        """``tg.astype(self, dtype)``."""
        return ops.astype(self, dtype)

    # --- operators -----------------------------------------------------------
    def sum(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.sum(self, axis, keepdims)``."""
        return ops.sum(self, axis=axis, keepdims=keepdims)

    def mean(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.mean(self, axis, keepdims)``."""
        return ops.mean(self, axis=axis, keepdims=keepdims)

    def prod(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.prod(self, axis, keepdims)``."""
        return ops.prod(self, axis=axis, keepdims=keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.max(self, axis, keepdims)``."""
        return ops.max(self, axis=axis, keepdims=keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.min(self, axis, keepdims)``."""
        return ops.min(self, axis=axis, keepdims=keepdims)

    def var(self, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
        """``tg.var(self, axis, ddof, keepdims)``."""
        return ops.var(self, axis=axis, ddof=ddof, keepdims=keepdims)

    def std(self, axis: Any = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
        """``tg.std(self, axis, ddof, keepdims)``."""
        return ops.std(self, axis=axis, ddof=ddof, keepdims=keepdims)

    def cumsum(self, axis: int | None = None) -> Tensor:
        """``tg.cumsum(self, axis)``."""
        return ops.cumsum(self, axis=axis)

    def argmax(self, axis: int | None = None) -> Tensor:
        """``tg.argmax(self, axis)``."""
        return ops.argmax(self, axis=axis)

    def argmin(self, axis: int | None = None) -> Tensor:
        """``tg.argmin(self, axis)``."""
        return ops.argmin(self, axis=axis)

    def reshape(self, *shape: Any) -> Tensor:
        """``tg.reshape(self, shape)``; the shape may be given as separate ints."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        return ops.reshape(self, shape)

    def transpose(self, *axes: Any) -> Tensor:
        """``tg.transpose(self, axes)``; the axes may be given as separate ints."""
        if len(axes) == 1 and isinstance(axes[0], (tuple, list)):
            axes = tuple(axes[0])
        return ops.transpose(self, axes or None)

    def swapaxes(self, axis1: int, axis2: int) -> Tensor:
        """``tg.swapaxes(self, axis1, axis2)``."""
        return ops.swapaxes(self, axis1, axis2)

    def squeeze(self, axis: Any = None) -> Tensor:
        """``tg.squeeze(self, axis)``."""
        return ops.squeeze(self, axis)

    def flatten(self) -> Tensor:
        """A 1-d copy, ``tg.reshape(self, (-1,))``."""
        return ops.reshape(self, (-1,))

    def clip(self, a_min: Any = None, a_max: Any = None) -> Tensor:
        """``tg.clip(self, a_min, a_max)``."""
        return ops.clip(self, a_min, a_max)

    def dot(self, other: Any) -> Tensor:
        """``tg.dot(self, other)``."""
        return ops.dot(self, other)

    def take(self, indices: Any, axis: int | None = None) -> Tensor:
        """``tg.take(self, indices, axis)``."""
        return ops.take(self, indices, axis=axis)

    def repeat(self, repeats: Any, axis: int | None = None) -> Tensor:
        """``tg.repeat(self, repeats, axis)``."""
        return ops.repeat(self, repeats, axis=axis)

    def exp(self) -> Tensor:
        """``tg.exp(self)``."""
        return ops.exp(self)

    def log(self) -> Tensor:
        """``tg.log(self)``."""
        return ops.log(self)

    def sqrt(self) -> Tensor:
        """``tg.sqrt(self)``."""
        return ops.sqrt(self)

    def tanh(self) -> Tensor:
        """``tg.tanh(self)``."""
        return ops.tanh(self)

    def sin(self) -> Tensor:
        """``tg.sin(self)``."""
        return ops.sin(self)

    def cos(self) -> Tensor:
        """``tg.cos(self)``."""
        return ops.cos(self)

    def sigmoid(self) -> Tensor:
        """``tg.sigmoid(self)``."""
        return ops.sigmoid(self)

    def relu(self) -> Tensor:
        """``tg.relu(self)``."""
        return ops.relu(self)

    def square(self) -> Tensor:
        """``tg.square(self)``."""
        return ops.square(self)

    def conj(self) -> Tensor:
        """The complex conjugate; the Tensor itself when it is real."""
        return ops.conj(self)

    conjugate = conj

    def ravel(self, order: str = "C") -> Tensor:
        """``tg.ravel(self, order)``."""
        return ops.ravel(self, order)

    def copy(self, order: str = "K") -> Tensor:
        """``tg.copy(self)``."""
        return ops.copy(self)

    def cumprod(self, axis: int | None = None, dtype: Any = None) -> Tensor:
        """``tg.cumprod(self, axis=axis, dtype=dtype)``."""
        return ops.cumprod(self, axis=axis, dtype=dtype)

    def sort(self, axis: int = -1, kind: str | None = None, order: Any = None) -> Tensor:
        """The sorted Tensor (not in place, unlike ``ndarray.sort``: Tensors are immutable)."""
        return ops.sort(self, axis=axis, kind=kind, order=order)

    def argsort(self, axis: int = -1, kind: str | None = None, order: Any = None) -> Tensor:
        """``tg.argsort(self, axis=axis, kind=kind, order=order)``."""
        return ops.argsort(self, axis=axis, kind=kind, order=order)

    def partition(self, kth: Any, axis: int = -1, kind: str = "introselect") -> Tensor:
        """The partitioned Tensor (not in place, unlike ``ndarray.partition``)."""
        return ops.partition(self, kth, axis=axis, kind=kind)

    def argpartition(self, kth: Any, axis: int = -1, kind: str = "introselect") -> Tensor:
        """``tg.argpartition(self, kth, axis=axis, kind=kind)``."""
        return ops.argpartition(self, kth, axis=axis, kind=kind)

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
        """``tg.diagonal(self, offset, axis1, axis2)``."""
        return ops.diagonal(self, offset, axis1, axis2)

    def trace(self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: Any = None) -> Tensor:
        """``tg.trace(self, offset, axis1, axis2, dtype=dtype)``."""
        return ops.trace(self, offset, axis1, axis2, dtype=dtype)

    def all(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.all(self, axis=axis, keepdims=keepdims)``."""
        return ops.all(self, axis=axis, keepdims=keepdims)

    def any(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.any(self, axis=axis, keepdims=keepdims)``."""
        return ops.any(self, axis=axis, keepdims=keepdims)

    def nonzero(self) -> tuple[Tensor, ...]:
        """``tg.nonzero(self)``."""
        return ops.nonzero(self)

    def ptp(self, axis: Any = None, keepdims: bool = False) -> Tensor:
        """``tg.ptp(self, axis=axis, keepdims=keepdims)``."""
        return ops.ptp(self, axis=axis, keepdims=keepdims)

    def searchsorted(self, v: Any, side: str = "left", sorter: Any = None) -> Tensor:
        """``tg.searchsorted(self, v, side=side, sorter=sorter)``."""
        return ops.searchsorted(self, v, side=side, sorter=sorter)

    def compress(self, condition: Any, axis: int | None = None) -> Tensor:
        """``tg.compress(condition, self, axis=axis)``."""
        return ops.compress(condition, self, axis=axis)


def attach() -> None:
    """Set each of :class:`ArrayMethods`'s methods and properties on Tensor (once, when the
    op library is imported)."""
    for name, member in vars(ArrayMethods).items():
        if callable(member) or isinstance(member, property):
            setattr(Tensor, name, member)
