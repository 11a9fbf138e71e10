"""SciPy's multivariate distributions of counts, their log masses composed of recorded ops:

- ``multinomial``: ``logpmf``/``pmf`` in ``p`` (the counts ``x`` and ``n``: LookupError),
  ``mean``/``cov`` in ``p``; ``entropy`` is SciPy's (plain arrays);
- ``dirichlet_multinomial``: ``logpmf``/``pmf``/``mean`` in ``alpha``;
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special import gammaln, xlogy
from tapegrad.scipy.stats._multivariate import (
    ArrayLike,
    _host,
    _published,
)

# --- multinomial --------------------------------------------------------------------------


def _multinomial_p(n: Any, p: Any) -> tuple[Any, np.ndarray]:
    """SciPy's reading of ``p``: the last entry ``1 - Σ others`` where a row does not sum
    to 1 within 10 eps; the mask of bad ``n`` or ``p``."""
    p = ops.asarray(p, dtype="float64")
    host = _host(p)
    eps = np.finfo(np.float64).eps * 10
    adjusted = np.abs(1.0 - host.sum(axis=-1)) > eps
    if np.any(adjusted):
        rest = 1.0 - ops.sum(p[..., :-1], axis=-1, keepdims=True)
        fixed = ops.concatenate([p[..., :-1], rest], axis=-1)
        p = ops.where(np.expand_dims(adjusted, -1), fixed, p)
        host = _host(p)
    bad = np.any(host < 0, axis=-1) | np.any(host > 1, axis=-1) | (np.asarray(_host(n)) < 0)
    return p, bad


@plain_calls_scipy("stats.multinomial")
def logpmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Tensor:
    """The log mass ``gammaln(n+1) + Σ (x log p - gammaln(x+1))``, differentiable in ``p``
    (``x`` and ``n`` are counts: LookupError when differentiated); -inf where the counts are
    not nonnegative integers summing to ``n``, NaN for an invalid ``n`` or ``p``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multinomial
    >>> round(multinomial.pmf([1, 1], 2, tg.tensor([0.5, 0.5])).item(), 12)
    0.5
    """
    refuse_gradient("multinomial.logpmf", "x", x, "it counts")
    refuse_gradient("multinomial.logpmf", "n", n, "it counts")
    p, bad = _multinomial_p(n, p)
    xs, ns = _host(x).astype(float), _host(n)
    if xs.ndim == 0:
        raise ValueError("multinomial.logpmf: x must be an array.")
    if xs.size and xs.shape[-1] != shape_of(p)[-1]:
        raise ValueError(
            f"multinomial.logpmf: size of each quantile should be size of p: received "
            f"{xs.shape[-1]}, but expected {shape_of(p)[-1]}."
        )
    counts = xs.astype(int)
    outside = np.any(counts != xs, axis=-1) | np.any(counts < 0, axis=-1)
    outside = outside | (counts.sum(axis=-1) != ns.astype(int))
    counts_f = counts.astype(float)
    value = ops.add(
        gammaln(ns.astype(int) + 1.0),
        ops.sum(ops.subtract(xlogy(counts_f, p), gammaln(counts_f + 1.0)), axis=-1),
    )
    value = ops.where(outside, -math.inf, value)
    return ops.where(bad, math.nan, value)


@plain_calls_scipy("stats.multinomial")
def pmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Tensor:
    """The mass.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multinomial
    >>> round(multinomial.pmf([2, 0], 2, tg.tensor([0.5, 0.5])).item(), 12)
    0.25
    """
    return ops.exp(logpmf(x, n, p))


@plain_calls_scipy("stats.multinomial")
def mean(n: ArrayLike, p: ArrayLike) -> Tensor:
    """``n p``, differentiable in ``p``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multinomial
    >>> multinomial.mean(4, tg.tensor([0.25, 0.75])).tolist()
    [1.0, 3.0]
    """
    refuse_gradient("multinomial.mean", "n", n, "it counts")
    p, bad = _multinomial_p(n, p)
    ns = _host(n).astype(int).astype(float)
    value = ops.multiply(np.expand_dims(ns, -1), p)
    return ops.where(np.expand_dims(bad, -1), math.nan, value)


@plain_calls_scipy("stats.multinomial")
def cov(n: ArrayLike, p: ArrayLike) -> Tensor:
    """``n (diag p - p pᵀ)``, differentiable in ``p``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multinomial
    >>> multinomial.cov(4, tg.tensor([0.5, 0.5])).tolist()
    [[1.0, -1.0], [-1.0, 1.0]]
    """
    refuse_gradient("multinomial.cov", "n", n, "it counts")
    p, bad = _multinomial_p(n, p)
    nn = np.expand_dims(_host(n).astype(int).astype(float), (-1, -2))
    outer = ops.multiply(ops.expand_dims(p, -1), ops.expand_dims(p, -2))
    k = shape_of(p)[-1]
    diagonal = ops.multiply(ops.expand_dims(p, -1), np.eye(k))
    value = ops.multiply(nn, ops.subtract(diagonal, outer))
    return ops.where(np.expand_dims(bad, (-1, -2)), math.nan, value)


MULTINOMIAL = {"logpmf": logpmf, "pmf": pmf, "mean": mean, "cov": cov}


# --- dirichlet_multinomial ----------------------------------------------------------------


def _dm_check(alpha: Any, n: Any, x: Any = None) -> None:
    if np.any(_host(alpha) <= 0):
        raise ValueError("dirichlet_multinomial: `alpha` must contain only positive values.")
    ns = _host(n)
    if np.any(ns < 0) or np.any(ns != np.floor(ns)):
        raise ValueError("dirichlet_multinomial: `n` must be a non-negative integer.")
    if x is not None:
        xs = _host(x)
        if np.any(xs < 0) or np.any(xs != np.floor(xs)):
            raise ValueError("dirichlet_multinomial: `x` must contain only non-negative integers.")


def _dm_logpmf(x: ArrayLike, alpha: ArrayLike, n: ArrayLike) -> Tensor:
    """The log mass of the Dirichlet-multinomial, differentiable in ``alpha`` (``x`` and
    ``n`` count: LookupError).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import dirichlet_multinomial
    >>> round(dirichlet_multinomial.pmf([1, 1], tg.tensor([1.0, 1.0]), 2).item(), 12)
    0.333333333333
    """
    refuse_gradient("dirichlet_multinomial.logpmf", "x", x, "it counts")
    refuse_gradient("dirichlet_multinomial.logpmf", "n", n, "it counts")
    _dm_check(alpha, n, x)
    alpha = ops.asarray(alpha, dtype="float64")
    xs, ns = np.floor(_host(x)).astype(float), np.floor(_host(n)).astype(float)
    xs = np.broadcast_to(xs, np.broadcast_shapes(xs.shape, tuple(shape_of(alpha))))
    total = ops.sum(alpha, axis=-1)
    out = ops.subtract(ops.add(gammaln(total), gammaln(ns + 1.0)), gammaln(ops.add(total, ns)))
    terms = ops.subtract(gammaln(ops.add(xs, alpha)), ops.add(gammaln(alpha), gammaln(xs + 1.0)))
    out = ops.add(out, ops.sum(terms, axis=-1))
    return ops.where(ns != xs.sum(axis=-1), -math.inf, out)


def _dm_pmf(x: ArrayLike, alpha: ArrayLike, n: ArrayLike) -> Tensor:
    """The mass.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import dirichlet_multinomial
    >>> round(dirichlet_multinomial.pmf([2, 0], tg.tensor([1.0, 1.0]), 2).item(), 12)
    0.333333333333
    """
    return ops.exp(_dm_logpmf(x, alpha, n))


def _dm_mean(alpha: ArrayLike, n: ArrayLike) -> Tensor:
    """``n α / Σ α``, differentiable in ``alpha``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import dirichlet_multinomial
    >>> dirichlet_multinomial.mean(tg.tensor([1.0, 3.0]), 4).tolist()
    [1.0, 3.0]
    """
    refuse_gradient("dirichlet_multinomial.mean", "n", n, "it counts")
    _dm_check(alpha, n)
    alpha = ops.asarray(alpha, dtype="float64")
    ns = np.expand_dims(np.floor(_host(n)).astype(float), -1)
    return ops.multiply(ns, ops.divide(alpha, ops.sum(alpha, axis=-1, keepdims=True)))


DIRICHLET_MULTINOMIAL = {
    "logpmf": _published("stats.dirichlet_multinomial", "logpmf", _dm_logpmf),
    "pmf": _published("stats.dirichlet_multinomial", "pmf", _dm_pmf),
    "mean": _published("stats.dirichlet_multinomial", "mean", _dm_mean),
}
