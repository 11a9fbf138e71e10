"""Arithmetic: add subtract multiply divide power negative maximum minimum where clip abs astype.

Binary ops broadcast like NumPy; each rule sums its cotangent back to its
input's shape with :func:`unbroadcast`. Rules take complex conjugates where the
convention needs them (``g * conj(y)``: see docs/complex.md); ops that order values
(maximum, minimum, clip) have no gradient for complex values.
"""

from __future__ import annotations

import cmath
import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.sweep_raw import passthrough
from tapegrad.core.tensor import Tensor
from tapegrad.ops.operands import explain_broadcast
from tapegrad.ops.primitive import (
    Primitive,
    binary_call,
    conjugated,
    raw,
    shape_of,
    unary_call,
    unbroadcast,
)

ArrayLike = Any

_add = Primitive(
    "add",
    lambda xp, x, y: xp.add(x, y),
    explain=explain_broadcast,
    numpy=np.add,
    complex_rules=True,
).defvjp(
    lambda g, ans, x, y: unbroadcast(g, shape_of(x)),
    lambda g, ans, x, y: unbroadcast(g, shape_of(y)),
)
_add.defvjp_same_shape(passthrough, passthrough).saves()  # the rules read shapes only
Tensor.__add__ = binary_call(_add, depth=2)  # x + y (see Tensor's operators)


