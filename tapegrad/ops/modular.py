"""Remainders, signs and NaN-aware extrema: remainder fmod divmod modf copysign fabs fmax
fmin heaviside nan_to_num nextafter.

These are piecewise smooth: each rule is the derivative of the piece the input lies in
(the integer parts ``floor(x / y)`` and ``trunc(x / y)`` are constants there). All are
real-only (``complex_rules=False``): NumPy refuses complex input to the remainders,
``modf``, ``copysign`` and ``nextafter``, and ``fmax``/``fmin`` order values.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.operands import explain_broadcast
from tapegrad.ops.primitive import Primitive, shape_of, unbroadcast
from tapegrad.ops.rule_helpers import result_dtype, zero_gradient

ArrayLike = Any


def _remainder_forward(xp: Any, x: Any, y: Any) -> Any:
    return np.remainder(x, y) if xp is np else xp.remainder(x, y)


# remainder(x, y) = x - floor(x / y) * y, with floor(x / y) as NumPy computes it
_remainder = Primitive(
    "remainder",
    _remainder_forward,
    explain=explain_broadcast,
    numpy=np.remainder,
    complex_rules=False,
).defvjp(
    lambda g, ans, x, y: unbroadcast(g, shape_of(x)),
    lambda g, ans, x, y: unbroadcast(-g * ops.floor_divide(x, y), shape_of(y)),
)


def remainder(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise remainder of floor division, with the sign of ``y`` (``np.mod``, ``%``).

    >>> import tapegrad as tg
    >>> tg.remainder(tg.tensor(-7.0), 3.0).item()
    2.0
    """
    return _remainder._binary(x, y)


def _fmod_forward(xp: Any, x: Any, y: Any) -> Any:
    if xp is np:
        return np.fmod(x, y)
    return x - xp.trunc(x / y) * y  # the array API has no fmod


# fmod(x, y) = x - trunc(x / y) * y
_fmod = Primitive(
    "fmod", _fmod_forward, explain=explain_broadcast, numpy=np.fmod, complex_rules=False
).defvjp(
    lambda g, ans, x, y: unbroadcast(g, shape_of(x)),
    lambda g, ans, x, y: unbroadcast(-g * ops.trunc(ops.divide(x, y)), shape_of(y)),
)


