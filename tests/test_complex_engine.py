"""Complex numbers through the engine: watching, seeding, transforms, tg.compile, gradcheck.

The convention (docs/complex.md): for a real loss L and z = x + iy the gradient is
dL/dx + i dL/dy. The op rules are checked in tests/ops/test_complex_rules.py.
"""

import doctest
from pathlib import Path

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck

Z = np.array([1 + 2j, -0.5 + 0.25j, 3 - 1j])
W = np.array([0.5 - 1j, 2 + 0.5j, -1j])


def test_gradient_of_squared_modulus(backend):
    z = backend.tensor(Z)
    with tg.GradientTape() as tape:
        tape.watch(z)
        loss = tg.sum(tg.abs(z) ** 2)
    g = tape.gradient(loss, z)
    assert backend.owns(g) and g.dtype == z.dtype
    np.testing.assert_allclose(g.numpy(), 2 * Z)  # d(x^2 + y^2) = 2x + 2iy


def test_complex_variables_are_watched_and_descend():
    w = tg.Variable(Z, name="w")
    with tg.GradientTape() as tape:
        loss = tg.sum(tg.abs(w - W) ** 2)
    assert tape.watched_variables() == (w,)
    g = tape.gradient(loss, w)
    w.assign_sub(0.5 * g)  # z - lr * g descends; lr = 1/2 lands on the minimum
    np.testing.assert_allclose(w.numpy(), W)


def test_output_gradients_of_a_complex_target_chain_the_gradient():
    # For y = f(z) and a real L(y): L's gradient wrt z equals the gradient of y seeded with
    # dL/dy (output_gradients is dL/dy in the same convention).
    z, w = tg.tensor(Z), tg.tensor(W)

    def f(a):
        return tg.exp(a) * w + tg.conj(a) ** 2

    def loss(y):
        return tg.sum(tg.abs(y) ** 2 + tg.real(y * (1 - 2j)))

    with tg.GradientTape() as tape:
        tape.watch(z)
        whole = loss(f(z))
    expected = tape.gradient(whole, z)
    with tg.GradientTape() as tape:
        tape.watch(z)
        y = f(z)
    y_fixed = tg.tensor(y.numpy())
    with tg.GradientTape() as inner:
        inner.watch(y_fixed)
        dl_dy = inner.gradient(loss(y_fixed), y_fixed)
    got = tape.gradient(y, z, output_gradients=dl_dy)
    np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-12)


def test_holomorphic_output_gradients_are_conjugate_derivatives():
    z = tg.tensor(Z)
    u = np.array([1.0, 1j, 2 - 1j])
    with tg.GradientTape() as tape:
        tape.watch(z)
        y = z**3
    g = tape.gradient(y, z, output_gradients=u)
    np.testing.assert_allclose(g.numpy(), u * np.conj(3 * Z**2), rtol=1e-12)


def test_real_targets_need_real_output_gradients():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(TypeError, match=r"output_gradients for a real target .* must be real"):
        tape.gradient(y, x, output_gradients=np.array([1j, 1j]))


def test_jacobian_rows_are_gradients_of_real_targets():
    z = tg.tensor(Z)
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(z)
        r = tg.abs(z) ** 2
        y = z * z
    np.testing.assert_allclose(tape.jacobian(r, z).numpy(), np.diag(2 * Z))
    with pytest.raises(TypeError, match=r"jacobian: the target is complex128 .* tg.real\(y\)"):
        tape.jacobian(y, z)
    np.testing.assert_allclose(tg.jacobian(lambda a: tg.abs(a))(z).numpy(), np.diag(Z / abs(Z)))


def test_grad_and_value_and_grad_take_complex_arguments(backend):
    z, x = backend.tensor(Z), backend.tensor(np.array([0.5, -1.0, 2.0]))

    def f(a, b):
        return tg.sum(tg.abs(a * b) ** 2)  # |a|^2 b^2

    value, (ga, gb) = tg.value_and_grad(f, argnums=(0, 1))(z, x)
    np.testing.assert_allclose(value.numpy(), np.sum(abs(Z) ** 2 * x.numpy() ** 2))
    np.testing.assert_allclose(ga.numpy(), 2 * Z * x.numpy() ** 2)
    assert gb.dtype == x.dtype
    np.testing.assert_allclose(gb.numpy(), 2 * abs(Z) ** 2 * x.numpy())
    assert tg.grad(f)(Z, x.numpy()).dtype == np.complex128  # NumPy array arguments


