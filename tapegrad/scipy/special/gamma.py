"""The gamma family: gammaln gamma rgamma digamma psi polygamma multigammaln beta betaln
poch zeta.

Each rule is written with the family's own primitives (gammaln's uses digamma, digamma's
polygamma(1, x), polygamma(n, x)'s polygamma(n + 1, x)), so every order of derivative
is available.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like

ArrayLike = Any

_gammaln = special_primitive("gammaln", lambda g, ans, x: g * digamma(x))


@plain_calls_scipy("special")
def gammaln(x: ArrayLike) -> Tensor:
    """``log|Γ(x)|``; its derivative is :func:`digamma`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import gammaln
    >>> round(gammaln(tg.tensor(5.0)).item(), 12)  # log(4!)
    3.178053830348
    """
    return _gammaln._unary(x)


# d gamma = gamma * digamma
_gamma = special_primitive("gamma", lambda g, ans, x: g * ans * digamma(x))


@plain_calls_scipy("special")
def gamma(x: ArrayLike) -> Tensor:
    """The gamma function ``Γ(x)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import gamma
    >>> gamma(tg.tensor(5.0)).item()
    24.0
    """
    return _gamma._unary(x)


_rgamma = special_primitive("rgamma", lambda g, ans, x: -g * ans * digamma(x))


@plain_calls_scipy("special")
def rgamma(x: ArrayLike) -> Tensor:
    """``1 / Γ(x)``, zero at the poles of Γ.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import rgamma
    >>> rgamma(tg.tensor(-2.0)).item()
    0.0
    """
    return _rgamma._unary(x)


_digamma = special_primitive("digamma", lambda g, ans, x: g * polygamma(1, x))


@plain_calls_scipy("special")
def digamma(x: ArrayLike) -> Tensor:
    """The digamma function ``ψ(x) = d/dx log Γ(x)``; also called :func:`psi`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import digamma
    >>> round(digamma(tg.tensor(1.0)).item(), 12)  # minus Euler's constant
    -0.577215664902
    """
    return _digamma._unary(x)


psi = digamma

_polygamma = special_primitive(
    "polygamma", None, lambda g, ans, n, x: unbroadcast_like(g * _polygamma(ops.add(n, 1), x), x)
)


@plain_calls_scipy("special")
def polygamma(n: ArrayLike, x: ArrayLike) -> Tensor:
    """``ψ⁽ⁿ⁾(x)``, the n-th derivative of :func:`digamma`; no gradient in the integer ``n``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import polygamma
    >>> round(polygamma(1, tg.tensor(1.0)).item(), 12)  # π² / 6
    1.644934066848
    """
    refuse_gradient("polygamma", "the order n", n, "it is an integer")
    return _polygamma._binary(n, x)


@plain_calls_scipy("special")
def multigammaln(a: ArrayLike, d: int) -> Tensor:
    """The log of the multivariate gamma function of dimension ``d``, elementwise in ``a``.

    ``d(d-1)/4 log π + Σ_{j=1..d} gammaln(a - (j-1)/2)``; like SciPy, ``a`` must exceed
    ``(d - 1) / 2``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import multigammaln
    >>> round(multigammaln(tg.tensor(3.0), 2).item(), 12)
    1.550194993958
    """
    d = operator.index(d)
    values = raw(a)
    if isinstance(values, (np.ndarray, float, int)) and np.any(np.asarray(values) <= 0.5 * (d - 1)):
        raise ValueError(f"multigammaln: a must be > (d - 1) / 2 = {0.5 * (d - 1)} for d = {d}")
    total = gammaln(a) + d * (d - 1) / 4 * math.log(math.pi)
    for j in range(1, d):
        total = total + gammaln(ops.subtract(a, j / 2))
    return total


# d/da log B(a, b) = ψ(a) - ψ(a + b)
_beta = special_primitive(
    "beta",
    lambda g, ans, a, b: unbroadcast_like(g * ans * (digamma(a) - digamma(ops.add(a, b))), a),
    lambda g, ans, a, b: unbroadcast_like(g * ans * (digamma(b) - digamma(ops.add(a, b))), b),
)


@plain_calls_scipy("special")
def beta(a: ArrayLike, b: ArrayLike) -> Tensor:
    """The beta function ``Γ(a) Γ(b) / Γ(a + b)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import beta
    >>> round(beta(tg.tensor(2.0), 3.0).item(), 12)
    0.083333333333
    """
    return _beta._binary(a, b)


_betaln = special_primitive(
    "betaln",
    lambda g, ans, a, b: unbroadcast_like(g * (digamma(a) - digamma(ops.add(a, b))), a),
    lambda g, ans, a, b: unbroadcast_like(g * (digamma(b) - digamma(ops.add(a, b))), b),
)


@plain_calls_scipy("special")
def betaln(a: ArrayLike, b: ArrayLike) -> Tensor:
    """``log|B(a, b)|``, without overflow for large arguments.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import betaln
    >>> round(betaln(tg.tensor(2.0), 3.0).item(), 12)  # log(1/12)
    -2.484906649788
    """
    return _betaln._binary(a, b)


# poch(z, m) = Γ(z + m) / Γ(z)
_poch = special_primitive(
    "poch",
    lambda g, ans, z, m: unbroadcast_like(g * ans * (digamma(ops.add(z, m)) - digamma(z)), z),
    lambda g, ans, z, m: unbroadcast_like(g * ans * digamma(ops.add(z, m)), m),
)


@plain_calls_scipy("special")
def poch(z: ArrayLike, m: ArrayLike) -> Tensor:
    """The Pochhammer symbol (rising factorial) ``Γ(z + m) / Γ(z)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import poch
    >>> poch(tg.tensor(3.0), 2.0).item()
    12.0
    """
    return _poch._binary(z, m)


# d/dq ζ(x, q) = -x ζ(x + 1, q); SciPy has no derivative in x.
_hurwitz_zeta = special_primitive(
    "zeta", None, lambda g, ans, x, q: unbroadcast_like(-g * x * _hurwitz_zeta(ops.add(x, 1), q), q)
)
_riemann_zeta = special_primitive("zeta", None)


@plain_calls_scipy("special")
def zeta(x: ArrayLike, q: ArrayLike | None = None) -> Tensor:
    """The Hurwitz zeta function ``Σ_k (k + q)^-x`` (Riemann's when ``q`` is None).

    Differentiable in ``q``; SciPy has no derivative in ``x``, so a gradient there
    raises LookupError.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import zeta
    >>> round(zeta(tg.tensor(2.0)).item(), 12)  # π² / 6
    1.644934066848
    """
    refuse_gradient("zeta", "x", x, "SciPy has no derivative of zeta in x")
    if q is None:
        return _riemann_zeta._unary(x)
    return _hurwitz_zeta._binary(x, q)
