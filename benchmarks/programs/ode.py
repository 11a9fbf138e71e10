"""Fitting an ODE's parameters through ``odeint``: a Lotka-Volterra predator-prey model
solved over 30 observation times, the squared error to noisy observations, and its
gradient in the four rates by each system's adjoint method (tapegrad's and autograd's
around SciPy's LSODA, JAX's around its own Dormand-Prince solver)."""

from __future__ import annotations

import functools
from typing import Any

import numpy

TIMES = 30
TINY = 6
RTOL, ATOL = 1e-7, 1e-9
TRUE_RATES = numpy.array([1.1, 0.4, 0.4, 0.1])


def description(times: int) -> str:
    return f"ODE fit: Lotka-Volterra, {times} times, odeint adjoint (rtol={RTOL:g})"


@functools.cache
def dynamics(np: Any) -> Any:
    """``dy/dt`` for module ``np``, one function object per module (JAX's odeint compiles
    once per function object)."""

    def rates(y: Any, t: Any, theta: Any) -> Any:
        prey, predators = y[0], y[1]
        return np.stack(
            [
                theta[0] * prey - theta[1] * prey * predators,
                theta[3] * prey * predators - theta[2] * predators,
            ]
        )

    return rates


def inputs(times: int = TIMES, seed: int = 0) -> tuple[Any, dict[str, Any]]:
    """Starting rates, and observations of the true system with 5% noise."""
    import scipy.integrate

    rng = numpy.random.default_rng(seed)
    t = numpy.linspace(0.0, 10.0, times)
    y0 = numpy.array([10.0, 5.0])
    truth = scipy.integrate.odeint(dynamics(numpy), y0, t, (TRUE_RATES,), rtol=1e-10, atol=1e-10)
    observed = truth * (1.0 + 0.05 * rng.standard_normal(truth.shape))
    params = numpy.array([1.0, 0.5, 0.5, 0.12])
    return params, {"y0": y0, "t": t, "observed": observed}


def loss(np: Any, sp: Any, params: Any, data: dict[str, Any]) -> Any:
    """Squared error of the solution at the observation times."""
    ys = sp.odeint(dynamics(np), data["y0"], data["t"], params, rtol=RTOL, atol=ATOL)
    return np.sum((ys - data["observed"]) ** 2)
