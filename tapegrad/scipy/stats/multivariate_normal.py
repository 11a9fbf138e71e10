"""The multivariate normal distribution: ``multivariate_normal.logpdf(x, mean=None, cov=1)``
with gradients in ``x``, ``mean`` and ``cov``, through the Cholesky factor of ``cov``
(tapegrad.scipy.linalg): log N = -(d log 2π + 2 Σ log diag L + |L⁻¹(x - mean)|²) / 2."""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import eye_like
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg import cholesky, solve_triangular

ArrayLike = Any


def _covariance(cov: ArrayLike, dim: int | None) -> Any:
    """``cov`` as a (d, d) matrix: a scalar is ``cov * I``, a vector the diagonal."""
    shape = shape_of(cov)
    if len(shape) == 2:
        return cov
    if len(shape) > 2:
        raise ValueError(f"multivariate_normal: cov must be at most 2-d, got shape {shape}")
    d = shape[0] if shape else (dim or 1)
    eye = ops.eye(d)
    return ops.multiply(eye_like(eye), ops.expand_dims(cov, -1) if shape else cov)


@plain_calls_scipy("stats.multivariate_normal")
def logpdf(
    x: ArrayLike, mean: ArrayLike | None = None, cov: ArrayLike = 1, allow_singular: bool = False
) -> Tensor:
    """The log density of points ``x`` (the last axis holds the ``d`` coordinates; with
    ``d = 1`` a vector holds one point per element), squeezed as SciPy squeezes it.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multivariate_normal
    >>> round(multivariate_normal.logpdf(tg.tensor([0.0, 0.0]), cov=tg.eye(2)).item(), 12)
    -1.837877066409
    """
    if allow_singular:
        raise NotImplementedError("multivariate_normal: allow_singular=True is not supported")
    mean_shape = None if mean is None else shape_of(mean)
    cov = _covariance(cov, mean_shape[-1] if mean_shape else None)
    d = shape_of(cov)[-1]
    x_shape = shape_of(x)
    if len(x_shape) == 0 or (d == 1 and x_shape[-1] != 1):
        x = ops.expand_dims(x, -1)  # SciPy: a scalar, or d = 1 points in a vector
    diff = x if mean is None else ops.subtract(x, mean)
    factor = cholesky(cov, lower=True)
    points = shape_of(diff)[:-1]
    columns = ops.transpose(ops.reshape(diff, (-1, d)))  # (d, points)
    z = solve_triangular(factor, columns, lower=True)
    mahalanobis = ops.reshape(ops.sum(ops.square(z), axis=0), points)
    log_det = 2.0 * ops.sum(ops.log(ops.sum(factor * eye_like(factor), axis=-1)))
    out = -0.5 * (mahalanobis + log_det + d * math.log(2.0 * math.pi))
    squeezed = tuple(i for i, n in enumerate(points) if n == 1)
    return ops.squeeze(out, squeezed) if squeezed else out


@plain_calls_scipy("stats.multivariate_normal")
def pdf(
    x: ArrayLike, mean: ArrayLike | None = None, cov: ArrayLike = 1, allow_singular: bool = False
) -> Tensor:
    """The density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multivariate_normal
    >>> round(multivariate_normal.pdf(tg.tensor([0.0, 0.0]), cov=tg.eye(2)).item(), 12)
    0.159154943092
    """
    return ops.exp(logpdf(x, mean, cov, allow_singular))
