"""The continuous distributions on a half-line (``[0, inf)`` mostly: the gamma, chi, Weibull,
log-normal, Pareto, half-normal ... families), declared on tapegrad/scipy/stats/_family.py
as in _continuous.py.

>>> import tapegrad as tg
>>> r = lambda v: round(v.item(), 12)
>>> from tapegrad.scipy.stats import chi2, gamma, weibull_min
>>> c = tg.tensor(2.0)
>>> round(tg.grad(lambda c: weibull_min.mean(c))(c).item(), 9)  # -Γ(1.5) ψ(1.5) / c²
-0.008084599
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
"""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.scipy.special import (
    digamma,
    erf,
    exp1,
    gammainc,
    gammaincc,
    gammaln,
    i0e,
    log_ndtr,
    ndtr,
    ndtri,
    xlogy,
)
from tapegrad.scipy.stats._family import INF, Continuous
from tapegrad.scipy.stats._formulas import EULER, PI, _above, _asymptotic, _gamma, _none


def _weibull_mean(c: Any) -> Any:
    return _gamma(1.0 + 1.0 / c)


def _weibull_var(c: Any) -> Any:
    return _gamma(1.0 + 2.0 / c) - ops.square(_gamma(1.0 + 1.0 / c))


def _chi_mean(df: Any) -> Any:
    return math.sqrt(2.0) * ops.exp(gammaln(0.5 * df + 0.5) - gammaln(0.5 * df))


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


DECLARED: list[Continuous] = [
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
]  # fmt: skip
