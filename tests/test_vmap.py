"""tg.vmap against a Python loop of the same calls: values and per-example gradients for
every sample call of tapegrad.testing.numpy_samples (every differentiable NumPy function,
each keyword option), and JAX's semantics of in_axes/out_axes, nesting and composition."""

import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.numpy as tnp
from tapegrad.testing.numpy_samples import SAMPLES, X, Y

XS = np.stack([X + 0.003 * k for k in range(3)])
YS = np.stack([Y - 0.002 * k for k in range(3)])

# Results whose shape follows the values (JAX refuses these under vmap too), and a check
# that raises on a value: each gives a clear error.
REFUSED = {
    "unique[return_counts]", "unique[return_index]", "unique[return_inverse]",
    "unique[axis=1, return_counts]", "intersect1d[return_indices]",
    "intersect1d[assume_unique, return_indices]", "asarray_chkfinite[default]",
}  # fmt: skip


def _loop(f, *args):
    return np.stack([np.asarray(f(*(tg.tensor(a[i]) for a in args))) for i in range(3)])


def _ids(rows):
    return [f"{r.name}[{r.option}]" for r in rows]


@pytest.mark.parametrize("row", SAMPLES, ids=_ids(SAMPLES))
def test_every_sample_under_vmap_equals_the_loop(row):
    label = f"{row.name}[{row.option}]"

    def f(a, b):
        return row.call(tnp, a, b)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expected = _loop(f, XS, YS)
        except (ValueError, TypeError):
            pytest.skip("the call itself refuses these inputs")
        if label in REFUSED:
            with pytest.raises((ValueError, TypeError), match="vmap|example"):
                tg.vmap(f)(XS, YS)
            return
        np.testing.assert_allclose(tg.vmap(f)(XS, YS), expected, rtol=1e-10, atol=1e-12)
        unbatched_y = np.stack([np.asarray(f(tg.tensor(XS[i]), tg.tensor(Y))) for i in range(3)])
        ours = tg.vmap(f, in_axes=(0, None))(XS, Y)
        np.testing.assert_allclose(ours, unbatched_y, rtol=1e-10, atol=1e-12)

        def loss(a, b):
            out = f(a, b)
            return (
                tnp.sum(tnp.real(out) * 1.3 + tnp.imag(out))
                if np.iscomplexobj(out)
                else tnp.sum(out)
            )

        per_example = tg.vmap(tg.grad(loss, argnums=(0, 1)))(XS, YS)
        for k in range(2):
            want = np.stack(
                [
                    np.asarray(tg.grad(loss, argnums=(0, 1))(tg.tensor(XS[i]), tg.tensor(YS[i]))[k])
                    for i in range(3)
                ]
            )
            np.testing.assert_allclose(per_example[k], want, rtol=1e-9, atol=1e-11)


def test_in_axes_out_axes_and_nests():
    xs = np.arange(24.0).reshape(2, 3, 4)
    f = tg.vmap(lambda d: {"s": d["a"] * 2.0, "t": d["b"].sum()}, in_axes=({"a": 1, "b": None},))
    out = f({"a": xs, "b": np.ones(3)})
    np.testing.assert_allclose(out["s"], np.moveaxis(xs, 1, 0) * 2.0)
    np.testing.assert_allclose(out["t"], np.full(3, 3.0))  # unbatched output repeated
    moved = tg.vmap(lambda x: x * x, in_axes=2, out_axes=1)(xs)
    np.testing.assert_allclose(moved, np.moveaxis(xs * xs, 2, 1))
    np.testing.assert_allclose(tg.vmap(lambda x: x.sum(), in_axes=-1)(xs), xs.sum(axis=(0, 1)))
    np.testing.assert_allclose(tg.vmap(lambda: tg.ones(2), axis_size=3)(), np.ones((3, 2)))
    assert isinstance(tg.vmap(tg.sin)(tg.tensor(xs)), tg.Tensor)
    assert type(tg.vmap(tg.sin)(xs)) is np.ndarray  # arrays in, arrays out


def test_nested_vmap_is_an_outer_product_and_closes_over_outer_values():
    a, b = np.arange(3.0), np.arange(4.0) + 1.0
    outer = tg.vmap(lambda x: tg.vmap(lambda y: x * y + tg.sin(x))(b))(a)
    np.testing.assert_allclose(outer, a[:, None] * b[None, :] + np.sin(a)[:, None])
    mats = np.random.default_rng(0).normal(size=(2, 3, 4, 5))
    v = np.random.default_rng(1).normal(size=(5,))
    nested = tg.vmap(tg.vmap(lambda m: m @ v))(mats)
    np.testing.assert_allclose(nested, mats @ v)


