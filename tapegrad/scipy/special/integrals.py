"""Integrals of elementary functions: dawsn expn fresnel sici shichi spence wofz owens_t.

Each is the integral of something elementary, so its derivative is the integrand, in
closed form (``dawsn``'s and ``wofz``'s through the function itself), and every order of
derivative is available. ``fresnel``, ``sici`` and ``shichi`` return two functions:
each is its own primitive. ``dawsn``, ``fresnel``, ``sici``, ``shichi``, ``spence`` and
``wofz`` are holomorphic and differentiate complex arguments too, where SciPy computes
them; ``expn`` and ``owens_t`` are real. ``expn``'s order ``n`` is an integer: a
gradient there raises LookupError.
"""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive
from tapegrad.ops.trigonometric import sinc
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like

ArrayLike = Any

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_SQRT_2PI = math.sqrt(2.0 * math.pi)


def _output(name: str, k: int, rule: Any) -> Primitive:
    """A primitive for output ``k`` of the two-output ufunc ``scipy.special.<name>``."""

    def forward(xp: Any, x: Any) -> Any:
        return kernel(xp, "special", name)(x)[k]

    return Primitive(f"{name}[{k}]", forward, complex_rules=True).defvjp(rule)


def _nonzero(x: Any, value: float) -> Any:
    """``x`` with its zeros replaced by ``value`` (a safe denominator)."""
    return ops.where(ops.equal(x, 0.0), value, x)


# --- Dawson's integral and the Faddeeva function -------------------------------------------

_dawsn = special_primitive(
    "dawsn", lambda g, ans, x: g * ops.conj(1.0 - 2.0 * x * ans), complex_rules=True
)


@plain_calls_scipy("special")
def dawsn(x: ArrayLike) -> Tensor:
    """Dawson's integral ``e^{-x²} ∫_0^x e^{t²} dt``; ``d/dx = 1 - 2x dawsn(x)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import dawsn
    >>> round(dawsn(tg.tensor(1.0)).item(), 12)
    0.538079506913
    """
    return _dawsn._unary(x)


# w'(z) = -2 z w(z) + 2i/√π
_wofz = special_primitive(
    "wofz",
    lambda g, ans, z: g * ops.conj(-2.0 * z * ans + 1j * _TWO_OVER_SQRT_PI),
    complex_rules=True,
)


@plain_calls_scipy("special")
def wofz(z: ArrayLike) -> Tensor:
    """The Faddeeva function ``w(z) = e^{-z²} erfc(-iz)`` (complex; real ``z`` gives complex
    values, and a real gradient); ``w'(z) = -2z w(z) + 2i/√π``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import wofz
    >>> complex(wofz(tg.tensor(0.0)).item())
    (1+0j)
    """
    return _wofz._unary(z)


# --- exponential integrals E_n -----------------------------------------------------------


def _expn_dx(g: Any, ans: Any, n: Any, x: Any) -> Any:
    # d/dx E_n = -E_{n-1} for n >= 1; E_0 = e^-x / x, whose derivative is -E_0 (1 + 1/x)
    lower = _expn(ops.maximum(ops.subtract(n, 1), 0), x)
    first = ops.less(n, 1)
    return unbroadcast_like(g * -ops.where(first, ans * (1.0 + 1.0 / _nonzero(x, 1.0)), lower), x)


_expn = special_primitive("expn", None, _expn_dx)


