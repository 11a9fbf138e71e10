"""The chi-squared distribution: ``chi2.logpdf(x, df, loc=0, scale=1)`` and its CDF family:
the gamma distribution with shape df/2 and scale 2."""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.stats import gamma

ArrayLike = Any


@plain_calls_scipy("stats.chi2")
def logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import chi2
    >>> chi2.logpdf(tg.tensor(2.0), 2.0).item()  # exponential with mean 2: -x/2 - log 2
    -1.6931471805599454
    """
    return gamma.logpdf(x, ops.multiply(df, 0.5), loc, ops.multiply(scale, 2.0))


@plain_calls_scipy("stats.chi2")
def pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import chi2
    >>> chi2.pdf(tg.tensor(0.0), 2.0).item()
    0.5
    """
    return ops.exp(logpdf(x, df, loc, scale))


@plain_calls_scipy("stats.chi2")
def cdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The cumulative distribution function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import chi2
    >>> round(chi2.cdf(tg.tensor(2.0), 2.0).item(), 12)  # 1 - e^-1
    0.632120558829
    """
    return gamma.cdf(x, ops.multiply(df, 0.5), loc, ops.multiply(scale, 2.0))


@plain_calls_scipy("stats.chi2")
def logcdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log of the CDF.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import chi2
    >>> round(chi2.logcdf(tg.tensor(2.0), 2.0).item(), 12)  # log(1 - e^-1)
    -0.458675145387
    """
    return gamma.logcdf(x, ops.multiply(df, 0.5), loc, ops.multiply(scale, 2.0))


@plain_calls_scipy("stats.chi2")
def sf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The survival function ``1 - cdf``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import chi2
    >>> round(chi2.sf(tg.tensor(2.0), 2.0).item(), 12)  # e^-1
    0.367879441171
    """
    return gamma.sf(x, ops.multiply(df, 0.5), loc, ops.multiply(scale, 2.0))


@plain_calls_scipy("stats.chi2")
def logsf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log of the survival function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import chi2
    >>> chi2.logsf(tg.tensor(6.0), 2.0).item()
    -3.0
    """
    return gamma.logsf(x, ops.multiply(df, 0.5), loc, ops.multiply(scale, 2.0))
