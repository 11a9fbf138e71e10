"""Inverse trigonometric and hyperbolic functions, angles: arcsin arccos arcsinh arccosh
arctanh arctan2 hypot sinc deg2rad rad2deg.

Rules follow the complex convention (``g * conj(f'(x))``, see rule_helpers.py).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.operands import explain_broadcast
from tapegrad.ops.primitive import Primitive, shape_of, unbroadcast
from tapegrad.ops.rule_helpers import conj

ArrayLike = Any

# d arcsin = 1 / sqrt(1 - x**2)
_arcsin = Primitive("arcsin", lambda xp, x: xp.asin(x), numpy=np.arcsin, complex_rules=True).defvjp(
    lambda g, ans, x: g / conj(ops.sqrt(1.0 - x * x))
)


def arcsin(x: ArrayLike) -> Tensor:
    """Elementwise inverse sine.

    >>> import tapegrad as tg
    >>> round(tg.arcsin(tg.tensor(1.0)).item(), 6)
    1.570796
    """
    return _arcsin._unary(x)


# d arccos = -1 / sqrt(1 - x**2)
_arccos = Primitive("arccos", lambda xp, x: xp.acos(x), numpy=np.arccos, complex_rules=True).defvjp(
    lambda g, ans, x: -g / conj(ops.sqrt(1.0 - x * x))
)


def arccos(x: ArrayLike) -> Tensor:
    """Elementwise inverse cosine.

    >>> import tapegrad as tg
    >>> tg.arccos(tg.tensor(1.0)).item()
    0.0
    """
    return _arccos._unary(x)


# d arcsinh = 1 / sqrt(x**2 + 1)
_arcsinh = Primitive(
    "arcsinh", lambda xp, x: xp.asinh(x), numpy=np.arcsinh, complex_rules=True
).defvjp(lambda g, ans, x: g / conj(ops.sqrt(x * x + 1.0)))


def arcsinh(x: ArrayLike) -> Tensor:
    """Elementwise inverse hyperbolic sine.

    >>> import tapegrad as tg
    >>> tg.arcsinh(tg.tensor(0.0)).item()
    0.0
    """
    return _arcsinh._unary(x)


# d arccosh = 1 / (sqrt(x - 1) sqrt(x + 1)): the product form is also right for complex x
_arccosh = Primitive(
    "arccosh", lambda xp, x: xp.acosh(x), numpy=np.arccosh, complex_rules=True
).defvjp(lambda g, ans, x: g / conj(ops.sqrt(x - 1.0) * ops.sqrt(x + 1.0)))


def arccosh(x: ArrayLike) -> Tensor:
    """Elementwise inverse hyperbolic cosine (``x >= 1``).

    >>> import tapegrad as tg
    >>> tg.arccosh(tg.tensor(1.0)).item()
    0.0
    """
    return _arccosh._unary(x)


# d arctanh = 1 / (1 - x**2)
_arctanh = Primitive(
    "arctanh", lambda xp, x: xp.atanh(x), numpy=np.arctanh, complex_rules=True
).defvjp(lambda g, ans, x: g / conj(1.0 - x * x))


def arctanh(x: ArrayLike) -> Tensor:
    """Elementwise inverse hyperbolic tangent (``|x| < 1``).

    >>> import tapegrad as tg
    >>> tg.arctanh(tg.tensor(0.0)).item()
    0.0
    """
    return _arctanh._unary(x)


# arctan2(y, x) is the angle of (x, y): d/dy = x / r**2, d/dx = -y / r**2. At the origin
# both are taken as 0 (the angle has no limit there), as JAX and PyTorch give 0/0 = nan
# otherwise; the double where keeps the next derivative finite too.
def _arctan2_vjp(argnum: int, g: Any, ans: Any, y: Any, x: Any) -> Any:
    squares = x * x + y * y
    origin = ops.equal(squares, 0)
    safe = ops.where(origin, 1.0, squares)
    slope = (x if argnum == 0 else -y) / safe
    return unbroadcast(ops.where(origin, 0.0, g * slope), shape_of(y if argnum == 0 else x))


_arctan2 = Primitive(
    "arctan2",
    lambda xp, y, x: xp.atan2(y, x),
    explain=explain_broadcast,
    numpy=np.arctan2,
    complex_rules=False,  # a function of real y and x (NumPy refuses complex input)
).defvjp(
    lambda g, ans, y, x: _arctan2_vjp(0, g, ans, y, x),
    lambda g, ans, y, x: _arctan2_vjp(1, g, ans, y, x),
)


def arctan2(y: ArrayLike, x: ArrayLike) -> Tensor:
    """Elementwise angle of the point ``(x, y)``, in ``[-pi, pi]``; note the order ``(y, x)``.

    >>> import tapegrad as tg
    >>> round(tg.arctan2(tg.tensor(1.0), tg.tensor(-1.0)).item(), 6)
    2.356194
    """
    return _arctan2._binary(y, x)


# d hypot / dx = x / hypot; taken as 0 at the origin (as abs at 0).
def _hypot_vjp(argnum: int, g: Any, ans: Any, x: Any, y: Any) -> Any:
    mine = x if argnum == 0 else y
    origin = ops.equal(ans, 0)
    slope = mine / ops.where(origin, 1.0, ans)
    return unbroadcast(ops.where(origin, 0.0, g * slope), shape_of(mine))


_hypot = Primitive(
    "hypot",
    lambda xp, x, y: xp.hypot(x, y),
    explain=explain_broadcast,
    numpy=np.hypot,
    complex_rules=False,  # of real x and y (NumPy refuses complex input)
).defvjp(
    lambda g, ans, x, y: _hypot_vjp(0, g, ans, x, y),
    lambda g, ans, x, y: _hypot_vjp(1, g, ans, x, y),
)


def hypot(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``sqrt(x**2 + y**2)`` without overflow; its gradient at the origin is 0.

    >>> import tapegrad as tg
    >>> tg.hypot(tg.tensor(3.0), tg.tensor(4.0)).item()
    5.0
    """
    return _hypot._binary(x, y)


