"""The continuous distributions declared on tapegrad/scipy/stats/_family.py: each is its
standardized formulas (SciPy's own, so the values agree), nothing else.

>>> import tapegrad as tg
>>> r = lambda v: round(v.item(), 12)
>>> from tapegrad.scipy.stats import gumbel_r, weibull_min
>>> r(gumbel_r.cdf(tg.tensor(0.0)))  # exp(-1)
0.367879441171
>>> c = tg.tensor(2.0)
>>> round(tg.grad(lambda c: weibull_min.mean(c))(c).item(), 9)  # -Γ(1.5) ψ(1.5) / c²
-0.008084599

The normal distribution's log-space methods stay finite in the tails:

>>> from tapegrad.scipy.stats import beta, chi2, gamma, norm, t
>>> r(norm.logpdf(tg.tensor(0.0))), r(norm.pdf(tg.tensor(0.0)))
(-0.918938533205, 0.398942280401)
>>> round(norm.logcdf(tg.tensor(-40.0)).item(), 6), round(norm.logsf(tg.tensor(40.0)).item(), 6)
(-804.608442, -804.608442)
>>> norm.cdf(tg.tensor(0.0)).item(), norm.sf(tg.tensor(0.0)).item()
(0.5, 0.5)
>>> norm.ppf(tg.tensor(0.5), loc=3.0).item(), norm.isf(tg.tensor(0.5), loc=3.0).item()
(3.0, 3.0)
>>> r(t.logpdf(tg.tensor(0.0), 1.0))  # Cauchy: -log(π)
-1.144729885849
>>> r(t.pdf(tg.tensor(0.0), 1.0)), t.cdf(tg.tensor(0.0), 4.0).item()
(0.318309886184, 0.5)
>>> r(t.logcdf(tg.tensor(0.0), 4.0)), r(t.logsf(tg.tensor(0.0), 4.0))
(-0.69314718056, -0.69314718056)
>>> gamma.logpdf(tg.tensor(2.0), 1.0).item(), gamma.pdf(tg.tensor(0.0), 1.0).item()  # -x
(-2.0, 1.0)
>>> r(gamma.cdf(tg.tensor(1.0), 1.0)), r(gamma.sf(tg.tensor(1.0), 1.0))
(0.632120558829, 0.367879441171)
>>> r(gamma.logcdf(tg.tensor(1.0), 1.0)), r(gamma.logsf(tg.tensor(3.0), 1.0))
(-0.458675145387, -3.0)
>>> chi2.logpdf(tg.tensor(2.0), 2.0).item()  # exponential with mean 2: -x/2 - log 2
-1.6931471805599454
>>> chi2.pdf(tg.tensor(0.0), 2.0).item(), r(chi2.cdf(tg.tensor(2.0), 2.0))
(0.5, 0.632120558829)
>>> r(chi2.sf(tg.tensor(2.0), 2.0)), chi2.logsf(tg.tensor(6.0), 2.0).item()
(0.367879441171, -3.0)
>>> beta.logpdf(tg.tensor(0.3), 1.0, 1.0).item(), beta.pdf(tg.tensor(0.5), 2.0, 2.0).item()
(0.0, 1.5)
>>> beta.cdf(tg.tensor(0.5), 2.0, 1.0).item(), beta.sf(tg.tensor(0.5), 2.0, 1.0).item()
(0.25, 0.75)
>>> beta.logcdf(tg.tensor(1.0), 2.0, 1.0).item(), beta.logsf(tg.tensor(0.0), 2.0, 1.0).item()
(0.0, 0.0)
"""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.scipy.special import (
    betainc,
    betaln,
    digamma,
    erf,
    exp1,
    expit,
    gammainc,
    gammaincc,
    gammaln,
    i0e,
    i1e,
    log_expit,
    log_ndtr,
    logit,
    ndtr,
    ndtri,
    owens_t,
    polygamma,
    stdtr,
    xlog1py,
    xlogy,
)
from tapegrad.scipy.stats._family import INF, NAN, Continuous

PI = math.pi
EULER = 0.57721566490153286061
LOG_PI = math.log(PI)
HALF_LOG_2PI = 0.5 * math.log(2.0 * PI)
_NORM_ENTROPY = 0.5 * (math.log(2.0 * PI) + 1.0)


def _none(*shapes: Any) -> Any:
    """No shape to check."""
    return True


def branch(condition: Any, z: Any, stand_in: float, f: Any, taken: bool = True) -> Any:
    """``f(z)`` where ``condition`` is ``taken``, computed on ``stand_in`` elsewhere so the
    branch not taken has finite (discarded) gradients."""
    if taken:
        return f(ops.where(condition, z, stand_in))
    return f(ops.where(condition, stand_in, z))