def add(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x + y`` with broadcasting.

    >>> import tapegrad as tg
    >>> tg.add(tg.tensor([1.0, 2.0, 4.0]), 2.0)
    tensor([3., 4., 6.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.add(x, 2.0)))(tg.tensor([1.0, 2.0, 4.0]))  # the gradient
    tensor([1., 1., 1.], dtype=float64)
    """
    return _add._binary(x, y)


_subtract = Primitive(
    "subtract",
    lambda xp, x, y: xp.subtract(x, y),
    explain=explain_broadcast,
    numpy=np.subtract,
    complex_rules=True,
).defvjp(
    lambda g, ans, x, y: unbroadcast(g, shape_of(x)),
    lambda g, ans, x, y: -unbroadcast(g, shape_of(y)),  # negating the smaller array
)
_subtract.defvjp_same_shape(passthrough, lambda g, ans, x, y: -g).saves()
Tensor.__sub__ = binary_call(_subtract, depth=2)


def subtract(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x - y`` with broadcasting.

    >>> import tapegrad as tg
    >>> tg.subtract(tg.tensor([1.0, 2.0, 4.0]), 2.0)
    tensor([-1.,  0.,  2.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.subtract(x, 2.0)))(tg.tensor([1.0, 2.0, 4.0]))  # the gradient
    tensor([1., 1., 1.], dtype=float64)
    """
    return _subtract._binary(x, y)


_multiply = Primitive(
    "multiply",
    lambda xp, x, y: xp.multiply(x, y),
    explain=explain_broadcast,
    numpy=np.multiply,
    complex_rules=True,
).defvjp(
    lambda g, ans, x, y: unbroadcast(g * conjugated(y), shape_of(x)),
    lambda g, ans, x, y: unbroadcast(g * conjugated(x), shape_of(y)),
)
_multiply.defvjp_same_shape(lambda g, ans, x, y: g * y, lambda g, ans, x, y: g * x)
Tensor.__mul__ = binary_call(_multiply, depth=2)


def multiply(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x * y`` with broadcasting.

    >>> import tapegrad as tg
    >>> tg.multiply(tg.tensor([1.0, 2.0, 4.0]), 2.0)
    tensor([2., 4., 8.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.multiply(x, 2.0)))(tg.tensor([1.0, 2.0, 4.0]))  # the gradient
    tensor([2., 2., 2.], dtype=float64)
    """
    return _multiply._binary(x, y)


_divide = Primitive(
    "divide",
    lambda xp, x, y: xp.divide(x, y),
    explain=explain_broadcast,
    numpy=np.divide,
    complex_rules=True,
).defvjp(
    lambda g, ans, x, y: unbroadcast(g / conjugated(y), shape_of(x)),
    # d(x/y)/dy = -x/y**2 = -ans/y
    lambda g, ans, x, y: unbroadcast(-g * conjugated(ans) / conjugated(y), shape_of(y)),
)
_divide.defvjp_same_shape(lambda g, ans, x, y: g / y, lambda g, ans, x, y: -g * ans / y)
Tensor.__truediv__ = binary_call(_divide, depth=2)


def divide(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise true division ``x / y`` with broadcasting.

    >>> import tapegrad as tg
    >>> tg.divide(tg.tensor([1.0, 2.0, 4.0]), 2.0)
    tensor([0.5, 1. , 2. ], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.divide(x, 2.0)))(tg.tensor([1.0, 2.0, 4.0]))  # the gradient
    tensor([0.5, 0.5, 0.5], dtype=float64)
    """
    return _divide._binary(x, y)


def _power_vjp_base(g: Tensor, ans: Tensor, x: Any, y: Any) -> Tensor:
    # d(x**y)/dx = y * x**(y-1). Constant exponents 1 and 0 skip the power: x**0 would
    # make the next derivative 0 * x**-1, which is nan at x = 0.
    if not isinstance(y, Tensor) and not shape_of(y):
        if y in (0, 1):
            return unbroadcast(g * (1.0 if y == 1 else 0.0), shape_of(x))
        return unbroadcast(g * conjugated(y * x ** (y - 1)), shape_of(x))
    # At x = y = 0, y * x**(y-1) is 0 * inf = nan; its limit along y = 0 is 0 (as in
    # PyTorch and JAX). There only, y * x**1 gives that 0 and a finite next derivative.
    exponent = ops.where(ops.equal(x, 0), ops.where(ops.equal(y, 0), 1, y - 1), y - 1)
    return unbroadcast(g * conjugated(y * x**exponent), shape_of(x))


def _power_vjp_exponent(g: Tensor, ans: Tensor, x: Any, y: Any) -> Tensor:
    # d(x**y)/dy = x**y * log(x). A real result takes it as 0 where x <= 0 (the double
    # where keeps the second derivative free of NaN there); a complex one takes the
    # principal log of any base but 0 (a real base converted to complex, as the forward did).
    if backend.is_complex(ans.dtype):
        if isinstance(x, (int, float, complex)):
            log_x = cmath.log(x) if x != 0 else 0.0
        else:
            nonzero = ops.not_equal(x, 0)
            base = ops.astype(ops.where(nonzero, x, 1.0), ans.dtype)
            log_x = ops.where(nonzero, ops.log(base), 0.0)
        return unbroadcast(g * conjugated(ans * log_x), shape_of(y))
    if isinstance(x, (int, float)):  # a constant base stays a constant, on no device
        return unbroadcast(g * ans * (math.log(x) if x > 0 else 0.0), shape_of(y))
    positive = ops.greater(x, 0)
    log_x = ops.where(positive, ops.log(ops.where(positive, x, 1.0)), 0.0)
    return unbroadcast(g * ans * log_x, shape_of(y))


_power = Primitive(
    "power",
    lambda xp, x, y: xp.pow(x, y),
    explain=explain_broadcast,
    numpy=np.power,
    complex_rules=True,
).defvjp(_power_vjp_base, _power_vjp_exponent)
Tensor.__pow__ = binary_call(_power, depth=2)


def power(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x ** y`` with broadcasting.

    >>> import tapegrad as tg
    >>> tg.power(tg.tensor([1.0, 2.0, 4.0]), 2.0)
    tensor([ 1.,  4., 16.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.power(x, 2.0)))(tg.tensor([1.0, 2.0, 4.0]))  # the gradient
    tensor([2., 4., 8.], dtype=float64)
    """
    return _power._binary(x, y)


_negative = (
    Primitive("negative", lambda xp, x: xp.negative(x), numpy=np.negative, complex_rules=True)
    .defvjp(lambda g, ans, x: -g)
    .saves()
)
Tensor.__neg__ = unary_call(_negative, depth=2)


def negative(x: ArrayLike) -> Tensor:
    """Elementwise ``-x``.

    >>> import tapegrad as tg
    >>> tg.negative(tg.tensor([1.0, 2.0, 4.0]))
    tensor([-1., -2., -4.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.negative(x)))(tg.tensor([1.0, 2.0, 4.0]))  # the gradient
    tensor([-1., -1., -1.], dtype=float64)
    """
    return _negative._unary(x)


def _tie_weights(g: Tensor, x: Any, y: Any, wins: Any) -> Tensor:
    # Where x wins, x gets all of g; where x and y tie, each gets half (as in PyTorch).
    # Ties are rare: one look at the values (not recorded: with no ties both formulas
    # agree everywhere) skips the split's three full-size arrays when there are none.
    a, b = raw(x), raw(y)
    xp = backend.namespace(a, b)
    if not bool(xp.any(xp.equal(a, b))):
        return ops.where(wins, g, 0.0)
    return ops.where(wins, g, ops.where(ops.equal(x, y), g * 0.5, 0.0))


_maximum = Primitive(
    "maximum",
    lambda xp, x, y: xp.maximum(x, y),
    explain=explain_broadcast,
    numpy=np.maximum,
    complex_rules=False,
)
_maximum.defvjp(
    lambda g, ans, x, y: unbroadcast(_tie_weights(g, x, y, ops.greater(x, y)), shape_of(x)),
    lambda g, ans, x, y: unbroadcast(_tie_weights(g, y, x, ops.greater(y, x)), shape_of(y)),
)


def maximum(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise maximum; at ties the gradient is split evenly.

    >>> import tapegrad as tg
    >>> tg.maximum(tg.tensor([1.0, 5.0]), tg.tensor([3.0, 2.0]))
    tensor([3., 5.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.maximum(x, 2.0)))(tg.tensor([1.0, 5.0]))  # the larger one's
    tensor([0., 1.], dtype=float64)
    """
    return _maximum._binary(x, y)


_minimum = Primitive(
    "minimum",
    lambda xp, x, y: xp.minimum(x, y),
    explain=explain_broadcast,
    numpy=np.minimum,
    complex_rules=False,
)
_minimum.defvjp(
    lambda g, ans, x, y: unbroadcast(_tie_weights(g, x, y, ops.less(x, y)), shape_of(x)),
    lambda g, ans, x, y: unbroadcast(_tie_weights(g, y, x, ops.less(y, x)), shape_of(y)),
)


def minimum(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise minimum; at ties the gradient is split evenly.

    >>> import tapegrad as tg
    >>> tg.minimum(tg.tensor([1.0, 5.0]), tg.tensor([3.0, 2.0]))
    tensor([1., 2.], dtype=float64)
    """
    return _minimum._binary(x, y)


_where = Primitive(
    "where",
    lambda xp, cond, x, y: xp.where(cond, x, y),
    explain=explain_broadcast,
    complex_rules=True,
).defvjp(
    None,
    lambda g, ans, cond, x, y: unbroadcast(ops.where(cond, g, 0.0), shape_of(x)),
    lambda g, ans, cond, x, y: unbroadcast(ops.where(cond, 0.0, g), shape_of(y)),
)


def where(condition: ArrayLike, x: ArrayLike, y: ArrayLike) -> Tensor:
    """``x`` where ``condition`` holds, else ``y`` (broadcast together).

    >>> import tapegrad as tg
    >>> x = tg.tensor([-1.0, 2.0])
    >>> tg.where(x > 0, x, 0.0)
    tensor([0., 2.], dtype=float64)
    """
    return _where(condition, x, y)


def _clip_forward(xp: Any, x: Any, a_min: Any, a_max: Any) -> Any:
    if a_min is not None:
        x = xp.maximum(x, a_min)
    if a_max is not None:
        x = xp.minimum(x, a_max)
    return x


def _clip_vjp(g: Tensor, ans: Tensor, x: Any, a_min: Any, a_max: Any) -> Tensor:
    # The gradient passes where a_min <= x <= a_max, boundaries included.
    inside = g
    if a_min is not None:
        inside = ops.where(ops.less(x, a_min), 0.0, inside)
    if a_max is not None:
        inside = ops.where(ops.greater(x, a_max), 0.0, inside)
    return unbroadcast(inside, shape_of(x))


def _clip_vjp_min(g: Tensor, ans: Tensor, x: Any, a_min: Any, a_max: Any) -> Tensor:
    # The result is a_min where x < a_min, unless a_max then clips it (a_min > a_max, where
    # NumPy gives a_max everywhere).
    at_min = ops.less(x, a_min)
    if a_max is not None:
        at_min = ops.logical_and(at_min, ops.less_equal(a_min, a_max))
    return unbroadcast(ops.where(at_min, g, 0.0), shape_of(a_min))


def _clip_vjp_max(g: Tensor, ans: Tensor, x: Any, a_min: Any, a_max: Any) -> Tensor:
    # The result is a_max where max(x, a_min) > a_max.
    above = ops.greater(x if a_min is None else ops.maximum(x, a_min), a_max)
    return unbroadcast(ops.where(above, g, 0.0), shape_of(a_max))


_clip = Primitive("clip", _clip_forward, explain=explain_broadcast, complex_rules=False).defvjp(
    _clip_vjp, _clip_vjp_min, _clip_vjp_max
)


def clip(x: ArrayLike, a_min: ArrayLike = None, a_max: ArrayLike = None) -> Tensor:
    """Limit ``x`` to ``[a_min, a_max]``, differentiable in ``x`` and in the bounds: each
    element's gradient goes to whichever of the three it equals (``x`` at a boundary).

    >>> import tapegrad as tg
    >>> tg.clip(tg.tensor([-2.0, 0.5, 3.0]), 0.0, 1.0)
    tensor([0. , 0.5, 1. ], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.clip(x, 0.0, 1.0)))(tg.tensor([-2.0, 0.5, 3.0]))  # 0: clipped
    tensor([0., 1., 0.], dtype=float64)
    >>> tg.grad(lambda hi: tg.sum(tg.clip(tg.tensor([-2.0, 0.5, 3.0]), 0.0, hi)))(tg.tensor(1.0))
    tensor(1., dtype=float64)
    """
    return _clip(x, a_min, a_max)


def _abs_vjp(g: Any, ans: Any, x: Any) -> Any:
    # d|x| = sign(x) dx for real x; for complex z the gradient of |z| is z / |z|.
    # Both are taken as 0 at 0 (there z = 0, so z / 1 is that 0).
    if backend.is_complex(x.dtype):
        return g * (x / ops.where(ops.equal(ans, 0.0), 1.0, ans))
    return g * ops.sign(x)


_abs = Primitive("abs", lambda xp, x: xp.abs(x), numpy=np.abs, complex_rules=True).defvjp(_abs_vjp)


def abs(x: ArrayLike) -> Tensor:  # noqa: A001 - NumPy's name
    """Elementwise ``|x|`` (the modulus of complex values); its gradient at 0 is 0.

    >>> import tapegrad as tg
    >>> tg.abs(tg.tensor([-1.0, 2.0]))
    tensor([1., 2.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.abs(x)))(tg.tensor([-1.0, 2.0]))  # the gradient
    tensor([-1.,  1.], dtype=float64)
    """
    return _abs._unary(x)


def cast_cotangent(g: Any, dtype: Any) -> Any:
    """``g`` as the cotangent of an input of ``dtype``: its real part when that input is
    real and ``g`` complex (an op promoted the input to complex; the gradient of a real
    value is real), then cast. The sweeps cast every rule's result through here.

    >>> import numpy as np
    >>> from tapegrad.ops.arithmetic import cast_cotangent
    >>> cast_cotangent(np.array([1 + 2j]), np.float32).numpy()
    array([1.], dtype=float32)
    """
    if backend.is_complex(g.dtype) and not backend.is_complex(dtype):
        g = ops.real(g)
    return g if g.dtype == dtype else ops.astype(g, dtype)


_astype = Primitive(
    "astype", lambda xp, x, dtype: xp.astype(x, backend.dtype_in(xp, dtype)), complex_rules=True
).defvjp(lambda g, ans, x, dtype: cast_cotangent(g, x.dtype))


def astype(x: ArrayLike, dtype: Any) -> Tensor:
    """``x`` converted to ``dtype``; the gradient is converted back.

    >>> import tapegrad as tg
    >>> tg.astype(tg.tensor([1.5, 2.5]), "float32")
    tensor([1.5, 2.5], dtype=float32)
    """
    return _astype(x, dtype=dtype)
