"""tapegrad/scipy/integrate: odeint's values against SciPy, its adjoint gradients against
finite differences and closed forms."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.integrate", reason="the scipy extra is not installed")

import scipy.integrate as si  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.core import hooks  # noqa: E402
from tapegrad.scipy.integrate import odeint  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

TIGHT = dict(rtol=1e-12, atol=1e-12)


def lotka_volterra(y, t, alpha, beta, gamma, delta):
    prey, predator = y[0], y[1]
    return [alpha * prey - beta * prey * predator, delta * prey * predator - gamma * predator]


def forced_oscillator(y, t, damping):  # time-dependent: d/dt depends on t
    return tg.stack([y[1], -damping * y[1] - y[0] + tg.sin(2.0 * t)])


def test_values_match_scipy():
    y0, t, args = np.array([1.0, 0.5]), np.linspace(0.0, 3.0, 7), (1.1, 0.4, 0.4, 0.1)
    got = odeint(lotka_volterra, tg.tensor(y0), tg.tensor(t), args, **TIGHT)
    expected = si.odeint(lambda y, t: np.array(lotka_volterra(y, t, *args)), y0, t, **TIGHT)
    assert got.shape == (7, 2)
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-9)


def test_exponential_decay_gradients_have_their_closed_form():
    # y(t) = y0 e^{-k (t - t0)}
    y0, k, t = tg.tensor([2.0]), tg.tensor(0.7), tg.tensor([0.5, 1.0, 3.0])
    with tg.GradientTape() as tape:
        tape.watch([y0, k, t])
        loss = tg.sum(odeint(lambda y, s, k: -k * y, y0, t, (k,), **TIGHT))
    dy0, dk, dt = tape.gradient(loss, [y0, k, t])
    ts = t.numpy()
    decay = np.exp(-0.7 * (ts - ts[0]))
    assert dy0.item() == pytest.approx(decay.sum(), rel=1e-9)
    assert dk.item() == pytest.approx((-2.0 * (ts - ts[0]) * decay).sum(), rel=1e-9)
    expected_dt = -0.7 * 2.0 * decay
    expected_dt[0] = -expected_dt[1:].sum()  # moving t0 shifts every later value
    np.testing.assert_allclose(dt.numpy(), expected_dt, rtol=1e-9)


@settings(max_examples=5)
@given(
    y0=st.tuples(st.floats(0.5, 2.0), st.floats(0.2, 1.0)),
    params=st.tuples(*[st.floats(0.2, 1.2)] * 4),
    times=st.integers(1, 4),
)
def test_gradients_in_initial_state_times_and_parameters(y0, params, times):
    t = np.linspace(0.0, 1.5, times + 1)[1:] if times > 1 else np.array([0.3])
    t = np.concatenate([[0.1], t])

    def f(y0, t, *params):
        return odeint(lotka_volterra, y0, t, params, **TIGHT)

    gradcheck(f, [np.array(y0), t, *params], eps=1e-5, atol=1e-6, rtol=1e-5)


def test_gradients_of_a_time_dependent_system():
    def f(y0, t, damping):
        return odeint(forced_oscillator, y0, t, (damping,), **TIGHT)

    gradcheck(f, [[1.0, 0.0], [0.0, 0.7, 2.0, 2.5], 0.3], eps=1e-5, atol=1e-6, rtol=1e-5)


def test_variables_read_by_func_are_parameters():
    rate = tg.Variable(0.8, name="rate")

    def decay(y, t):
        return -rate * y

    with tg.GradientTape() as tape:
        y = odeint(decay, [1.0, 2.0], [0.0, 1.5], **TIGHT)[-1]
        loss = tg.sum(y)
    (d_rate,) = tape.gradient(loss, [rate])
    assert d_rate.item() == pytest.approx(-1.5 * 3.0 * np.exp(-0.8 * 1.5), rel=1e-9)


def test_multidimensional_state_and_tfirst():
    y0 = np.array([[1.0, 2.0], [0.5, -1.0]])
    matrix = tg.tensor([[0.0, 1.0], [-1.0, -0.2]])

    def f(y0, matrix):
        return odeint(lambda s, y: matrix @ y, y0, [0.0, 0.5, 1.0], tfirst=True, **TIGHT)

    assert f(y0, matrix).shape == (3, 2, 2)
    gradcheck(f, [y0, matrix], eps=1e-5, atol=1e-6, rtol=1e-5)


def test_tape_size_does_not_grow_with_the_solver_steps():
    lengths = []
    for tol in (1e-4, 1e-12):
        y0 = tg.tensor([1.0, 0.5])
        with tg.GradientTape() as tape:
            tape.watch(y0)
            odeint(
                lotka_volterra, y0, np.linspace(0, 5, 4), (1.1, 0.4, 0.4, 0.1), rtol=tol, atol=tol
            )
        lengths.append(len(tape))
    assert lengths[0] == lengths[1] <= 4  # reshape, concatenate, odeint: no per-step entries


def test_hessian_in_initial_state_matches_differences_of_the_gradient():
    tight = dict(rtol=1e-10, atol=1e-10)

    def loss(y0, alpha):
        ys = odeint(lotka_volterra, y0, [0.0, 0.5, 1.0], (alpha, 0.4, 0.4, 0.1), **tight)
        return tg.sum(ys**2)

    y0, eps = np.array([1.0, 0.5]), 1e-5
    hessian = tg.hessian(loss, argnums=(0, 1))(y0, 1.1)
    gradient = tg.grad(loss, argnums=(0, 1))
    for k, step in enumerate([np.eye(2)[0], np.eye(2)[1]]):
        plus, minus = gradient(y0 + eps * step, 1.1), gradient(y0 - eps * step, 1.1)
        np.testing.assert_allclose(hessian[0][0][:, k], (plus[0] - minus[0]) / (2 * eps),
                                   rtol=1e-6, atol=1e-6)  # fmt: skip
    plus, minus = gradient(y0, 1.1 + eps), gradient(y0, 1.1 - eps)
    assert hessian[1][1] == pytest.approx((plus[1] - minus[1]) / (2 * eps), rel=1e-6)
    np.testing.assert_allclose(hessian[0][1], (plus[0] - minus[0]) / (2 * eps), rtol=1e-6)


def test_second_derivatives_in_times_parameters_and_closed_over_tensors():
    tight = dict(rtol=1e-10, atol=1e-10)

    def f(y0, t, damping, scale):
        return odeint(lambda y, s, c: scale * forced_oscillator(y, s, c), y0, t, (damping,),
                      **tight)  # fmt: skip

    gradgradcheck(f, [[1.0, 0.0], [0.0, 0.7, 1.2], 0.3, 0.9], eps=1e-5, atol=1e-6, rtol=1e-5)


def test_third_derivative_of_exponential_decay():
    # y(1) = e^{-k}: d³/dk³ = -e^{-k}
    def y_end(k):
        return odeint(lambda y, t, k: -k * y, [1.0], [0.0, 1.0], (k,), rtol=1e-11, atol=1e-11)[1, 0]

    assert tg.grad(tg.grad(tg.grad(y_end)))(0.5) == pytest.approx(-np.exp(-0.5), rel=1e-6)


def test_solver_failure_and_unsupported_options_are_errors():
    with pytest.raises(RuntimeError, match="odeint: SciPy's solver failed"):
        odeint(lambda y, t: y * y, [1.0], [0.0, 2.0], mxstep=5)
    with pytest.raises(NotImplementedError, match="Dfun"):
        odeint(lambda y, t: -y, [1.0], [0.0, 1.0], Dfun=lambda y, t: -1.0)


def _gradients(func, y0, t, args):
    y0, args = tg.tensor(y0), [tg.tensor(a) for a in args]
    with tg.GradientTape() as tape:
        tape.watch([y0, *args])
        loss = tg.sum(odeint(func, y0, t, tuple(args), rtol=1e-10, atol=1e-10) ** 2)
    return [g.numpy() for g in tape.gradient(loss, [y0, *args])]


@pytest.mark.parametrize("func", [lotka_volterra, forced_oscillator])
def test_the_replayed_adjoint_gives_the_tapes_gradient(func, monkeypatch):
    args = (1.1, 0.4, 0.4, 0.1) if func is lotka_volterra else (0.3,)
    t = np.linspace(0.0, 2.0, 6)
    replayed = _gradients(func, [1.0, 0.5], t, args)
    monkeypatch.setattr(hooks, "replayed_vjp", None)  # every VJP on a tape, as before
    taped = _gradients(func, [1.0, 0.5], t, args)
    for a, b in zip(replayed, taped):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)


def test_func_runs_once_and_is_replayed_at_every_solver_step():
    calls = []

    def counted(y, t, k):
        calls.append(t)
        return -k * y

    _gradients(counted, [1.0, 2.0], [0.0, 0.5, 1.0], [0.7])
    assert len(calls) <= 2  # the recording (and the probe for captured Tensors)


@pytest.mark.filterwarnings("ignore:a watched Tensor")  # float(y[0]): the branch's test
def test_data_dependent_dynamics_fall_back_to_the_tape(monkeypatch):
    # The law changes (continuously) when y falls below 0.5: a guard the replay fails
    # mid-solve, so the rest of the solve differentiates on tapes.
    def switching(y, t, k):
        return -k * y if float(y[0]) > 0.5 else -2.0 * k * y * y

    def f(y0, k):
        return odeint(switching, y0, [0.0, 0.4, 1.5], (k,), **TIGHT)

    gradcheck(f, [[1.0], 0.9], eps=1e-6, atol=1e-6, rtol=1e-5)
    replayed = _gradients(switching, [1.0], [0.0, 0.4, 1.5], [0.9])
    monkeypatch.setattr(hooks, "replayed_vjp", None)
    taped = _gradients(switching, [1.0], [0.0, 0.4, 1.5], [0.9])
    for a, b in zip(replayed, taped):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
