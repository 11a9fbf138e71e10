"""tapegrad/scipy/integrate/ivp.py: solve_ivp's values against SciPy's, its adjoint
gradients against finite differences of re-solved problems (every method) and the closed
form of exponential decay."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.integrate", reason="the scipy extra is not installed")

import scipy.integrate as si  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy.integrate import solve_ivp  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

METHODS = ["RK45", "RK23", "DOP853", "Radau", "BDF", "LSODA"]
TIGHT = dict(rtol=1e-10, atol=1e-12)
FD = dict(eps=1e-5, atol=1e-6, rtol=1e-5)


def fd(method):
    """gradcheck's settings: LSODA's switches between its stiff and non-stiff methods make
    its re-solved values jump by ~1e-11, so its differences take a longer step."""
    return dict(FD, eps=1e-4) if method == "LSODA" else FD


def linear(t, y, matrix):
    return matrix @ y


def lotka_volterra(t, y, alpha, beta):
    return tg.stack([alpha * y[0] - beta * y[0] * y[1], 0.3 * y[0] * y[1] - 0.4 * y[1]])


@pytest.mark.parametrize("method", METHODS)
def test_values_and_result_match_scipy(method):
    y0, t_eval, args = np.array([1.0, 0.5]), np.array([0.3, 1.0, 2.0]), (1.1, 0.4)
    got = solve_ivp(lotka_volterra, tg.tensor([0.0, 2.0]), tg.tensor(y0), method=method,
                    t_eval=t_eval, args=args, **TIGHT)  # fmt: skip
    expected = si.solve_ivp(
        lambda t, y, a, b: np.asarray(lotka_volterra(t, tg.tensor(y), a, b).numpy()),
        (0.0, 2.0), y0, method=method, t_eval=t_eval, args=args, **TIGHT,
    )  # fmt: skip
    assert isinstance(got.y, tg.Tensor) and got.y.shape == (2, 3)
    np.testing.assert_array_equal(got.y.numpy(), expected.y)
    np.testing.assert_array_equal(got.t, expected.t)
    assert (got.status, got.message, got.nfev, got.success) == (
        expected.status, expected.message, expected.nfev, expected.success,
    )  # fmt: skip


@pytest.mark.parametrize("method", METHODS)
def test_gradients_of_a_linear_system(method):
    def f(y0, matrix, t_eval):
        return solve_ivp(linear, (0.0, 1.2), y0, method=method, t_eval=t_eval,
                         args=(matrix,), **TIGHT).y  # fmt: skip

    matrix = np.array([[-0.5, 1.0], [-1.0, -0.2]])
    gradcheck(f, [[1.0, 0.5], matrix, [0.4, 1.1]], **fd(method))


@pytest.mark.parametrize("method", METHODS)
def test_gradients_of_a_nonlinear_system_in_every_input(method):
    def f(y0, t0, tf, alpha, scale):
        def fun(t, y, alpha):  # closes over ``scale``, a watched Tensor
            return scale * lotka_volterra(t, y, alpha, 0.4) + tg.sin(t) * 0.1

        return solve_ivp(fun, (t0, tf), y0, method=method, args=(alpha,), **TIGHT).y[:, -1]

    gradcheck(f, [[1.0, 0.5], 0.1, 1.3, 1.1, 0.9], **fd(method))


def test_exponential_decay_gradients_have_their_closed_form():
    # y(t) = y0 e^{-k (t - t0)} at the t_eval points
    y0, k, t0, t_eval = tg.tensor([2.0]), tg.tensor(0.7), tg.tensor(0.5), tg.tensor([1.0, 3.0])
    with tg.GradientTape() as tape:
        tape.watch([y0, k, t0, t_eval])
        sol = solve_ivp(lambda t, y, k: -k * y, (t0, 4.0), y0, t_eval=t_eval, args=(k,),
                        method="DOP853", rtol=1e-12, atol=1e-12)  # fmt: skip
        loss = tg.sum(sol.y)
    dy0, dk, dt0, dt = tape.gradient(loss, [y0, k, t0, t_eval])
    dts = t_eval.numpy() - 0.5
    decay = np.exp(-0.7 * dts)
    assert dy0.item() == pytest.approx(decay.sum(), rel=1e-9)
    assert dk.item() == pytest.approx((-2.0 * dts * decay).sum(), rel=1e-9)
    assert dt0.item() == pytest.approx((0.7 * 2.0 * decay).sum(), rel=1e-9)
    np.testing.assert_allclose(dt.numpy(), -0.7 * 2.0 * decay, rtol=1e-9)


def test_the_end_of_t_span_without_t_eval():
    tf = tg.tensor(2.0)
    with tg.GradientTape() as tape:
        tape.watch(tf)
        y = solve_ivp(lambda t, y: -0.5 * y, (0.0, tf), [1.0], **TIGHT).y[0, -1]
    assert tape.gradient(y, tf).item() == pytest.approx(-0.5 * np.exp(-1.0), rel=1e-9)


def test_variables_read_by_fun_are_parameters():
    rate = tg.Variable(0.8, name="rate")
    with tg.GradientTape() as tape:
        y = solve_ivp(lambda t, y: -rate * y, (0.0, 1.5), [1.0, 2.0], **TIGHT).y[:, -1]
        loss = tg.sum(y)
    (d_rate,) = tape.gradient(loss, [rate])
    assert d_rate.item() == pytest.approx(-1.5 * 3.0 * np.exp(-0.8 * 1.5), rel=1e-8)


def test_vectorized_fun():
    matrix = np.array([[-0.5, 1.0], [-1.0, -0.2]])

    def f(y0):
        return solve_ivp(lambda t, y: matrix @ y, (0.0, 1.0), y0, method="Radau",
                         vectorized=True, t_eval=[1.0], **TIGHT).y  # fmt: skip

    gradcheck(f, [[1.0, 0.5]], **FD)


def test_events_stop_the_solve_at_constant_times():
    def hit(t, y, k):
        return y[0] - 0.5

    hit.terminal = True
    k = tg.tensor(0.7)
    with tg.GradientTape() as tape:
        tape.watch(k)
        sol = solve_ivp(lambda t, y, k: -k * y, (0.0, 5.0), [1.0], events=hit, args=(k,),
                        dense_output=True, **TIGHT)  # fmt: skip
        y = sol.y[0, -1]
    expected = si.solve_ivp(lambda t, y, k: -k * y, (0.0, 5.0), [1.0], events=hit, args=(0.7,),
                            **TIGHT)  # fmt: skip
    assert sol.status == 1 and isinstance(sol.t_events[0], np.ndarray)
    np.testing.assert_array_equal(sol.t_events[0], expected.t_events[0])
    assert sol.sol(sol.t[-1]) == pytest.approx(sol.y.numpy()[:, -1])  # SciPy's, plain
    # the event's time t* = ln 2 / k held fixed: dy(t*)/dk = -t* y(t*)
    t_star = float(sol.t[-1])
    assert tape.gradient(y, k).item() == pytest.approx(-t_star * 0.5, rel=1e-8)


def test_plain_calls_are_scipys_own():
    sol = solve_ivp(lambda t, y: -y, (0.0, 1.0), [1.0, 2.0])
    expected = si.solve_ivp(lambda t, y: -y, (0.0, 1.0), [1.0, 2.0])
    assert type(sol.y) is np.ndarray
    np.testing.assert_array_equal(sol.y, expected.y)


def test_tape_size_does_not_grow_with_the_solver_steps():
    lengths = []
    for tol in (1e-4, 1e-12):
        y0 = tg.tensor([1.0, 0.5])
        with tg.GradientTape() as tape:
            tape.watch(y0)
            solve_ivp(lotka_volterra, (0.0, 3.0), y0, args=(1.1, 0.4), t_eval=[1.0, 3.0],
                      rtol=tol, atol=tol)  # fmt: skip
        lengths.append(len(tape))
    assert lengths[0] == lengths[1] <= 6


@pytest.mark.parametrize("method", ["RK45", "Radau", "BDF", "LSODA"])
def test_second_derivatives(method):
    def f(y0, alpha, t_eval):
        return solve_ivp(lotka_volterra, (0.0, 1.2), y0, method=method, t_eval=t_eval,
                         args=(alpha, 0.4), rtol=1e-10, atol=1e-10).y  # fmt: skip

    gradgradcheck(f, [[1.0, 0.5], 1.1, [0.5, 1.1]], eps=1e-4 if method == "LSODA" else 1e-5,
                  atol=1e-5, rtol=1e-4)  # fmt: skip


def test_hessian_in_parameters_and_the_end_of_t_span():
    def loss(params):
        scale = params[1]

        def fun(t, y):  # closes over ``scale``
            return scale * lotka_volterra(t, y, params[0], 0.4)

        sol = solve_ivp(fun, (0.0, params[2]), [1.0, 0.5], method="DOP853", rtol=1e-10,
                        atol=1e-10)  # fmt: skip
        return tg.sum(sol.y[:, -1] ** 2)

    params, eps = np.array([1.1, 0.9, 1.3]), 1e-5
    hessian = tg.hessian(loss)(params)
    gradient = tg.grad(loss)
    differences = np.stack([(gradient(params + eps * e) - gradient(params - eps * e)) / (2 * eps)
                            for e in np.eye(3)])  # fmt: skip
    np.testing.assert_allclose(hessian, differences, rtol=1e-5, atol=1e-6)


def test_complex_states_raise():
    with pytest.raises(NotImplementedError, match="complex"):
        solve_ivp(lambda t, y: -y, (0.0, 1.0), tg.tensor([1.0 + 1.0j]))
    with pytest.raises(ValueError, match="1-dimensional"):
        solve_ivp(lambda t, y: -y, (0.0, 1.0), tg.tensor([[1.0]]))
