"""tg.fixed_point: x = f(x, *params), differentiated implicitly (never unrolled), checked
against finite differences of the re-solved fixed point, against the unrolled iteration, and
to second order."""

import numpy as np
import pytest

import tapegrad as tg

H = 1e-5


def step(x, a, b):
    # a contraction: x -> 0.5 cos(A x) + a * b
    A = tg.tensor([[0.6, -0.2, 0.1], [0.3, 0.5, -0.4], [0.0, 0.2, 0.7]])
    return 0.5 * tg.cos(A @ x) + a * b


A0, B0 = np.array([0.3, -0.2, 0.5]), 1.5


def solve(a, b=B0):
    return tg.fixed_point(step, np.zeros(3), a, b)


def test_plain_in_plain_out():
    x = tg.fixed_point(step, np.zeros(3), A0, B0)
    assert type(x) is np.ndarray
    np.testing.assert_allclose(x, np.asarray(step(tg.tensor(x), A0, B0).numpy()), atol=1e-12)


def test_gradient_matches_finite_differences_and_the_unrolled_iteration():
    got = tg.jacobian(solve)(tg.tensor(A0)).numpy()
    want = np.stack([(solve(A0 + H * e) - solve(A0 - H * e)) / (2 * H) for e in np.eye(3)], -1)
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9)

    def unrolled(a):
        x = tg.zeros(3)
        for _ in range(200):
            x = step(x, a, B0)
        return x

    np.testing.assert_allclose(got, tg.jacobian(unrolled)(tg.tensor(A0)).numpy(), atol=1e-12)


def test_second_order_and_a_scalar_parameter():
    b = tg.tensor(B0)
    g = tg.grad(lambda b: tg.sum(solve(tg.tensor(A0), b) ** 2))
    second = g(b).item()
    want = (g(B0 + H) - g(B0 - H)) / (2 * H)
    hess = tg.grad(g)(b).item()
    np.testing.assert_allclose(hess, want, rtol=1e-6)
    assert np.isfinite(second)


def test_variables_read_from_outside_get_gradients():
    a = tg.Variable(A0)
    with tg.GradientTape() as tape:
        x = tg.fixed_point(lambda x: step(x, a, B0), np.zeros(3))
        total = tg.sum(x)
    got = tape.gradient(total, a).numpy()
    want = [(np.sum(solve(A0 + H * e)) - np.sum(solve(A0 - H * e))) / (2 * H) for e in np.eye(3)]
    np.testing.assert_allclose(got, want, rtol=1e-7)


def test_no_convergence_and_a_degenerate_fixed_point_are_errors():
    with pytest.raises(RuntimeError, match="did not converge"):
        tg.fixed_point(lambda x, c: 2.0 * x + c, 1.0, 1.0, max_iter=50)
    # every point is a fixed point of x -> x + 0 c: none is isolated (I - f' = 0)
    with pytest.raises(np.linalg.LinAlgError, match="condition number"):
        tg.grad(lambda c: tg.fixed_point(lambda x, c: x + 0.0 * c, 0.9, c))(1.0)