def _cauchy_logpdf(z: Any) -> Any:
    small = ops.less(ops.abs(z), 1.0)
    near = branch(small, z, 0.0, lambda z: -LOG_PI - ops.log1p(ops.square(z)))
    far = branch(
        small,
        z,
        2.0,
        lambda z: -LOG_PI - (2.0 * ops.log(ops.abs(z)) + ops.log1p(1.0 / ops.square(z))),
        False,
    )
    return ops.where(small, near, far)


def _laplace_cdf(z: Any) -> Any:
    right = ops.greater(z, 0.0)
    high = branch(right, z, 1.0, lambda z: 1.0 - 0.5 * ops.exp(-z))
    low = branch(right, z, -1.0, lambda z: 0.5 * ops.exp(z), False)
    return ops.where(right, high, low)


def _laplace_ppf(q: Any) -> Any:
    upper = ops.greater(q, 0.5)
    high = branch(upper, q, 0.75, lambda q: -ops.log(2.0 * (1.0 - q)))
    low = branch(upper, q, 0.25, lambda q: ops.log(2.0 * q), False)
    return ops.where(upper, high, low)


def _gennorm_cdf(z: Any, beta: Any) -> Any:
    c = 0.5 * ops.sign(z)
    return (0.5 + c) - c * gammaincc(1.0 / beta, ops.abs(z) ** beta)


def _log_gauss_mass(a: Any, b: Any) -> Any:
    """log(Φ(b) - Φ(a)), accurate in either tail (SciPy's _log_gauss_mass)."""
    left, right = ops.less_equal(b, 0.0), ops.greater(a, 0.0)
    middle = ops.logical_not(ops.logical_or(left, right))

    def tail(a: Any, b: Any) -> Any:  # both below 0
        log_b = log_ndtr(b)
        return log_b + ops.log1p(-ops.exp(log_ndtr(a) - log_b))

    a_left, b_left = ops.where(left, a, -2.0), ops.where(left, b, -1.0)
    a_right, b_right = ops.where(right, a, 1.0), ops.where(right, b, 2.0)
    a_mid, b_mid = ops.where(middle, a, -1.0), ops.where(middle, b, 1.0)
    return ops.where(
        left,
        tail(a_left, b_left),
        ops.where(right, tail(-b_right, -a_right), ops.log1p(-ndtr(a_mid) - ndtr(-b_mid))),
    )


def _norm_pdf(z: Any) -> Any:
    return ops.exp(-0.5 * ops.square(z) - HALF_LOG_2PI)


def _truncnorm_mean(a: Any, b: Any) -> Any:
    mass = ops.exp(_log_gauss_mass(a, b))
    return (_norm_pdf(a) - _norm_pdf(b)) / mass


def _truncnorm_var(a: Any, b: Any) -> Any:
    mass = ops.exp(_log_gauss_mass(a, b))
    pa, pb = _norm_pdf(a) / mass, _norm_pdf(b) / mass
    mu = pa - pb
    return 1.0 + (pa * (a - mu) - pb * (b - mu))


def _truncnorm_entropy(a: Any, b: Any) -> Any:
    mass = ndtr(b) - ndtr(a)
    return ops.log(math.sqrt(2.0 * PI * math.e) * mass) + (a * _norm_pdf(a) - b * _norm_pdf(b)) / (
        2.0 * mass
    )


def _wrapcauchy_cdf(z: Any, c: Any) -> Any:
    cr = (1.0 + c) / (1.0 - c)
    first = ops.less(z, PI)
    low = branch(first, z, 1.0, lambda z: 1.0 / PI * ops.arctan(cr * ops.tan(z / 2.0)))
    high = branch(
        first,
        z,
        5.0,
        lambda z: 1.0 - 1.0 / PI * ops.arctan(cr * ops.tan((2.0 * PI - z) / 2.0)),
        False,
    )
    return ops.where(first, low, high)


def _wrapcauchy_ppf(q: Any, c: Any) -> Any:
    val = (1.0 - c) / (1.0 + c)
    first = ops.less(q, 0.5)
    low = branch(first, q, 0.25, lambda q: 2.0 * ops.arctan(val * ops.tan(PI * q)))
    high = branch(
        first,
        q,
        0.75,
        lambda q: 2.0 * PI - 2.0 * ops.arctan(val * ops.tan(PI * (1.0 - q))),
        False,
    )
    return ops.where(first, low, high)


