"""Exponentials, logarithms and powers beyond elementwise.py: log2 log10 exp2 logaddexp
logaddexp2 cbrt reciprocal ldexp frexp float_power.

Rules follow the complex convention (``g * conj(f'(x))``, see rule_helpers.py).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.operands import explain_broadcast
from tapegrad.ops.primitive import Primitive, raw, shape_of, unbroadcast
from tapegrad.ops.rule_helpers import conj, zero_gradient

ArrayLike = Any
_LN2 = math.log(2.0)
_LN10 = math.log(10.0)

_log2 = Primitive("log2", lambda xp, x: xp.log2(x), numpy=np.log2, complex_rules=True).defvjp(
    lambda g, ans, x: g / conj(x * _LN2)
)


def log2(x: ArrayLike) -> Tensor:
    """Elementwise base-2 logarithm.

    >>> import tapegrad as tg
    >>> tg.log2(tg.tensor(8.0)).item()
    3.0
    """
    return _log2._unary(x)


_log10 = Primitive("log10", lambda xp, x: xp.log10(x), numpy=np.log10, complex_rules=True).defvjp(
    lambda g, ans, x: g / conj(x * _LN10)
)


def log10(x: ArrayLike) -> Tensor:
    """Elementwise base-10 logarithm.

    >>> import tapegrad as tg
    >>> tg.log10(tg.tensor(1000.0)).item()
    3.0
    """
    return _log10._unary(x)


def _exp2_forward(xp: Any, x: Any) -> Any:
    if xp is np:
        return np.exp2(x)
    return xp.pow(xp.asarray(2.0, dtype=x.dtype), x)  # the array API has no exp2


# d 2**x = 2**x log 2
_exp2 = Primitive("exp2", _exp2_forward, numpy=np.exp2, complex_rules=True).defvjp(
    lambda g, ans, x: g * conj(ans * _LN2)
)


def exp2(x: ArrayLike) -> Tensor:
    """Elementwise ``2 ** x``.

    >>> import tapegrad as tg
    >>> tg.exp2(tg.tensor(3.0)).item()
    8.0
    """
    return _exp2._unary(x)


# d logaddexp(x, y) / dx = exp(x - logaddexp(x, y)). Where both are -inf the result is
# -inf and the gradient 0 (as logsumexp's for a fully masked row), not exp(nan).
def _logaddexp_vjp(argnum: int, g: Any, ans: Any, x: Any, y: Any, exp: Any) -> Any:
    mine = x if argnum == 0 else y
    shift = ans
    values = raw(ans)
    xp = backend.namespace(values)
    if bool(xp.any(values == -math.inf)):  # one look at the values: the where is rarely needed
        shift = ops.where(ops.equal(ans, -math.inf), 0.0, ans)
    return unbroadcast(g * exp(mine - shift), shape_of(mine))


_logaddexp = Primitive(
    "logaddexp",
    lambda xp, x, y: xp.logaddexp(x, y),
    explain=explain_broadcast,
    numpy=np.logaddexp,
    complex_rules=False,  # real-only, as NumPy's (the max it shifts by orders values)
).defvjp(
    lambda g, ans, x, y: _logaddexp_vjp(0, g, ans, x, y, ops.exp),
    lambda g, ans, x, y: _logaddexp_vjp(1, g, ans, x, y, ops.exp),
)


def logaddexp(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``log(exp(x) + exp(y))`` without overflow.

    >>> import tapegrad as tg
    >>> round(tg.logaddexp(tg.tensor(0.0), tg.tensor(0.0)).item(), 6)
    0.693147
    """
    return _logaddexp._binary(x, y)


def _logaddexp2_forward(xp: Any, x: Any, y: Any) -> Any:
    if xp is np:
        return np.logaddexp2(x, y)
    # log2(2**x + 2**y) = logaddexp(x ln 2, y ln 2) / ln 2: no overflow either
    return xp.logaddexp(x * _LN2, y * _LN2) / _LN2


_logaddexp2 = Primitive(
    "logaddexp2",
    _logaddexp2_forward,
    explain=explain_broadcast,
    numpy=np.logaddexp2,
    complex_rules=False,  # as logaddexp
).defvjp(
    lambda g, ans, x, y: _logaddexp_vjp(0, g, ans, x, y, exp2),
    lambda g, ans, x, y: _logaddexp_vjp(1, g, ans, x, y, exp2),
)


