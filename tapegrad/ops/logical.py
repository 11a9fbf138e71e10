"""Predicates and integer bit operations (no gradient): isnan isfinite isinf isposinf isneginf
signbit logical_and logical_or logical_xor logical_not bitwise_and bitwise_or bitwise_xor
invert left_shift right_shift gcd lcm bitwise_count all any isclose allclose array_equal
array_equiv count_nonzero.

Their results are boolean or integer, so they record nothing; they are primitives all
the same so that tg.compile's traces see the values flow through them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.operands import explain_broadcast
from tapegrad.ops.primitive import Primitive, normalize_axis, shape_of

ArrayLike = Any


def _elementwise(name: str, numpy_function: Any, standard: Callable[..., Any]) -> Primitive:
    """A no-gradient primitive: NumPy's function on NumPy arrays, ``standard(xp, *arrays)``
    (array API names) on other namespaces."""

    def forward(xp: Any, *arrays: Any) -> Any:
        if xp is np:
            return numpy_function(*arrays)
        return standard(xp, *arrays)

    # A ufunc is its own NumPy forward: the fast path, and vmap's elementwise rule.
    ufunc = numpy_function if isinstance(numpy_function, np.ufunc) else None
    return Primitive(name, forward, differentiable=False, explain=explain_broadcast, numpy=ufunc)


def _host(numpy_function: Any) -> Callable[..., Any]:
    """For functions the array API lacks: NumPy's, on host copies (see backend.via_numpy)."""
    return lambda xp, *arrays: backend.via_numpy(numpy_function, xp, *arrays)


def _truth(xp: Any, x: Any) -> Any:
    """``x`` as booleans: the array API's logical functions take booleans only."""
    if isinstance(x, (bool, int, float)):
        return bool(x)
    return x if "bool" in str(x.dtype) else x != 0


_isnan = _elementwise("isnan", np.isnan, lambda xp, x: xp.isnan(x))
_isfinite = _elementwise("isfinite", np.isfinite, lambda xp, x: xp.isfinite(x))
_isinf = _elementwise("isinf", np.isinf, lambda xp, x: xp.isinf(x))
_isposinf = _elementwise("isposinf", np.isposinf, lambda xp, x: xp.isinf(x) & (x > 0))
_isneginf = _elementwise("isneginf", np.isneginf, lambda xp, x: xp.isinf(x) & (x < 0))
_signbit = _elementwise("signbit", np.signbit, lambda xp, x: xp.signbit(x))
_logical_and = _elementwise(
    "logical_and", np.logical_and, lambda xp, x, y: xp.logical_and(_truth(xp, x), _truth(xp, y))
)
_logical_or = _elementwise(
    "logical_or", np.logical_or, lambda xp, x, y: xp.logical_or(_truth(xp, x), _truth(xp, y))
)
_logical_xor = _elementwise(
    "logical_xor", np.logical_xor, lambda xp, x, y: xp.logical_xor(_truth(xp, x), _truth(xp, y))
)
_logical_not = _elementwise(
    "logical_not", np.logical_not, lambda xp, x: xp.logical_not(_truth(xp, x))
)
_bitwise_and = _elementwise("bitwise_and", np.bitwise_and, lambda xp, x, y: xp.bitwise_and(x, y))
_bitwise_or = _elementwise("bitwise_or", np.bitwise_or, lambda xp, x, y: xp.bitwise_or(x, y))
_bitwise_xor = _elementwise("bitwise_xor", np.bitwise_xor, lambda xp, x, y: xp.bitwise_xor(x, y))
_invert = _elementwise("invert", np.invert, lambda xp, x: xp.bitwise_invert(x))
_left_shift = _elementwise(
    "left_shift", np.left_shift, lambda xp, x, y: xp.bitwise_left_shift(x, y)
)
_right_shift = _elementwise(
    "right_shift", np.right_shift, lambda xp, x, y: xp.bitwise_right_shift(x, y)
)
_gcd = _elementwise("gcd", np.gcd, _host(np.gcd))
_lcm = _elementwise("lcm", np.lcm, _host(np.lcm))
_bitwise_count = _elementwise("bitwise_count", np.bitwise_count, _host(np.bitwise_count))


def isnan(x: ArrayLike) -> Tensor:
    """Elementwise test for NaN (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.isnan(tg.tensor([1.0, float("nan")])).numpy()
    array([False,  True])
    """
    return _isnan._unary(x)


def isfinite(x: ArrayLike) -> Tensor:
    """Elementwise test for finite values (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.isfinite(tg.tensor([1.0, float("inf"), float("nan")]))
    tensor([ True, False, False], dtype=bool)
    """
    return _isfinite._unary(x)