def _above(limit: float, value: Any, shape: Any, fill: float = INF) -> Any:
    """``value(shape)`` where ``shape > limit``, ``fill`` elsewhere."""
    ok = ops.greater(shape, limit)
    return ops.where(ok, value(ops.where(ok, shape, limit + 1.0)), fill)


def _gamma(x: Any) -> Any:
    return ops.exp(gammaln(x))


def _weibull_mean(c: Any) -> Any:
    return _gamma(1.0 + 1.0 / c)


def _weibull_var(c: Any) -> Any:
    return _gamma(1.0 + 2.0 / c) - ops.square(_gamma(1.0 + 1.0 / c))


def _chi_mean(df: Any) -> Any:
    return math.sqrt(2.0) * ops.exp(gammaln(0.5 * df + 0.5) - gammaln(0.5 * df))


def _asymptotic(limit: float, x: Any, regular: Any, asymptotic: Any) -> Any:
    """``regular(x)`` below ``limit``, ``asymptotic(x)`` from it on (SciPy's switch for its
    entropies at large shapes)."""
    small = ops.less(x, limit)
    return ops.where(
        small, branch(small, x, 1.0, regular), branch(small, x, 2.0 * limit, asymptotic, False)
    )


def _t_entropy(df: Any) -> Any:
    def regular(df: Any) -> Any:
        half, half1 = df / 2.0, (df + 1.0) / 2.0
        return half1 * (digamma(half1) - digamma(half)) + 0.5 * ops.log(df) + betaln(half, 0.5)

    def asymptotic(df: Any) -> Any:
        return (
            _NORM_ENTROPY + 1.0 / df + df**-2.0 / 4.0 - df**-3.0 / 6.0 - df**-4.0 / 8.0
            + 3.0 / 10.0 * df**-5.0 + df**-6.0 / 4.0
        )  # fmt: skip

    return _asymptotic(100.0, df, regular, asymptotic)


def _t_var(df: Any) -> Any:
    finite = _above(2.0, lambda df: df / (df - 2.0), df)
    return ops.where(ops.greater(df, 1.0), finite, NAN)


def _gamma_entropy(a: Any) -> Any:
    def asymptotic(a: Any) -> Any:
        return (
            0.5 * (1.0 + math.log(2.0 * PI) + ops.log(a)) - 1.0 / (3.0 * a) - a**-2.0 / 12.0
            - a**-3.0 / 90.0 + a**-4.0 / 120.0
        )  # fmt: skip

    return _asymptotic(250.0, a, lambda a: digamma(a) * (1.0 - a) + a + gammaln(a), asymptotic)


def _chi2_entropy(df: Any) -> Any:
    def regular(h: Any) -> Any:
        return h + math.log(2.0) + gammaln(h) + (1.0 - h) * digamma(h)

    def asymptotic(h: Any) -> Any:
        c = math.log(2.0) + 0.5 * (1.0 + math.log(2.0 * PI))
        u = 0.5 / h
        return u * (-2.0 / 3.0 + u * (-1.0 / 3.0 + u * (-4.0 / 45.0 + u / 7.5))) + (
            0.5 * ops.log(h) + c
        )

    return _asymptotic(125.0, 0.5 * df, regular, asymptotic)


def _beta_entropy(a: Any, b: Any) -> Any:
    """SciPy's regular formula (its asymptotic ones take over past a, b ~ 5e6)."""
    return (
        betaln(a, b)
        - (a - 1.0) * digamma(a)
        - (b - 1.0) * digamma(b)
        + (a + b - 2.0) * digamma(a + b)
    )


_LOGXMIN = math.log(2.2250738585072014e-308)  # SciPy's: exp below it is subnormal


def _loggamma_cdf(z: Any, c: Any, upper: bool = False) -> Any:
    """``gammainc(c, e^z)`` (``gammaincc`` if ``upper``), by its first series term where
    ``e^z`` is subnormal, as SciPy."""
    tiny = ops.less(z, _LOGXMIN)
    head = branch(tiny, z, _LOGXMIN - 1.0, lambda z: c * z - gammaln(c + 1.0))
    series = -ops.expm1(head) if upper else ops.exp(head)
    regular = gammaincc if upper else gammainc
    return ops.where(tiny, series, branch(tiny, z, 0.0, lambda z: regular(c, ops.exp(z)), False))


def _loggamma_entropy(c: Any) -> Any:
    def asymptotic(c: Any) -> Any:
        return _NORM_ENTROPY - 0.5 * ops.log(c) + c**-1.0 / 6.0 - c**-3.0 / 90.0 + c**-5.0 / 210.0

    return _asymptotic(45.0, c, lambda c: gammaln(c) - c * digamma(c) + c, asymptotic)


