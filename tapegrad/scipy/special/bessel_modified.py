"""The modified Bessel functions: iv ive i0e i1e (first kind) and kv kve kn k0 k1 k0e k1e
(second kind). (i0 and i1 are tapegrad.ops' primitives, which tapegrad.scipy.special
exports.)

Differentiable in ``x``; SciPy has no derivative in the order ``v``, so a gradient there
raises LookupError. The rules are the recurrences I_v' = (I_{v-1} + I_{v+1}) / 2 and
K_v' = -(K_{v-1} + K_{v+1}) / 2, in the functions themselves, so every order of derivative
is available. The exponentially scaled ones (``*e``) add the derivative of their scale
factor ``e^{-|x|}`` (``e^{x}`` for K).
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like
from tapegrad.scipy.special.bessel import _order, _shifted

ArrayLike = Any


# --- I: modified, first kind -------------------------------------------------------------

_iv = special_primitive(
    "iv",
    None,
    lambda g, ans, v, x: unbroadcast_like(
        g * 0.5 * (_iv(_shifted(v, -1), x) + _iv(_shifted(v, 1), x)), x
    ),
)

# ive = iv e^{-|x|}: the recurrence, minus sign(x) ive
_ive = special_primitive(
    "ive",
    None,
    lambda g, ans, v, x: unbroadcast_like(
        g * (0.5 * (_ive(_shifted(v, -1), x) + _ive(_shifted(v, 1), x)) - ops.sign(x) * ans),
        x,
    ),
)
_i0e = special_primitive("i0e", lambda g, ans, x: g * (i1e(x) - ops.sign(x) * ans))
_i1e = special_primitive(
    "i1e", lambda g, ans, x: g * (0.5 * (i0e(x) + _ive(2.0, x)) - ops.sign(x) * ans)
)


@plain_calls_scipy("special")
def iv(v: ArrayLike, x: ArrayLike) -> Tensor:
    """The modified Bessel function of the first kind of real order ``v``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import iv
    >>> iv(0.0, tg.tensor(0.0)).item()
    1.0
    """
    _order("iv", v)
    return _iv._binary(v, x)


@plain_calls_scipy("special")
def ive(v: ArrayLike, x: ArrayLike) -> Tensor:
    """``iv(v, x) * exp(-|x|)``, finite for large ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import ive
    >>> ive(0.0, tg.tensor(0.0)).item()
    1.0
    """
    _order("ive", v)
    return _ive._binary(v, x)


@plain_calls_scipy("special")
def i0e(x: ArrayLike) -> Tensor:
    """``i0(x) * exp(-|x|)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import i0e
    >>> i0e(tg.tensor(0.0)).item()
    1.0
    """
    return _i0e._unary(x)


@plain_calls_scipy("special")
def i1e(x: ArrayLike) -> Tensor:
    """``i1(x) * exp(-|x|)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import i1e
    >>> i1e(tg.tensor(0.0)).item()
    0.0
    """
    return _i1e._unary(x)


# --- K: modified, second kind ------------------------------------------------------------

_kv = special_primitive(
    "kv",
    None,
    lambda g, ans, v, x: unbroadcast_like(
        -g * 0.5 * (_kv(_shifted(v, -1), x) + _kv(_shifted(v, 1), x)), x
    ),
)
_k0 = special_primitive("k0", lambda g, ans, x: -g * k1(x))
_k1 = special_primitive("k1", lambda g, ans, x: -g * 0.5 * (k0(x) + _kv(2.0, x)))

# kve = kv e^{x}: the recurrence, plus kve
_kve = special_primitive(
    "kve",
    None,
    lambda g, ans, v, x: unbroadcast_like(
        g * (ans - 0.5 * (_kve(_shifted(v, -1), x) + _kve(_shifted(v, 1), x))), x
    ),
)
_k0e = special_primitive("k0e", lambda g, ans, x: g * (ans - k1e(x)))
_k1e = special_primitive("k1e", lambda g, ans, x: g * (ans - 0.5 * (k0e(x) + _kve(2.0, x))))


@plain_calls_scipy("special")
def kv(v: ArrayLike, x: ArrayLike) -> Tensor:
    """The modified Bessel function of the second kind of real order ``v`` (x > 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import kv
    >>> round(kv(0.5, tg.tensor(1.0)).item(), 12)  # √(π/2) e^-1
    0.461068504448
    """
    _order("kv", v)
    return _kv._binary(v, x)


@plain_calls_scipy("special")
def kve(v: ArrayLike, x: ArrayLike) -> Tensor:
    """``kv(v, x) * exp(x)``, finite for large ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import kve
    >>> round(kve(0.5, tg.tensor(1.0)).item(), 12)  # √(π/2)
    1.253314137316
    """
    _order("kve", v)
    return _kve._binary(v, x)


@plain_calls_scipy("special")
def k0(x: ArrayLike) -> Tensor:
    """The modified Bessel function of the second kind of order 0 (x > 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import k0
    >>> round(k0(tg.tensor(1.0)).item(), 12)
    0.421024438241
    """
    return _k0._unary(x)


@plain_calls_scipy("special")
def k1(x: ArrayLike) -> Tensor:
    """The modified Bessel function of the second kind of order 1 (x > 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import k1
    >>> round(k1(tg.tensor(1.0)).item(), 12)
    0.601907230197
    """
    return _k1._unary(x)


@plain_calls_scipy("special")
def k0e(x: ArrayLike) -> Tensor:
    """``k0(x) * exp(x)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import k0e
    >>> round(k0e(tg.tensor(1.0)).item(), 12)
    1.144463079807
    """
    return _k0e._unary(x)


@plain_calls_scipy("special")
def k1e(x: ArrayLike) -> Tensor:
    """``k1(x) * exp(x)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import k1e
    >>> round(k1e(tg.tensor(1.0)).item(), 12)
    1.636153486263
    """
    return _k1e._unary(x)


_kn = special_primitive(
    "kn",
    None,
    lambda g, ans, n, x: unbroadcast_like(
        -g * 0.5 * (_kn(ops.abs(_shifted(n, -1)), x) + _kn(_shifted(n, 1), x)), x
    ),
)


@plain_calls_scipy("special")
def kn(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The modified Bessel function of the second kind of integer order ``n`` (x > 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import kn
    >>> round(kn(0, tg.tensor(1.0)).item(), 12)
    0.421024438241
    """
    _order("kn", n)
    return _kn._binary(n, x)