def isinf(x: ArrayLike) -> Tensor:
    """Elementwise test for +inf or -inf (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.isinf(tg.tensor([1.0, float("inf"), float("-inf")]))
    tensor([False,  True,  True], dtype=bool)
    """
    return _isinf._unary(x)


def isposinf(x: ArrayLike) -> Tensor:
    """Elementwise test for +inf (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.isposinf(tg.tensor([1.0, float("inf"), float("-inf")]))
    tensor([False,  True, False], dtype=bool)
    """
    return _isposinf._unary(x)


def isneginf(x: ArrayLike) -> Tensor:
    """Elementwise test for -inf (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.isneginf(tg.tensor([1.0, float("inf"), float("-inf")]))
    tensor([False, False,  True], dtype=bool)
    """
    return _isneginf._unary(x)


def signbit(x: ArrayLike) -> Tensor:
    """Elementwise test of the sign bit, True for negative values and -0.0 (no gradient).

    >>> import tapegrad as tg
    >>> tg.signbit(tg.tensor([-1.5, 0.4, 2.5]))
    tensor([ True, False, False], dtype=bool)
    """
    return _signbit._unary(x)


def logical_and(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise logical and of the truth values (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.logical_and(tg.tensor([True, True]), [True, False]).numpy()
    array([ True, False])
    """
    return _logical_and._binary(x, y)


def logical_or(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise logical or of the truth values (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.logical_or(tg.tensor([True, False]), tg.tensor([False, False]))
    tensor([ True, False], dtype=bool)
    """
    return _logical_or._binary(x, y)


def logical_xor(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise logical exclusive or of the truth values (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.logical_xor(tg.tensor([True, False]), tg.tensor([True, True]))
    tensor([False,  True], dtype=bool)
    """
    return _logical_xor._binary(x, y)


def logical_not(x: ArrayLike) -> Tensor:
    """Elementwise logical not of the truth values (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.logical_not(tg.tensor([True, False]))
    tensor([False,  True], dtype=bool)
    """
    return _logical_not._unary(x)


def bitwise_and(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x & y`` of integers or booleans (no gradient).

    >>> import tapegrad as tg
    >>> tg.bitwise_and(tg.tensor([12, 18, 5]), 4)
    tensor([4, 0, 4], dtype=int64)
    """
    return _bitwise_and._binary(x, y)


def bitwise_or(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x | y`` of integers or booleans (no gradient).

    >>> import tapegrad as tg
    >>> tg.bitwise_or(tg.tensor([12, 18, 5]), 4)
    tensor([12, 22,  5], dtype=int64)
    """
    return _bitwise_or._binary(x, y)


def bitwise_xor(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x ^ y`` of integers or booleans (no gradient).

    >>> import tapegrad as tg
    >>> tg.bitwise_xor(tg.tensor([12, 18, 5]), 4)
    tensor([ 8, 22,  1], dtype=int64)
    """
    return _bitwise_xor._binary(x, y)


def invert(x: ArrayLike) -> Tensor:
    """Elementwise ``~x``: bitwise not of integers, logical not of booleans (no gradient).

    >>> import tapegrad as tg
    >>> tg.invert(tg.tensor([0, 5]))
    tensor([-1, -6], dtype=int64)
    """
    return _invert._unary(x)


def left_shift(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x << y`` of integers (no gradient).

    >>> import tapegrad as tg
    >>> tg.left_shift(tg.tensor([1, 3]), 2)
    tensor([ 4, 12], dtype=int64)
    """
    return _left_shift._binary(x, y)


def right_shift(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x >> y`` of integers (no gradient).

    >>> import tapegrad as tg
    >>> tg.right_shift(tg.tensor([4, 12]), 2)
    tensor([1, 3], dtype=int64)
    """
    return _right_shift._binary(x, y)


def gcd(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise greatest common divisor of integers (no gradient).

    >>> import tapegrad as tg
    >>> tg.gcd(tg.tensor([12, 18, 5]), 4)
    tensor([4, 2, 1], dtype=int64)
    """
    return _gcd._binary(x, y)


def lcm(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise least common multiple of integers (no gradient).

    >>> import tapegrad as tg
    >>> tg.lcm(tg.tensor([12, 18, 5]), 4)
    tensor([12, 36, 20], dtype=int64)
    """
    return _lcm._binary(x, y)


def bitwise_count(x: ArrayLike) -> Tensor:
    """Elementwise number of 1-bits in ``|x|`` of integers (no gradient).

    >>> import tapegrad as tg
    >>> tg.bitwise_count(tg.tensor([0, 7, 255]))
    tensor([0, 3, 8], dtype=uint8)
    """
    return _bitwise_count._unary(x)


def _truth_reduction(name: str) -> Primitive:
    def forward(xp: Any, x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
        if xp is not np and "bool" not in str(x.dtype):
            x = x != 0  # the array API reduces booleans only
        return getattr(xp, name)(x, axis=axis, keepdims=keepdims)

    # On NumPy arrays, the ufunc's reduce that np.all/np.any call (without their two Python
    # frames): the same result for every dtype.
    reduce = (np.logical_and if name == "all" else np.logical_or).reduce
    return Primitive(
        name,
        forward,
        differentiable=False,
        numpy=lambda x, axis, keepdims: reduce(x, axis=axis, keepdims=keepdims),
    )


_all = _truth_reduction("all")
_any = _truth_reduction("any")


def all(x: ArrayLike, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Whether every element along ``axis`` is true (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.all(tg.tensor([[1.0, 0.0], [2.0, 3.0]]), axis=1).numpy()
    array([False,  True])
    """
    return _all(x, axis=normalize_axis(axis, len(shape_of(x)), "all"), keepdims=keepdims)


def any(x: ArrayLike, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Whether some element along ``axis`` is true (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.any(tg.tensor([[0.0, 1.0], [0.0, 0.0]]), axis=1)
    tensor([ True, False], dtype=bool)
    """
    return _any(x, axis=normalize_axis(axis, len(shape_of(x)), "any"), keepdims=keepdims)


def _isclose_forward(xp: Any, a: Any, b: Any, rtol: float, atol: float, equal_nan: bool) -> Any:
    if xp is np:
        return np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    # NumPy's definition: |a - b| <= atol + rtol |b|, infinities equal only to themselves
    close = xp.abs(a - b) <= atol + rtol * xp.abs(b)
    infinite = xp.isinf(a) | xp.isinf(b)
    close = xp.where(infinite, a == b, close)
    if equal_nan:
        close = close | (xp.isnan(a) & xp.isnan(b))
    return close


_isclose = Primitive("isclose", _isclose_forward, differentiable=False, explain=explain_broadcast)


def isclose(
    a: ArrayLike, b: ArrayLike, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> Tensor:
    """Elementwise ``|a - b| <= atol + rtol * |b|`` (boolean, no gradient), as ``np.isclose``.

    >>> import tapegrad as tg
    >>> tg.isclose(tg.tensor([1.0, 2.0]), [1.0 + 1e-9, 2.1]).numpy()
    array([ True, False])
    """
    return _isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)


def allclose(
    a: ArrayLike, b: ArrayLike, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False
) -> bool:
    """Whether ``isclose`` holds everywhere: a Python bool, as NumPy returns.

    >>> import tapegrad as tg
    >>> tg.allclose(tg.tensor([1.0, 2.0]), [1.0, 2.0 + 1e-9])
    True
    """
    return bool(all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a1: ArrayLike, a2: ArrayLike, equal_nan: bool = False) -> bool:
    """Whether ``a1`` and ``a2`` have the same shape and elements (a Python bool).

    >>> import tapegrad as tg
    >>> tg.array_equal(tg.tensor([1, 2]), [1, 2]), tg.array_equal(tg.tensor([1, 2]), [1])
    (True, False)
    """
    if shape_of(a1) != shape_of(a2):
        return False
    same = _equal_or_both_nan(a1, a2) if equal_nan else _equal(a1, a2)
    return bool(all(same))


def array_equiv(a1: ArrayLike, a2: ArrayLike) -> bool:
    """Whether ``a1`` and ``a2`` broadcast together and are equal everywhere (a Python bool).

    >>> import tapegrad as tg
    >>> tg.array_equiv(tg.tensor([1.0, 2.0]), tg.tensor([[1.0, 2.0], [1.0, 2.0]]))
    True
    """
    try:
        np.broadcast_shapes(shape_of(a1), shape_of(a2))
    except ValueError:
        return False
    return bool(all(_equal(a1, a2)))


def _equal(a: Any, b: Any) -> Tensor:
    from tapegrad.ops.nondifferentiable import equal

    return equal(a, b)


def _equal_or_both_nan(a: Any, b: Any) -> Tensor:
    return logical_or(_equal(a, b), logical_and(isnan(a), isnan(b)))


_count_nonzero = Primitive(
    "count_nonzero",
    lambda xp, x, axis, keepdims: xp.count_nonzero(x, axis=axis, keepdims=keepdims),
    differentiable=False,
)


def count_nonzero(x: ArrayLike, axis: Any = None, keepdims: bool = False) -> Tensor:
    """The number of nonzero elements along ``axis`` (integer, no gradient).

    >>> import tapegrad as tg
    >>> tg.count_nonzero(tg.tensor([0.0, 1.0, 2.0])).item()
    2
    """
    axes = normalize_axis(axis, len(shape_of(x)), "count_nonzero")
    return _count_nonzero(x, axis=axes, keepdims=keepdims)
