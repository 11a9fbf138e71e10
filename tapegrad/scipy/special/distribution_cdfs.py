"""scipy.special's distribution functions, written in the incomplete gamma and beta
functions as SciPy's own documentation defines them, so their gradients are those
functions' (in ``x`` or ``p`` at every order, in a continuous shape first order):

``bdtr(k, n, p) = I_{1-p}(n - k, k + 1)``, ``bdtrc = I_p(k + 1, n - k)``,
``nbdtr(k, n, p) = I_p(n, k + 1)``, ``nbdtrc = I_{1-p}(k + 1, n)``,
``pdtr(k, m) = Q(k + 1, m)``, ``pdtrc = P(k + 1, m)``, ``chdtr(v, x) = P(v/2, x/2)``,
``chdtrc = Q(v/2, x/2)``, ``gdtr(a, b, x) = P(b, a x)``, ``gdtrc = Q(b, a x)``,
``fdtr(m, n, x) = I_{m x / (n + m x)}(m/2, n/2)``, ``fdtrc = I_{n / (n + m x)}(n/2, m/2)``,
and the inverses ``chdtri(v, p) = 2 Q⁻¹(v/2, p)``, ``fdtri(m, n, p) = n w / (m (1 - w))``
with ``w = I⁻¹_p(m/2, n/2)``. The counts ``k`` (floored, as SciPy's) and ``n`` of the
binomial families have no gradient (LookupError).
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special.incomplete import (
    betainc,
    betaincinv,
    gammainc,
    gammaincc,
    gammainccinv,
)

__all__ = [
    "bdtr", "bdtrc", "chdtr", "chdtrc", "chdtri", "fdtr", "fdtrc", "fdtri", "gdtr", "gdtrc",
    "nbdtr", "nbdtrc", "pdtr", "pdtrc",
]  # fmt: skip

ArrayLike = Any


def _counts(name: str, *counts: tuple[str, Any]) -> None:
    for label, value in counts:
        refuse_gradient(name, label, value, "it counts trials or successes")


@plain_calls_scipy("special")
def bdtr(k: ArrayLike, n: ArrayLike, p: ArrayLike) -> Tensor:
    """The binomial CDF: P(at most ``floor(k)`` successes in ``n`` trials of ``p``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import bdtr
    >>> round(bdtr(1, 2, tg.tensor(0.5)).item(), 12)  # 1 - 1/4
    0.75
    """
    _counts("bdtr", ("k", k), ("n", n))
    k = ops.floor(ops.asarray(k))
    return betainc(ops.subtract(n, k), k + 1.0, ops.subtract(1.0, p))


@plain_calls_scipy("special")
def bdtrc(k: ArrayLike, n: ArrayLike, p: ArrayLike) -> Tensor:
    """The binomial survival function: P(more than ``floor(k)`` successes).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import bdtrc
    >>> round(bdtrc(1, 2, tg.tensor(0.5)).item(), 12)
    0.25
    """
    _counts("bdtrc", ("k", k), ("n", n))
    k = ops.floor(ops.asarray(k))
    return betainc(k + 1.0, ops.subtract(n, k), p)


@plain_calls_scipy("special")
def nbdtr(k: ArrayLike, n: ArrayLike, p: ArrayLike) -> Tensor:
    """The negative binomial CDF: P(at most ``k`` failures before the ``n``-th success).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import nbdtr
    >>> round(nbdtr(0, 1, tg.tensor(0.25)).item(), 12)  # the first trial succeeds
    0.25
    """
    _counts("nbdtr", ("k", k), ("n", n))
    return betainc(n, ops.floor(ops.asarray(k)) + 1.0, p)


@plain_calls_scipy("special")
def nbdtrc(k: ArrayLike, n: ArrayLike, p: ArrayLike) -> Tensor:
    """The negative binomial survival function: P(more than ``k`` failures).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import nbdtrc
    >>> round(nbdtrc(0, 1, tg.tensor(0.25)).item(), 12)
    0.75
    """
    _counts("nbdtrc", ("k", k), ("n", n))
    return betainc(ops.floor(ops.asarray(k)) + 1.0, n, ops.subtract(1.0, p))


@plain_calls_scipy("special")
def pdtr(k: ArrayLike, m: ArrayLike) -> Tensor:
    """The Poisson CDF: P(at most ``floor(k)`` events at mean ``m``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import pdtr
    >>> round(pdtr(0, tg.tensor(1.0)).item(), 12)  # exp(-1)
    0.367879441171
    """
    _counts("pdtr", ("k", k))
    return gammaincc(ops.floor(ops.asarray(k)) + 1.0, m)


@plain_calls_scipy("special")
def pdtrc(k: ArrayLike, m: ArrayLike) -> Tensor:
    """The Poisson survival function: P(more than ``floor(k)`` events at mean ``m``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import pdtrc
    >>> round(pdtrc(0, tg.tensor(1.0)).item(), 12)
    0.632120558829
    """
    _counts("pdtrc", ("k", k))
    return gammainc(ops.floor(ops.asarray(k)) + 1.0, m)


@plain_calls_scipy("special")
def chdtr(v: ArrayLike, x: ArrayLike) -> Tensor:
    """The chi-square CDF with ``v`` degrees of freedom at ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import chdtr
    >>> round(chdtr(2, tg.tensor(2.0)).item(), 12)  # 1 - exp(-1)
    0.632120558829
    """
    return gammainc(ops.multiply(v, 0.5), ops.multiply(x, 0.5))


@plain_calls_scipy("special")
def chdtrc(v: ArrayLike, x: ArrayLike) -> Tensor:
    """The chi-square survival function with ``v`` degrees of freedom at ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import chdtrc
    >>> round(chdtrc(2, tg.tensor(2.0)).item(), 12)
    0.367879441171
    """
    return gammaincc(ops.multiply(v, 0.5), ops.multiply(x, 0.5))


@plain_calls_scipy("special")
def chdtri(v: ArrayLike, p: ArrayLike) -> Tensor:
    """The inverse of :func:`chdtrc` in ``x``: ``chdtrc(v, chdtri(v, p)) = p``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import chdtri
    >>> round(chdtri(2, tg.tensor(0.5)).item(), 12)  # 2 log 2
    1.38629436112
    """
    return ops.multiply(gammainccinv(ops.multiply(v, 0.5), p), 2.0)


@plain_calls_scipy("special")
def gdtr(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Tensor:
    """The gamma CDF of rate ``a`` and shape ``b`` at ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import gdtr
    >>> round(gdtr(1.0, 1.0, tg.tensor(1.0)).item(), 12)  # 1 - exp(-1)
    0.632120558829
    """
    return gammainc(b, ops.multiply(a, x))


@plain_calls_scipy("special")
def gdtrc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Tensor:
    """The gamma survival function of rate ``a`` and shape ``b`` at ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import gdtrc
    >>> round(gdtrc(1.0, 1.0, tg.tensor(1.0)).item(), 12)
    0.367879441171
    """
    return gammaincc(b, ops.multiply(a, x))


def _f_point(dfn: Any, dfd: Any, x: Any) -> Any:
    return ops.divide(ops.multiply(dfn, x), ops.add(dfd, ops.multiply(dfn, x)))


@plain_calls_scipy("special")
def fdtr(dfn: ArrayLike, dfd: ArrayLike, x: ArrayLike) -> Tensor:
    """The F distribution's CDF with ``dfn`` and ``dfd`` degrees of freedom at ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import fdtr
    >>> round(fdtr(2.0, 2.0, tg.tensor(1.0)).item(), 12)  # x / (1 + x)
    0.5
    """
    return betainc(ops.multiply(dfn, 0.5), ops.multiply(dfd, 0.5), _f_point(dfn, dfd, x))


@plain_calls_scipy("special")
def fdtrc(dfn: ArrayLike, dfd: ArrayLike, x: ArrayLike) -> Tensor:
    """The F distribution's survival function with ``dfn`` and ``dfd`` degrees of freedom.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import fdtrc
    >>> round(fdtrc(2.0, 2.0, tg.tensor(3.0)).item(), 12)  # 1 / (1 + x)
    0.25
    """
    point = ops.divide(dfd, ops.add(dfd, ops.multiply(dfn, x)))
    return betainc(ops.multiply(dfd, 0.5), ops.multiply(dfn, 0.5), point)


@plain_calls_scipy("special")
def fdtri(dfn: ArrayLike, dfd: ArrayLike, p: ArrayLike) -> Tensor:
    """The inverse of :func:`fdtr` in ``x``: ``fdtr(dfn, dfd, fdtri(dfn, dfd, p)) = p``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import fdtri
    >>> round(fdtri(2.0, 2.0, tg.tensor(0.5)).item(), 12)
    1.0
    """
    w = betaincinv(ops.multiply(dfn, 0.5), ops.multiply(dfd, 0.5), p)
    return ops.divide(ops.multiply(dfd, w), ops.multiply(dfn, ops.subtract(1.0, w)))
