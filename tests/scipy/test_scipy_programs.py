"""Whole programs written the way a scientist writes them with SciPy, only the imports
changed to tapegrad's: a hierarchical Bayesian model's MAP and its sensitivity to a prior,
an ODE model fitted through solve_ivp, and an IIR filter fitted through lfilter. Each
gradient is checked against central differences of the whole program, and each program
against the same program run with plain NumPy and SciPy."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.optimize", reason="the scipy extra is not installed")

import scipy.integrate  # noqa: E402
import scipy.optimize  # noqa: E402
import scipy.signal  # noqa: E402
import scipy.stats  # noqa: E402

import tapegrad as tg  # noqa: E402
import tapegrad.numpy as tnp  # noqa: E402
from tapegrad.scipy import integrate, optimize, signal, stats  # noqa: E402
from tapegrad.testing import gradcheck  # noqa: E402


def central_differences(f, x, h=1e-6):
    """Central differences of the scalar program ``f`` at the flat point ``x``."""
    x = np.asarray(x, dtype=float)
    return np.array([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(x.size)])


# ---------------------------------------------------------------------------------------
# 1. A hierarchical normal model with robust (Student t) errors, non-centred:
#    y_ij ~ t_4(theta_j, sigma), theta_j = mu + tau eta_j, eta_j ~ N(0, 1),
#    mu ~ N(0, mu_scale), tau ~ HalfCauchy(1), sigma ~ Gamma(2, scale=0.5).
#    Unconstrained parameters (mu, log tau, log sigma, eta_1..eta_J).
# ---------------------------------------------------------------------------------------

_rng = np.random.default_rng(0)
GROUPS, PER_GROUP = 6, 8
GROUP = np.repeat(np.arange(GROUPS), PER_GROUP)
Y = 1.0 + 0.7 * _rng.standard_normal(GROUPS)[GROUP] + 0.5 * _rng.standard_t(4, GROUP.size)
MU_SCALE = 1.0


def hierarchical_model(np_, st):
    """The negative log posterior, written once for NumPy/SciPy and for tapegrad."""

    def neg_log_posterior(params, mu_scale=MU_SCALE):
        mu, log_tau, log_sigma, eta = params[0], params[1], params[2], params[3:]
        tau, sigma = np_.exp(log_tau), np_.exp(log_sigma)
        theta = mu + tau * eta
        lp = st.norm.logpdf(mu, 0.0, mu_scale)
        lp = lp + st.halfcauchy.logpdf(tau, scale=1.0) + log_tau  # + log-Jacobian
        lp = lp + st.gamma.logpdf(sigma, 2.0, scale=0.5) + log_sigma
        lp = lp + np_.sum(st.norm.logpdf(eta))
        lp = lp + np_.sum(st.t.logpdf(Y, 4.0, theta[GROUP], sigma))
        return -lp

    return neg_log_posterior


nlp = hierarchical_model(tnp, stats)
nlp_scipy = hierarchical_model(np, scipy.stats)
X0 = np.zeros(3 + GROUPS)
LBFGSB = dict(gtol=1e-12, ftol=0.0, maxiter=2000)


def test_hierarchical_map_matches_scipy_and_finite_differences():
    value_and_grad = tg.value_and_grad(nlp)
    point = np.random.default_rng(3).normal(scale=0.5, size=X0.size)
    value, grad = value_and_grad(point)
    assert isinstance(grad, np.ndarray)
    np.testing.assert_allclose(value, nlp_scipy(point), rtol=1e-13)
    np.testing.assert_allclose(grad, central_differences(nlp_scipy, point), rtol=1e-7, atol=1e-7)

    res = optimize.minimize(value_and_grad, X0, jac=True, method="L-BFGS-B", options=LBFGSB)
    assert res.success and isinstance(res.x, np.ndarray)
    assert np.abs(value_and_grad(res.x)[1]).max() < 1e-5
    # The same program with SciPy's stats and SciPy's finite-difference gradient.
    ref = scipy.optimize.minimize(nlp_scipy, X0, method="L-BFGS-B", options=LBFGSB)
    np.testing.assert_allclose(res.x, ref.x, atol=1e-5)
    np.testing.assert_allclose(res.fun, ref.fun, rtol=1e-10)


def test_hierarchical_map_sensitivity_to_the_prior_scale():
    value_and_grad = tg.value_and_grad(nlp)
    hessian = tg.hessian(nlp)

    def resolved_map(mu_scale):
        """The MAP re-solved to gtol 1e-12: L-BFGS-B stops on the precision of the
        objective near 1e-8, so Newton steps with the exact Hessian finish the solve."""
        x = scipy.optimize.minimize(
            value_and_grad, start, args=(mu_scale,), jac=True, method="L-BFGS-B", options=LBFGSB
        ).x
        for _ in range(5):
            x = x - np.linalg.solve(hessian(x, mu_scale), value_and_grad(x, mu_scale)[1])
        assert np.abs(value_and_grad(x, mu_scale)[1]).max() < 1e-12
        return x

    scale = tg.tensor(MU_SCALE)
    with tg.GradientTape() as tape:
        tape.watch(scale)
        res = optimize.minimize(
            value_and_grad, X0, args=(scale,), jac=True, method="L-BFGS-B", options=LBFGSB
        )
        assert isinstance(res.x, tg.Tensor)
    sensitivity = tape.jacobian(res.x, scale).numpy()

    start = res.x.numpy()
    h = 1e-5
    fd = (resolved_map(MU_SCALE + h) - resolved_map(MU_SCALE - h)) / (2 * h)
    np.testing.assert_allclose(sensitivity, fd, rtol=1e-6, atol=1e-7)
    assert abs(sensitivity[0]) > 0.1  # the prior on mu matters here


# ---------------------------------------------------------------------------------------
# 2. Lotka-Volterra fitted with solve_ivp: prey rates (alpha, beta) through args, predator
#    rates (delta, gamma) through a tg.Variable the right-hand side closes over.
# ---------------------------------------------------------------------------------------

T_OBS = np.linspace(0.0, 10.0, 21)
Z0 = [10.0, 5.0]
TIGHT = dict(rtol=1e-10, atol=1e-12)
TRUE_RATES = np.array([1.0, 0.4, 0.1, 0.4])  # alpha, beta, delta, gamma


def lotka_volterra_np(t, z, alpha, beta, delta, gamma):
    prey, predator = z
    return np.array(
        [alpha * prey - beta * prey * predator, delta * prey * predator - gamma * predator]
    )


def scipy_loss(rates):
    sol = scipy.integrate.solve_ivp(
        lotka_volterra_np, (0.0, 10.0), Z0, t_eval=T_OBS, args=tuple(rates), **TIGHT
    )
    return np.sum((sol.y - OBSERVED) ** 2)


_truth = scipy.integrate.solve_ivp(
    lotka_volterra_np, (0.0, 10.0), Z0, t_eval=T_OBS, args=tuple(TRUE_RATES), **TIGHT
).y
OBSERVED = _truth * (1.0 + 0.05 * np.random.default_rng(1).standard_normal(_truth.shape))


def test_lotka_volterra_gradient_and_fit():
    predator_rates = tg.Variable([0.12, 0.45], name="predator_rates")

    def lotka_volterra(t, z, alpha, beta):
        prey, predator = z[0], z[1]
        delta, gamma = predator_rates[0], predator_rates[1]
        return tnp.stack(
            [alpha * prey - beta * prey * predator, delta * prey * predator - gamma * predator]
        )

    def loss(alpha, beta):
        sol = integrate.solve_ivp(
            lotka_volterra, (0.0, 10.0), Z0, t_eval=T_OBS, args=(alpha, beta), **TIGHT
        )
        return tnp.sum((sol.y - OBSERVED) ** 2)

    def loss_and_gradient(rates):
        predator_rates.assign(rates[2:])
        alpha, beta = tg.tensor(rates[0]), tg.tensor(rates[1])
        with tg.GradientTape() as tape:
            tape.watch([alpha, beta])
            value = loss(alpha, beta)
        grads = tape.gradient(value, [alpha, beta, predator_rates])
        return float(value), np.concatenate([np.ravel(g.numpy()) for g in grads])

    start = np.array([0.9, 0.35, 0.12, 0.45])
    value, grad = loss_and_gradient(start)
    np.testing.assert_allclose(value, scipy_loss(start), rtol=1e-12)
    fd = central_differences(scipy_loss, start)
    np.testing.assert_allclose(grad, fd, rtol=1e-6, atol=1e-6)

    fit = scipy.optimize.minimize(
        loss_and_gradient,
        start,
        jac=True,
        method="L-BFGS-B",
        options=dict(maxiter=8),
        bounds=[(0.5, 1.5), (0.2, 0.6), (0.05, 0.2), (0.2, 0.6)],  # keep the populations finite
    )
    assert fit.fun < 0.5 * value
    assert np.abs(fit.x - TRUE_RATES).max() < np.abs(start - TRUE_RATES).max()
    np.testing.assert_allclose(fit.fun, scipy_loss(fit.x), rtol=1e-10)


# ---------------------------------------------------------------------------------------
# 3. A second-order IIR filter fitted with lfilter to the output of a known filter.
# ---------------------------------------------------------------------------------------

B_TRUE = np.array([0.2, 0.3, 0.1])
A_TRUE = np.array([1.0, -0.5, 0.2])
SIGNAL = np.random.default_rng(2).standard_normal(200)
TARGET = scipy.signal.lfilter(B_TRUE, A_TRUE, SIGNAL)


def filter_loss(b, a_tail, lfilter=signal.lfilter, np_=tnp):
    a = np_.concatenate([np_.ones(1), a_tail])
    return np_.mean((lfilter(b, a, SIGNAL) - TARGET) ** 2)


def test_iir_filter_gradient_and_fit():
    b0, a0 = np.array([0.5, 0.0, 0.0]), np.array([-0.2, 0.05])
    np.testing.assert_allclose(
        filter_loss(tg.tensor(b0), tg.tensor(a0)).numpy(),
        filter_loss(b0, a0, scipy.signal.lfilter, np),
        rtol=1e-13,
    )
    assert gradcheck(filter_loss, [b0, a0], eps=1e-6, atol=1e-8, rtol=1e-6)

    def objective(coefficients):
        return filter_loss(coefficients[:3], coefficients[3:])

    start = np.concatenate([b0, a0])
    value_and_grad = tg.value_and_grad(objective)
    fd = central_differences(lambda c: filter_loss(c[:3], c[3:], scipy.signal.lfilter, np), start)
    np.testing.assert_allclose(value_and_grad(start)[1], fd, rtol=1e-6, atol=1e-9)

    # A few steps of gradient descent lower the loss ...
    coefficients, first = start.copy(), value_and_grad(start)[0]
    for _ in range(20):
        value, grad = value_and_grad(coefficients)
        coefficients = coefficients - 0.5 * grad
    assert value_and_grad(coefficients)[0] < 0.5 * first
    # ... and L-BFGS-B recovers the filter that made the target.
    fit = optimize.minimize(value_and_grad, start, jac=True, method="L-BFGS-B",
                            options=dict(gtol=1e-12, ftol=0.0))  # fmt: skip
    np.testing.assert_allclose(fit.x, np.concatenate([B_TRUE, A_TRUE[1:]]), atol=1e-6)
