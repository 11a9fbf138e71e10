"""The error function family and the standard normal's: erfc erfinv erfcinv erfcx erfi ndtr
ndtri ndtri_exp log_ndtr; the exponential integrals exp1 expi; Wright's omega wrightomega.

Inverse functions differentiate through their output (d erfinv(y) = √π/2 e^{erfinv(y)²}),
and ``log_ndtr``'s rule stays in log space, so its gradient is finite far in the tail
(about ``-x`` as x -> -inf). ``erfc``, ``erfcx``, ``exp1`` and ``expi`` are holomorphic
and differentiate complex arguments too, as SciPy computes them.
"""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special._primitive import special_primitive

ArrayLike = Any

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2.0 * math.pi)
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


# holomorphic (complex too, as SciPy): the rules take the derivative's conjugate
_erfc = special_primitive(
    "erfc",
    lambda g, ans, x: -g * ops.conj(_TWO_OVER_SQRT_PI * ops.exp(-ops.square(x))),
    complex_rules=True,
)


@plain_calls_scipy("special")
def erfc(x: ArrayLike) -> Tensor:
    """``1 - erf(x)``, accurate where ``erf`` is near 1.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import erfc
    >>> erfc(tg.tensor(0.0)).item()
    1.0
    """
    return _erfc._unary(x)


_erfinv = special_primitive(
    "erfinv", lambda g, ans, x: g * (1.0 / _TWO_OVER_SQRT_PI) * ops.exp(ops.square(ans))
)


@plain_calls_scipy("special")
def erfinv(y: ArrayLike) -> Tensor:
    """The inverse of :func:`erf` on (-1, 1).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import erfinv
    >>> erfinv(tg.tensor(0.0)).item()
    0.0
    """
    return _erfinv._unary(y)


_erfcinv = special_primitive(
    "erfcinv", lambda g, ans, x: -g * (1.0 / _TWO_OVER_SQRT_PI) * ops.exp(ops.square(ans))
)


@plain_calls_scipy("special")
def erfcinv(y: ArrayLike) -> Tensor:
    """The inverse of :func:`erfc` on (0, 2).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import erfcinv
    >>> erfcinv(tg.tensor(1.0)).item() == 0.0
    True
    """
    return _erfcinv._unary(y)


# erfcx = e^{x²} erfc(x): d erfcx = 2x erfcx - 2/√π
_erfcx = special_primitive(
    "erfcx", lambda g, ans, x: g * ops.conj(2.0 * x * ans - _TWO_OVER_SQRT_PI), complex_rules=True
)


@plain_calls_scipy("special")
def erfcx(x: ArrayLike) -> Tensor:
    """The scaled complementary error function ``e^{x²} erfc(x)``, finite for large x.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import erfcx
    >>> erfcx(tg.tensor(0.0)).item()
    1.0
    """
    return _erfcx._unary(x)


def _normal_density(x: Any) -> Any:
    return ops.exp(-0.5 * ops.square(x)) / _SQRT_2PI


_ndtr = special_primitive("ndtr", lambda g, ans, x: g * _normal_density(x))


@plain_calls_scipy("special")
def ndtr(x: ArrayLike) -> Tensor:
    """The standard normal CDF ``Φ(x)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import ndtr
    >>> ndtr(tg.tensor(0.0)).item()
    0.5
    """
    return _ndtr._unary(x)


_ndtri = special_primitive(
    "ndtri", lambda g, ans, x: g * _SQRT_2PI * ops.exp(0.5 * ops.square(ans))
)


@plain_calls_scipy("special")
def ndtri(p: ArrayLike) -> Tensor:
    """The inverse of :func:`ndtr`: the standard normal quantile function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import ndtri
    >>> ndtri(tg.tensor(0.5)).item()
    0.0
    """
    return _ndtri._unary(p)


# d log Φ(x) = φ(x) / Φ(x) = exp(-x²/2 - log Φ(x)) / √(2π): no underflow in either tail
_log_ndtr = special_primitive(
    "log_ndtr",
    lambda g, ans, x: g * ops.exp(-0.5 * ops.square(x) - ans - _HALF_LOG_2PI),
)


@plain_calls_scipy("special")
def log_ndtr(x: ArrayLike) -> Tensor:
    """``log Φ(x)``, accurate in both tails (``log_ndtr(-40)`` is about -804.6).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import log_ndtr
    >>> round(log_ndtr(tg.tensor(-40.0)).item(), 6)
    -804.608442
    """
    return _log_ndtr._unary(x)


_exp1 = special_primitive(
    "exp1", lambda g, ans, x: -g * ops.conj(ops.exp(-x) / x), complex_rules=True
)


@plain_calls_scipy("special")
def exp1(x: ArrayLike) -> Tensor:
    """The exponential integral ``E1(x) = ∫_x^∞ e^{-t}/t dt``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import exp1
    >>> round(exp1(tg.tensor(1.0)).item(), 12)
    0.219383934396
    """
    return _exp1._unary(x)


_expi = special_primitive(
    "expi", lambda g, ans, x: g * ops.conj(ops.exp(x) / x), complex_rules=True
)


@plain_calls_scipy("special")
def expi(x: ArrayLike) -> Tensor:
    """The exponential integral ``Ei(x)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import expi
    >>> round(expi(tg.tensor(1.0)).item(), 12)
    1.895117816356
    """
    return _expi._unary(x)


# erfi(z) = -i erf(iz): erfi' = 2/√π e^{z²}
_erfi = special_primitive(
    "erfi",
    lambda g, ans, x: g * ops.conj(_TWO_OVER_SQRT_PI * ops.exp(ops.square(x))),
    complex_rules=True,
)


@plain_calls_scipy("special")
def erfi(z: ArrayLike) -> Tensor:
    """The imaginary error function ``-i erf(iz)``; ``erfi' = 2/√π e^{z²}`` (real or
    complex ``z``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import erfi
    >>> erfi(tg.tensor(0.0)).item()
    0.0
    """
    return _erfi._unary(z)


# x = ndtri(e^y): dx/dy = e^y / φ(x) = √(2π) e^{y + x²/2}
_ndtri_exp = special_primitive(
    "ndtri_exp", lambda g, ans, y: g * _SQRT_2PI * ops.exp(y + 0.5 * ops.square(ans))
)


@plain_calls_scipy("special")
def ndtri_exp(y: ArrayLike) -> Tensor:
    """``ndtri(exp(y))``, accurate for very negative ``y`` (log-probabilities).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import ndtri_exp
    >>> ndtri_exp(tg.tensor(-0.6931471805599453)).item()  # ndtri(1/2)
    0.0
    """
    return _ndtri_exp._unary(y)


# ω + log ω = z: ω' = ω / (1 + ω), holomorphic
_wrightomega = special_primitive(
    "wrightomega", lambda g, ans, z: g * ops.conj(ans / (1.0 + ans)), complex_rules=True
)


@plain_calls_scipy("special")
def wrightomega(z: ArrayLike) -> Tensor:
    """The Wright Omega function, ``ω + log ω = z``; ``ω' = ω / (1 + ω)`` (real or complex).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import wrightomega
    >>> wrightomega(tg.tensor(1.0)).item()
    1.0
    """
    return _wrightomega._unary(z)
