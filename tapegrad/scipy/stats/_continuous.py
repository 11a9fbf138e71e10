"""The continuous distributions declared on tapegrad/scipy/stats/_family.py: each is its
standardized formulas (SciPy's own, so the values agree), nothing else. This module declares
those on the whole real line (the normal, t, Laplace, Cauchy, logistic, Gumbel and
generalized extreme value families) and gathers them with the half-line ones (_positive.py)
and the bounded ones (_bounded.py) in :data:`DECLARED`.

>>> import tapegrad as tg
>>> r = lambda v: round(v.item(), 12)
>>> from tapegrad.scipy.stats import gumbel_r
>>> r(gumbel_r.cdf(tg.tensor(0.0)))  # exp(-1)
0.367879441171

The normal distribution's log-space methods stay finite in the tails:

>>> from tapegrad.scipy.stats import norm, t
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
"""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.scipy.special import (
    betaln,
    digamma,
    expit,
    gammainc,
    gammaincc,
    gammaln,
    log_expit,
    log_ndtr,
    logit,
    ndtr,
    ndtri,
    owens_t,
    polygamma,
    stdtr,
)
from tapegrad.scipy.stats._bounded import DECLARED as _BOUNDED
from tapegrad.scipy.stats._family import INF, NAN, Continuous
from tapegrad.scipy.stats._formulas import (
    _NORM_ENTROPY,
    EULER,
    HALF_LOG_2PI,
    LOG_PI,
    PI,
    _above,
    _asymptotic,
    _gamma,
    _none,
    branch,
)
from tapegrad.scipy.stats._nct import NCT as _NCT
from tapegrad.scipy.stats._positive import DECLARED as _POSITIVE


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


_REAL_LINE: list[Continuous] = [
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


# Every continuous distribution, in the order tapegrad.scipy.stats has always listed them.
_ORDER = (
    "norm", "t", "gamma", "chi2", "beta", "expon", "uniform", "laplace", "cauchy", "logistic",
    "lognorm", "pareto", "gennorm", "truncnorm", "vonmises", "wrapcauchy", "gumbel_l",
    "gumbel_r", "invgamma", "halfnorm", "halfcauchy", "weibull_min", "weibull_max", "chi",
    "rayleigh", "rice", "skewnorm", "loggamma", "gompertz", "genextreme", "nct",
)  # fmt: skip
_BY_NAME = {spec.name: spec for spec in (*_REAL_LINE, *_POSITIVE, *_BOUNDED, _NCT)}
assert sorted(_BY_NAME) == sorted(_ORDER), "a declared distribution is missing from _ORDER"
DECLARED: list[Continuous] = [_BY_NAME[name] for name in _ORDER]
