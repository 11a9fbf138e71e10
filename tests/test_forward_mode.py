"""Forward mode (tapegrad/core/forward.py, tapegrad/ops/jvp_rules.py,
tapegrad/transforms/forward.py): every sample call of every differentiable function has a
JVP equal to central finite differences and to the reverse mode's (<u, J t> = <J^T u, t>),
and a second-order JVP where it is twice differentiable; jacfwd, jacrev, linearize, hvp and
hessian; nesting with grad and GradientTape in every order; Variables; complex values;
errors that leave every tape as it was."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
import tapegrad.numpy as tnp
from tapegrad.core.forward import ForwardTape
from tapegrad.core.nests import flatten, pack
from tapegrad.testing import strategies as tst
from tapegrad.testing.numpy_samples import SAMPLES, X, Y

_rng = np.random.default_rng(7)
TX, TY = _rng.normal(size=X.shape), _rng.normal(size=Y.shape)
SX, SY = _rng.normal(size=X.shape), _rng.normal(size=Y.shape)


def close(a, b, rtol=1e-10, atol=1e-12):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


def _floating(value):
    """The floating leaves of a result, as NumPy arrays (integer results have no tangent)."""
    return [np.asarray(v) for v in flatten(value) if np.issubdtype(np.asarray(v).dtype, np.inexact)]


def _central(f, primals, tangents, eps=1e-6):
    """Central finite differences of ``f`` along ``tangents``, leaf by leaf."""
    plus = f(*(p + eps * t for p, t in zip(primals, tangents)))
    minus = f(*(p - eps * t for p, t in zip(primals, tangents)))
    return [(a - b) / (2 * eps) for a, b in zip(_floating(plus), _floating(minus))]


def _quiet():
    caught = warnings.catch_warnings()
    caught.__enter__()
    warnings.simplefilter("ignore")
    return caught


def _ids(rows):
    return [f"{r.name}[{r.option}]" for r in rows]


@pytest.mark.parametrize("row", SAMPLES, ids=_ids(SAMPLES))
def test_every_sample_jvp_equals_finite_differences_and_the_reverse_mode(row):
    def f(a, b):
        return row.call(tnp, a, b)

    caught = _quiet()
    try:
        out, tangent = tg.jvp(f, (X, Y), (TX, TY))
        expected = row.call(np, X, Y)
        for ours, want in zip(_floating(out), _floating(expected)):
            close(ours, want)
        tangents = _floating(tangent)
        for ours, numeric in zip(tangents, _central(f, (X, Y), (TX, TY))):
            close(ours, numeric, rtol=1e-5, atol=1e-6)
        # The reverse mode's transpose: <u, J t> = <J^T u, t> for a random cotangent u.
        out, vjp_fn = tg.vjp(f, X, Y)
        leaves = flatten(out)
        rng = np.random.default_rng(3)
        cotangents = [_like(rng, leaf) for leaf in leaves]
        gx, gy = vjp_fn(pack(out, iter(cotangents)))
        forward = sum(
            np.real(np.sum(np.conj(u) * t))
            for u, t in zip(cotangents, flatten(tangent))
            if np.issubdtype(np.asarray(u).dtype, np.inexact)
        )
        # (nansum: the rows that put a NaN in an input have no derivative there)
        backward = np.nansum(np.asarray(gx) * TX) + np.nansum(np.asarray(gy) * TY)
        single = any(np.asarray(leaf).dtype in (np.float32, np.complex64) for leaf in leaves)
        close(forward, backward, *((1e-5, 1e-6) if single else (1e-8, 1e-10)))
    finally:
        caught.__exit__(None, None, None)


def _like(rng, leaf):
    """A random cotangent for an output leaf (zeros for an integer one)."""
    a = np.asarray(leaf)
    if np.issubdtype(a.dtype, np.complexfloating):
        return rng.normal(size=a.shape) + 1j * rng.normal(size=a.shape)
    if np.issubdtype(a.dtype, np.floating):
        return rng.normal(size=a.shape).astype(a.dtype)
    return np.zeros(a.shape, a.dtype)


TWICE = [row for row in SAMPLES if row.twice]


@pytest.mark.parametrize("row", TWICE, ids=_ids(TWICE))
def test_every_twice_differentiable_sample_has_a_second_order_jvp(row):
    # d/ds of the JVP along t, at the point moved along s: forward over forward.
    def f(a, b):
        return row.call(tnp, a, b)

    def along_t(a, b):
        return tg.jvp(f, (a, b), (TX, TY))[1]

    caught = _quiet()
    try:
        _, second = tg.jvp(along_t, (X, Y), (SX, SY))
        for ours, numeric in zip(_floating(second), _central(along_t, (X, Y), (SX, SY))):
            close(ours, numeric, rtol=1e-5, atol=1e-5)
    finally:
        caught.__exit__(None, None, None)


# --- the hot ops, on drawn shapes and values --------------------------------------------------
HOT = {
    "chain": lambda x, w: tg.tanh(x * w + 0.5),
    "matmul": lambda x, w: tg.tanh(x @ w.T) @ w,
    "reductions": lambda x, w: tg.sum(tg.exp(x) * w, axis=-1) + tg.mean(x * x),
    "shapes": lambda x, w: tg.transpose(tg.reshape(x * w, (-1, 1))) + tg.sum(w[::-1]),
    "elementwise": lambda x, w: tg.log1p(x * x) / (1.0 + tg.sigmoid(w)) - tg.sqrt(1.0 + w * w),
    "broadcast": lambda x, w: x[..., None] * w[..., None, :] + tg.sin(w)[..., None, :],
    "mlp": lambda x, w: tg.log_softmax(tg.relu(x @ w.T + 0.1) @ w, axis=-1),
}


@settings(max_examples=15, deadline=None)
@given(
    name=st.sampled_from(sorted(HOT)),
    x=tst.arrays(tst.shapes(min_dims=2, max_dims=2, max_side=3), domain="small"),
    seed=st.integers(0, 2**16),
)
def test_hot_ops_jvp_property(name, x, seed):
    rng = np.random.default_rng(seed)
    w = rng.normal(size=x.shape)
    tx, tw = rng.normal(size=x.shape), rng.normal(size=x.shape)
    f = HOT[name]
    out, tangent = tg.jvp(f, (x, w), (tx, tw))
    close(out, np.asarray(f(tg.tensor(x), tg.tensor(w))))
    (numeric,) = _central(f, (x, w), (tx, tw))
    close(tangent, numeric, rtol=1e-5, atol=1e-6)
    # jvp of the jvp: a second derivative, against finite differences of the first
    sx, sw = rng.normal(size=x.shape), rng.normal(size=x.shape)

    def along(a, b):
        return tg.jvp(f, (a, b), (tx, tw))[1]

    (second_numeric,) = _central(along, (x, w), (sx, sw))
    close(tg.jvp(along, (x, w), (sx, sw))[1], second_numeric, rtol=1e-5, atol=1e-5)


# --- jacfwd, jacrev, hessian, hvp, linearize --------------------------------------------------
def test_jacfwd_equals_jacrev_and_jacobian_with_nests_and_argnums():
    def f(x, p):
        return {"y": tg.sin(x) * p["a"], "z": tg.sum(x**2) * p["b"]}

    x, p = np.array([0.2, -0.4, 1.3]), {"a": np.array([1.5, 2.0, -1.0]), "b": 0.7}
    for argnums in (0, 1, (0, 1)):
        forward, reverse = tg.jacfwd(f, argnums)(x, p), tg.jacrev(f, argnums)(x, p)
        assert type(forward) is type(reverse)
        for a, b in zip(flatten(forward), flatten(reverse)):
            assert np.shape(a) == np.shape(b)
            close(a, b)
        for a, b in zip(flatten(reverse), flatten(tg.jacobian(f, argnums)(x, p))):
            close(a, b)
    jac, aux = tg.jacfwd(lambda x: (x * x, "aux"), has_aux=True)(x)
    close(jac, np.diag(2 * x))
    assert aux == "aux"
    assert type(tg.jacfwd(tg.sin)(x)) is np.ndarray  # arrays in, arrays out
    assert isinstance(tg.jacfwd(tg.sin)(tg.tensor(x)), tg.Tensor)
    assert tg.jacfwd(tg.sin)(np.ones((0,))).shape == (0, 0)


def test_jacfwd_refuses_a_complex_argument():
    with pytest.raises(TypeError, match="jacfwd: argument 0 is complex"):
        tg.jacfwd(tg.sin)(np.array([1.0 + 1j]))


def test_hessian_is_forward_over_reverse_and_matches_the_reverse_one():
    def f(x, y):
        return tg.sum(tg.tanh(x) * y) * tg.sum(x**3)

    x, y = np.array([0.3, -0.7, 1.1]), np.array([1.0, 2.0, -0.5])
    blocks = tg.hessian(f, argnums=(0, 1))(x, y)
    reverse = tg.jacobian(tg.grad(f, argnums=(0, 1)), argnums=(0, 1))(x, y)
    for a, b in zip(flatten(blocks), flatten(reverse)):
        close(a, b)
    h, aux = tg.hessian(lambda x: (tg.sum(x**4), 3), has_aux=True)(x)
    close(h, np.diag(12 * x**2))
    assert aux == 3


def test_hvp_is_jvp_of_grad_and_differentiates_again():
    def f(x):
        return tg.sum(tg.sin(x) * x[::-1])

    x, v = np.array([0.4, -0.2, 0.9]), np.array([1.0, 0.5, -2.0])
    g, hv = tg.hvp(f, (x,), (v,))
    close(g, tg.grad(f)(x))
    close(hv, tg.hessian(f)(x) @ v)
    # a third derivative: grad of <hvp, v>
    third = tg.grad(lambda x: tg.sum(tg.hvp(f, (x,), (v,))[1] * v))(x)
    numeric = tg.hessian(f)(x + 1e-6 * np.eye(3)[0]) - tg.hessian(f)(x - 1e-6 * np.eye(3)[0])
    close(third[0], v @ (numeric / 2e-6) @ v, rtol=1e-5, atol=1e-6)


def test_linearize_gives_the_value_and_the_linear_map():
    out, f_jvp = tg.linearize(lambda x, y: tg.sin(x) * y, np.array([0.1, 0.2]), 3.0)
    close(out, np.sin([0.1, 0.2]) * 3.0)
    close(f_jvp(np.array([1.0, 0.0]), 0.0), [np.cos(0.1) * 3.0, 0.0])
    close(f_jvp(np.zeros(2), 1.0), np.sin([0.1, 0.2]))
    with pytest.raises(ValueError, match=r"tangent of argument 0 of shape \(3,\)"):
        f_jvp(np.ones(3), 1.0)


# --- nesting ------------------------------------------------------------------------------------
def test_forward_and_reverse_tapes_nest_in_every_order():
    x = np.array([0.3, 1.1])

    def f(x):
        return tg.sum(tg.exp(x) * tg.sin(x))

    def d2(x):  # the second derivative of exp(x) sin(x), elementwise
        return 2 * np.exp(x) * np.cos(x)

    ones = np.ones(2)
    # grad of jvp (tangent rules recorded on the tape outside)
    close(tg.grad(lambda x: tg.jvp(f, (x,), (ones,))[1])(x), d2(x))
    # jvp of grad (the sweep's rules carry tangents)
    close(tg.jvp(tg.grad(f), (x,), (ones,))[1], d2(x))
    # jvp of jvp
    close(tg.jvp(lambda x: tg.jvp(f, (x,), (ones,))[1], (x,), (ones,))[1], np.sum(d2(x)))
    # a GradientTape inside a forward tape, and one outside it
    t = tg.tensor(x)
    with tg.GradientTape() as outer:
        outer.watch(t)
        _, tangent = tg.jvp(lambda a: tg.sum(a * a * t), (t,), (ones,))
    close(outer.gradient(tangent, t), 4 * x)  # d/dt of 3 t^2 . ones, summed


def test_a_tape_gradient_inside_a_forward_tape_carries_tangents():
    x, v = tg.tensor([0.5, -1.0]), tg.tensor([1.0, 2.0])

    def gradient_of_cube(a):
        with tg.GradientTape() as tape:
            tape.watch(a)
            y = tg.sum(a**3)
        return tape.gradient(y, a)

    _, tangent = tg.jvp(gradient_of_cube, (x,), (v,))
    close(tangent, 6 * x.numpy() * v.numpy())


def test_jvp_through_custom_gradient_checkpoint_and_vmap():
    @tg.custom_gradient
    def scaled(x):
        return x * 2.0, lambda g: g * 2.0

    x = np.array([0.2, 0.5])
    close(tg.jvp(lambda a: tg.sin(scaled(a)), (x,), (np.ones(2),))[1], 2 * np.cos(2 * x))
    close(
        tg.jvp(tg.checkpoint(lambda a: tg.exp(a) * a), (x,), (np.ones(2),))[1],
        np.exp(x) * (1 + x),
    )
    xs = np.stack([x, 2 * x])
    per_example = tg.vmap(lambda a: tg.jvp(tg.tanh, (a,), (np.ones(2),))[1])(xs)
    close(per_example, 1 - np.tanh(xs) ** 2)


def test_variables_are_constants_unless_they_are_primals():
    w = tg.Variable([2.0, 3.0])
    x = np.array([1.0, -1.0])
    _, tangent = tg.jvp(lambda a: a * w, (x,), (np.ones(2),))
    close(tangent, [2.0, 3.0])
    _, tangent = tg.jvp(lambda v: v * x, (w,), (tg.tensor([1.0, 0.0]),))
    close(tangent, [1.0, 0.0])
    with tg.GradientTape() as tape:  # a Variable read by the tangent rules is recorded
        _, tangent = tg.jvp(lambda a: a * w, (x,), (np.ones(2),))
        total = tg.sum(tangent)
    close(tape.gradient(total, w), [1.0, 1.0])


def test_the_forward_tape_itself():
    x = tg.tensor([1.0, 2.0])
    with ForwardTape() as tape:
        tape.seed(x, tg.tensor([1.0, 0.0]))
        y, z = x * x, tg.ones(2) + 1.0
        n = tg.argmax(x)
    close(tape.tangent(y), [2.0, 0.0])
    assert tape.tangent(z) is None and tape.tangent(n) is None
    assert "ForwardTape" in repr(tape)
    with pytest.raises(ValueError, match="already active"):
        with tape:
            with tape:
                pass
    with pytest.raises(ValueError, match=r"tangent of shape \(3,\)"):
        ForwardTape().seed(x, tg.tensor([1.0, 2.0, 3.0]))
    # A tangent goes when its value does: a long forward pass keeps only the live ones.
    with ForwardTape() as tape:
        tape.seed(x, tg.tensor([1.0, 0.0]))
        y = x
        for _ in range(2000):
            y = tg.tanh(y * 0.5 + x)
        assert len(tape._watched) < 600  # about twice the live values, not one per op
    close(tape.tangent(y), tg.jvp(lambda a: _steps(a, 2000), (x,), (tg.tensor([1.0, 0.0]),))[1])


def _steps(x, n):
    y = x
    for _ in range(n):
        y = tg.tanh(y * 0.5 + x)
    return y


# --- complex values: pairs of reals ---------------------------------------------------------------
def test_complex_jvps_are_real_linear_derivatives():
    z, v = np.array([1.0 + 2.0j, -0.5 + 0.3j]), np.array([0.2 - 1.0j, 1.0 + 0.5j])
    close(tg.jvp(lambda a: tg.sin(a) * a, (z,), (v,))[1], (np.cos(z) * z + np.sin(z)) * v)
    close(tg.jvp(tg.conj, (z,), (v,))[1], np.conj(v))
    close(tg.jvp(tg.real, (z,), (v,))[1], np.real(v))
    close(tg.jvp(tg.abs, (z,), (v,))[1], np.real(np.conj(z) * v) / np.abs(z))
    # complex out of real in, and real out of complex in, against finite differences
    x, t = np.array([0.3, -1.0]), np.array([2.0, 0.5])
    (numeric,) = _central(lambda a: tg.exp(a * 1j) * tg.abs(a + 2j), (x,), (t,))
    close(tg.jvp(lambda a: tg.exp(a * 1j) * tg.abs(a + 2j), (x,), (t,))[1], numeric, 1e-6, 1e-8)
    with pytest.raises(TypeError, match="jvp: the tangent of argument 0 is complex128"):
        tg.jvp(tg.sin, (x,), (t * 1j,))
    with pytest.raises(TypeError, match="maximum: no gradient for complex values"):
        tg.jvp(lambda a: tg.maximum(a, a), (z,), (v,))


# --- errors --------------------------------------------------------------------------------------
def test_errors_leave_every_tape_as_it_was():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tg.sum(x * x)
        before = len(tape)
        with pytest.raises(ValueError, match="structure"):
            tg.jvp(lambda a: a * x, (x,), ([1.0, 2.0],))
        with pytest.raises(ZeroDivisionError):
            tg.jvp(lambda a: (a * x, 1 / 0), (x,), (np.ones(2),))
        with pytest.raises(TypeError, match="argument 0 holds a int64"):
            tg.jvp(lambda a: a, (tg.tensor([1, 2]),), (np.ones(2),))
    assert len(tape) == before
    close(tape.gradient(y, x), [2.0, 4.0])
    from tapegrad.core import forward
    from tapegrad.core.active import active_tapes

    assert not forward.open_tapes and not active_tapes()


def test_argument_errors_name_the_transform():
    with pytest.raises(TypeError, match="jvp: primals must be a tuple or list"):
        tg.jvp(tg.sin, np.ones(2), (np.ones(2),))
    with pytest.raises(TypeError, match="hvp: tangents must be a tuple or list"):
        tg.hvp(tg.sin, (np.ones(2),), np.ones(2))
    with pytest.raises(ValueError, match="hvp: 0 primals"):
        tg.hvp(tg.sin, (), ())
    with pytest.raises(TypeError, match="jacfwd: argnums must be"):
        tg.jacfwd(tg.sin, argnums="0")
    with pytest.raises(ValueError, match="jacfwd: argnums 3 is out of range"):
        tg.jacfwd(tg.sin, argnums=3)(1.0)


def test_a_primitive_without_a_jvp_rule_is_transposed_exactly():
    cube = tg.Primitive("forward_test_cube", lambda xp, x: x**3).defvjp(
        lambda g, ans, x: g * 3 * x**2
    )
    x = np.array([0.5, -2.0])
    close(tg.jvp(cube, (x,), (np.ones(2),))[1], 3 * x**2)
    close(tg.jvp(tg.grad(lambda a: tg.sum(cube(a))), (x,), (np.ones(2),))[1], 6 * x)


def test_the_forward_benchmark_computes_the_same_tangent_every_way():
    from benchmarks import forward as bench

    systems = bench.chain_systems()
    _, tangent = systems["tg.jvp"]()
    _, double = systems["double VJP"]()
    close(tangent, double, rtol=1e-9, atol=1e-12)
