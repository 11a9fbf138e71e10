"""Spherical Bessel functions spherical_jn spherical_yn spherical_in spherical_kn, the Airy
functions airy airye, the Struve functions struve modstruve, and the derivatives of Bessel
functions jvp yvp ivp kvp h1vp h2vp (SciPy's recurrence over orders, composed).

The spherical ones' first derivative is SciPy's own (``derivative=True``); their second
comes from Bessel's equation ``z² f'' + 2z f' ∓ (z² ∓ n(n+1)) f = 0``, so every order is
available (complex ``z`` too: they are holomorphic). Airy's four outputs differentiate into
each other: ``Ai' = Aip`` and ``Aip' = z Ai`` (Bi alike); ``airye``'s scale
``e^{±(2/3) x^{3/2}}`` adds ``±sqrt(x)`` times the function (real x). The Struve functions
follow ``(x^v H_v)' = x^v H_{v-1}``: ``H_v' = H_{v-1} - (v/x) H_v`` (``L`` alike). Orders
``n`` and ``v`` have no gradient (LookupError).
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like
from tapegrad.scipy.special.bessel import hankel1, hankel2, jv, yv
from tapegrad.scipy.special.bessel_modified import iv, kv

ArrayLike = Any


def _order(name: str, v: Any) -> None:
    refuse_gradient(name, "the order", v, "SciPy has no derivative in the order")


# --- spherical Bessel functions -------------------------------------------------------------


def _spherical(name: str, sign: float) -> tuple[Primitive, Primitive]:
    """The primitives of ``f(n, z)`` and ``f'(n, z)``; ``sign`` is +1 for j, y and -1 for
    the modified i, k (the sign of z² in Bessel's equation)."""

    def value_forward(xp: Any, n: Any, z: Any) -> Any:
        return kernel(xp, "special", name)(n, z)

    def slope_forward(xp: Any, n: Any, z: Any) -> Any:
        return kernel(xp, "special", name)(n, z, True)

    def second(n: Any, z: Any, f: Any, df: Any) -> Any:
        # j, y: f'' = -(2/z) f' - (1 - n(n+1)/z²) f;  i, k: f'' = -(2/z) f' + (1 + n(n+1)/z²) f
        ratio = ops.multiply(n, ops.add(n, 1)) / ops.square(z)
        return -2.0 * df / z - sign * (1.0 - sign * ratio) * f

    value = Primitive(name, value_forward, complex_rules=True)
    slope = Primitive(f"{name}'", slope_forward, complex_rules=True)
    value.defvjp(None, lambda g, ans, n, z: unbroadcast_like(g * ops.conj(slope(n, z)), z))
    slope.defvjp(
        None,
        lambda g, ans, n, z: unbroadcast_like(g * ops.conj(second(n, z, value(n, z), ans)), z),
    )
    return value, slope


_spherical_jn = _spherical("spherical_jn", 1.0)
_spherical_yn = _spherical("spherical_yn", 1.0)
_spherical_in = _spherical("spherical_in", -1.0)
_spherical_kn = _spherical("spherical_kn", -1.0)


def _spherical_call(
    name: str, pair: tuple[Primitive, Primitive], n: Any, z: Any, derivative: bool
) -> Tensor:
    _order(name, n)
    return pair[1 if derivative else 0](n, z)


@plain_calls_scipy("special")
def spherical_jn(n: ArrayLike, z: ArrayLike, derivative: bool = False) -> Tensor:
    """The spherical Bessel function of the first kind ``j_n(z)`` (or its derivative, with
    ``derivative=True``), differentiable in ``z``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import spherical_jn
    >>> spherical_jn(0, tg.tensor(0.0)).item()
    1.0
    """
    return _spherical_call("spherical_jn", _spherical_jn, n, z, derivative)


@plain_calls_scipy("special")
def spherical_yn(n: ArrayLike, z: ArrayLike, derivative: bool = False) -> Tensor:
    """The spherical Bessel function of the second kind ``y_n(z)`` (or its derivative, with
    ``derivative=True``), differentiable in ``z``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import spherical_yn
    >>> round(spherical_yn(0, tg.tensor(3.141592653589793)).item(), 12)  # -cos(z)/z
    0.318309886184
    """
    return _spherical_call("spherical_yn", _spherical_yn, n, z, derivative)


@plain_calls_scipy("special")
def spherical_in(n: ArrayLike, z: ArrayLike, derivative: bool = False) -> Tensor:
    """The modified spherical Bessel function of the first kind ``i_n(z)`` (or its
    derivative, with ``derivative=True``), differentiable in ``z``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import spherical_in
    >>> spherical_in(0, tg.tensor(0.0)).item()
    1.0
    """
    return _spherical_call("spherical_in", _spherical_in, n, z, derivative)


@plain_calls_scipy("special")
def spherical_kn(n: ArrayLike, z: ArrayLike, derivative: bool = False) -> Tensor:
    """The modified spherical Bessel function of the second kind ``k_n(z)`` (or its
    derivative, with ``derivative=True``), differentiable in ``z``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import spherical_kn
    >>> round(spherical_kn(0, tg.tensor(1.0)).item(), 12)  # π e^-z / (2z)
    0.577863674895
    """
    return _spherical_call("spherical_kn", _spherical_kn, n, z, derivative)


# --- Airy functions ------------------------------------------------------------------------


def _outputs(name: str, complex_rules: bool) -> list[Primitive]:
    def forward(k: int) -> Any:
        return lambda xp, z: kernel(xp, "special", name)(z)[k]

    return [Primitive(f"{name}[{k}]", forward(k), complex_rules=complex_rules) for k in range(4)]


_airy = _outputs("airy", True)
_airy[0].defvjp(lambda g, ans, z: g * ops.conj(_airy[1](z)))
_airy[1].defvjp(lambda g, ans, z: g * ops.conj(z * _airy[0](z)))
_airy[2].defvjp(lambda g, ans, z: g * ops.conj(_airy[3](z)))
_airy[3].defvjp(lambda g, ans, z: g * ops.conj(z * _airy[2](z)))


@plain_calls_scipy("special")
def airy(z: ArrayLike) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """The Airy functions and their derivatives ``(Ai, Ai', Bi, Bi')``, each differentiable
    (``Ai'' = z Ai``, ``Bi'' = z Bi``), for real or complex ``z``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import airy
    >>> [round(f.item(), 12) for f in airy(tg.tensor(0.0))]
    [0.355028053888, -0.258819403793, 0.614926627446, 0.448288357354]
    """
    return _airy[0]._unary(z), _airy[1]._unary(z), _airy[2]._unary(z), _airy[3]._unary(z)


def _root(x: Any) -> Any:
    """``sqrt(x)`` for x > 0 and 0 below (where SciPy's real airye leaves Bi unscaled)."""
    return ops.sqrt(ops.maximum(x, 0.0))


_airye = _outputs("airye", False)
_airye[0].defvjp(lambda g, ans, x: g * (_airye[1](x) + _root(x) * ans))
_airye[1].defvjp(lambda g, ans, x: g * (x * _airye[0](x) + _root(x) * ans))
_airye[2].defvjp(lambda g, ans, x: g * (_airye[3](x) - _root(x) * ans))
_airye[3].defvjp(lambda g, ans, x: g * (x * _airye[2](x) - _root(x) * ans))


@plain_calls_scipy("special")
def airye(z: ArrayLike) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """The exponentially scaled Airy functions ``(eAi, eAi', eBi, eBi')``: Ai and Ai' times
    ``e^{(2/3) z^{3/2}}``, Bi and Bi' times ``e^{-|Re (2/3) z^{3/2}|}``; differentiable
    for real ``z`` (complex: TypeError).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import airye
    >>> round(airye(tg.tensor(0.0))[0].item(), 12)
    0.355028053888
    """
    return _airye[0]._unary(z), _airye[1]._unary(z), _airye[2]._unary(z), _airye[3]._unary(z)


# --- Struve functions ----------------------------------------------------------------------

_struve = special_primitive(
    "struve",
    None,
    lambda g, ans, v, x: unbroadcast_like(g * (_struve(ops.add(v, -1.0), x) - v * ans / x), x),
)
_modstruve = special_primitive(
    "modstruve",
    None,
    lambda g, ans, v, x: unbroadcast_like(g * (_modstruve(ops.add(v, -1.0), x) - v * ans / x), x),
)


@plain_calls_scipy("special")
def struve(v: ArrayLike, x: ArrayLike) -> Tensor:
    """The Struve function ``H_v(x)``, differentiable in ``x`` (``x != 0``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import struve
    >>> struve(1.0, tg.tensor(0.0)).item()
    0.0
    """
    _order("struve", v)
    return _struve._binary(v, x)


@plain_calls_scipy("special")
def modstruve(v: ArrayLike, x: ArrayLike) -> Tensor:
    """The modified Struve function ``L_v(x)``, differentiable in ``x`` (``x != 0``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import modstruve
    >>> modstruve(1.0, tg.tensor(0.0)).item()
    0.0
    """
    _order("modstruve", v)
    return _modstruve._binary(v, x)


# --- derivatives of Bessel functions: jvp yvp ivp kvp h1vp h2vp -----------------------------


def _derivative_order(name: str, n: Any) -> int:
    refuse_gradient(name, "the derivative order n", n, "it is an integer")
    n = int(n.item()) if isinstance(n, Tensor) else n
    if not isinstance(n, int) or n < 0:  # SciPy's check and message
        raise ValueError(f"{name}: n must be a non-negative integer, got {n!r}")
    return n


def _difference_formula(v: Any, z: Any, n: int, f: Any, phase: float) -> Any:
    """SciPy's ``_bessel_diff_formula``, term by term (so the values are SciPy's): the n-th
    derivative as ``2^-n Σ_i phase^i C(n, i) f(v - n + 2i, z)``, differentiable in z."""
    p = 1.0
    total = f(ops.subtract(v, n), z)
    for i in range(1, n + 1):
        p = phase * (p * (n - i + 1)) / i
        total = total + p * f(ops.add(ops.subtract(v, n), i * 2), z)
    return total / (2.0**n)


def _bessel_derivative(name: str, base: str, phase: float, sign: bool = False) -> Any:
    def derivative(v: ArrayLike, z: ArrayLike, n: int = 1) -> Tensor:
        order = _derivative_order(name, n)
        f = _BASES[base]
        _order(name, v)
        if order == 0:
            return f(v, z)
        total = _difference_formula(v, z, order, f, phase)
        return (-1) ** order * total if sign else total

    derivative.__name__ = derivative.__qualname__ = name
    derivative.__doc__ = f"""The ``n``-th derivative of :func:`{base}` in ``z``, SciPy's
    ``{name}``: the recurrence over {base} of orders ``v - n .. v + n`` (DLMF 10.6.7), so it is
    differentiable in ``z`` to every order; ``v`` and ``n`` have no gradient.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import {base}, {name}
    >>> bool({name}(1.0, tg.tensor(1.5), n=0).item() == {base}(1.0, 1.5))
    True
    """
    return plain_calls_scipy("special")(derivative)


# the functions whose derivatives in the argument these are (their own modules)
_BASES = {"jv": jv, "yv": yv, "iv": iv, "kv": kv, "hankel1": hankel1, "hankel2": hankel2}
jvp = _bessel_derivative("jvp", "jv", -1.0)
yvp = _bessel_derivative("yvp", "yv", -1.0)
ivp = _bessel_derivative("ivp", "iv", 1.0)
kvp = _bessel_derivative("kvp", "kv", 1.0, sign=True)
h1vp = _bessel_derivative("h1vp", "hankel1", -1.0)
h2vp = _bessel_derivative("h2vp", "hankel2", -1.0)