def _sinc_forward(xp: Any, x: Any) -> Any:
    if xp is np:
        return np.sinc(x)
    # NumPy's own formula: pi * x with 0 replaced by a tiny number gives sin(y) / y = 1 there
    y = math.pi * xp.where(x == 0, xp.asarray(1.0e-20, dtype=x.dtype), x)
    return xp.sin(y) / y


# Below this |x| the derivative comes from its Taylor series (the quotient cancels).
_SINC_TAYLOR = 1e-2


def _sinc_derivative(x: Any) -> Any:
    """d sinc / dx = (cos(pi x) - sinc(x)) / x, a polynomial near 0: every order stays exact."""
    small = ops.less(ops.abs(x), _SINC_TAYLOR)
    safe = ops.where(small, 1.0, x)
    quotient = (ops.cos(math.pi * safe) - sinc(safe)) / safe
    # sinc(x) = sum_k (-1)^k (pi x)^(2k) / (2k+1)!, differentiated term by term to x**5
    p2 = math.pi**2
    x2 = x * x
    series = x * (-p2 / 3.0 + x2 * (p2**2 / 30.0 - x2 * (p2**3 / 840.0)))
    return ops.where(small, series, quotient)


_sinc = Primitive("sinc", _sinc_forward, numpy=np.sinc, complex_rules=True).defvjp(
    lambda g, ans, x: g * conj(_sinc_derivative(x))
)


def sinc(x: ArrayLike) -> Tensor:
    """Elementwise normalized sinc, ``sin(pi x) / (pi x)`` (1 at 0), as ``np.sinc``.

    >>> import tapegrad as tg
    >>> tg.sinc(tg.tensor(0.0)).item()
    1.0
    """
    return _sinc._unary(x)


def deg2rad(x: ArrayLike) -> Tensor:
    """Degrees to radians, ``x * pi / 180`` (``np.radians``).

    >>> import tapegrad as tg
    >>> round(tg.deg2rad(tg.tensor(180.0)).item(), 6)
    3.141593
    """
    return ops.multiply(x, math.pi / 180.0)


def rad2deg(x: ArrayLike) -> Tensor:
    """Radians to degrees, ``x * 180 / pi`` (``np.degrees``).

    >>> import tapegrad as tg
    >>> round(tg.rad2deg(tg.tensor(3.141592653589793)).item(), 6)
    180.0
    """
    return ops.multiply(x, 180.0 / math.pi)
