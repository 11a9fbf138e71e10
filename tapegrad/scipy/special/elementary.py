"""SciPy's elementary functions: cbrt exp10 exp2 expm1 log1p powm1 exprel cosm1 cosdg sindg
tandg cotdg radian round, and the Huber losses huber pseudo_huber.

Each is SciPy's kernel forward (SciPy's exact values) with a closed-form rule written in
the family's own functions, so every order of derivative is available. ``round`` is
piecewise constant: its gradient is 0 (as tapegrad's ``round``). ``huber`` has kinks where
``|r| = delta``; ``pseudo_huber`` is smooth.
"""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like

ArrayLike = Any

_DEGREE = math.pi / 180.0

_cbrt = special_primitive("cbrt", lambda g, ans, x: g / (3.0 * ops.square(ans)))


@plain_calls_scipy("special")
def cbrt(x: ArrayLike) -> Tensor:
    """The real cube root; ``d/dx = 1 / (3 cbrt(x)²)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import cbrt
    >>> cbrt(tg.tensor(-27.0)).item()
    -3.0
    """
    return _cbrt._unary(x)


_exp10 = special_primitive("exp10", lambda g, ans, x: g * math.log(10.0) * exp10(x))


@plain_calls_scipy("special")
def exp10(x: ArrayLike) -> Tensor:
    """``10**x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import exp10
    >>> exp10(tg.tensor(2.0)).item()
    100.0
    """
    return _exp10._unary(x)


_exp2 = special_primitive("exp2", lambda g, ans, x: g * math.log(2.0) * exp2(x))


@plain_calls_scipy("special")
def exp2(x: ArrayLike) -> Tensor:
    """``2**x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import exp2
    >>> exp2(tg.tensor(3.0)).item()
    8.0
    """
    return _exp2._unary(x)


_expm1 = special_primitive("expm1", lambda g, ans, x: g * ops.exp(x))


@plain_calls_scipy("special")
def expm1(x: ArrayLike) -> Tensor:
    """``exp(x) - 1``, accurate near 0.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import expm1
    >>> expm1(tg.tensor(0.0)).item()
    0.0
    """
    return _expm1._unary(x)


_log1p = special_primitive("log1p", lambda g, ans, x: g / ops.add(x, 1.0))


@plain_calls_scipy("special")
def log1p(x: ArrayLike) -> Tensor:
    """``log(1 + x)``, accurate near 0.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import log1p
    >>> log1p(tg.tensor(0.0)).item()
    0.0
    """
    return _log1p._unary(x)


# x**y - 1: d/dx = y x**(y-1), d/dy = x**y log x
_powm1 = special_primitive(
    "powm1",
    lambda g, ans, x, y: unbroadcast_like(g * y * ops.power(x, ops.subtract(y, 1.0)), x),
    lambda g, ans, x, y: unbroadcast_like(g * ops.power(x, y) * ops.log(x), y),
)


@plain_calls_scipy("special")
def powm1(x: ArrayLike, y: ArrayLike) -> Tensor:
    """``x**y - 1``, accurate where ``x**y`` is near 1; differentiable in both (x > 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import powm1
    >>> powm1(tg.tensor(2.0), 3.0).item()
    7.0
    """
    return _powm1._binary(x, y)


def _exprel_dx(x: Any) -> Any:
    """d/dx (e^x - 1)/x = (e^x - exprel(x)) / x, and its series near 0."""
    small = ops.less(ops.abs(x), 1e-2)
    safe = ops.where(small, 1.0, x)
    far = (ops.exp(safe) - exprel(safe)) / safe
    near_x = ops.where(small, x, 0.0)
    near = 0.5 + near_x * (
        1.0 / 3.0 + near_x * (1.0 / 8.0 + near_x * (1.0 / 30.0 + near_x / 144.0))
    )
    return ops.where(small, near, far)


_exprel = special_primitive("exprel", lambda g, ans, x: g * _exprel_dx(x))


@plain_calls_scipy("special")
def exprel(x: ArrayLike) -> Tensor:
    """The relative error exponential ``(e^x - 1) / x`` (1 at 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import exprel
    >>> exprel(tg.tensor(0.0)).item()
    1.0
    """
    return _exprel._unary(x)


_cosm1 = special_primitive("cosm1", lambda g, ans, x: -g * ops.sin(x))


@plain_calls_scipy("special")
def cosm1(x: ArrayLike) -> Tensor:
    """``cos(x) - 1``, accurate near 0.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import cosm1
    >>> cosm1(tg.tensor(0.0)).item()
    0.0
    """
    return _cosm1._unary(x)


