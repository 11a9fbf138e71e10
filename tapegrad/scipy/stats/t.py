"""Student's t distribution: ``t.logpdf(x, df, loc=0, scale=1)`` and its CDF family, with
gradients in ``x``, ``df``, ``loc`` and ``scale`` (the CDF's in ``df`` through the
incomplete beta function's parameter derivative: first order only)."""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special import gammaln, stdtr
from tapegrad.scipy.stats._common import standardize, valid_scale

ArrayLike = Any


@plain_calls_scipy("stats.t")
def logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import t
    >>> round(t.logpdf(tg.tensor(0.0), 1.0).item(), 12)  # Cauchy: -log(π)
    -1.144729885849
    """
    z = standardize(x, loc, scale)
    half = ops.multiply(ops.add(df, 1.0), 0.5)
    value = (
        gammaln(half)
        - gammaln(ops.multiply(df, 0.5))
        - 0.5 * ops.log(ops.multiply(df, math.pi))
        - ops.log(scale)
        - half * ops.log1p(ops.square(z) / df)
    )
    return valid_scale(ops.where(ops.greater(df, 0.0), value, math.nan), scale)


@plain_calls_scipy("stats.t")
def pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import t
    >>> round(t.pdf(tg.tensor(0.0), 1.0).item(), 12)  # 1 / π
    0.318309886184
    """
    return ops.exp(logpdf(x, df, loc, scale))


@plain_calls_scipy("stats.t")
def cdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The cumulative distribution function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import t
    >>> t.cdf(tg.tensor(0.0), 4.0).item()
    0.5
    """
    return valid_scale(stdtr(df, standardize(x, loc, scale)), scale)


@plain_calls_scipy("stats.t")
def logcdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log of the CDF.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import t
    >>> round(t.logcdf(tg.tensor(0.0), 4.0).item(), 12)
    -0.69314718056
    """
    return ops.log(cdf(x, df, loc, scale))


@plain_calls_scipy("stats.t")
def sf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The survival function ``1 - cdf``, accurate in the right tail.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import t
    >>> t.sf(tg.tensor(0.0), 4.0).item()
    0.5
    """
    return valid_scale(stdtr(df, -standardize(x, loc, scale)), scale)


@plain_calls_scipy("stats.t")
def logsf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0) -> Tensor:
    """The log of the survival function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import t
    >>> round(t.logsf(tg.tensor(0.0), 4.0).item(), 12)
    -0.69314718056
    """
    return ops.log(sf(x, df, loc, scale))