def test_grad_through_vmap_and_vmap_of_jacobian():
    w = np.array([0.3, -0.2, 0.5])
    xs = np.random.default_rng(2).normal(size=(6, 3))

    def total(w):
        return tg.sum(tg.vmap(lambda x: tg.tanh(x @ w) ** 2)(xs))

    expected = sum(tg.grad(lambda w, x=x: tg.tanh(x @ w) ** 2)(w) for x in xs)
    np.testing.assert_allclose(tg.grad(total)(w), expected, rtol=1e-12)
    tg.testing.gradcheck(total, [w])
    jac = tg.vmap(tg.jacobian(lambda x: tg.sin(x) * x.sum()))(xs)
    np.testing.assert_allclose(
        jac, np.stack([tg.jacobian(lambda x: tg.sin(x) * x.sum())(x) for x in xs])
    )
    hess = tg.vmap(tg.hessian(lambda x: tg.sum(x**3)))(xs)
    np.testing.assert_allclose(hess, np.stack([np.diag(6 * x) for x in xs]), rtol=1e-12)


def test_a_primitive_without_a_rule_runs_in_a_loop_and_warns_once():
    from tapegrad.transforms.vmap import dispatch

    cube = tg.Primitive("vmap_test_cube", lambda xp, x: x**3).defvjp(lambda g, ans, x: g * 3 * x**2)
    dispatch._warned.discard("vmap_test_cube")
    xs = np.arange(4.0)
    with pytest.warns(UserWarning, match="vmap_test_cube has no batching rule"):
        np.testing.assert_allclose(tg.vmap(cube)(xs), xs**3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_allclose(tg.vmap(tg.grad(cube))(xs), 3 * xs**2)


def test_clear_errors():
    with pytest.raises(ValueError, match="different sizes"):
        tg.vmap(lambda a, b: a + b)(np.ones(3), np.ones(4))
    with pytest.raises(ValueError, match="in_axes has 1 entries"):
        tg.vmap(lambda a, b: a + b, in_axes=(0,))(np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="give axis_size"):
        tg.vmap(lambda a: a, in_axes=None)(np.ones(3))
    with pytest.raises(TypeError, match="inside tg.vmap"):
        tg.vmap(lambda a: float(a))(np.ones(3))
    with pytest.raises(ValueError, match="out_axes is None"):
        tg.vmap(lambda a: a, out_axes=None)(np.ones(3))
    with pytest.raises(ValueError, match="out of range"):
        tg.vmap(lambda a: a, in_axes=1)(np.ones(3))


def test_batch_jacobian_equals_vmap_of_jacobian():
    rng = np.random.default_rng(3)
    w = rng.normal(size=(3, 2, 4))
    x = tg.tensor(rng.normal(size=(5, 3)))
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tg.sin(tg.einsum("bi,ijk->bjk", x, w))  # each example's target is 2 x 4
        unrelated = tg.tensor(np.ones((5, 2))) * 2.0
    ours = tape.batch_jacobian(y, x, experimental_use_pfor=False)
    expected = tg.vmap(tg.jacobian(lambda r: tg.sin(tg.einsum("i,ijk->jk", r, w))))(x.numpy())
    assert ours.shape == (5, 2, 4, 3)
    np.testing.assert_allclose(ours.numpy(), expected, atol=1e-14)
    assert tape.batch_jacobian(unrelated, x) is None
    with pytest.raises(ValueError, match="same first"):
        tape.batch_jacobian(y[:2], x)


def test_complex_values_through_every_vmap_primitive():
    rng = np.random.default_rng(4)
    zs = rng.normal(size=(3, 4)) + 1j * rng.normal(size=(3, 4))
    w = rng.normal(size=4) + 1j * rng.normal(size=4)

    def f(w):  # enter/leave, a shared value's cotangent summed, median's per-example run
        inner = tg.vmap(lambda z: tg.sum(tg.abs(z * w) ** 2) + tnp.median(tg.real(z * w)))(zs)
        return tg.sum(inner)

    tg.testing.gradcheck(f, [w])
    looped = sum(
        tg.grad(lambda w, z=z: tg.sum(tg.abs(z * w) ** 2) + tnp.median(tg.real(z * w)))(w)
        for z in zs
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        np.testing.assert_allclose(tg.grad(f)(w), looped, rtol=1e-12)