def test_vjp_and_jvp_of_a_holomorphic_function():
    def f(a):
        return tg.sin(a) * a

    def derivative(a):
        return np.cos(a) * a + np.sin(a)

    out, vjp_fn = tg.vjp(f, tg.tensor(Z))
    (g,) = vjp_fn(tg.tensor(W))
    np.testing.assert_allclose(g.numpy(), W * np.conj(derivative(Z)), rtol=1e-12)
    # jvp: the ordinary (real-linear) directional derivative, f'(z) v
    _, tangent = tg.jvp(f, (tg.tensor(Z),), (tg.tensor(W),))
    np.testing.assert_allclose(tangent.numpy(), derivative(Z) * W, rtol=1e-12)


def test_jvp_of_a_non_holomorphic_function():
    # f(z) = z conj(z) = |z|^2 (real): d f = 2 real(conj(z) dz)
    _, tangent = tg.jvp(lambda a: tg.abs(a) ** 2, (tg.tensor(Z),), (tg.tensor(W),))
    np.testing.assert_allclose(tangent.numpy(), 2 * np.real(np.conj(Z) * W), rtol=1e-12)
    # a real input into a complex output: d exp(i x) = i exp(i x) dx
    x, v = tg.tensor([0.3, -1.0]), tg.tensor([2.0, 0.5])
    _, tangent = tg.jvp(lambda a: tg.exp(a * 1j), (x,), (v,))
    np.testing.assert_allclose(tangent.numpy(), 1j * np.exp(1j * x.numpy()) * v.numpy())


def test_hvp_treats_complex_numbers_as_pairs_of_reals():
    # f = sum |z|^4: grad = 4 |z|^2 z; its derivative along v: 8 real(conj(z) v) z + 4 |z|^2 v
    g, hv = tg.hvp(lambda a: tg.sum(tg.abs(a) ** 4), (tg.tensor(Z),), (tg.tensor(W),))
    np.testing.assert_allclose(g.numpy(), 4 * abs(Z) ** 2 * Z, rtol=1e-12)
    expected = 8 * np.real(np.conj(Z) * W) * Z + 4 * abs(Z) ** 2 * W
    np.testing.assert_allclose(hv.numpy(), expected, rtol=1e-12)


def test_hessian_of_a_complex_argument_says_why_not():
    with pytest.raises(TypeError, match="jacobian: the target is complex128"):
        tg.hessian(lambda a: tg.sum(tg.abs(a) ** 2))(tg.tensor(Z))


def test_nested_tapes_give_second_derivatives():
    # d/dz of the gradient 2 z of |z|^2, seen as a map of pairs of reals: 2 I.
    z = tg.tensor(Z)
    with tg.GradientTape() as outer:
        outer.watch(z)
        with tg.GradientTape() as inner:
            inner.watch(z)
            loss = tg.sum(tg.abs(z) ** 2)
        g = inner.gradient(loss, z)
        second = tg.sum(tg.real(g * np.conj(W)))  # <g, W>
    np.testing.assert_allclose(outer.gradient(second, z).numpy(), 2 * W, rtol=1e-12)


def test_compiled_replays_match_eager_gradients():
    def f(a, b):
        return tg.sum(tg.abs(tg.exp(a) * b - tg.conj(a)) ** 2) + tg.real(tg.sum(a @ b))

    compiled = tg.compile(f)
    z, w = tg.tensor(Z), tg.tensor(W)
    expected = [g.numpy() for g in tg.grad(f, argnums=(0, 1))(z, w)]
    for _ in range(3):  # the recording, then replays
        got = tg.grad(compiled, argnums=(0, 1))(z, w)
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g.numpy(), e, rtol=1e-12)
    gradcheck(compiled, [z, w])
    gradgradcheck(compiled, [z, w])


