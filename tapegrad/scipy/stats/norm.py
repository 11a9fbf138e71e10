"""The normal distribution: ``norm.logpdf(x, loc=0, scale=1)`` and the rest of SciPy's
``scipy.stats.norm`` methods with gradients in ``x``, ``loc`` and ``scale``.

The log-space methods stay finite in the tails: ``logcdf`` is ``log_ndtr`` (``logcdf(-40)``
is about -804.6), ``logsf`` is ``log_ndtr(-z)``.
"""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special import log_ndtr, ndtr, ndtri
from tapegrad.scipy.stats._common import standardize, valid_scale

ArrayLike = Any
_HALF_LOG_2PI = 0.5 * math.log(2.0 * math.pi)


@plain_calls_scipy("stats.norm")
def logpdf(x: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import norm
    >>> round(norm.logpdf(tg.tensor(0.0)).item(), 12)
    -0.918938533205
    """
    z = standardize(x, loc, scale)
    return valid_scale(-0.5 * ops.square(z) - ops.log(scale) - _HALF_LOG_2PI, scale)


@plain_calls_scipy("stats.norm")
def pdf(x: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import norm
    >>> round(norm.pdf(tg.tensor(0.0)).item(), 12)
    0.398942280401
    """
    return ops.exp(logpdf(x, loc, scale))


@plain_calls_scipy("stats.norm")
def cdf(x: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The cumulative distribution function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import norm
    >>> norm.cdf(tg.tensor(0.0)).item()
    0.5
    """
    return valid_scale(ndtr(standardize(x, loc, scale)), scale)


@plain_calls_scipy("stats.norm")
def logcdf(x: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log of the CDF, finite far into the left tail.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import norm
    >>> round(norm.logcdf(tg.tensor(-40.0)).item(), 6)
    -804.608442
    """
    return valid_scale(log_ndtr(standardize(x, loc, scale)), scale)


@plain_calls_scipy("stats.norm")
def sf(x: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The survival function ``1 - cdf``, accurate in the right tail.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import norm
    >>> norm.sf(tg.tensor(0.0)).item()
    0.5
    """
    return valid_scale(ndtr(-standardize(x, loc, scale)), scale)


@plain_calls_scipy("stats.norm")
def logsf(x: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log of the survival function, finite far into the right tail.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import norm
    >>> round(norm.logsf(tg.tensor(40.0)).item(), 6)
    -804.608442
    """
    return valid_scale(log_ndtr(-standardize(x, loc, scale)), scale)


@plain_calls_scipy("stats.norm")
def ppf(q: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The quantile function (inverse of the CDF).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import norm
    >>> norm.ppf(tg.tensor(0.5), loc=3.0).item()
    3.0
    """
    return valid_scale(ops.add(loc, ops.multiply(scale, ndtri(q))), scale)


@plain_calls_scipy("stats.norm")
def isf(q: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The inverse of the survival function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import norm
    >>> norm.isf(tg.tensor(0.5), loc=3.0).item()
    3.0
    """
    return valid_scale(ops.subtract(loc, ops.multiply(scale, ndtri(q))), scale)
