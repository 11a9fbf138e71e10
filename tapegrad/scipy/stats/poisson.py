"""The Poisson distribution: ``poisson.logpmf(k, mu, loc=0)`` and its CDF family, with
gradients in ``mu``. ``k`` and ``loc`` are counts: a gradient there raises LookupError."""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special import gammainc, gammaincc, gammaln, xlogy
from tapegrad.scipy.stats._common import INF, NAN, both, inside, refuse_counts, safe

ArrayLike = Any


def _valid(value: Any, mu: Any) -> Any:
    return ops.where(ops.greater_equal(mu, 0.0), value, NAN)


@plain_calls_scipy("stats.poisson")
def logpmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The log probability mass: -inf off the non-negative integers.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import poisson
    >>> poisson.logpmf(0, tg.tensor(2.0)).item()
    -2.0
    """
    refuse_counts("poisson.logpmf", k=k, loc=loc)
    k = ops.subtract(k, loc)
    support = both(ops.greater_equal(k, 0), ops.equal(ops.floor(k), k))
    k = safe(support, k, 0.0)
    value = xlogy(k, mu) - gammaln(ops.add(k, 1.0)) - mu
    return _valid(inside(support, value, -INF), mu)


@plain_calls_scipy("stats.poisson")
def pmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The probability mass.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import poisson
    >>> round(poisson.pmf(1, tg.tensor(1.0)).item(), 12)  # e^-1
    0.367879441171
    """
    return ops.exp(logpmf(k, mu, loc))


def _floor(op: str, k: ArrayLike, loc: ArrayLike) -> tuple[Any, Any]:
    """floor(k - loc), and where it is a count (>= 0), with 0 standing in elsewhere."""
    refuse_counts(op, k=k, loc=loc)
    k = ops.floor(ops.subtract(k, loc))
    support = ops.greater_equal(k, 0.0)
    return safe(support, k, 0.0), support


@plain_calls_scipy("stats.poisson")
def cdf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The cumulative distribution function ``P(K <= k)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import poisson
    >>> round(poisson.cdf(0, tg.tensor(1.0)).item(), 12)
    0.367879441171
    """
    k, support = _floor("poisson.cdf", k, loc)
    return _valid(inside(support, gammaincc(ops.add(k, 1.0), mu), 0.0), mu)


@plain_calls_scipy("stats.poisson")
def logcdf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The log of the CDF.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import poisson
    >>> round(poisson.logcdf(0, tg.tensor(1.0)).item(), 12)
    -1.0
    """
    return ops.log(cdf(k, mu, loc))


@plain_calls_scipy("stats.poisson")
def sf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The survival function ``P(K > k)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import poisson
    >>> round(poisson.sf(0, tg.tensor(1.0)).item(), 12)  # 1 - e^-1
    0.632120558829
    """
    k, support = _floor("poisson.sf", k, loc)
    return _valid(inside(support, gammainc(ops.add(k, 1.0), mu), 1.0), mu)


@plain_calls_scipy("stats.poisson")
def logsf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The log of the survival function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import poisson
    >>> poisson.logsf(-1, tg.tensor(1.0)).item()
    0.0
    """
    return ops.log(sf(k, mu, loc))
