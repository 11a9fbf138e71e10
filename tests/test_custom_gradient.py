"""tapegrad/transforms/custom_gradient.py: user-supplied gradients, first and higher order."""

import numpy as np
import pytest
from hypothesis import given

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


@tg.custom_gradient
def log1pexp(x):
    # TensorFlow's example: the plain gradient exp(x) / (1 + exp(x)) is inf / inf at x = 100.
    e = tg.exp(x)

    def grad_fn(upstream):
        return upstream * (1 - 1 / (1 + e))

    return tg.log(1 + e), grad_fn


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def close(a, b):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-10, atol=1e-12)


def test_the_custom_gradient_is_used_and_stable():
    x = tg.tensor([100.0, 0.5, -3.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    close(np.asarray(y)[1:], np.log1p(np.exp(np.asarray(x)[1:])))
    close(np.asarray(tape.gradient(y, x)), sigmoid(np.asarray(x)))


@given(x=tst.arrays(tst.shapes(max_dims=2, max_side=3)))
def test_a_correct_custom_gradient_passes_gradcheck_and_gradgradcheck(backend, x):
    x = backend.tensor(x)
    gradcheck(log1pexp, [x])
    gradgradcheck(log1pexp, [x])


def test_second_derivative_through_nested_tapes_uses_the_body_intermediates():
    # grad_fn reads e = exp(x) from the body; the outer tape must see e depend on x.
    x = tg.tensor([0.5, -1.0])
    with tg.GradientTape() as outer:
        outer.watch(x)
        with tg.GradientTape() as inner:
            inner.watch(x)
            y = log1pexp(x)
        g = inner.gradient(y, x)
    s = sigmoid(np.asarray(x))
    close(np.asarray(outer.gradient(g, x)), s * (1 - s))
    close(np.asarray(tg.hessian(lambda x: tg.sum(log1pexp(x)))(x)), np.diag(s * (1 - s)))


def test_higher_derivatives_come_from_grad_fn_not_from_the_body():
    @tg.custom_gradient
    def cube(x):
        def grad_fn(upstream):
            return upstream * 30.0 * x**2  # ten times the true derivative, on purpose

        return x**3, grad_fn

    assert float(tg.grad(cube)(2.0)) == 120.0
    assert float(tg.grad(tg.grad(cube))(2.0)) == 120.0
    assert float(tg.grad(tg.grad(tg.grad(cube)))(2.0)) == 60.0


def test_several_inputs_nested_inputs_and_none_gradients():
    calls = []

    @tg.custom_gradient
    def f(params, scale, label):
        def grad_fn(upstream):
            calls.append(1)
            return (
                {"a": upstream * scale * tg.ones(2), "b": None},
                tg.sum(upstream * params["a"]),
                None,
            )

        return tg.sum(params["a"] * scale) + params["b"], grad_fn

    params = {"a": np.array([1.0, 2.0]), "b": 5.0}
    ga, gs = tg.grad(lambda p, s: f(p, s, "not a tensor"), argnums=(0, 1))(params, 3.0)
    close(np.asarray(ga["a"]), [3.0, 3.0])
    assert float(ga["b"]) == 0.0 and float(gs) == 3.0
    assert len(calls) == 1  # one call for all inputs


def test_several_outputs_get_one_cotangent_each():
    @tg.custom_gradient
    def split_product(a, b):
        def grad_fn(d_product, d_sum):
            return d_product * b + d_sum, d_product * a + d_sum

        return (a * b, a + b), grad_fn

    def f(a, b):
        product, total = split_product(a, b)
        return tg.sum(product) + 10 * tg.sum(total)

    ga, gb = tg.grad(f, argnums=(0, 1))(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    close(np.asarray(ga), [13.0, 14.0])
    close(np.asarray(gb), [11.0, 12.0])


def test_jacobian_and_jvp_through_a_custom_gradient():
    x = np.array([0.3, -0.4, 1.2])
    jac = tg.jacobian(log1pexp)(x)
    close(np.asarray(jac), np.diag(sigmoid(x)))
    _, tangent = tg.jvp(log1pexp, (x,), (np.array([1.0, 2.0, 3.0]),))
    close(np.asarray(tangent), sigmoid(x) * [1.0, 2.0, 3.0])


def test_variables_read_by_the_body_need_a_variables_argument():
    w = tg.Variable([2.0, 3.0], name="w")

    @tg.custom_gradient
    def scale(x):
        def grad_fn(upstream, variables=None):
            assert variables == [w]
            return upstream * w, [upstream * x]

        return x * w, grad_fn

    x = tg.tensor([5.0, 7.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.sum(scale(x))
    gx, gw = tape.gradient(y, [x, w])
    close(np.asarray(gx), [2.0, 3.0])
    close(np.asarray(gw), [5.0, 7.0])

    @tg.custom_gradient
    def forgetful(x):
        return x * w, lambda upstream: upstream * w

    with tg.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(TypeError, match=r"reads the trainable Variables \(w\).*variables"):
            forgetful(x)
        assert len(tape) == 0  # the failed call took back what it recorded


def test_without_a_tape_the_function_just_runs():
    y = log1pexp(tg.tensor(0.0))
    assert float(y) == pytest.approx(np.log(2.0))


def test_mistakes_in_grad_fn_are_named():
    @tg.custom_gradient
    def wrong_shape(x):
        return tg.sum(x), lambda upstream: tg.ones(3)

    with pytest.raises(
        ValueError, match=r"wrong_shape: grad_fn returned a gradient of shape \(3,\)"
    ):
        tg.grad(wrong_shape)(np.ones(2))

    @tg.custom_gradient
    def wrong_count(x, y):
        return x * y, lambda upstream: upstream

    with pytest.raises(TypeError, match=r"wrong_count: grad_fn must return one gradient per input"):
        tg.grad(wrong_count)(1.0, 2.0)

    @tg.custom_gradient
    def no_pair(x):
        return x

    with pytest.raises(TypeError, match=r"no_pair: the function must return \(output, grad_fn\)"):
        tg.grad(no_pair)(1.0)

    @tg.custom_gradient
    def mixed(x):
        return (x, tg.astype(x, np.float32)), lambda a, b: a

    with pytest.raises(TypeError, match="share one dtype"):
        tg.grad(lambda x: mixed(x)[0])(1.0)


def test_a_reused_cotangent_array_gives_a_fresh_gradient_each_sweep():
    # grad_fn's results are cached for one sweep only: a refilled seed array is new.
    @tg.custom_gradient
    def double(x):
        return x * 2.0, lambda g: g * 2.0

    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = double(x)
    seed = np.ones(2)
    np.testing.assert_array_equal(
        np.asarray(tape.gradient(y, x, output_gradients=seed)), [2.0, 2.0]
    )
    seed[:] = 5.0
    np.testing.assert_array_equal(
        np.asarray(tape.gradient(y, x, output_gradients=seed)), [10.0, 10.0]
    )
