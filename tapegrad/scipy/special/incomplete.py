"""Regularized incomplete gamma and beta functions: gammainc gammaincc betainc.

Their derivatives in ``x`` are the integrands, in closed form. SciPy has no derivative in
the parameters (``a``, ``b``), so tapegrad computes them by differentiating the series
and continued fractions that evaluate the functions (tapegrad/scipy/special/
_incomplete_kernels.py), as JAX does for ``gammainc``. Those parameter derivatives are
primitives whose own derivative in ``x`` is closed form; a second derivative in a
parameter raises LookupError.
"""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special import _incomplete_kernels as kernels
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like
from tapegrad.scipy.special.gamma import betaln, digamma, gammaln
from tapegrad.scipy.special.information import xlog1py, xlogy

ArrayLike = Any


def _gammainc_dx(a: Any, x: Any) -> Any:
    """d/dx P(a, x) = x^(a-1) e^-x / Γ(a)."""
    return ops.exp(xlogy(ops.subtract(a, 1.0), x) - x - gammaln(a))


_gammainc_da = Primitive("gammainc_da", kernels.gammainc_da, complex_rules=False).defvjp(
    None,  # no second derivative in a
    # d/dx dP/da = d/da dP/dx = dP/dx (log x - ψ(a))
    lambda g, ans, a, x: unbroadcast_like(g * _gammainc_dx(a, x) * (ops.log(x) - digamma(a)), x),
)


def _gammainc_rule_a(g: Any, ans: Any, a: Any, x: Any) -> Any:
    refuse_gradient("gammainc", "a at second order", a, "only its first derivative is built")
    return unbroadcast_like(g * _gammainc_da._binary(a, x), a)


_gammainc = special_primitive(
    "gammainc",
    _gammainc_rule_a,
    lambda g, ans, a, x: unbroadcast_like(g * _gammainc_dx(a, x), x),
)


@plain_calls_scipy("special")
def gammainc(a: ArrayLike, x: ArrayLike) -> Tensor:
    """The regularized lower incomplete gamma function ``P(a, x)``, differentiable in
    both ``a`` and ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import gammainc
    >>> round(gammainc(1.0, tg.tensor(2.0)).item(), 12)  # 1 - exp(-2)
    0.864664716763
    """
    return _gammainc._binary(a, x)


_gammaincc = special_primitive(
    "gammaincc",
    lambda g, ans, a, x: -_gammainc_rule_a(g, ans, a, x),
    lambda g, ans, a, x: unbroadcast_like(-g * _gammainc_dx(a, x), x),
)


