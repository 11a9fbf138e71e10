"""The Dirichlet distribution: ``dirichlet.logpdf(x, alpha)`` with gradients in ``x`` and
``alpha``. As in SciPy, the components lie along the first axis of ``x`` (``(k,)`` or
``(k, n...)``), and ``k - 1`` components may be given, the last being ``1 - sum``."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special import gammaln, xlogy

ArrayLike = Any


def _components(x: ArrayLike, alpha: ArrayLike) -> Any:
    """``x`` with its last component appended when ``k - 1`` were given, checked as SciPy
    checks it (positive, on the simplex)."""
    k = shape_of(alpha)
    if len(k) != 1:
        raise ValueError(f"dirichlet: alpha must be a vector, got shape {tuple(k)}")
    shape = shape_of(x)
    if not shape or shape[0] not in (k[0], k[0] - 1):
        raise ValueError(
            f"dirichlet: x has shape {tuple(shape)}; its first axis must hold {k[0]} or "
            f"{k[0] - 1} components (alpha has {k[0]})"
        )
    if shape[0] == k[0] - 1:
        rest = 1.0 - ops.sum(x, axis=0, keepdims=True)
        x = ops.concatenate([x, rest], axis=0)
    values = backend.to_host(raw(x) if not isinstance(x, list) else np.asarray(x))
    if np.any(values < 0) or np.any(values > 1):
        raise ValueError("dirichlet: each entry of x must lie in [0, 1]")
    if np.any(np.abs(values.sum(axis=0) - 1.0) > 10e-10):
        raise ValueError("dirichlet: the components of x must sum to 1 (the simplex)")
    return x


@plain_calls_scipy("stats.dirichlet")
def logpdf(x: ArrayLike, alpha: ArrayLike) -> Tensor:
    """The log density: ``Σ (α_i - 1) log x_i - (Σ gammaln(α_i) - gammaln(Σ α_i))``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import dirichlet
    >>> round(dirichlet.logpdf(tg.tensor([0.2, 0.8]), tg.tensor([1.0, 1.0])).item(), 12)
    0.0
    """
    x = _components(x, alpha)
    extra = len(shape_of(x)) - 1  # alpha broadcasts along the first axis of x
    a = ops.reshape(alpha, (-1,) + (1,) * extra)
    normalizer = ops.sum(gammaln(alpha)) - gammaln(ops.sum(alpha))
    return ops.sum(xlogy(ops.subtract(a, 1.0), x), axis=0) - normalizer


@plain_calls_scipy("stats.dirichlet")
def pdf(x: ArrayLike, alpha: ArrayLike) -> Tensor:
    """The density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import dirichlet
    >>> round(dirichlet.pdf(tg.tensor([0.5, 0.5]), tg.tensor([2.0, 2.0])).item(), 12)
    1.5
    """
    return ops.exp(logpdf(x, alpha))
