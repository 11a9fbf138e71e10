"""tapegrad/transforms/functional.py through the public API: grad, value_and_grad, vjp, jvp,
jacobian, hessian, hvp, their argument handling, nesting and errors."""

import collections

import numpy as np
import pytest
from hypothesis import given

import tapegrad as tg
from tapegrad.testing import strategies as tst


def sin_x(x):
    return tg.sum(tg.sin(x) * x)


def d_sin_x(x):
    return np.sin(x) + x * np.cos(x)


def d2_sin_x(x):
    return 2 * np.cos(x) - x * np.sin(x)


def close(a, b, **kw):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-10, atol=1e-12, **kw)


# --- grad and value_and_grad --------------------------------------------------------------
@given(x=tst.arrays(tst.shapes(max_dims=2)))
def test_grad_matches_the_derivative(backend, x):
    g = tg.grad(sin_x)(backend.tensor(x))
    assert isinstance(g, tg.Tensor) and g.shape == x.shape and g.dtype == backend.tensor(x).dtype
    close(np.asarray(g), d_sin_x(x))


def test_value_and_grad_returns_value_and_gradient():
    x = np.array([0.3, -1.2])
    value, g = tg.value_and_grad(sin_x)(x)
    close(np.asarray(value), np.sum(np.sin(x) * x))
    close(np.asarray(g), d_sin_x(x))


@pytest.mark.parametrize("argument", [2.0, np.float64(2.0), np.array(2.0), tg.tensor(2.0)])
def test_arguments_may_be_scalars_arrays_or_tensors(argument):
    assert float(tg.grad(lambda x: x**3)(argument)) == pytest.approx(12.0)


def test_float32_gradients_stay_float32():
    g = tg.grad(lambda x: tg.sum(x * x))(np.array([1.0, 2.0], dtype=np.float32))
    assert g.dtype == np.float32


def test_argnums_tuple_gives_a_tuple_and_negative_argnums_count_from_the_end():
    def f(a, b, c):
        return a * b * b + c

    ga, gb = tg.grad(f, argnums=(0, 1))(2.0, 3.0, 5.0)
    assert (float(ga), float(gb)) == (9.0, 12.0)
    assert float(tg.grad(f, argnums=-1)(2.0, 3.0, 5.0)) == 1.0
    assert float(tg.grad(f, argnums=(1,))(2.0, 3.0, 5.0)[0]) == 12.0


def test_gradients_come_back_in_each_arguments_nesting():
    def loss(params, scale):
        return scale * (tg.sum(params["w"] ** 2) + params["b"][0] * params["b"][1][0])

    params = {"w": np.array([1.0, 2.0]), "b": [3.0, (4.0,)]}
    gp, gs = tg.grad(loss, argnums=(0, 1))(params, 2.0)
    assert set(gp) == {"w", "b"} and isinstance(gp["b"], list) and isinstance(gp["b"][1], tuple)
    close(np.asarray(gp["w"]), [4.0, 8.0])
    assert (float(gp["b"][0]), float(gp["b"][1][0]), float(gs)) == (8.0, 6.0, 17.0)


def test_namedtuple_arguments_keep_their_type():
    # JAX treats namedtuples as nests: f sees the namedtuple, and the gradient is one.
    Params = collections.namedtuple("Params", ["w", "b"])

    def loss(p):
        return tg.sum(p.w * p.w) + 3.0 * p.b

    g = tg.grad(loss)(Params(np.array([1.0, 2.0]), 5.0))
    assert isinstance(g, Params)
    close(np.asarray(g.w), [2.0, 4.0])
    assert float(g.b) == 3.0


def test_none_leaves_get_none_and_unconnected_arguments_get_zeros():
    g = tg.grad(lambda p, q: p[0] * 2.0, argnums=(0, 1))([3.0, None], np.ones(3))
    assert float(g[0][0]) == 2.0 and g[0][1] is None
    close(np.asarray(g[1]), np.zeros(3))


def test_keyword_arguments_are_passed_through_and_not_differentiated():
    assert float(tg.grad(lambda x, *, power: x**power)(2.0, power=3.0)) == 12.0


def test_has_aux():
    def f(x):
        return tg.sum(x * x), {"norm": tg.sqrt(tg.sum(x * x))}

    x = np.array([3.0, 4.0])
    (value, aux), g = tg.value_and_grad(f, has_aux=True)(x)
    assert float(value) == 25.0 and float(aux["norm"]) == 5.0
    g2, aux2 = tg.grad(f, has_aux=True)(x)
    close(np.asarray(g2), 2 * x)
    close(np.asarray(g), 2 * x)
    assert float(aux2["norm"]) == 5.0


