"""The operators and methods Tensor gets from the layers above it, declared for type checkers.

The engine knows nothing of the ops it records (as HIPS autograd's core knows nothing of
NumPy): :class:`~tapegrad.Tensor`'s operators and the method forms of the ops are the op
library's functions, set on Tensor when the op library is imported. ``+ - * / ** @`` and
unary ``-`` are their primitives' calls themselves, set where each primitive is defined
(tapegrad/ops/arithmetic.py, tapegrad/ops/linalg.py: a method that called the primitive
would cost a Python frame per op); the rest are set by tapegrad/ops/methods.py, and
NumPy's protocols and ``round`` by tapegrad/numpy/protocol.py. This class only declares
them; tests/test_architecture.py checks that each is set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from tapegrad.core.tensor import Tensor

_Binary = Callable[["Tensor", Any], "Tensor"]
_Method = Callable[..., "Tensor"]


class TensorMethods:
    """Declarations of the names the layers above set on Tensor (no behaviour here)."""

    __slots__ = ()

    __add__: ClassVar[_Binary]
    __sub__: ClassVar[_Binary]
    __mul__: ClassVar[_Binary]
    __truediv__: ClassVar[_Binary]
    __pow__: ClassVar[_Binary]
    __matmul__: ClassVar[_Binary]
    __neg__: ClassVar[Callable[[Tensor], Tensor]]
    __radd__: ClassVar[_Binary]
    __rsub__: ClassVar[_Binary]
    __rmul__: ClassVar[_Binary]
    __rtruediv__: ClassVar[_Binary]
    __rpow__: ClassVar[_Binary]
    __rmatmul__: ClassVar[_Binary]
    __mod__: ClassVar[_Binary]
    __rmod__: ClassVar[_Binary]
    __floordiv__: ClassVar[_Binary]
    __rfloordiv__: ClassVar[_Binary]
    __divmod__: ClassVar[Callable[[Tensor, Any], tuple[Tensor, Tensor]]]
    __rdivmod__: ClassVar[Callable[[Tensor, Any], tuple[Tensor, Tensor]]]
    __and__: ClassVar[_Binary]
    __rand__: ClassVar[_Binary]
    __or__: ClassVar[_Binary]
    __ror__: ClassVar[_Binary]
    __xor__: ClassVar[_Binary]
    __rxor__: ClassVar[_Binary]
    __lshift__: ClassVar[_Binary]
    __rlshift__: ClassVar[_Binary]
    __rshift__: ClassVar[_Binary]
    __rrshift__: ClassVar[_Binary]
    __invert__: ClassVar[Callable[[Tensor], Tensor]]
    __abs__: ClassVar[Callable[[Tensor], Tensor]]
    __lt__: ClassVar[_Binary]
    __le__: ClassVar[_Binary]
    __gt__: ClassVar[_Binary]
    __ge__: ClassVar[_Binary]
    __getitem__: ClassVar[_Binary]
    __eq__: ClassVar[_Binary]  # type: ignore[assignment]  # a Tensor, not a bool
    __ne__: ClassVar[_Binary]  # type: ignore[assignment]
    __array_ufunc__: ClassVar[Callable[..., Any]]
    __array_function__: ClassVar[Callable[..., Any]]
    __pandas_priority__: ClassVar[int]
    T: Tensor
    real: Tensor
    imag: Tensor
    mT: Tensor
    to: ClassVar[_Method]
    astype: ClassVar[_Method]
    sum: ClassVar[_Method]
    mean: ClassVar[_Method]
    prod: ClassVar[_Method]
    max: ClassVar[_Method]
    min: ClassVar[_Method]
    var: ClassVar[_Method]
    std: ClassVar[_Method]
    ptp: ClassVar[_Method]
    all: ClassVar[_Method]
    any: ClassVar[_Method]
    cumsum: ClassVar[_Method]
    cumprod: ClassVar[_Method]
    argmax: ClassVar[_Method]
    argmin: ClassVar[_Method]
    reshape: ClassVar[_Method]
    transpose: ClassVar[_Method]
    swapaxes: ClassVar[_Method]
    squeeze: ClassVar[_Method]
    flatten: ClassVar[_Method]
    ravel: ClassVar[_Method]
    copy: ClassVar[_Method]
    clip: ClassVar[_Method]
    dot: ClassVar[_Method]
    take: ClassVar[_Method]
    repeat: ClassVar[_Method]
    compress: ClassVar[_Method]
    diagonal: ClassVar[_Method]
    trace: ClassVar[_Method]
    sort: ClassVar[_Method]
    argsort: ClassVar[_Method]
    partition: ClassVar[_Method]
    argpartition: ClassVar[_Method]
    searchsorted: ClassVar[_Method]
    nonzero: ClassVar[Callable[..., tuple[Tensor, ...]]]
    round: ClassVar[_Method]
    __round__: ClassVar[Callable[..., Any]]
    exp: ClassVar[_Method]
    log: ClassVar[_Method]
    sqrt: ClassVar[_Method]
    square: ClassVar[_Method]
    tanh: ClassVar[_Method]
    sin: ClassVar[_Method]
    cos: ClassVar[_Method]
    sigmoid: ClassVar[_Method]
    relu: ClassVar[_Method]
    conj: ClassVar[_Method]
    conjugate: ClassVar[_Method]
