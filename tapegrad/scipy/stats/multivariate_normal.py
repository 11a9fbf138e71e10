"""The multivariate normal distribution: ``multivariate_normal.logpdf(x, mean=None, cov=1)``
with gradients in ``x``, ``mean`` and ``cov``, through the Cholesky factor of ``cov``
(tapegrad.scipy.linalg): log N = -(d log 2π + 2 Σ log diag L + |L⁻¹(x - mean)|²) / 2.

With ``allow_singular=True`` the covariance may be singular, as in SciPy: its eigenvalues
above SciPy's cutoff (1e6 machine epsilons times the largest) give the pseudo-determinant
and the pseudo-inverse, the rank replaces d, and a point off the support (with a component
outside the span of ``cov``) has log density -inf. ``entropy`` is
(d (1 + log 2π) + log det cov) / 2, the pseudo-determinant and the rank when singular.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import eye_like
from tapegrad.ops.primitive import raw, shape_of
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
    mean_shape = None if mean is None else shape_of(mean)
    cov = _covariance(cov, mean_shape[-1] if mean_shape else None)
    d = shape_of(cov)[-1]
    x_shape = shape_of(x)
    if len(x_shape) == 0 or (d == 1 and x_shape[-1] != 1):
        x = ops.expand_dims(x, -1)  # SciPy: a scalar, or d = 1 points in a vector
    diff = x if mean is None else ops.subtract(x, mean)
    points = shape_of(diff)[:-1]
    columns = ops.transpose(ops.reshape(diff, (-1, d)))  # (d, points)
    if allow_singular:
        basis, values, null, cutoff = _pseudo(cov)
        z = ops.matmul(ops.transpose(basis), columns)  # (rank, points)
        mahalanobis = ops.sum(ops.square(z) / ops.expand_dims(values, -1), axis=0)
        # SciPy's support: no component of x - mean along the null space of cov
        outside = np.linalg.norm(null.T @ np.asarray(raw(columns)), axis=0) >= cutoff
        mahalanobis = ops.reshape(ops.where(outside, math.inf, mahalanobis), points)
        log_det, rank = _pseudo_log_det(values)
        out = -0.5 * (mahalanobis + log_det + rank * math.log(2.0 * math.pi))
    else:
        factor = cholesky(cov, lower=True)
        z = solve_triangular(factor, columns, lower=True)
        mahalanobis = ops.reshape(ops.sum(ops.square(z), axis=0), points)
        log_det = _log_det(factor)
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


def _log_det(factor: Any) -> Any:
    """log det of L Lᴴ from its Cholesky factor L: twice the sum of the logs of its diagonal."""
    return 2.0 * ops.sum(ops.log(ops.sum(factor * eye_like(factor), axis=-1)))


def _pseudo_log_det(values: Any) -> tuple[Any, int]:
    """The log pseudo-determinant and the rank, from the eigenvalues kept by :func:`_pseudo`."""
    return ops.sum(ops.log(values)), shape_of(values)[0]


def _cutoff(values: Any) -> float:
    """SciPy's eigenvalue cutoff for a covariance: 1e6 (1e3 in float32) machine epsilons
    times the largest magnitude."""
    host = np.asarray(raw(values))
    factor = 1e3 if host.dtype == np.float32 else 1e6
    return float(factor * np.finfo(host.dtype).eps * np.max(np.abs(host), initial=0.0))


def _pseudo(cov: Any) -> tuple[Any, Any, np.ndarray, float]:
    """SciPy's pseudo-inverse pieces of a covariance: the eigenvectors with eigenvalues above
    the cutoff and those eigenvalues (differentiable), the other eigenvectors (host values:
    the null space, for the support) and the cutoff."""
    values, vectors = linalg.eigh(cov)
    host = np.asarray(raw(values))
    cutoff = _cutoff(values)
    if float(np.min(host)) < -cutoff:
        raise ValueError("multivariate_normal: the covariance must be positive semidefinite")
    kept, dropped = np.flatnonzero(host > cutoff), np.flatnonzero(host <= cutoff)
    null = np.asarray(raw(vectors))[:, dropped]
    return ops.take(vectors, kept, axis=1), ops.take(values, kept), null, cutoff


@plain_calls_scipy("stats.multivariate_normal")
def entropy(mean: ArrayLike | None = None, cov: ArrayLike = 1) -> Tensor:
    """The differential entropy, ``(d (1 + log 2π) + log det cov) / 2``; a singular ``cov``
    gives its rank and pseudo-determinant, as SciPy. Differentiable in ``cov``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multivariate_normal
    >>> round(multivariate_normal.entropy(cov=tg.eye(2)).item(), 12)
    2.837877066409
    """
    mean_shape = None if mean is None else shape_of(mean)
    cov = _covariance(ops.asarray(cov), mean_shape[-1] if mean_shape else None)
    host = np.linalg.eigvalsh(np.asarray(raw(cov)))
    if float(np.min(host)) > _cutoff(host):  # positive definite: through the Cholesky factor
        factor = cholesky(cov, lower=True)
        log_det = _log_det(factor)
        rank = shape_of(cov)[-1]
    else:
        _, values, _, _ = _pseudo(cov)
        log_det, rank = _pseudo_log_det(values)
    return 0.5 * (rank * (1.0 + math.log(2.0 * math.pi)) + log_det)
