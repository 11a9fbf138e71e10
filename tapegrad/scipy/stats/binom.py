"""The binomial distribution: ``binom.logpmf(k, n, p, loc=0)`` and its CDF family, with
gradients in ``p``. ``k``, ``n`` and ``loc`` are counts: a gradient there raises
LookupError. The CDF is ``I_{1-p}(n - k, k + 1)``, differentiable in ``p`` in closed form."""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special import betainc, gammaln, xlog1py, xlogy
from tapegrad.scipy.stats._common import INF, NAN, both, inside, refuse_counts, safe

ArrayLike = Any


def _valid(value: Any, n: Any, p: Any) -> Any:
    """NaN where SciPy's argument check fails: n a non-negative integer, 0 <= p <= 1."""
    ok = both(both(ops.greater_equal(n, 0), ops.equal(ops.floor(n), n)), ops.greater_equal(p, 0.0))
    return ops.where(both(ok, ops.less_equal(p, 1.0)), value, NAN)


@plain_calls_scipy("stats.binom")
def logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The log probability mass: -inf off {0, ..., n}.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import binom
    >>> round(binom.logpmf(1, 2, tg.tensor(0.5)).item(), 12)  # log(1/2)
    -0.69314718056
    """
    refuse_counts("binom.logpmf", k=k, n=n, loc=loc)
    k = ops.subtract(k, loc)
    support = both(both(ops.greater_equal(k, 0), ops.less_equal(k, n)), ops.equal(ops.floor(k), k))
    k = safe(support, k, 0.0)
    rest = ops.subtract(n, k)
    value = (
        gammaln(ops.add(n, 1.0))
        - gammaln(ops.add(k, 1.0))
        - gammaln(ops.add(rest, 1.0))
        + xlogy(k, p)
        + xlog1py(rest, -p)
    )
    return _valid(inside(support, value, -INF), n, p)


@plain_calls_scipy("stats.binom")
def pmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The probability mass.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import binom
    >>> round(binom.pmf(1, 2, tg.tensor(0.5)).item(), 12)
    0.5
    """
    return ops.exp(logpmf(k, n, p, loc))


def _split(op: str, k: ArrayLike, n: ArrayLike, loc: ArrayLike) -> tuple[Any, Any, Any, Any]:
    """floor(k - loc) with stand-ins off 0 <= k < n, and the masks below and above that."""
    refuse_counts(op, k=k, n=n, loc=loc)
    k = ops.floor(ops.subtract(k, loc))
    below, above = ops.less(k, 0.0), ops.greater_equal(k, n)
    middle = ops.equal(ops.where(below, True, above), False)  # neither below nor above
    k = safe(middle, k, 0.0)
    rest = safe(middle, ops.subtract(n, k), 1.0)
    return k, rest, below, above


@plain_calls_scipy("stats.binom")
def cdf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The cumulative distribution function ``P(K <= k)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import binom
    >>> round(binom.cdf(0, 2, tg.tensor(0.5)).item(), 12)
    0.25
    """
    k, rest, below, above = _split("binom.cdf", k, n, loc)
    value = betainc(rest, ops.add(k, 1.0), 1.0 - p)
    return _valid(ops.where(below, 0.0, ops.where(above, 1.0, value)), n, p)


@plain_calls_scipy("stats.binom")
def logcdf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The log of the CDF.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import binom
    >>> binom.logcdf(2, 2, tg.tensor(0.5)).item()
    0.0
    """
    return ops.log(cdf(k, n, p, loc))


@plain_calls_scipy("stats.binom")
def sf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The survival function ``P(K > k)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import binom
    >>> round(binom.sf(0, 2, tg.tensor(0.5)).item(), 12)
    0.75
    """
    k, rest, below, above = _split("binom.sf", k, n, loc)
    value = betainc(ops.add(k, 1.0), rest, p)
    return _valid(ops.where(below, 1.0, ops.where(above, 0.0, value)), n, p)


@plain_calls_scipy("stats.binom")
def logsf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The log of the survival function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import binom
    >>> binom.logsf(-1, 2, tg.tensor(0.5)).item()
    0.0
    """
    return ops.log(sf(k, n, p, loc))