def test_no_perturbation_confusion():
    # d/dx [x * d/dy (x * y)] = d/dx x**2 = 2x, not 4x: the inner grad sees only y.
    assert float(tg.grad(lambda x: x * tg.grad(lambda y: x * y)(3.0))(2.0)) == 4.0
    x = tg.tensor(2.0)
    assert float(tg.grad(lambda y: x * y)(x)) == 2.0


def test_third_derivatives_by_nesting_grad():
    x = np.array(0.7)
    assert float(tg.grad(tg.grad(tg.grad(lambda x: x**4)))(2.0)) == pytest.approx(48.0)
    d3 = tg.grad(tg.grad(tg.grad(lambda x: tg.sin(x) * x)))(x)
    close(np.asarray(d3), -3 * np.sin(x) - x * np.cos(x))
    d4 = tg.grad(tg.grad(tg.grad(tg.grad(tg.exp))))(x)
    close(np.asarray(d4), np.exp(x))


def test_grad_inside_a_gradient_tape_is_recorded():
    x = tg.tensor([0.5, -1.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        g = tg.grad(sin_x)(x)
    close(np.asarray(tape.gradient(g, x)), d2_sin_x(np.asarray(x)))


def test_gradient_tape_inside_grad():
    def first_derivative_sum(x):
        with tg.GradientTape() as tape:
            tape.watch(x)
            y = sin_x(x)
        return tg.sum(tape.gradient(y, x))

    x = np.array([0.5, -1.0, 2.0])
    close(np.asarray(tg.grad(first_derivative_sum)(x)), d2_sin_x(x))


def test_grad_mixes_with_variables_on_an_outer_tape():
    w = tg.Variable([1.0, 2.0], name="w")
    with tg.GradientTape() as tape:
        g = tg.grad(lambda x: tg.sum(w * x * x))(np.array([3.0, 4.0]))  # 2 w x
        total = tg.sum(g)
    close(np.asarray(g), [6.0, 16.0])
    close(np.asarray(tape.gradient(total, w)), [6.0, 8.0])


# --- grad errors ----------------------------------------------------------------------------
def test_non_scalar_output_raises_type_error_pointing_to_jacobian():
    with pytest.raises(TypeError, match=r"shape \(2,\).*jacobian or tg.vjp"):
        tg.grad(lambda x: x * 2)(np.ones(2))
    with pytest.raises(TypeError, match="has_aux=True"):
        tg.grad(lambda x: (tg.sum(x), x))(np.ones(2))


def test_argnums_out_of_range_raises_value_error():
    with pytest.raises(ValueError, match="argnums 2 is out of range.*2 positional arguments"):
        tg.grad(lambda a, b: a * b, argnums=2)(1.0, 2.0)
    with pytest.raises(ValueError, match="argnums -3"):
        tg.grad(lambda a, b: a * b, argnums=(0, -3))(1.0, 2.0)
    with pytest.raises(TypeError, match="argnums must be an int"):
        tg.grad(lambda a: a, argnums="0")


def test_has_aux_without_a_pair_raises_type_error():
    with pytest.raises(TypeError, match=r"has_aux=True, f must return a pair.*Tensor"):
        tg.grad(lambda x: x * x, has_aux=True)(2.0)
    with pytest.raises(TypeError, match="tuple of length 3"):
        tg.value_and_grad(lambda x: (x, x, x), has_aux=True)(2.0)


def test_integer_arguments_are_differentiated_as_float64_and_integer_outputs_raise():
    # As HIPS autograd: an integer array or int is differentiated as float64.
    assert tg.grad(lambda x: x * 3.0)(2) == 3.0
    g = tg.grad(lambda x: tg.sum(x * x))(np.arange(3))
    assert g.dtype == np.float64 and g.tolist() == [0.0, 2.0, 4.0]
    # An integer Tensor is the caller's own choice of dtype: refused, as tape.watch refuses it.
    with pytest.raises(TypeError, match="argument 0 holds a int64.*write 2.0, not 2"):
        tg.grad(lambda x: x * 1.0)(tg.tensor(2))
    with pytest.raises(TypeError, match="floating-point scalar"):
        tg.grad(lambda x: tg.argmax(x))(np.ones(3))


def test_a_failed_transform_leaves_the_outer_tape_as_it_was():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tg.sum(x * x)
        before = len(tape)
        with pytest.raises(TypeError):
            tg.grad(lambda z: z * x)(x)
        with pytest.raises(ValueError):
            tg.jvp(lambda z: z * x, (x,), (np.ones(3),))
    assert len(tape) == before
    close(np.asarray(tape.gradient(y, x)), [2.0, 4.0])


# --- vjp ----------------------------------------------------------------------------------
def test_vjp_of_several_nested_primals():
    def f(p, s):
        return {"y": p[0] * s, "z": tg.sum(p[1] ** 2)}

    p, s = (np.array([1.0, 2.0]), np.array(3.0)), 0.5
    out, vjp_fn = tg.vjp(f, p, s)
    close(np.asarray(out["y"]), [0.5, 1.0])
    gp, gs = vjp_fn({"y": np.array([1.0, -1.0]), "z": np.array(2.0)})
    assert isinstance(gp, tuple)
    close(np.asarray(gp[0]), [0.5, -0.5])
    assert float(gp[1]) == 12.0 and float(gs) == -1.0
    # vjp_fn can be called again (the tape is kept), with other cotangents
    gp2, _ = vjp_fn({"y": np.zeros(2), "z": 1.0})
    assert float(gp2[1]) == 6.0


def test_vjp_has_aux_and_cotangent_errors():
    out, vjp_fn, aux = tg.vjp(lambda x: (x * 2, "label"), np.ones(2), has_aux=True)
    assert aux == "label"
    with pytest.raises(ValueError, match=r"shape \(3,\) does not match the shape \(2,\)"):
        vjp_fn(np.ones(3))
    with pytest.raises(ValueError, match="structure"):
        vjp_fn([np.ones(2)])
    with pytest.raises(ValueError, match=r"holds None where a value of shape \(2,\)"):
        vjp_fn(None)


def test_vjp_cotangent_tensors_stay_connected():
    x, u = tg.tensor([1.0, 2.0]), tg.tensor([3.0, 5.0])
    with tg.GradientTape() as tape:
        tape.watch(u)
        (g,) = tg.vjp(lambda x: x**2, x)[1](u)
        total = tg.sum(g)
    close(np.asarray(tape.gradient(total, u)), [2.0, 4.0])


# --- jvp ------------------------------------------------------------------------------------
@given(x=tst.arrays(tst.shapes(max_dims=2)), v=tst.st.floats(-2, 2))
def test_jvp_matches_the_derivative(x, v):
    out, tangent = tg.jvp(lambda x: tg.sin(x) * x, (x,), (np.full(x.shape, v),))
    close(np.asarray(out), np.sin(x) * x)
    close(np.asarray(tangent), d_sin_x(x) * v)


def test_jvp_of_nested_inputs_and_outputs():
    def f(p):
        return [p["a"] * p["b"], tg.exp(p["a"])]

    p = {"a": np.array([1.0, 2.0]), "b": 3.0}
    (y, e), (dy, de) = tg.jvp(f, (p,), ({"a": np.array([1.0, 0.0]), "b": 1.0},))
    close(np.asarray(dy), [3.0 + 1.0, 0.0 + 2.0])
    close(np.asarray(de), [np.e, 0.0])


def test_jvp_handles_unconnected_and_integer_outputs():
    out, tangent = tg.jvp(
        lambda x: (x * 0 + 1.0, tg.argmax(x), tg.ones(2)), (np.ones(2),), (np.ones(2),)
    )
    close(np.asarray(tangent[0]), [0.0, 0.0])
    assert tangent[1].dtype == out[1].dtype and tangent[2].shape == (2,)


def test_jvp_nests_inside_grad():
    # d/dx of (d/dt sin(x + t v))|t=0 = d/dx cos(x) v = -sin(x) v
    x = np.array([0.3, 1.1])
    g = tg.grad(lambda x: tg.sum(tg.jvp(tg.sin, (x,), (np.ones(2),))[1]))(x)
    close(np.asarray(g), -np.sin(x))


def test_jvp_argument_errors():
    with pytest.raises(TypeError, match="primals must be a tuple or list"):
        tg.jvp(tg.sin, np.ones(2), (np.ones(2),))
    with pytest.raises(ValueError, match="1 primals but 2 tangents"):
        tg.jvp(tg.sin, (np.ones(2),), (np.ones(2), np.ones(2)))
    with pytest.raises(ValueError, match=r"tangent of argument 0 .*shape \(3,\)"):
        tg.jvp(tg.sin, (np.ones(2),), (np.ones(3),))


# --- jacobian and tape.jacobian -------------------------------------------------------------
def test_jacobian_shape_is_output_then_argument():
    a = np.arange(6.0).reshape(2, 3)
    jac = tg.jacobian(lambda x: tg.matmul(a, x))(np.ones((3, 4)))
    assert jac.shape == (2, 4, 3, 4)
    close(np.asarray(jac), np.einsum("ij,kl->ikjl", a, np.eye(4)))


def test_jacobian_of_nests_and_tuple_argnums():
    def f(x, y):
        return {"s": tg.sum(x) * y, "p": x * y}

    jac = tg.jacobian(f, argnums=(0, 1))(np.array([1.0, 2.0]), 3.0)
    assert isinstance(jac["s"], tuple) and jac["s"][0].shape == (2,) and np.shape(jac["s"][1]) == ()
    close(np.asarray(jac["p"][0]), 3 * np.eye(2))
    close(np.asarray(jac["p"][1]), [1.0, 2.0])
    assert float(jac["s"][1]) == 3.0


def test_jacobian_has_aux():
    jac, aux = tg.jacobian(lambda x: (x * x, 7), has_aux=True)(np.array([1.0, 2.0]))
    assert aux == 7
    close(np.asarray(jac), np.diag([2.0, 4.0]))


def test_tape_jacobian_on_a_persistent_tape():
    x = tg.tensor([1.0, 2.0, 3.0])
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x[:2] * x[1:]
        z = tg.sum(y)
    close(np.asarray(tape.jacobian(y, x)), [[2.0, 1.0, 0.0], [0.0, 3.0, 2.0]])
    close(np.asarray(tape.jacobian(z, x)), [2.0, 4.0, 2.0])
    close(np.asarray(tape.jacobian(x, x)), np.eye(3))
    unwatched = tg.tensor(1.0)
    assert tape.jacobian(y, [x, unwatched])[1] is None
    close(np.asarray(tape.jacobian(y, unwatched, unconnected_gradients="zero")), [0.0, 0.0])
    with pytest.raises(ValueError, match="never watched"):
        tape.jacobian(y, unwatched, unconnected_gradients="raise")


def test_tape_jacobian_on_a_non_persistent_tape_works_once():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x**2
    close(np.asarray(tape.jacobian(y, x)), np.diag([2.0, 4.0]))
    with pytest.raises(RuntimeError, match="only be used once"):
        tape.jacobian(y, x)


def test_tape_jacobian_of_an_empty_target_and_nested_tapes():
    x = tg.tensor([0.5, 1.5])
    with tg.GradientTape() as outer:
        outer.watch(x)
        with tg.GradientTape() as inner:
            inner.watch(x)
            y = tg.sin(x) * x[::-1]
        jac = inner.jacobian(y, x)
        total = tg.sum(jac)
    expected = tg.jacobian(lambda x: tg.sum(tg.jacobian(lambda x: tg.sin(x) * x[::-1])(x)))(x)
    close(np.asarray(outer.gradient(total, x)), np.asarray(expected))
    with tg.GradientTape() as tape:
        tape.watch(x)
        empty = x[:0] * 2
    assert tape.jacobian(empty, x).shape == (0, 2)


# --- hessian and hvp ------------------------------------------------------------------------
def test_hessian_of_a_quadratic_form():
    a = np.array([[1.0, 2.0], [0.5, 3.0]])
    h = tg.hessian(lambda x: x @ (a @ x))(np.array([0.3, -0.2]))
    close(np.asarray(h), a + a.T)


def test_hessian_blocks_for_tuple_argnums():
    (hxx, hxy), (hyx, hyy) = tg.hessian(lambda x, y: tg.sum(x * x * y), argnums=(0, 1))(
        np.array([1.0, 2.0]), 3.0
    )
    close(np.asarray(hxx), 6 * np.eye(2))
    close(np.asarray(hxy), [2.0, 4.0])
    close(np.asarray(hyx), [2.0, 4.0])
    assert float(hyy) == 0.0


def test_hvp_equals_jvp_of_grad_with_several_arguments():
    def f(x, y):
        return tg.sum(tg.sin(x) * y) + tg.sum(x**3) * tg.sum(y)

    primals = (np.array([0.2, 0.7]), np.array([1.5, -0.5]))
    tangents = (np.array([1.0, -2.0]), np.array([0.5, 0.25]))
    g, hv = tg.hvp(f, primals, tangents)
    g_ref, hv_ref = tg.jvp(tg.grad(f), primals, tangents)
    close(np.asarray(g), np.asarray(g_ref))
    close(np.asarray(hv), np.asarray(hv_ref))


def test_hvp_of_an_argument_the_function_ignores():
    g, hv = tg.hvp(lambda x: tg.sum(tg.ones(2)), (np.ones(2),), (np.ones(2),))
    close(np.asarray(g), [0.0, 0.0])
    close(np.asarray(hv), [0.0, 0.0])


# --- stop_gradient --------------------------------------------------------------------------
def test_stop_gradient_cuts_every_transform():
    x = np.array([1.0, 3.0])
    close(np.asarray(tg.grad(lambda x: tg.sum(x * tg.stop_gradient(x)))(x)), x)
    close(np.asarray(tg.jvp(lambda x: x * tg.stop_gradient(x), (x,), (np.ones(2),))[1]), x)
    close(np.asarray(tg.hessian(lambda x: tg.sum(x**2 * tg.stop_gradient(x)))(x)), np.diag(2 * x))


def test_stop_gradient_of_scalars_and_arrays_gives_tensors():
    assert tg.stop_gradient(2.0).shape == () and float(tg.stop_gradient(2.0)) == 2.0
    assert tg.stop_gradient(np.ones((2, 3))).shape == (2, 3)