_cosdg = special_primitive("cosdg", lambda g, ans, x: -g * _DEGREE * sindg(x))
_sindg = special_primitive("sindg", lambda g, ans, x: g * _DEGREE * cosdg(x))
_tandg = special_primitive("tandg", lambda g, ans, x: g * _DEGREE * (1.0 + ops.square(tandg(x))))
_cotdg = special_primitive("cotdg", lambda g, ans, x: -g * _DEGREE * (1.0 + ops.square(cotdg(x))))


@plain_calls_scipy("special")
def cosdg(x: ArrayLike) -> Tensor:
    """The cosine of ``x`` given in degrees.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import cosdg
    >>> cosdg(tg.tensor(90.0)).item()
    -0.0
    """
    return _cosdg._unary(x)


@plain_calls_scipy("special")
def sindg(x: ArrayLike) -> Tensor:
    """The sine of ``x`` given in degrees.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import sindg
    >>> sindg(tg.tensor(90.0)).item()
    1.0
    """
    return _sindg._unary(x)


@plain_calls_scipy("special")
def tandg(x: ArrayLike) -> Tensor:
    """The tangent of ``x`` given in degrees.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import tandg
    >>> tandg(tg.tensor(45.0)).item()
    1.0
    """
    return _tandg._unary(x)


@plain_calls_scipy("special")
def cotdg(x: ArrayLike) -> Tensor:
    """The cotangent of ``x`` given in degrees.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import cotdg
    >>> cotdg(tg.tensor(45.0)).item()
    1.0
    """
    return _cotdg._unary(x)


def _radian_rule(k: int, scale: float) -> Any:
    def rule(g: Any, ans: Any, *dms: Any) -> Any:
        return unbroadcast_like(g * (scale * _DEGREE), dms[k])

    return rule


_radian = special_primitive(
    "radian", _radian_rule(0, 1.0), _radian_rule(1, 1.0 / 60.0), _radian_rule(2, 1.0 / 3600.0)
)


@plain_calls_scipy("special")
def radian(d: ArrayLike, m: ArrayLike, s: ArrayLike) -> Tensor:
    """Degrees, arcminutes and arcseconds in radians: ``(d + m/60 + s/3600) π/180``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import radian
    >>> radian(tg.tensor(90.0), 0.0, 0.0).item() * 2
    3.141592653589793
    """
    return _radian(d, m, s)


_round = special_primitive("round", lambda g, ans, x: g * 0.0)


@plain_calls_scipy("special")
def round(x: ArrayLike) -> Tensor:  # noqa: A001  (SciPy's name)
    """The nearest integer (halves to the even one), as SciPy rounds; piecewise constant,
    so its gradient is 0.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import round
    >>> round(tg.tensor(2.4)).item()
    2.0
    """
    return _round._unary(x)


# huber(delta, r): r²/2 inside |r| <= delta, delta (|r| - delta/2) outside
def _huber_inside(delta: Any, r: Any) -> Any:
    return ops.less_equal(ops.abs(r), delta)


_huber = special_primitive(
    "huber",
    lambda g, ans, delta, r: unbroadcast_like(
        g * ops.where(_huber_inside(delta, r), 0.0, ops.abs(r) - delta), delta
    ),
    lambda g, ans, delta, r: unbroadcast_like(
        g * ops.where(_huber_inside(delta, r), r, delta * ops.sign(r)), r
    ),
)


@plain_calls_scipy("special")
def huber(delta: ArrayLike, r: ArrayLike) -> Tensor:
    """The Huber loss: ``r²/2`` where ``|r| <= delta``, ``delta (|r| - delta/2)`` elsewhere
    (inf for ``delta < 0``); differentiable in both, with kinks at ``|r| = delta``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import huber
    >>> huber(1.0, tg.tensor(3.0)).item()
    2.5
    """
    return _huber._binary(delta, r)


def _pseudo_huber_root(delta: Any, r: Any) -> Any:
    return ops.sqrt(1.0 + ops.square(r / delta))


_pseudo_huber = special_primitive(
    "pseudo_huber",
    lambda g, ans, delta, r: unbroadcast_like(
        g
        * (
            2.0 * delta * (_pseudo_huber_root(delta, r) - 1.0)
            - ops.square(r) / (delta * _pseudo_huber_root(delta, r))
        ),
        delta,
    ),
    lambda g, ans, delta, r: unbroadcast_like(g * r / _pseudo_huber_root(delta, r), r),
)


@plain_calls_scipy("special")
def pseudo_huber(delta: ArrayLike, r: ArrayLike) -> Tensor:
    """The smooth Huber loss ``delta² (sqrt(1 + (r/delta)²) - 1)``, differentiable in both.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import pseudo_huber
    >>> pseudo_huber(1.0, tg.tensor(0.0)).item()
    0.0
    """
    return _pseudo_huber._binary(delta, r)