@plain_calls_scipy("special")
def expn(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The generalized exponential integral ``E_n(x) = ∫_1^∞ e^{-xt} / t^n dt``,
    differentiable in ``x`` (``d/dx E_n = -E_{n-1}``, ``E_0(x) = e^{-x}/x``); the integer
    order ``n`` has no gradient (LookupError).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import expn
    >>> round(expn(1, tg.tensor(1.0)).item(), 12)  # exp1(1)
    0.219383934396
    """
    refuse_gradient("expn", "the order n", n, "it is an integer")
    return _expn._binary(n, x)


# --- Fresnel integrals ---------------------------------------------------------------------


def _fresnel_phase(x: Any) -> Any:
    return (0.5 * math.pi) * ops.square(x)


_fresnel_s = _output("fresnel", 0, lambda g, ans, x: g * ops.conj(ops.sin(_fresnel_phase(x))))
_fresnel_c = _output("fresnel", 1, lambda g, ans, x: g * ops.conj(ops.cos(_fresnel_phase(x))))


@plain_calls_scipy("special")
def fresnel(z: ArrayLike) -> tuple[Tensor, Tensor]:
    """The Fresnel integrals ``(S(z), C(z))``: ``S' = sin(πz²/2)``, ``C' = cos(πz²/2)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import fresnel
    >>> s, c = fresnel(tg.tensor(1.0))
    >>> round(s.item(), 12), round(c.item(), 12)
    (0.43825914739, 0.779893400377)
    """
    return _fresnel_s._unary(z), _fresnel_c._unary(z)


# --- sine, cosine and hyperbolic integrals ---------------------------------------------------

_si = _output("sici", 0, lambda g, ans, x: g * ops.conj(sinc(x / math.pi)))
_ci = _output("sici", 1, lambda g, ans, x: g * ops.conj(ops.cos(x) / x))


@plain_calls_scipy("special")
def sici(x: ArrayLike) -> tuple[Tensor, Tensor]:
    """The sine and cosine integrals ``(Si(x), Ci(x))``: ``Si' = sin(x)/x``,
    ``Ci' = cos(x)/x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import sici
    >>> si, ci = sici(tg.tensor(1.0))
    >>> round(si.item(), 12), round(ci.item(), 12)
    (0.946083070367, 0.337403922901)
    """
    return _si._unary(x), _ci._unary(x)


def _sinhc(x: Any) -> Any:
    """``sinh(x) / x``, 1 at 0."""
    return ops.where(ops.equal(x, 0.0), 1.0, ops.sinh(x) / _nonzero(x, 1.0))


_shi = _output("shichi", 0, lambda g, ans, x: g * ops.conj(_sinhc(x)))
_chi = _output("shichi", 1, lambda g, ans, x: g * ops.conj(ops.cosh(x) / x))


@plain_calls_scipy("special")
def shichi(x: ArrayLike) -> tuple[Tensor, Tensor]:
    """The hyperbolic sine and cosine integrals ``(Shi(x), Chi(x))``:
    ``Shi' = sinh(x)/x``, ``Chi' = cosh(x)/x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import shichi
    >>> shi, chi = shichi(tg.tensor(1.0))
    >>> round(shi.item(), 12), round(chi.item(), 12)
    (1.057250875376, 0.83786694098)
    """
    return _shi._unary(x), _chi._unary(x)


# --- the dilogarithm -----------------------------------------------------------------------


def _spence_dz(g: Any, ans: Any, z: Any) -> Any:
    # SciPy's spence(z) = ∫_1^z log(t) / (1 - t) dt: its derivative is log(z) / (1 - z),
    # -1 at z = 1 (where its own derivative, 1/2, is not built: the first order is exact)
    at_one = ops.equal(z, 1.0)
    safe = ops.where(at_one, 2.0, z)
    return g * ops.conj(ops.where(at_one, -1.0, ops.log(safe) / (1.0 - safe)))


_spence = special_primitive("spence", _spence_dz, complex_rules=True)


@plain_calls_scipy("special")
def spence(z: ArrayLike) -> Tensor:
    """Spence's function (SciPy's dilogarithm) ``∫_1^z log(t) / (1 - t) dt``, for real
    ``z >= 0`` or complex ``z``; ``d/dz spence(z) = log(z) / (1 - z)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import spence
    >>> round(spence(tg.tensor(0.0)).item(), 12)  # π² / 6
    1.644934066848
    """
    return _spence._unary(z)


# --- Owen's T function ---------------------------------------------------------------------


def _owens_t_dh(g: Any, ans: Any, h: Any, a: Any) -> Any:
    # ∂T/∂h = -φ(h) erf(a h / √2) / 2
    from tapegrad.ops.erf import erf

    density = ops.exp(-0.5 * ops.square(h)) / _SQRT_2PI
    return unbroadcast_like(-0.5 * g * density * erf(a * h / math.sqrt(2.0)), h)


def _owens_t_da(g: Any, ans: Any, h: Any, a: Any) -> Any:
    # ∂T/∂a = e^{-h² (1 + a²) / 2} / (2π (1 + a²))
    spread = 1.0 + ops.square(a)
    return unbroadcast_like(
        g * ops.exp(-0.5 * ops.square(h) * spread) / (2.0 * math.pi * spread), a
    )


_owens_t = special_primitive("owens_t", _owens_t_dh, _owens_t_da)


@plain_calls_scipy("special")
def owens_t(h: ArrayLike, a: ArrayLike) -> Tensor:
    """Owen's T function ``T(h, a) = 1/(2π) ∫_0^a e^{-h²(1+x²)/2} / (1+x²) dx``,
    differentiable in both ``h`` and ``a``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import owens_t
    >>> round(owens_t(0.0, tg.tensor(1.0)).item(), 12)  # atan(1) / (2π)
    0.125
    """
    return _owens_t._binary(h, a)
