"""The gamma distribution: ``gamma.logpdf(x, a, loc=0, scale=1)`` and its CDF family, with
gradients in ``x``, ``a``, ``loc`` and ``scale`` (the CDF's in ``a`` through gammainc's
parameter derivative: first order only). -inf log density below the support."""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special import gammainc, gammaincc, gammaln, xlogy
from tapegrad.scipy.stats._common import INF, inside, safe, standardize, valid_scale

ArrayLike = Any


@plain_calls_scipy("stats.gamma")
def logpdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import gamma
    >>> gamma.logpdf(tg.tensor(2.0), 1.0).item()  # exponential: -x
    -2.0
    """
    z = standardize(x, loc, scale)
    support = ops.greater_equal(z, 0.0)
    z = safe(support, z, 1.0)
    value = xlogy(ops.subtract(a, 1.0), z) - z - gammaln(a) - ops.log(scale)
    return valid_scale(inside(support, value, -INF), scale)


@plain_calls_scipy("stats.gamma")
def pdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import gamma
    >>> gamma.pdf(tg.tensor(0.0), 1.0).item()
    1.0
    """
    return ops.exp(logpdf(x, a, loc, scale))


def _z(x: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> Any:
    """The standardized value, clipped to the support (the CDF is flat below it)."""
    z = standardize(x, loc, scale)
    return safe(ops.greater_equal(z, 0.0), z, 0.0)


@plain_calls_scipy("stats.gamma")
def cdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The cumulative distribution function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import gamma
    >>> round(gamma.cdf(tg.tensor(1.0), 1.0).item(), 12)  # 1 - e^-1
    0.632120558829
    """
    return valid_scale(gammainc(a, _z(x, loc, scale)), scale)


@plain_calls_scipy("stats.gamma")
def logcdf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log of the CDF.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import gamma
    >>> round(gamma.logcdf(tg.tensor(1.0), 1.0).item(), 12)  # log(1 - e^-1)
    -0.458675145387
    """
    return ops.log(cdf(x, a, loc, scale))


@plain_calls_scipy("stats.gamma")
def sf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The survival function ``1 - cdf``, accurate in the right tail.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import gamma
    >>> round(gamma.sf(tg.tensor(1.0), 1.0).item(), 12)  # e^-1
    0.367879441171
    """
    return valid_scale(gammaincc(a, _z(x, loc, scale)), scale)


@plain_calls_scipy("stats.gamma")
def logsf(x: ArrayLike, a: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log of the survival function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import gamma
    >>> round(gamma.logsf(tg.tensor(3.0), 1.0).item(), 12)
    -3.0
    """
    return ops.log(sf(x, a, loc, scale))
