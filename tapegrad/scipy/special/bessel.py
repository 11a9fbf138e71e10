"""Bessel functions of the first and second kind: j0 j1 jv jn jve y0 y1 yv yn yve and the
Hankel functions hankel1 hankel2 hankel1e hankel2e (the modified ones are in
bessel_modified.py; sinc is tapegrad.ops' primitive, which tapegrad.scipy.special exports).

Differentiable in ``x``; SciPy has no derivative in the order ``v``, so a gradient there
raises LookupError. The rules are the recurrence Z_v' = (Z_{v-1} - Z_{v+1}) / 2 (J, Y), in
the functions themselves, so every order of derivative is available.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like

ArrayLike = Any


def _order(name: str, v: Any) -> None:
    refuse_gradient(
        name, "the order v", v, "SciPy has no derivative of Bessel functions in the order"
    )


def _shifted(v: Any, step: float) -> Any:
    return ops.add(v, step)


# --- J: first kind ---------------------------------------------------------------------

_jv = special_primitive(
    "jv",
    None,
    lambda g, ans, v, x: unbroadcast_like(
        g * 0.5 * (_jv(_shifted(v, -1), x) - _jv(_shifted(v, 1), x)), x
    ),
)
_j0 = special_primitive("j0", lambda g, ans, x: -g * j1(x))
_j1 = special_primitive("j1", lambda g, ans, x: g * 0.5 * (j0(x) - _jv(2.0, x)))


@plain_calls_scipy("special")
def jv(v: ArrayLike, x: ArrayLike) -> Tensor:
    """The Bessel function of the first kind of real order ``v``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import jv
    >>> jv(1.0, tg.tensor(0.0)).item()
    0.0
    """
    _order("jv", v)
    return _jv._binary(v, x)


jn = jv  # SciPy's jn is jv


@plain_calls_scipy("special")
def j0(x: ArrayLike) -> Tensor:
    """The Bessel function of the first kind of order 0.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import j0
    >>> j0(tg.tensor(0.0)).item()
    1.0
    """
    return _j0._unary(x)


@plain_calls_scipy("special")
def j1(x: ArrayLike) -> Tensor:
    """The Bessel function of the first kind of order 1.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import j1
    >>> j1(tg.tensor(0.0)).item()
    0.0
    """
    return _j1._unary(x)


# --- Y: second kind --------------------------------------------------------------------

_yv = special_primitive(
    "yv",
    None,
    lambda g, ans, v, x: unbroadcast_like(
        g * 0.5 * (_yv(_shifted(v, -1), x) - _yv(_shifted(v, 1), x)), x
    ),
)
_yn = special_primitive(
    "yn",
    None,
    lambda g, ans, n, x: unbroadcast_like(
        g * 0.5 * (_yn(_shifted(n, -1), x) - _yn(_shifted(n, 1), x)), x
    ),
)
_y0 = special_primitive("y0", lambda g, ans, x: -g * y1(x))
_y1 = special_primitive("y1", lambda g, ans, x: g * 0.5 * (y0(x) - _yv(2.0, x)))


@plain_calls_scipy("special")
def yv(v: ArrayLike, x: ArrayLike) -> Tensor:
    """The Bessel function of the second kind of real order ``v`` (x > 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import yv
    >>> round(yv(0.0, tg.tensor(1.0)).item(), 12)
    0.088256964216
    """
    _order("yv", v)
    return _yv._binary(v, x)


@plain_calls_scipy("special")
def yn(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The Bessel function of the second kind of integer order ``n`` (x > 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import yn
    >>> round(yn(0, tg.tensor(1.0)).item(), 12)
    0.088256964216
    """
    _order("yn", n)
    return _yn._binary(n, x)


@plain_calls_scipy("special")
def y0(x: ArrayLike) -> Tensor:
    """The Bessel function of the second kind of order 0 (x > 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import y0
    >>> round(y0(tg.tensor(1.0)).item(), 12)
    0.088256964216
    """
    return _y0._unary(x)


@plain_calls_scipy("special")
def y1(x: ArrayLike) -> Tensor:
    """The Bessel function of the second kind of order 1 (x > 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import y1
    >>> round(y1(tg.tensor(1.0)).item(), 12)
    -0.7812128213
    """
    return _y1._unary(x)


# --- scaled J and Y, and the Hankel functions -----------------------------------------------

# jve = jv e^{-|Im x|}, yve alike: on the real line (where the scale is 1) the recurrence
_jve = special_primitive(
    "jve",
    None,
    lambda g, ans, v, x: unbroadcast_like(
        g * 0.5 * (_jve(_shifted(v, -1), x) - _jve(_shifted(v, 1), x)), x
    ),
)
_yve = special_primitive(
    "yve",
    None,
    lambda g, ans, v, x: unbroadcast_like(
        g * 0.5 * (_yve(_shifted(v, -1), x) - _yve(_shifted(v, 1), x)), x
    ),
)


@plain_calls_scipy("special")
def jve(v: ArrayLike, z: ArrayLike) -> Tensor:
    """``jv(v, z) * exp(-|Im z|)``: on real ``z`` (differentiable there) it is :func:`jv`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import jve
    >>> jve(0.0, tg.tensor(0.0)).item()
    1.0
    """
    _order("jve", v)
    return _jve._binary(v, z)


@plain_calls_scipy("special")
def yve(v: ArrayLike, z: ArrayLike) -> Tensor:
    """``yv(v, z) * exp(-|Im z|)``: on real ``z > 0`` (differentiable there) it is :func:`yv`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import yve
    >>> round(yve(0.0, tg.tensor(1.0)).item(), 12)
    0.088256964216
    """
    _order("yve", v)
    return _yve._binary(v, z)


def _hankel(name: str, phase: complex) -> Primitive:
    """H_v' = (H_{v-1} - H_{v+1}) / 2, holomorphic; the scaled ones (``e^{phase z}`` times)
    add ``phase`` times themselves."""

    def rule(g: Any, ans: Any, v: Any, z: Any) -> Any:
        slope = 0.5 * (found(_shifted(v, -1), z) - found(_shifted(v, 1), z))
        if phase:
            slope = slope + phase * ans
        return unbroadcast_like(g * ops.conj(slope), z)

    found = special_primitive(name, None, rule, complex_rules=True)
    return found


_hankel1 = _hankel("hankel1", 0)
_hankel2 = _hankel("hankel2", 0)
_hankel1e = _hankel("hankel1e", -1j)
_hankel2e = _hankel("hankel2e", 1j)


@plain_calls_scipy("special")
def hankel1(v: ArrayLike, z: ArrayLike) -> Tensor:
    """The Hankel function of the first kind ``J_v(z) + i Y_v(z)`` (complex), holomorphic
    in ``z``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import hankel1
    >>> round(hankel1(0.0, tg.tensor(1.0)).item().imag, 12)  # y0(1)
    0.088256964216
    """
    _order("hankel1", v)
    return _hankel1._binary(v, z)


@plain_calls_scipy("special")
def hankel2(v: ArrayLike, z: ArrayLike) -> Tensor:
    """The Hankel function of the second kind ``J_v(z) - i Y_v(z)`` (complex), holomorphic
    in ``z``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import hankel2
    >>> round(hankel2(0.0, tg.tensor(1.0)).item().imag, 12)  # -y0(1)
    -0.088256964216
    """
    _order("hankel2", v)
    return _hankel2._binary(v, z)


@plain_calls_scipy("special")
def hankel1e(v: ArrayLike, z: ArrayLike) -> Tensor:
    """``hankel1(v, z) * exp(-i z)``, holomorphic in ``z``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import hankel1e
    >>> round(abs(hankel1e(0.5, tg.tensor(2.0)).item()) ** 2 * 3.141592653589793, 12)  # 2/z
    1.0
    """
    _order("hankel1e", v)
    return _hankel1e._binary(v, z)


@plain_calls_scipy("special")
def hankel2e(v: ArrayLike, z: ArrayLike) -> Tensor:
    """``hankel2(v, z) * exp(i z)``, holomorphic in ``z``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import hankel2e
    >>> round(abs(hankel2e(0.5, tg.tensor(2.0)).item()) ** 2 * 3.141592653589793, 12)  # 2/z
    1.0
    """
    _order("hankel2e", v)
    return _hankel2e._binary(v, z)
