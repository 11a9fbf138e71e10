"""The Bernoulli distribution: ``bernoulli.logpmf(k, p, loc=0)`` and its CDF family, the
binomial with ``n = 1``; gradients in ``p``."""

from __future__ import annotations

from typing import Any

from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.stats import binom

ArrayLike = Any


@plain_calls_scipy("stats.bernoulli")
def logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The log probability mass: ``log p`` at 1, ``log(1 - p)`` at 0, -inf elsewhere.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import bernoulli
    >>> round(bernoulli.logpmf(1, tg.tensor(0.25)).item(), 12)
    -1.38629436112
    """
    return binom.logpmf(k, 1, p, loc)


@plain_calls_scipy("stats.bernoulli")
def pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The probability mass.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import bernoulli
    >>> bernoulli.pmf(0, tg.tensor(0.25)).item()
    0.75
    """
    return binom.pmf(k, 1, p, loc)


@plain_calls_scipy("stats.bernoulli")
def cdf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The cumulative distribution function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import bernoulli
    >>> bernoulli.cdf(0, tg.tensor(0.25)).item()
    0.75
    """
    return binom.cdf(k, 1, p, loc)


@plain_calls_scipy("stats.bernoulli")
def logcdf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The log of the CDF.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import bernoulli
    >>> bernoulli.logcdf(1, tg.tensor(0.25)).item()
    0.0
    """
    return binom.logcdf(k, 1, p, loc)


@plain_calls_scipy("stats.bernoulli")
def sf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The survival function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import bernoulli
    >>> bernoulli.sf(0, tg.tensor(0.25)).item()
    0.25
    """
    return binom.sf(k, 1, p, loc)


@plain_calls_scipy("stats.bernoulli")
def logsf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Tensor:
    """The log of the survival function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import bernoulli
    >>> bernoulli.logsf(-1, tg.tensor(0.25)).item()
    0.0
    """
    return binom.logsf(k, 1, p, loc)
