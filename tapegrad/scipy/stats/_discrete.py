"""The discrete distributions declared on tapegrad/scipy/stats/_family.py: each is its
log mass and distribution function on the integers of its support (SciPy's formulas).

>>> import tapegrad as tg
>>> r = lambda v: round(v.item(), 12)
>>> from tapegrad.scipy.stats import geom
>>> p = tg.tensor(0.25)
>>> round(tg.grad(lambda p: geom.logpmf(1, p))(p).item(), 12)  # d log p / dp
4.0
>>> from tapegrad.scipy.stats import bernoulli, binom, poisson
>>> poisson.logpmf(0, tg.tensor(2.0)).item(), r(poisson.pmf(1, tg.tensor(1.0)))
(-2.0, 0.367879441171)
>>> r(poisson.cdf(0, tg.tensor(1.0))), r(poisson.logcdf(0, tg.tensor(1.0)))
(0.367879441171, -1.0)
>>> r(poisson.sf(0, tg.tensor(1.0))), poisson.logsf(-1, tg.tensor(1.0)).item()
(0.632120558829, 0.0)
>>> r(binom.logpmf(1, 2, tg.tensor(0.5))), r(binom.pmf(1, 2, tg.tensor(0.5)))
(-0.69314718056, 0.5)
>>> r(binom.cdf(0, 2, tg.tensor(0.5))), binom.logcdf(2, 2, tg.tensor(0.5)).item()
(0.25, 0.0)
>>> r(binom.sf(0, 2, tg.tensor(0.5))), binom.logsf(-1, 2, tg.tensor(0.5)).item()
(0.75, 0.0)
>>> r(bernoulli.logpmf(1, tg.tensor(0.25))), bernoulli.pmf(0, tg.tensor(0.25)).item()
(-1.38629436112, 0.75)
>>> bernoulli.cdf(0, tg.tensor(0.25)).item(), bernoulli.logcdf(1, tg.tensor(0.25)).item()
(0.75, 0.0)
>>> bernoulli.sf(0, tg.tensor(0.25)).item(), bernoulli.logsf(-1, tg.tensor(0.25)).item()
(0.25, 0.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.ops.primitive import raw
from tapegrad.scipy.special import betainc, betaln, gammainc, gammaincc, gammaln, xlog1py, xlogy
from tapegrad.scipy.stats._family import INF, Discrete


def _probability(p: Any) -> Any:
    """0 < p <= 1."""
    return ops.logical_and(ops.greater(p, 0.0), ops.less_equal(p, 1.0))


def _count(n: Any) -> Any:
    """n a non-negative integer."""
    return ops.logical_and(ops.greater_equal(n, 0.0), ops.equal(ops.floor(n), n))


def _closed_probability(p: Any) -> Any:
    """0 <= p <= 1."""
    return ops.logical_and(ops.greater_equal(p, 0.0), ops.less_equal(p, 1.0))


def _binom_logpmf(k: Any, n: Any, p: Any) -> Any:
    combinations = gammaln(n + 1.0) - (gammaln(k + 1.0) + gammaln(n - k + 1.0))
    return combinations + xlogy(k, p) + xlog1py(n - k, -p)


def _binom_rest(k: Any, n: Any) -> Any:
    """``n - k`` for ``0 <= k < n`` (at least 1: the stand-ins keep finite gradients)."""
    return ops.maximum(n - k, 1.0)


def _betabinom_logpmf(k: Any, n: Any, a: Any, b: Any) -> Any:
    return (
        -ops.log(ops.add(n, 1.0))
        - betaln(n - k + 1.0, k + 1.0)
        + betaln(k + a, n - k + b)
        - betaln(a, b)
    )


def _betabinom_cdf(k: Any, n: Any, a: Any, b: Any) -> Any:
    """``P(K <= k)``: the masses of 0 .. k summed (SciPy sums them too)."""
    given = raw(n) if not isinstance(n, (int, float)) else n
    top = int(np.max(backend.to_host(np.asarray(given) if isinstance(given, list) else given)))
    total: Any = 0.0
    for j in range(top + 1):
        mass = ops.exp(_betabinom_logpmf(ops.minimum(float(j), n), n, a, b))
        total = total + ops.where(ops.less_equal(float(j), k), mass, 0.0)
    return total


DECLARED: list[Discrete] = [
    Discrete(
        "poisson", ("mu",),
        logpmf=lambda k, mu: xlogy(k, mu) - gammaln(k + 1.0) - mu,
        support=lambda mu: (0.0, INF),
        argcheck=lambda mu: ops.greater_equal(mu, 0.0),
        cdf=lambda k, mu: gammaincc(k + 1.0, mu),
        sf=lambda k, mu: gammainc(k + 1.0, mu),
        mean=lambda mu: mu, var=lambda mu: mu,
        doc="The Poisson distribution, mean ``mu`` (``k`` and ``loc`` counts).",
    ),
    Discrete(
        "binom", ("n", "p"),
        logpmf=_binom_logpmf,
        support=lambda n, p: (0.0, n),
        argcheck=lambda n, p: ops.logical_and(_count(n), _closed_probability(p)),
        cdf=lambda k, n, p: betainc(_binom_rest(k, n), k + 1.0, 1.0 - p),
        sf=lambda k, n, p: betainc(k + 1.0, _binom_rest(k, n), p),
        counts=("n",),
        mean=lambda n, p: n * p, var=lambda n, p: n * p * (1.0 - p),
        doc="The binomial distribution: ``n`` trials (a count), success probability ``p``; "
        "the CDF ``I_{1-p}(n - k, k + 1)`` differentiable in ``p`` in closed form.",
    ),
    Discrete(
        "bernoulli", ("p",),
        logpmf=lambda k, p: _binom_logpmf(k, 1.0, p),
        support=lambda p: (0.0, 1.0),
        argcheck=_closed_probability,
        cdf=lambda k, p: 1.0 - p + 0.0 * k,
        sf=lambda k, p: p + 0.0 * k,
        mean=lambda p: p, var=lambda p: p * (1.0 - p),
        doc="The Bernoulli distribution: ``p`` at 1, ``1 - p`` at 0.",
    ),
    Discrete(
        "geom", ("p",),
        logpmf=lambda k, p: xlog1py(k - 1.0, -p) + ops.log(p),
        support=lambda p: (1.0, INF),
        argcheck=_probability,
        cdf=lambda k, p: -ops.expm1(ops.log1p(-p) * k),
        sf=lambda k, p: ops.exp(k * ops.log1p(-p)),
        mean=lambda p: 1.0 / p,
        var=lambda p: (1.0 - p) / p**2,
        doc="The geometric distribution: trials to the first success, probability ``p``.",
    ),
    Discrete(
        "nbinom", ("n", "p"),
        logpmf=lambda k, n, p: (
            gammaln(n + k) - gammaln(k + 1.0) - gammaln(n) + n * ops.log(p) + xlog1py(k, -p)
        ),
        support=lambda n, p: (0.0, INF),
        argcheck=lambda n, p: ops.logical_and(ops.greater(n, 0.0), _probability(p)),
        cdf=lambda k, n, p: betainc(n, k + 1.0, p),
        sf=lambda k, n, p: betainc(k + 1.0, n, 1.0 - p),
        mean=lambda n, p: n * (1.0 - p) / p,
        var=lambda n, p: n * (1.0 - p) / p**2,
        doc="The negative binomial distribution: failures before the ``n``-th success "
        "(``n`` real and differentiable, as in SciPy).",
    ),
    Discrete(
        "betabinom", ("n", "a", "b"),
        logpmf=_betabinom_logpmf,
        support=lambda n, a, b: (0.0, n),
        argcheck=lambda n, a, b: ops.logical_and(
            _count(n), ops.logical_and(ops.greater(a, 0.0), ops.greater(b, 0.0))
        ),
        cdf=_betabinom_cdf,
        counts=("n",),
        mean=lambda n, a, b: n * a / (a + b),
        var=lambda n, a, b: n * a * b * (a + b + n) / ((a + b) ** 2 * (a + b + 1.0)),
        doc="The beta-binomial distribution: ``n`` trials, beta(``a``, ``b``) success "
        "probability (``n`` a count).",
    ),
]  # fmt: skip