def fmod(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise remainder of truncated division, with the sign of ``x`` (C's fmod).

    >>> import tapegrad as tg
    >>> tg.fmod(tg.tensor(-7.0), 3.0).item()
    -1.0
    """
    return _fmod._binary(x, y)


def divmod(x: ArrayLike, y: ArrayLike) -> tuple[Tensor, Tensor]:  # noqa: A001 - NumPy's name
    """``(floor_divide(x, y), remainder(x, y))``; only the remainder has a gradient.

    >>> import tapegrad as tg
    >>> [t.item() for t in tg.divmod(tg.tensor(7.0), 2.0)]
    [3.0, 1.0]
    """
    return ops.floor_divide(x, y), remainder(x, y)


def _modf_fraction(xp: Any, x: Any) -> Any:
    return np.modf(x)[0] if xp is np else x - xp.trunc(x)


_fraction = Primitive("modf", _modf_fraction, complex_rules=False).defvjp(lambda g, ans, x: g)


def modf(x: ArrayLike) -> tuple[Tensor, Tensor]:
    """``(fractional part, integral part)``, both with the sign of ``x``; the fraction's
    gradient is 1, the integral part's 0.

    >>> import tapegrad as tg
    >>> [t.item() for t in tg.modf(tg.tensor(-2.5))]
    [-0.5, -2.0]
    """
    return _fraction._unary(x), ops.trunc(x)


def _copysign_forward(xp: Any, x: Any, y: Any) -> Any:
    return np.copysign(x, y) if xp is np else xp.copysign(x, y)


# copysign(x, y) is x where the sign bits agree, else -x: slope +1 or -1 in x, 0 in y.
def _signbit(x: Any) -> Any:
    """The sign bit of an array, or of a Python number (a Python bool: goes with any array)."""
    if isinstance(x, (int, float)):
        return math.copysign(1.0, x) < 0
    return ops.signbit(x)


_copysign = Primitive(
    "copysign",
    _copysign_forward,
    explain=explain_broadcast,
    numpy=np.copysign,
    complex_rules=False,
).defvjp(
    lambda g, ans, x, y: unbroadcast(
        ops.where(ops.equal(ops.signbit(x), _signbit(y)), g, -g), shape_of(x)
    ),
    zero_gradient(1),
)


def copysign(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``|x|`` with the sign of ``y``.

    >>> import tapegrad as tg
    >>> tg.copysign(tg.tensor(2.0), -0.0).item()
    -2.0
    """
    return _copysign._binary(x, y)


def fabs(x: ArrayLike) -> Tensor:
    """Elementwise absolute value of real ``x``, always floating (``np.fabs``).

    >>> import tapegrad as tg
    >>> tg.fabs(tg.tensor(-3)).item()
    3.0
    """
    dtype = getattr(x, "dtype", None)
    if dtype is None or not backend.is_floating(dtype):
        x = ops.astype(np.asarray(x) if dtype is None else x, np.float64)
    return ops.abs(x)


# fmax/fmin ignore a NaN operand: where exactly one side is NaN the other side wins; ties
# split the gradient evenly, as maximum's do.
def _nan_extremum_vjp(argnum: int, g: Any, ans: Any, x: Any, y: Any, beats: Any) -> Any:
    mine, other = (x, y) if argnum == 0 else (y, x)
    other_nan = math.isnan(other) if isinstance(other, (int, float)) else ops.isnan(other)
    wins = ops.logical_or(
        beats(mine, other), ops.logical_and(other_nan, ops.logical_not(ops.isnan(mine)))
    )
    share = ops.where(wins, g, ops.where(ops.equal(mine, other), g * 0.5, 0.0))
    return unbroadcast(share, shape_of(mine))


def _arrays(xp: Any, x: Any, y: Any) -> tuple[Any, Any]:
    """Python numbers as arrays of the other operand's dtype (the array API's isnan needs
    arrays)."""
    if isinstance(x, (int, float)):
        x = xp.asarray(x, dtype=y.dtype)
    if isinstance(y, (int, float)):
        y = xp.asarray(y, dtype=x.dtype)
    return x, y


def _fmax_forward(xp: Any, x: Any, y: Any) -> Any:
    if xp is np:
        return np.fmax(x, y)
    x, y = _arrays(xp, x, y)
    return xp.where(xp.isnan(y), x, xp.where(xp.isnan(x), y, xp.maximum(x, y)))


def _fmin_forward(xp: Any, x: Any, y: Any) -> Any:
    if xp is np:
        return np.fmin(x, y)
    x, y = _arrays(xp, x, y)
    return xp.where(xp.isnan(y), x, xp.where(xp.isnan(x), y, xp.minimum(x, y)))


_fmax = Primitive(
    "fmax", _fmax_forward, explain=explain_broadcast, numpy=np.fmax, complex_rules=False
).defvjp(
    lambda g, ans, x, y: _nan_extremum_vjp(0, g, ans, x, y, ops.greater),
    lambda g, ans, x, y: _nan_extremum_vjp(1, g, ans, x, y, ops.greater),
)
_fmin = Primitive(
    "fmin", _fmin_forward, explain=explain_broadcast, numpy=np.fmin, complex_rules=False
).defvjp(
    lambda g, ans, x, y: _nan_extremum_vjp(0, g, ans, x, y, ops.less),
    lambda g, ans, x, y: _nan_extremum_vjp(1, g, ans, x, y, ops.less),
)


def fmax(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise maximum that ignores NaN (NaN only where both are NaN).

    >>> import tapegrad as tg
    >>> tg.fmax(tg.tensor(float("nan")), 1.0).item()
    1.0
    """
    return _fmax._binary(x, y)


def fmin(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise minimum that ignores NaN (NaN only where both are NaN).

    >>> import tapegrad as tg
    >>> tg.fmin(tg.tensor(float("nan")), 1.0).item()
    1.0
    """
    return _fmin._binary(x, y)


def heaviside(x: ArrayLike, h0: ArrayLike) -> Tensor:
    """The step function: 0 for ``x < 0``, ``h0`` at 0, 1 for ``x > 0``; the gradient goes
    to ``h0`` where ``x == 0`` (``x`` itself has none).

    >>> import tapegrad as tg
    >>> tg.heaviside(tg.tensor([-1.0, 0.0, 2.0]), 0.5).numpy()
    array([0. , 0.5, 1. ])
    """
    step = ops.astype(ops.greater(x, 0), result_dtype(x, h0))
    return ops.where(ops.equal(x, 0), h0, ops.where(ops.isnan(x), x, step))


def nan_to_num(
    x: ArrayLike,
    copy: bool = True,
    nan: float = 0.0,
    posinf: float | None = None,
    neginf: float | None = None,
) -> Tensor:
    """NaN, +inf and -inf replaced by ``nan``, ``posinf`` and ``neginf`` (by default 0 and
    the largest finite values); the gradient passes where ``x`` is finite.

    >>> import tapegrad as tg
    >>> tg.nan_to_num(tg.tensor([float("nan"), 1.0]), nan=-1.0).numpy()
    array([-1.,  1.])
    """
    dtype = getattr(x, "dtype", None)
    if dtype is None or not backend.is_floating(dtype):
        return ops.copy(x)  # integers have nothing to replace
    if "complex" in str(dtype):
        raise NotImplementedError("nan_to_num: complex Tensors are not supported yet")
    info = np.finfo(backend.dtype_name(dtype))
    big = float(info.max) if posinf is None else posinf
    small = float(-info.max) if neginf is None else neginf
    out = ops.where(ops.isnan(x), nan, x)
    out = ops.where(ops.isposinf(x), big, out)
    return ops.where(ops.isneginf(x), small, out)


def _nextafter_forward(xp: Any, x: Any, y: Any) -> Any:
    return np.nextafter(x, y) if xp is np else xp.nextafter(x, y)


# nextafter(x, y) is x moved by one unit in the last place: slope 1 in x, 0 in y
_nextafter = Primitive(
    "nextafter",
    _nextafter_forward,
    explain=explain_broadcast,
    numpy=np.nextafter,
    complex_rules=False,
).defvjp(lambda g, ans, x, y: unbroadcast(g, shape_of(x)), zero_gradient(1))


def nextafter(x: ArrayLike, y: ArrayLike) -> Tensor:
    """The next floating value after ``x`` towards ``y``; its gradient in ``x`` is 1.

    >>> import tapegrad as tg
    >>> tg.nextafter(tg.tensor(1.0), 2.0).item() > 1.0
    True
    """
    return _nextafter._binary(x, y)
