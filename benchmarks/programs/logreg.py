"""Logistic regression fitted by ``scipy.optimize.minimize(method="L-BFGS-B", jac=True)``
with the value and gradient of each system: the whole fit, to convergence, is the
workload (one loss-and-gradient call per L-BFGS evaluation)."""

from __future__ import annotations

from typing import Any

import numpy
import scipy.optimize

ROWS, FEATURES = 5000, 20
TINY = 40
PENALTY = 1e-2


def description(rows: int) -> str:
    return f"logistic regression: {rows} x {FEATURES}, L-BFGS-B fit to convergence"


def inputs(rows: int = ROWS, seed: int = 0) -> tuple[Any, dict[str, Any]]:
    """Zero weights (features and intercept), and labelled rows (labels in {-1, +1})."""
    rng = numpy.random.default_rng(seed)
    X = rng.standard_normal((rows, FEATURES))
    w_true = rng.standard_normal(FEATURES)
    labels = numpy.where(X @ w_true + 0.5 * rng.standard_normal(rows) > 0, 1.0, -1.0)
    return numpy.zeros(FEATURES + 1), {"X": X, "labels": labels}


def loss(np: Any, sp: Any, params: Any, data: dict[str, Any]) -> Any:
    """Mean logistic loss plus an L2 penalty on the weights (not the intercept)."""
    weights, intercept = params[:-1], params[-1]
    margins = data["labels"] * (np.dot(data["X"], weights) + intercept)
    return np.mean(np.logaddexp(0.0, -margins)) + PENALTY * np.sum(weights**2)


def fit(value_and_grad: Any, params: Any) -> Any:
    """L-BFGS-B from ``params`` with ``value_and_grad`` (of NumPy float64 arrays);
    returns the weights and how many evaluations it took."""

    def fun(w: numpy.ndarray) -> tuple[float, numpy.ndarray]:
        value, grad = value_and_grad(w)
        return float(value), numpy.asarray(grad, dtype=numpy.float64)

    start = numpy.asarray(params, dtype=numpy.float64)
    result = scipy.optimize.minimize(fun, start, jac=True, method="L-BFGS-B")
    return result.x, result.nfev