def _nonzero(c: Any, f: Any, at_zero: Any) -> Any:
    """``f(c)`` where ``c != 0``, ``at_zero`` (its limit) at 0."""
    zero = ops.equal(c, 0.0)
    return ops.where(zero, at_zero, f(ops.where(zero, 1.0, c)))


def _genextreme_loglogcdf(z: Any, c: Any) -> Any:
    """``log(-log(cdf))``: ``log1p(-c z) / c``, ``-z`` at ``c = 0``."""
    return _nonzero(c, lambda c: ops.log1p(-c * z) / c, -z)


def _genextreme_quantile(x: Any, c: Any) -> Any:
    return _nonzero(c, lambda c: -ops.expm1(-c * x) / c, x)


def _genextreme_mean(c: Any) -> Any:
    gamk = _nonzero(c, lambda c: ops.expm1(gammaln(c + 1.0)) / c, -EULER)
    return ops.where(ops.less(c, -1.0), NAN, -gamk)


def _genextreme_var(c: Any) -> Any:
    def gam2k(c: Any) -> Any:
        return ops.expm1(gammaln(2.0 * c + 1.0) - 2.0 * gammaln(c + 1.0)) / c**2

    ok = ops.greater_equal(c, -0.5)
    c = ops.where(ok, c, 0.0)
    value = ops.square(_gamma(c + 1.0)) * _nonzero(c, gam2k, PI * PI / 6.0)
    return ops.where(ok, value, NAN)


def _skewnorm_delta(a: Any) -> Any:
    return math.sqrt(2.0 / PI) * a / ops.sqrt(1.0 + a * a)