def logaddexp2(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``log2(2**x + 2**y)`` without overflow.

    >>> import tapegrad as tg
    >>> tg.logaddexp2(tg.tensor(1.0), tg.tensor(1.0)).item()
    2.0
    """
    return _logaddexp2._binary(x, y)


def _cbrt_forward(xp: Any, x: Any) -> Any:
    if xp is np:
        return np.cbrt(x)
    return xp.sign(x) * xp.abs(x) ** (1.0 / 3.0)  # the array API has no cbrt


# d cbrt = 1 / (3 cbrt(x)**2): infinite at 0, as the function's slope is
# The real cube root (NumPy has no complex cbrt): real-only.
_cbrt = Primitive("cbrt", _cbrt_forward, numpy=np.cbrt, complex_rules=False).defvjp(
    lambda g, ans, x: g / (ans * ans * 3.0)
)


def cbrt(x: ArrayLike) -> Tensor:
    """Elementwise real cube root (negative for negative ``x``).

    >>> import tapegrad as tg
    >>> tg.cbrt(tg.tensor(-8.0)).item()
    -2.0
    """
    return _cbrt._unary(x)


def _reciprocal_forward(xp: Any, x: Any) -> Any:
    if xp is np:
        return np.reciprocal(x)
    return xp.reciprocal(x) if hasattr(xp, "reciprocal") else 1.0 / x


# d (1/x) = -1/x**2 = -ans**2
_reciprocal = Primitive(
    "reciprocal", _reciprocal_forward, numpy=np.reciprocal, complex_rules=True
).defvjp(lambda g, ans, x: -g * conj(ans * ans))


def reciprocal(x: ArrayLike) -> Tensor:
    """Elementwise ``1 / x`` (integer division for integer input, as NumPy).

    >>> import tapegrad as tg
    >>> tg.reciprocal(tg.tensor(4.0)).item()
    0.25
    """
    return _reciprocal._unary(x)


def _ldexp_forward(xp: Any, x: Any, exponent: Any) -> Any:
    if xp is np:
        return np.ldexp(x, exponent)
    if not isinstance(exponent, (int, float)):
        exponent = xp.astype(exponent, x.dtype)
    return x * xp.pow(xp.asarray(2.0, dtype=x.dtype), exponent)


# Real-only, as NumPy's (a float mantissa and an integer exponent).
_ldexp = Primitive("ldexp", _ldexp_forward, explain=explain_broadcast, complex_rules=False).defvjp(
    lambda g, ans, x, exponent: unbroadcast(ldexp(g, exponent), shape_of(x)), zero_gradient(1)
)


def ldexp(x: ArrayLike, exponent: ArrayLike) -> Tensor:
    """Elementwise ``x * 2**exponent`` for integer ``exponent`` (exact).

    >>> import tapegrad as tg
    >>> tg.ldexp(tg.tensor(3.0), 2).item()
    12.0
    """
    return _ldexp._binary(x, exponent)


def _frexp_exponent(xp: Any, x: Any) -> Any:
    return backend.via_numpy(lambda a: np.frexp(a)[1], xp, x)  # the array API has no frexp


_frexp_exponent_op = Primitive("frexp_exponent", _frexp_exponent, differentiable=False)


def frexp(x: ArrayLike) -> tuple[Tensor, Tensor]:
    """``(mantissa, exponent)`` with ``x = mantissa * 2**exponent``; the mantissa is
    ``ldexp(x, -exponent)``, so its gradient is ``2**-exponent``.

    >>> import tapegrad as tg
    >>> [t.item() for t in tg.frexp(tg.tensor(12.0))]
    [0.75, 4]
    """
    exponent = _frexp_exponent_op._unary(x)
    return ldexp(x, -exponent), exponent


def float_power(x: ArrayLike, y: ArrayLike) -> Tensor:
    """``x ** y`` computed in float64 (complex128 for complex input), as ``np.float_power``.

    >>> import tapegrad as tg
    >>> tg.float_power(tg.tensor(2, dtype="int32"), 3).dtype
    dtype('float64')
    """
    return ops.power(_widened(x), _widened(y))


def _widened(a: Any) -> Any:
    if isinstance(a, (bool, int, float, complex, list, tuple)):
        a = np.asarray(a)
    complex_kind = "complex" in str(a.dtype)
    return ops.astype(a, np.complex128 if complex_kind else np.float64)