@plain_calls_scipy("special")
def gammaincc(a: ArrayLike, x: ArrayLike) -> Tensor:
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``, accurate
    where ``P`` is near 1.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import gammaincc
    >>> round(gammaincc(1.0, tg.tensor(2.0)).item(), 12)  # exp(-2)
    0.135335283237
    """
    return _gammaincc._binary(a, x)


def _betainc_dx(a: Any, b: Any, x: Any) -> Any:
    """d/dx I_x(a, b) = x^(a-1) (1-x)^(b-1) / B(a, b)."""
    return ops.exp(
        xlogy(ops.subtract(a, 1.0), x) + xlog1py(ops.subtract(b, 1.0), -x) - betaln(a, b)
    )


def _betainc_dab_dx(g: Any, ans: Any, a: Any, b: Any, x: Any) -> Any:
    # d/dx of (dI/da, dI/db) = dI/dx (log x - ψ(a) + ψ(a+b), log(1-x) - ψ(b) + ψ(a+b))
    both = digamma(ops.add(a, b))
    da_dx = ops.log(x) - digamma(a) + both
    db_dx = ops.log1p(-x) - digamma(b) + both
    return unbroadcast_like(_betainc_dx(a, b, x) * (g[0] * da_dx + g[1] * db_dx), x)


# dI/da and dI/db stacked on a first axis of 2: one fraction gives both
_betainc_dab = Primitive("betainc_dab", kernels.betainc_dab, complex_rules=False).defvjp(
    None, None, _betainc_dab_dx
)


def _betainc_rule(k: int, name: str) -> Any:
    def rule(g: Any, ans: Any, a: Any, b: Any, x: Any) -> Any:
        refuse_gradient(
            "betainc", f"{name} at second order", (a, b)[k], "only its first derivative is built"
        )
        return unbroadcast_like(g * _betainc_dab(a, b, x)[k], (a, b)[k])

    return rule


_betainc = special_primitive(
    "betainc",
    _betainc_rule(0, "a"),
    _betainc_rule(1, "b"),
    lambda g, ans, a, b, x: unbroadcast_like(g * _betainc_dx(a, b, x), x),
)


@plain_calls_scipy("special")
def betainc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Tensor:
    """The regularized incomplete beta function ``I_x(a, b)``, differentiable in ``a``,
    ``b`` and ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import betainc
    >>> round(betainc(2.0, 1.0, tg.tensor(0.5)).item(), 12)  # x ** 2
    0.25
    """
    return _betainc(a, b, x)


def _stdtr_ddf(g: Any, ans: Any, df: Any, t: Any) -> Any:
    # For t < 0, stdtr = I_x(df/2, 1/2) / 2 with x = df / (df + t²); differentiating in df
    # (the x term written without 1 - x, which cancels near t = 0) and mirroring for t > 0.
    refuse_gradient("stdtr", "df at second order", df, "only its first derivative is built")
    a = ops.multiply(df, 0.5)
    spread = ops.add(df, ops.square(t))
    x = df / spread
    through_a = _betainc_dab(a, 0.5, x)[0]
    through_x = ops.exp(xlogy(a - 1.0, x) - 1.5 * ops.log(spread) - betaln(a, 0.5)) * ops.abs(t)
    return unbroadcast_like(g * -ops.sign(t) * (0.25 * through_a + 0.5 * through_x), df)


def _stdtr_dt(g: Any, ans: Any, df: Any, t: Any) -> Any:
    # the density of Student's t
    half = ops.multiply(ops.add(df, 1.0), 0.5)
    log_density = (
        gammaln(half)
        - gammaln(ops.multiply(df, 0.5))
        - 0.5 * ops.log(ops.multiply(df, math.pi))
        - half * ops.log1p(ops.square(t) / df)
    )
    return unbroadcast_like(g * ops.exp(log_density), t)


_stdtr = special_primitive("stdtr", _stdtr_ddf, _stdtr_dt)


@plain_calls_scipy("special")
def stdtr(df: ArrayLike, t: ArrayLike) -> Tensor:
    """The CDF of Student's t distribution with ``df`` degrees of freedom at ``t``,
    differentiable in both.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import stdtr
    >>> stdtr(3.0, tg.tensor(0.0)).item()
    0.5
    """
    return _stdtr._binary(df, t)


# --- inverses: the inverse-function rule in the probability, the implicit-function theorem
# in the parameters (P(a, x(a, y)) = y: dx/da = -(dP/da) / (dP/dx), and alike for I_x) ---


def _gammaincinv_rule_a(name: str) -> Any:
    def rule(g: Any, ans: Any, a: Any, y: Any) -> Any:
        refuse_gradient(name, "a at second order", a, "only its first derivative is built")
        return unbroadcast_like(-g * _gammainc_da._binary(a, ans) / _gammainc_dx(a, ans), a)

    return rule


_gammaincinv = special_primitive(
    "gammaincinv",
    _gammaincinv_rule_a("gammaincinv"),
    lambda g, ans, a, y: unbroadcast_like(g / _gammainc_dx(a, ans), y),
)
_gammainccinv = special_primitive(
    "gammainccinv",
    _gammaincinv_rule_a("gammainccinv"),
    lambda g, ans, a, y: unbroadcast_like(-g / _gammainc_dx(a, ans), y),
)


@plain_calls_scipy("special")
def gammaincinv(a: ArrayLike, y: ArrayLike) -> Tensor:
    """The inverse of :func:`gammainc` in ``x``: ``P(a, gammaincinv(a, y)) = y``;
    differentiable in ``y`` (every order) and in ``a`` (first order).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import gammaincinv
    >>> round(gammaincinv(1.0, tg.tensor(0.5)).item(), 12)  # log 2
    0.69314718056
    """
    return _gammaincinv._binary(a, y)


@plain_calls_scipy("special")
def gammainccinv(a: ArrayLike, y: ArrayLike) -> Tensor:
    """The inverse of :func:`gammaincc` in ``x``: ``Q(a, gammainccinv(a, y)) = y``;
    differentiable in ``y`` (every order) and in ``a`` (first order).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import gammainccinv
    >>> round(gammainccinv(1.0, tg.tensor(0.5)).item(), 12)  # log 2
    0.69314718056
    """
    return _gammainccinv._binary(a, y)


def _betaincinv_rule(name: str, k: int) -> Any:
    def rule(g: Any, ans: Any, a: Any, b: Any, y: Any) -> Any:
        refuse_gradient(
            name, f"{'ab'[k]} at second order", (a, b)[k], "only its first derivative is built"
        )
        slope = _betainc_dab(a, b, ans)[k] / _betainc_dx(a, b, ans)
        return unbroadcast_like(-g * slope, (a, b)[k])

    return rule


_betaincinv = special_primitive(
    "betaincinv",
    _betaincinv_rule("betaincinv", 0),
    _betaincinv_rule("betaincinv", 1),
    lambda g, ans, a, b, y: unbroadcast_like(g / _betainc_dx(a, b, ans), y),
)
_betainccinv = special_primitive(
    "betainccinv",
    _betaincinv_rule("betainccinv", 0),
    _betaincinv_rule("betainccinv", 1),
    lambda g, ans, a, b, y: unbroadcast_like(-g / _betainc_dx(a, b, ans), y),
)


@plain_calls_scipy("special")
def betaincinv(a: ArrayLike, b: ArrayLike, y: ArrayLike) -> Tensor:
    """The inverse of :func:`betainc` in ``x``: ``I(a, b, betaincinv(a, b, y)) = y``;
    differentiable in ``y`` (every order) and in ``a`` and ``b`` (first order).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import betaincinv
    >>> round(betaincinv(2.0, 1.0, tg.tensor(0.25)).item(), 12)  # sqrt(y)
    0.5
    """
    return _betaincinv(a, b, y)


@plain_calls_scipy("special")
def betainccinv(a: ArrayLike, b: ArrayLike, y: ArrayLike) -> Tensor:
    """The inverse of ``1 - betainc`` in ``x``: ``1 - I(a, b, betainccinv(a, b, y)) = y``;
    differentiable in ``y`` (every order) and in ``a`` and ``b`` (first order).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import betainccinv
    >>> round(betainccinv(2.0, 1.0, tg.tensor(0.75)).item(), 12)  # sqrt(1 - y)
    0.5
    """
    return _betainccinv(a, b, y)


_betaincc = special_primitive(
    "betaincc",
    lambda g, ans, a, b, x: -_betainc_rule(0, "a")(g, ans, a, b, x),
    lambda g, ans, a, b, x: -_betainc_rule(1, "b")(g, ans, a, b, x),
    lambda g, ans, a, b, x: unbroadcast_like(-g * _betainc_dx(a, b, x), x),
)


@plain_calls_scipy("special")
def betaincc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Tensor:
    """``1 - betainc(a, b, x)``, accurate where ``I_x`` is near 1; differentiable in ``x``
    (every order) and in ``a`` and ``b`` (first order).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import betaincc
    >>> round(betaincc(2.0, 1.0, tg.tensor(0.5)).item(), 12)  # 1 - x ** 2
    0.75
    """
    return _betaincc(a, b, x)


def _stdtrit_dp(df: Any, t: Any) -> Any:
    """1 / (Student's t density at t)."""
    return 1.0 / _stdtr_dt(1.0, None, df, t)


_stdtrit = special_primitive(
    "stdtrit",
    lambda g, ans, df, p: _stdtr_ddf(-g * _stdtrit_dp(df, ans), None, df, ans),
    lambda g, ans, df, p: unbroadcast_like(g * _stdtrit_dp(df, ans), p),
)


@plain_calls_scipy("special")
def stdtrit(df: ArrayLike, p: ArrayLike) -> Tensor:
    """The inverse of :func:`stdtr` in ``t``: the ``p``-quantile of Student's t with ``df``
    degrees of freedom; differentiable in ``p`` (every order) and ``df`` (first order).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import stdtrit
    >>> stdtrit(3.0, tg.tensor(0.5)).item()
    0.0
    """
    return _stdtrit._binary(df, p)