def test_compiled_functions_refuse_to_differentiate_ordering_on_complex_values():
    compiled = tg.compile(lambda a, b: tg.sum(b * b) + tg.real(tg.max(a)))
    z, x = tg.tensor(Z), tg.tensor([1.0, 2.0])
    compiled(z, x)
    with tg.GradientTape() as tape:
        tape.watch(x)  # max(z) is not on a path from x: fine
        y = compiled(z, x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 4.0])
    with tg.GradientTape() as tape:
        tape.watch(z)
        with pytest.raises(TypeError, match="max: no gradient for complex values"):
            compiled(z, x)
    assert len(tape) == 0


def test_custom_gradient_gets_and_gives_gradients_in_the_convention():
    @tg.custom_gradient
    def square(a):
        def grad_fn(upstream):
            return upstream * tg.conj(2 * a)

        return a * a, grad_fn

    gradcheck(square, [Z])
    x = tg.tensor([0.5, -2.0])
    g = tg.grad(lambda a: tg.sum(tg.real(square(a * (1 + 1j)))))(x)  # real(2i a^2) = 0
    assert g.dtype == np.float64
    np.testing.assert_allclose(g.numpy(), [0.0, 0.0], atol=1e-15)


def test_listing_and_anomaly_detection_see_complex_values():
    z = tg.tensor(Z)
    with tg.GradientTape() as tape:
        tape.watch(z)
        tg.abs(z * 1j)
    assert "complex128" in str(tape) and "abs" in str(tape)
    with tg.detect_anomaly(), tg.GradientTape() as tape:
        tape.watch(z)
        with pytest.raises(FloatingPointError, match="log"):
            tg.log(z * 0)


def _bad_exp(conjugate):
    exp = tg.Primitive("exp_rule_under_test", lambda xp, x: xp.exp(x), complex_rules=True)
    if conjugate:
        return exp.defvjp(lambda g, ans, x: g * tg.conj(ans))
    return exp.defvjp(lambda g, ans, x: g * ans)  # the holomorphic (JAX) convention


def test_gradcheck_checks_both_directions():
    gradcheck(_bad_exp(conjugate=True), [Z])
    gradcheck(_bad_exp(conjugate=False), [Z.real])  # real inputs cannot tell
    with pytest.raises(AssertionError, match="input 0"):
        gradcheck(_bad_exp(conjugate=False), [Z])
    # a rule right in the real direction only
    half = tg.Primitive("half_right", lambda xp, x: xp.exp(x), complex_rules=True).defvjp(
        lambda g, ans, x: tg.real(g * tg.conj(ans)) + 0j
    )
    with pytest.raises(AssertionError, match="finite differences"):
        gradcheck(half, [Z])
    with pytest.raises(AssertionError):
        gradgradcheck(_bad_exp(conjugate=False), [Z])


def test_the_examples_of_docs_complex_md_run():
    path = Path(__file__).resolve().parents[1] / "docs" / "complex.md"
    result = doctest.testfile(str(path), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 10 and result.failed == 0


def test_a_primitive_takes_complex_values_only_when_declared_so():
    cube = tg.Primitive("cube", lambda xp, x: x**3).defvjp(lambda g, ans, x: g * 3 * x**2)
    gradcheck(cube, [Z.real])
    with tg.GradientTape() as tape:
        tape.watch(z := tg.tensor(Z))
        with pytest.raises(NotImplementedError, match="cube: no gradient for complex values"):
            cube(z)
    assert len(tape) == 0
    declared = tg.Primitive("cube", lambda xp, x: x**3, complex_rules=True).defvjp(
        lambda g, ans, x: g * (3 * x**2).conjugate()
    )
    gradcheck(declared, [Z])


def test_compile_differentiates_around_a_stop_gradient_of_complex_values():
    # stop_gradient has no rules (differentiable=False): nothing to refuse on a replay
    def f(z):
        return tg.sum(tg.abs(z * tg.stop_gradient(z)) ** 2)

    z = tg.tensor(np.array([1 + 2j, 0.5 - 1j]))
    compiled = tg.compile(f)
    for _ in range(2):  # the recording run, then a replay
        np.testing.assert_allclose(tg.grad(compiled)(z).numpy(), tg.grad(f)(z).numpy())