DECLARED: list[Continuous] = [
    Continuous(
        "norm", (),
        logpdf=lambda z: -0.5 * ops.square(z) - HALF_LOG_2PI,
        argcheck=_none,
        cdf=ndtr, logcdf=log_ndtr,  # finite far into the tails
        sf=lambda z: ndtr(-z), logsf=lambda z: log_ndtr(-z),
        ppf=ndtri, isf=lambda q: -ndtri(q),
        mean=lambda: 0.0, var=lambda: 1.0, entropy=lambda: _NORM_ENTROPY,
        doc="The normal distribution: ``norm.logpdf(x, loc=0, scale=1)``; ``logcdf`` is "
        "``log_ndtr`` and ``logsf`` ``log_ndtr(-z)``, finite far into the tails.",
    ),
    Continuous(
        "t", ("df",),
        logpdf=lambda z, df: (
            gammaln(0.5 * (df + 1.0)) - gammaln(0.5 * df) - 0.5 * ops.log(df * PI)
            - 0.5 * (df + 1.0) * ops.log1p(ops.square(z) / df)
        ),
        cdf=lambda z, df: stdtr(df, z),
        sf=lambda z, df: stdtr(df, -z),
        mean=lambda df: ops.where(ops.greater(df, 1.0), 0.0, INF),
        var=_t_var,
        entropy=_t_entropy,
        doc="Student's t distribution, ``df`` degrees of freedom (the CDF's gradient in "
        "``df`` through the incomplete beta function's: first order only).",
    ),
    Continuous(
        "gamma", ("a",),
        logpdf=lambda z, a: xlogy(a - 1.0, z) - z - gammaln(a),
        support=lambda a: (0.0, INF),
        inner=lambda a: 1.0,
        cdf=lambda z, a: gammainc(a, z),
        sf=lambda z, a: gammaincc(a, z),
        mean=lambda a: a, var=lambda a: a, entropy=_gamma_entropy,
        doc="The gamma distribution, shape ``a`` (the CDF's gradient in ``a``: first order).",
    ),
    Continuous(
        "chi2", ("df",),
        logpdf=lambda z, df: (
            xlogy(0.5 * df - 1.0, z) - 0.5 * z - gammaln(0.5 * df) - 0.5 * df * math.log(2.0)
        ),
        support=lambda df: (0.0, INF),
        inner=lambda df: 1.0,
        cdf=lambda z, df: gammainc(0.5 * df, 0.5 * z),
        sf=lambda z, df: gammaincc(0.5 * df, 0.5 * z),
        mean=lambda df: df, var=lambda df: 2.0 * df, entropy=_chi2_entropy,
        doc="The chi-squared distribution, ``df`` degrees of freedom.",
    ),
    Continuous(
        "beta", ("a", "b"),
        logpdf=lambda z, a, b: xlogy(a - 1.0, z) + xlog1py(b - 1.0, -z) - betaln(a, b),
        support=lambda a, b: (0.0, 1.0),
        cdf=lambda z, a, b: betainc(a, b, z),
        sf=lambda z, a, b: betainc(b, a, 1.0 - z),  # accurate near 1
        mean=lambda a, b: a / (a + b),
        var=lambda a, b: a * b / ((a + b) ** 2 * (a + b + 1.0)),
        entropy=_beta_entropy,
        doc="The beta distribution on ``[0, 1]``, shapes ``a`` and ``b`` (the CDF's "
        "gradients in them: first order).",
    ),
    Continuous(
        "expon", (),
        logpdf=lambda z: -z,
        support=lambda: (0.0, INF),
        argcheck=_none,
        cdf=lambda z: -ops.expm1(-z),
        sf=lambda z: ops.exp(-z),
        logsf=lambda z: -z,
        ppf=lambda q: -ops.log1p(-q),
        isf=lambda q: -ops.log(q),
        mean=lambda: 1.0, var=lambda: 1.0, entropy=lambda: 1.0,
        doc="The exponential distribution: ``expon.logpdf(x, loc=0, scale=1)``.",
    ),
    Continuous(
        "uniform", (),
        logpdf=lambda z: ops.zeros_like(z),
        support=lambda: (0.0, 1.0),
        argcheck=_none,
        cdf=lambda z: z,
        sf=lambda z: 1.0 - z,
        ppf=lambda q: q,
        isf=lambda q: 1.0 - q,
        mean=lambda: 0.5, var=lambda: 1.0 / 12, entropy=lambda: 0.0,
        doc="The uniform distribution on ``[loc, loc + scale]``.",
    ),
    Continuous(
        "laplace", (),
        logpdf=lambda z: -ops.abs(z) - math.log(2.0),
        argcheck=_none,
        cdf=_laplace_cdf,
        sf=lambda z: _laplace_cdf(-z),
        ppf=_laplace_ppf,
        isf=lambda q: -_laplace_ppf(q),
        mean=lambda: 0.0, var=lambda: 2.0, entropy=lambda: math.log(2.0) + 1.0,
        doc="The Laplace (double exponential) distribution.",
    ),
    Continuous(
        "cauchy", (),
        logpdf=_cauchy_logpdf,
        argcheck=_none,
        cdf=lambda z: ops.arctan2(1.0, -z) / PI,
        sf=lambda z: ops.arctan2(1.0, z) / PI,
        mean=lambda: NAN, var=lambda: NAN, entropy=lambda: math.log(4.0 * PI),
        doc="The Cauchy distribution (quantiles SciPy's, differentiated implicitly).",
    ),
    Continuous(
        "logistic", (),
        logpdf=lambda z: -ops.abs(z) - 2.0 * ops.log1p(ops.exp(-ops.abs(z))),
        argcheck=_none,
        cdf=expit, logcdf=log_expit,
        sf=lambda z: expit(-z), logsf=lambda z: log_expit(-z),
        ppf=logit, isf=lambda q: -logit(q),
        mean=lambda: 0.0, var=lambda: PI * PI / 3.0, entropy=lambda: 2.0,
        doc="The logistic distribution.",
    ),
    Continuous(
        "lognorm", ("s",),
        logpdf=lambda z, s: (
            -ops.log(s * z * math.sqrt(2.0 * PI)) - 0.5 * ops.square(ops.log(z) / s)
        ),
        support=lambda s: (0.0, INF),
        inner=lambda s: 1.0,
        cdf=lambda z, s: ndtr(ops.log(z) / s),
        logcdf=lambda z, s: log_ndtr(ops.log(z) / s),
        sf=lambda z, s: ndtr(-ops.log(z) / s),
        logsf=lambda z, s: log_ndtr(-ops.log(z) / s),
        ppf=lambda q, s: ops.exp(s * ndtri(q)),
        isf=lambda q, s: ops.exp(-s * ndtri(q)),
        mean=lambda s: ops.sqrt(ops.exp(s * s)),
        var=lambda s: ops.exp(s * s) * (ops.exp(s * s) - 1.0),
        entropy=lambda s: 0.5 * (1.0 + math.log(2.0 * PI) + 2.0 * ops.log(s)),
        doc="The log-normal distribution, shape ``s``.",
    ),
    Continuous(
        "pareto", ("b",),
        logpdf=lambda z, b: ops.log(b) - (b + 1.0) * ops.log(z),
        support=lambda b: (1.0, INF),
        cdf=lambda z, b: 1.0 - z ** (-b),
        sf=lambda z, b: z ** (-b),
        logsf=lambda z, b: -b * ops.log(z),
        ppf=lambda q, b: (1.0 - q) ** (-1.0 / b),
        isf=lambda q, b: q ** (-1.0 / b),
        mean=lambda b: _above(1.0, lambda b: b / (b - 1.0), b),
        var=lambda b: _above(2.0, lambda b: b / (b - 2.0) / (b - 1.0) ** 2, b),
        entropy=lambda b: 1.0 + 1.0 / b - ops.log(b),
        doc="The Pareto distribution, shape ``b``.",
    ),
    Continuous(
        "gennorm", ("beta",),
        logpdf=lambda z, beta: ops.log(0.5 * beta) - gammaln(1.0 / beta) - ops.abs(z) ** beta,
        cdf=_gennorm_cdf,
        sf=lambda z, beta: _gennorm_cdf(-z, beta),
        mean=lambda beta: ops.zeros_like(beta),
        var=lambda beta: ops.exp(gammaln(3.0 / beta) - gammaln(1.0 / beta)),
        entropy=lambda beta: 1.0 / beta - ops.log(0.5 * beta) + gammaln(1.0 / beta),
        doc="The generalized normal distribution, shape ``beta``.",
    ),
    Continuous(
        "truncnorm", ("a", "b"),
        logpdf=lambda z, a, b: -0.5 * ops.square(z) - HALF_LOG_2PI - _log_gauss_mass(a, b),
        support=lambda a, b: (a, b),
        inner=lambda a, b: 0.5 * (a + b),
        argcheck=lambda a, b: ops.less(a, b),
        logcdf=lambda z, a, b: _log_gauss_mass(a, z) - _log_gauss_mass(a, b),
        logsf=lambda z, a, b: _log_gauss_mass(z, b) - _log_gauss_mass(a, b),
        mean=_truncnorm_mean, var=_truncnorm_var, entropy=_truncnorm_entropy,
        doc="The normal distribution truncated to ``[a, b]`` (standardized bounds).",
    ),
    Continuous(
        "vonmises", ("kappa",),
        logpdf=lambda z, kappa: (
            kappa * (ops.cos(z) - 1.0) - math.log(2.0 * PI) - ops.log(i0e(kappa))
        ),
        argcheck=lambda kappa: ops.greater_equal(kappa, 0.0),
        entropy=lambda k: -k * i1e(k) / i0e(k) + ops.log(2.0 * PI * i0e(k)) + k,
        doc="The von Mises distribution, concentration ``kappa`` (the CDF SciPy's: "
        "differentiable in ``x``).",
    ),
    Continuous(
        "wrapcauchy", ("c",),
        logpdf=lambda z, c: (
            ops.log((1.0 - c * c) / (2.0 * PI * (1.0 + c * c - 2.0 * c * ops.cos(z))))
        ),
        support=lambda c: (0.0, 2.0 * PI),
        argcheck=lambda c: ops.logical_and(ops.greater(c, 0.0), ops.less(c, 1.0)),
        cdf=_wrapcauchy_cdf,
        ppf=_wrapcauchy_ppf,
        entropy=lambda c: ops.log(2.0 * PI * (1.0 - c * c)),
        doc="The wrapped Cauchy distribution on ``[0, 2π]``, shape ``c``.",
    ),
    Continuous(
        "gumbel_l", (),
        logpdf=lambda z: z - ops.exp(z),
        argcheck=_none,
        cdf=lambda z: -ops.expm1(-ops.exp(z)),
        sf=lambda z: ops.exp(-ops.exp(z)),
        logsf=lambda z: -ops.exp(z),
        ppf=lambda q: ops.log(-ops.log1p(-q)),
        isf=lambda q: ops.log(-ops.log(q)),
        mean=lambda: -EULER, var=lambda: PI * PI / 6.0, entropy=lambda: EULER + 1.0,
        doc="The left-skewed Gumbel distribution.",
    ),
    Continuous(
        "gumbel_r", (),
        logpdf=lambda z: -z - ops.exp(-z),
        argcheck=_none,
        cdf=lambda z: ops.exp(-ops.exp(-z)),
        logcdf=lambda z: -ops.exp(-z),
        sf=lambda z: -ops.expm1(-ops.exp(-z)),
        ppf=lambda q: -ops.log(-ops.log(q)),
        isf=lambda q: -ops.log(-ops.log1p(-q)),
        mean=lambda: EULER, var=lambda: PI * PI / 6.0, entropy=lambda: EULER + 1.0,
        doc="The right-skewed Gumbel distribution.",
    ),
    Continuous(
        "invgamma", ("a",),
        logpdf=lambda z, a: -(a + 1.0) * ops.log(z) - gammaln(a) - 1.0 / z,
        support=lambda a: (0.0, INF),
        cdf=lambda z, a: gammaincc(a, 1.0 / z),
        sf=lambda z, a: gammainc(a, 1.0 / z),
        mean=lambda a: _above(1.0, lambda a: 1.0 / (a - 1.0), a),
        var=lambda a: _above(2.0, lambda a: 1.0 / (a - 1.0) ** 2 / (a - 2.0), a),
        entropy=lambda a: a - (a + 1.0) * digamma(a) + gammaln(a),
        doc="The inverse gamma distribution, shape ``a``.",
    ),
    Continuous(
        "halfnorm", (),
        logpdf=lambda z: 0.5 * math.log(2.0 / PI) - z * z / 2.0,
        support=lambda: (0.0, INF),
        argcheck=_none,
        cdf=lambda z: erf(z / math.sqrt(2.0)),
        sf=lambda z: 2.0 * ndtr(-z),
        ppf=lambda q: ndtri((1.0 + q) / 2.0),
        isf=lambda q: -ndtri(q / 2.0),
        mean=lambda: math.sqrt(2.0 / PI), var=lambda: 1.0 - 2.0 / PI,
        entropy=lambda: 0.5 * math.log(PI / 2.0) + 0.5,
        doc="The half-normal distribution.",
    ),
    Continuous(
        "halfcauchy", (),
        logpdf=lambda z: math.log(2.0 / PI) - ops.log1p(z * z),
        support=lambda: (0.0, INF),
        argcheck=_none,
        cdf=lambda z: 2.0 / PI * ops.arctan(z),
        sf=lambda z: 2.0 / PI * ops.arctan2(1.0, z),
        ppf=lambda q: ops.tan(PI / 2.0 * q),
        isf=lambda q: 1.0 / ops.tan(PI * q / 2.0),
        mean=lambda: INF, var=lambda: INF, entropy=lambda: math.log(2.0 * PI),
        doc="The half-Cauchy distribution.",
    ),
    Continuous(
        "weibull_min", ("c",),
        logpdf=lambda z, c: ops.log(c) + xlogy(c - 1.0, z) - z**c,
        support=lambda c: (0.0, INF),
        cdf=lambda z, c: -ops.expm1(-(z**c)),
        logsf=lambda z, c: -(z**c),
        ppf=lambda q, c: (-ops.log1p(-q)) ** (1.0 / c),
        isf=lambda q, c: (-ops.log(q)) ** (1.0 / c),
        mean=_weibull_mean, var=_weibull_var,
        entropy=lambda c: -EULER / c - ops.log(c) + EULER + 1.0,
        doc="The Weibull minimum distribution, shape ``c``.",
    ),
    Continuous(
        "weibull_max", ("c",),
        logpdf=lambda z, c: ops.log(c) + xlogy(c - 1.0, -z) - (-z) ** c,
        support=lambda c: (-INF, 0.0),
        cdf=lambda z, c: ops.exp(-((-z) ** c)),
        logcdf=lambda z, c: -((-z) ** c),
        sf=lambda z, c: -ops.expm1(-((-z) ** c)),
        ppf=lambda q, c: -((-ops.log(q)) ** (1.0 / c)),
        isf=lambda q, c: -((-ops.log1p(-q)) ** (1.0 / c)),
        mean=lambda c: -_weibull_mean(c), var=_weibull_var,
        entropy=lambda c: -EULER / c - ops.log(c) + EULER + 1.0,
        doc="The Weibull maximum distribution, shape ``c``.",
    ),
    Continuous(
        "chi", ("df",),
        logpdf=lambda z, df: (
            math.log(2.0) - 0.5 * math.log(2.0) * df - gammaln(0.5 * df)
            + xlogy(df - 1.0, z) - 0.5 * z**2
        ),
        support=lambda df: (0.0, INF),
        cdf=lambda z, df: gammainc(0.5 * df, 0.5 * z**2),
        sf=lambda z, df: gammaincc(0.5 * df, 0.5 * z**2),
        mean=_chi_mean,
        var=lambda df: df - ops.square(_chi_mean(df)),
        entropy=lambda df: gammaln(0.5 * df)
        + 0.5 * (df - math.log(2.0) - (df - 1.0) * digamma(0.5 * df)),
        doc="The chi distribution, ``df`` degrees of freedom.",
    ),
    Continuous(
        "rayleigh", (),
        logpdf=lambda z: ops.log(z) - 0.5 * z * z,
        support=lambda: (0.0, INF),
        argcheck=_none,
        cdf=lambda z: -ops.expm1(-0.5 * z**2),
        logsf=lambda z: -0.5 * z * z,
        ppf=lambda q: ops.sqrt(-2.0 * ops.log1p(-q)),
        isf=lambda q: ops.sqrt(-2.0 * ops.log(q)),
        mean=lambda: math.sqrt(PI / 2.0), var=lambda: (4.0 - PI) / 2.0,
        entropy=lambda: EULER / 2.0 + 1.0 - 0.5 * math.log(2.0),
        doc="The Rayleigh distribution.",
    ),
    Continuous(
        "rice", ("b",),
        logpdf=lambda z, b: ops.log(z) - 0.5 * ops.square(z - b) + ops.log(i0e(z * b)),
        support=lambda b: (0.0, INF),
        inner=lambda b: 1.0,
        argcheck=lambda b: ops.greater_equal(b, 0.0),
        doc="The Rice distribution, shape ``b`` (the CDF SciPy's: differentiable in ``x``).",
    ),
    Continuous(
        "skewnorm", ("a",),
        logpdf=lambda z, a: math.log(2.0) - 0.5 * ops.square(z) - HALF_LOG_2PI + log_ndtr(a * z),
        argcheck=lambda a: ops.isfinite(a),
        cdf=lambda z, a: ndtr(z) - 2.0 * owens_t(z, a),
        mean=_skewnorm_delta,
        var=lambda a: 1.0 - ops.square(_skewnorm_delta(a)),
        doc="The skew-normal distribution, shape ``a`` (CDF by Owen's T function).",
    ),
    Continuous(
        "loggamma", ("c",),
        logpdf=lambda z, c: c * z - ops.exp(z) - gammaln(c),
        cdf=_loggamma_cdf,
        sf=lambda z, c: _loggamma_cdf(z, c, upper=True),
        mean=digamma,
        var=lambda c: polygamma(1, c),
        entropy=_loggamma_entropy,
        doc="The log-gamma distribution (the log of a gamma variable), shape ``c``.",
    ),
    Continuous(
        "gompertz", ("c",),
        logpdf=lambda z, c: ops.log(c) + z - c * ops.expm1(z),
        support=lambda c: (0.0, INF),
        inner=lambda c: 1.0,
        cdf=lambda z, c: -ops.expm1(-c * ops.expm1(z)),
        sf=lambda z, c: ops.exp(-c * ops.expm1(z)),
        logsf=lambda z, c: -c * ops.expm1(z),
        ppf=lambda q, c: ops.log1p(-1.0 / c * ops.log1p(-q)),
        isf=lambda q, c: ops.log1p(-ops.log(q) / c),
        entropy=lambda c: 1.0 - ops.log(c) - ops.exp(c) * exp1(c),
        doc="The Gompertz (truncated Gumbel) distribution, shape ``c``.",
    ),
    Continuous(
        "genextreme", ("c",),
        logpdf=lambda z, c: (
            -ops.exp(_genextreme_loglogcdf(z, c)) + _genextreme_loglogcdf(z, c)
            - ops.log1p(-c * z)
        ),
        support=lambda c: (
            ops.where(ops.less(c, 0.0), 1.0 / ops.where(ops.less(c, 0.0), c, -1.0), -INF),
            ops.where(ops.greater(c, 0.0), 1.0 / ops.where(ops.greater(c, 0.0), c, 1.0), INF),
        ),
        inner=lambda c: 0.0,
        argcheck=lambda c: ops.isfinite(c),
        logcdf=lambda z, c: -ops.exp(_genextreme_loglogcdf(z, c)),
        cdf=lambda z, c: ops.exp(-ops.exp(_genextreme_loglogcdf(z, c))),
        sf=lambda z, c: -ops.expm1(-ops.exp(_genextreme_loglogcdf(z, c))),
        ppf=lambda q, c: _genextreme_quantile(-ops.log(-ops.log(q)), c),
        isf=lambda q, c: _genextreme_quantile(-ops.log(-ops.log1p(-q)), c),
        mean=_genextreme_mean, var=_genextreme_var,
        entropy=lambda c: EULER * (1.0 - c) + 1.0,
        doc="The generalized extreme value distribution, shape ``c`` (SciPy's sign: "
        "``c > 0`` bounded above).",
    ),
]  # fmt: skip
