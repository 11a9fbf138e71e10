"""A Gaussian process's negative log marginal likelihood and its gradient in the three
kernel hyperparameters: an RBF kernel on N points in 3 dimensions, a Cholesky factor and
two triangular solves (autograd's ``gaussian_process.py`` example, exact)."""

from __future__ import annotations

from typing import Any

import numpy

SIZES = (200, 1000)  # N, the number of training points
TINY = 12


def description(n: int) -> str:
    return f"Gaussian process: RBF marginal likelihood, N={n}, cholesky + 2 solves"


def inputs(n: int = SIZES[0], seed: int = 0) -> tuple[Any, dict[str, Any]]:
    """Log length scale, log signal and log noise, and (X, y) drawn from a smooth function."""
    rng = numpy.random.default_rng(seed)
    X = rng.uniform(-3.0, 3.0, (n, 3))
    y = numpy.sin(X[:, 0]) * numpy.cos(X[:, 1]) + 0.1 * X[:, 2] + 0.1 * rng.standard_normal(n)
    params = numpy.array([0.3, 0.1, -1.5])
    return params, {"X": X, "y": y}


def loss(np: Any, sp: Any, params: Any, data: dict[str, Any]) -> Any:
    """``-log p(y | X, params)`` for a zero-mean GP with an RBF kernel plus noise."""
    X, y = data["X"], data["y"]
    n = X.shape[0]
    length_scale, signal, noise = np.exp(params[0]), np.exp(params[1]), np.exp(params[2])
    sq_norms = np.sum(X**2, axis=1)
    sq_dist = sq_norms[:, None] + sq_norms[None, :] - 2.0 * np.dot(X, X.T)
    K = signal**2 * np.exp(-0.5 * sq_dist / length_scale**2) + (noise**2 + 1e-6) * np.eye(n)
    L = np.linalg.cholesky(K)
    z = sp.linalg.solve_triangular(L, y, lower=True)
    alpha = sp.linalg.solve_triangular(L.T, z, lower=False)
    return 0.5 * np.dot(y, alpha) + np.sum(np.log(np.diag(L))) + 0.5 * n * numpy.log(2.0 * numpy.pi)
