"""The beta distribution: ``beta.logpdf(x, a, b, loc=0, scale=1)`` and its CDF family, with
gradients in ``x``, ``a``, ``b``, ``loc`` and ``scale`` (the CDF's in ``a`` and ``b`` through
betainc's parameter derivatives: first order only). -inf log density off [0, 1]."""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special import betainc, betaln, xlog1py, xlogy
from tapegrad.scipy.stats._common import INF, both, inside, safe, standardize, valid_scale

ArrayLike = Any


@plain_calls_scipy("stats.beta")
def logpdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0
) -> Tensor:
    """The log density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import beta
    >>> beta.logpdf(tg.tensor(0.3), 1.0, 1.0).item()  # uniform
    0.0
    """
    z = standardize(x, loc, scale)
    support = both(ops.greater_equal(z, 0.0), ops.less_equal(z, 1.0))
    z = safe(support, z, 0.5)
    value = (
        xlogy(ops.subtract(a, 1.0), z)
        + xlog1py(ops.subtract(b, 1.0), -z)
        - betaln(a, b)
        - ops.log(scale)
    )
    return valid_scale(inside(support, value, -INF), scale)


@plain_calls_scipy("stats.beta")
def pdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0
) -> Tensor:
    """The density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import beta
    >>> beta.pdf(tg.tensor(0.5), 2.0, 2.0).item()
    1.5
    """
    return ops.exp(logpdf(x, a, b, loc, scale))


def _z(x: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> Any:
    """The standardized value, clipped to [0, 1] (the CDF is flat outside)."""
    z = standardize(x, loc, scale)
    return safe(ops.less_equal(z, 1.0), safe(ops.greater_equal(z, 0.0), z, 0.0), 1.0)


@plain_calls_scipy("stats.beta")
def cdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0
) -> Tensor:
    """The cumulative distribution function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import beta
    >>> beta.cdf(tg.tensor(0.5), 2.0, 1.0).item()  # x ** 2
    0.25
    """
    return valid_scale(betainc(a, b, _z(x, loc, scale)), scale)


@plain_calls_scipy("stats.beta")
def logcdf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0
) -> Tensor:
    """The log of the CDF.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import beta
    >>> beta.logcdf(tg.tensor(1.0), 2.0, 1.0).item()
    0.0
    """
    return ops.log(cdf(x, a, b, loc, scale))


@plain_calls_scipy("stats.beta")
def sf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0
) -> Tensor:
    """The survival function ``1 - cdf``, as ``I_{1-x}(b, a)`` (accurate near 1).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import beta
    >>> beta.sf(tg.tensor(0.5), 2.0, 1.0).item()
    0.75
    """
    return valid_scale(betainc(b, a, 1.0 - _z(x, loc, scale)), scale)


@plain_calls_scipy("stats.beta")
def logsf(
    x: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0.0, scale: ArrayLike = 1.0
) -> Tensor:
    """The log of the survival function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import beta
    >>> beta.logsf(tg.tensor(0.0), 2.0, 1.0).item()
    0.0
    """
    return ops.log(sf(x, a, b, loc, scale))
