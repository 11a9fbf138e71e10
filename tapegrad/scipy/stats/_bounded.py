"""The continuous distributions on a bounded support (the uniform, beta and truncated normal
on an interval; the von Mises and wrapped Cauchy on the circle), declared on
tapegrad/scipy/stats/_family.py as in _continuous.py.

>>> import tapegrad as tg
>>> from tapegrad.scipy.stats import beta
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
    i0e,
    i1e,
    log_ndtr,
    ndtr,
    xlog1py,
    xlogy,
)
from tapegrad.scipy.stats._family import Continuous
from tapegrad.scipy.stats._formulas import HALF_LOG_2PI, PI, _none, branch


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


def _beta_entropy(a: Any, b: Any) -> Any:
    """SciPy's regular formula (its asymptotic ones take over past a, b ~ 5e6)."""
    return (
        betaln(a, b)
        - (a - 1.0) * digamma(a)
        - (b - 1.0) * digamma(b)
        + (a + b - 2.0) * digamma(a + b)
    )


DECLARED: list[Continuous] = [
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
]  # fmt: skip
