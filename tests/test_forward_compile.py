"""Forward mode under tg.compile, and forward mode's inline formulas (tapegrad/ops/jvp_raw.py).

``tg.compile`` of a function that calls ``tg.jvp`` records the tangents' ops beside the
values' (a forward tape inside a trace computes each tangent with the trace active), so a
replay gives the same values as the eager ``tg.jvp`` and as central finite differences,
for new primals and new tangents, along the inputs or along parameters. An op whose tangent
needs transposition (a gradient sweep) is refused with a clear error. The inline formulas
of the hot elementwise ops agree with the general rules (tapegrad/ops/jvp_rules.py) and
with finite differences, in float64 and float32, with broadcast inputs and 0-d values.
"""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.core.forward import ForwardTape, raw_rules
from tapegrad.ops import jvp_raw


def close(a, b, rtol=1e-10, atol=1e-12):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


def central(f, primals, tangents, eps=1e-6):
    """Central finite differences of ``f`` (one output) along ``tangents``."""
    plus = f(*(p + eps * t for p, t in zip(primals, tangents)))
    minus = f(*(p - eps * t for p, t in zip(primals, tangents)))
    return (np.asarray(plus) - np.asarray(minus)) / (2 * eps)


def chain(y, w, b):
    for _ in range(4):
        y = tg.tanh(y * w + b) + tg.sin(y) / (1.5 + tg.square(w))
    return tg.sum(y * y) + tg.exp(-tg.sum(y))


def mlp(X, W1, b1, W2, b2):
    h = tg.relu(X @ W1 + b1)
    logp = tg.log_softmax(h @ W2 + b2, axis=1)
    return -tg.mean(logp[:, 0]) + tg.sum(tg.sigmoid(h)) / X.shape[0]


def _arrays(rng, *shapes):
    return [rng.normal(size=s) for s in shapes]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), n=st.integers(1, 5))
def test_compiled_jvp_of_a_chain_equals_eager_jvp_and_finite_differences(seed, n):
    rng = np.random.default_rng(seed)
    shapes = [(n,)] * 3
    _compiled_jvp_as_eager(chain, lambda: (_arrays(rng, *shapes), _arrays(rng, *shapes)), 1e-7)


def _compiled_jvp_as_eager(f, draw, atol):
    """tg.compile of tg.jvp(f), on three draws of (primals, tangents): equal to the eager
    jvp and to central differences, from one recording (the first call records)."""
    compiled = tg.compile(lambda *a: tg.jvp(f, a[: len(a) // 2], a[len(a) // 2 :]))
    for _ in range(3):
        primals, tangents = draw()
        out, tangent = compiled(*map(tg.tensor, primals), *map(tg.tensor, tangents))
        eager_out, eager_tangent = tg.jvp(f, primals, tangents)
        close(out, eager_out)
        close(tangent, eager_tangent)
        expected = central(lambda *p: f(*map(tg.tensor, p)), primals, tangents)
        close(tangent, expected, rtol=1e-6, atol=atol)
    assert compiled.traces == 1


def test_compiled_jvp_with_a_constant_tangent_replays_on_new_primals():
    rng = np.random.default_rng(3)
    t = tg.tensor(rng.normal(size=(4, 3)))
    w = tg.tensor(rng.normal(size=(3, 3)))

    def f(x):
        return tg.tanh(x @ w + 1.0) * x

    compiled = tg.compile(lambda x: tg.jvp(f, (x,), (t,)))
    for _ in range(3):
        x = rng.normal(size=(4, 3))
        out, tangent = compiled(tg.tensor(x))
        eager_out, eager_tangent = tg.jvp(f, (tg.tensor(x),), (t,))
        close(out, eager_out)
        close(tangent, eager_tangent)
        close(tangent, central(lambda p: f(tg.tensor(p)), [x], [t.numpy()]), rtol=1e-6, atol=1e-8)
    assert compiled.traces == 1


@pytest.mark.parametrize("along", ["parameters", "input", "both"])
def test_compiled_jvp_of_an_mlp_with_parameters(along):
    rng = np.random.default_rng(11)
    shapes = [(6, 5), (5, 4), (4,), (4, 3), (3,)]

    def directions(values):
        ts = [rng.normal(size=v.shape) for v in values]
        if along == "parameters":
            ts[0] = np.zeros_like(ts[0])
        elif along == "input":
            ts[1:] = [np.zeros_like(t) for t in ts[1:]]
        return ts

    def draw():
        primals = _arrays(rng, *shapes)
        return primals, directions(primals)

    _compiled_jvp_as_eager(mlp, draw, 1e-8)


def test_compiled_jvp_of_parameters_closed_over_as_arguments():
    """A jvp along only the parameters, the data a constant of the recording (the MLP
    benchmark's "along every parameter" row)."""
    rng = np.random.default_rng(5)
    X = tg.tensor(rng.normal(size=(6, 5)))

    def loss(W1, b1, W2, b2):
        return mlp(X, W1, b1, W2, b2)

    compiled = tg.compile(lambda *a: tg.jvp(loss, a[:4], a[4:]))
    for _ in range(2):
        primals = _arrays(rng, (5, 4), (4,), (4, 3), (3,))
        tangents = _arrays(rng, (5, 4), (4,), (4, 3), (3,))
        _, tangent = compiled(*map(tg.tensor, primals), *map(tg.tensor, tangents))
        close(tangent, tg.jvp(loss, primals, tangents)[1])
        expected = central(lambda *p: loss(*map(tg.tensor, p)), primals, tangents)
        close(tangent, expected, rtol=1e-6, atol=1e-8)


def test_compiled_jvp_follows_its_guards():
    """A Python branch on a traced value inside the jvp'd function is a guard: the other
    sign records the other path, and each gives its own derivative."""

    def f(x):
        return tg.sin(x) if bool(tg.sum(x) > 0) else tg.cos(x) * x

    t = np.array([1.0, -2.0])
    compiled = tg.compile(lambda x: tg.jvp(f, (x,), (tg.tensor(t),)))
    for x in ([0.5, 1.0], [-0.5, -1.0], [0.2, 0.3]):
        _, tangent = compiled(tg.tensor(x))
        close(tangent, tg.jvp(f, (np.array(x),), (t,))[1])
    assert compiled.traces == 2


@pytest.mark.parametrize(
    "name, f",
    [
        ("det", lambda a: tg.linalg.det(a)),
        ("inv", lambda a: tg.sum(tg.linalg.inv(a))),
        ("cumprod", lambda a: tg.cumprod(a, axis=0)),
    ],
)
def test_compiled_jvp_through_a_transposed_rule_is_refused(name, f):
    """These ops have no JVP rule of their own: their tangent is their gradient rules'
    transpose, a gradient sweep, which a tg.compile recording cannot repeat."""
    a = tg.tensor(np.eye(3) * 2.0 + 0.1)
    t = tg.tensor(np.ones((3, 3)))
    compiled = tg.compile(lambda x: tg.jvp(f, (x,), (t,)))
    with pytest.raises(NotImplementedError, match=rf"{name}: no forward-mode rule.*tg\.compile"):
        compiled(a)
    # Nothing is left active: the eager jvp works and matches finite differences.
    _, tangent = tg.jvp(f, (a,), (t,))
    close(tangent, central(lambda p: f(tg.tensor(p)), [a.numpy()], [t.numpy()]), 1e-6, 1e-8)


def test_the_forward_benchmark_rows_compute_the_same_tangents(monkeypatch):
    """benchmarks/forward.py's compiled rows replay what its eager rows compute."""
    from benchmarks import forward as bench

    monkeypatch.setattr(bench, "STEPS", 20)
    chain_rows = bench.chain_systems()
    out, tangent = chain_rows["tg.jvp"]()
    close(chain_rows["tg.compile(forward)"](), chain_rows["forward"]())
    for name in ("tg.compile(jvp)", "tg.compile(jvp, fuse)"):
        if name in chain_rows:
            for _ in range(2):  # the recording, then a replay
                compiled_out, compiled_tangent = chain_rows[name]()
                close(compiled_out, out)
                close(compiled_tangent, tangent)
    mlp_rows = bench.mlp_systems()
    for eager, compiled in (("tg.jvp", "tg.compile(jvp)"),
                            ("tg.jvp along the input", "tg.compile(jvp along input)")):  # fmt: skip
        out, tangent = mlp_rows[eager]()
        for _ in range(2):
            compiled_out, compiled_tangent = mlp_rows[compiled]()
            close(compiled_out, out, rtol=1e-5, atol=1e-6)
            close(compiled_tangent, tangent, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize(
    "f",
    [
        lambda x, y: tg.tanh(x) * y,
        lambda x, y: tg.sigmoid(x - y),
        lambda x, y: tg.relu(x + y) * x,
        lambda x, y: tg.subtract(y, x) * tg.add(x, y),
    ],
    ids=["tanh", "sigmoid", "relu-add", "subtract-add"],
)
def test_own_rules_under_an_outer_tape(f):
    """add, subtract, relu, tanh and sigmoid's own JVP rules run on Tensors, recorded by the
    tape outside: the gradient of the tangent is the second derivative."""
    rng = np.random.default_rng(8)
    x, tx = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    y, ty = rng.normal(size=(4,)), rng.normal(size=(4,))  # broadcast against x

    def tangent_sum(a):
        return tg.sum(tg.jvp(f, (a, tg.tensor(y)), (tg.tensor(tx), tg.tensor(ty)))[1])

    eps = 1e-6
    numeric = central(lambda a: tangent_sum(tg.tensor(a)), [x], [tx], eps)
    grad = tg.grad(tangent_sum)(tg.tensor(x))
    close(np.sum(np.asarray(grad) * tx), numeric, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["tanh", "sigmoid"])
def test_tanh_and_sigmoid_jvp_of_complex_values_is_the_holomorphic_derivative(name):
    rng = np.random.default_rng(6)
    z = rng.normal(size=5) + 1j * rng.normal(size=5)
    t = rng.normal(size=5) + 1j * rng.normal(size=5)
    fn = getattr(tg, name)
    _, tangent = tg.jvp(fn, (tg.tensor(z),), (tg.tensor(t),))
    h = 1e-7
    numeric = (fn(tg.tensor(z + h * t)).numpy() - fn(tg.tensor(z - h * t)).numpy()) / (2 * h)
    close(tangent, numeric, rtol=1e-6, atol=1e-8)


# --- the inline formulas ------------------------------------------------------------------
_BINARY_NAMES = ("add", "subtract", "multiply", "divide")
UNARY = [p for p in jvp_raw.RULES if p.name not in _BINARY_NAMES]
BINARY = [p for p in jvp_raw.RULES if p.name in _BINARY_NAMES]
SHAPES = [((3, 4), (3, 4)), ((3, 4), (4,)), ((1, 4), (3, 1)), ((), (3,)), ((), ())]


def _positive(primitive, x):
    return np.abs(x) + 0.5 if primitive.name in ("log", "sqrt") else x


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("primitive", UNARY, ids=lambda p: p.name)
@pytest.mark.parametrize("shape", [(3, 4), (5,), ()])
def test_inline_unary_formula_equals_finite_differences(primitive, shape, dtype):
    rng = np.random.default_rng(2)
    x = _positive(primitive, rng.normal(size=shape)).astype(dtype)
    t = rng.normal(size=shape).astype(dtype)
    assert primitive in raw_rules
    fn = primitive._unary
    out, tangent = tg.jvp(fn, (x,), (t,))
    assert tangent.dtype == dtype and tangent.shape == np.shape(x)
    x64, t64 = x.astype(np.float64), t.astype(np.float64)
    expected = central(lambda p: fn(tg.tensor(p)), [x64], [t64])
    tol = 1e-6 if dtype == np.float64 else 1e-4
    np.testing.assert_allclose(tangent, expected, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("primitive", BINARY, ids=lambda p: p.name)
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("which", ["x", "y", "both"])
def test_inline_binary_formula_equals_finite_differences(primitive, shapes, which, dtype):
    rng = np.random.default_rng(4)
    x = rng.normal(size=shapes[0]).astype(dtype)
    y = (np.abs(rng.normal(size=shapes[1])) + 0.5).astype(dtype)
    tx = rng.normal(size=x.shape).astype(dtype) * (which != "y")
    ty = rng.normal(size=y.shape).astype(dtype) * (which != "x")
    fn = primitive._binary
    out, tangent = tg.jvp(fn, (x, y), (tx, ty))
    assert tangent.dtype == np.result_type(x, y) and tangent.shape == np.shape(out)
    primals = [x.astype(np.float64), y.astype(np.float64)]
    tangents = [tx.astype(np.float64), ty.astype(np.float64)]
    expected = central(lambda a, b: fn(tg.tensor(a), tg.tensor(b)), primals, tangents)
    tol = 1e-6 if dtype == np.float64 else 1e-4
    np.testing.assert_allclose(tangent, expected, rtol=tol, atol=tol)


def test_inline_formula_with_only_one_tangent_seeded():
    """An input without a tangent (a constant, not a zero tangent) takes the formula's
    one-sided branch; a broadcast input's lone tangent is widened to the output's shape."""
    rng = np.random.default_rng(9)
    x, y = tg.tensor(rng.normal(size=(3, 4))), tg.tensor(rng.normal(size=(4,)) + 3.0)
    ty = tg.tensor(rng.normal(size=(4,)))
    for fn in (tg.add, tg.subtract, tg.multiply, tg.divide):
        with ForwardTape() as tape:
            tape.seed(y, ty)
            out = fn(x, y)
        tangent = tape.tangent(out)
        assert tangent.shape == (3, 4)
        expected = central(lambda b, fn=fn: fn(x, tg.tensor(b)), [y.numpy()], [ty.numpy()])
        close(tangent, expected, rtol=1e-6, atol=1e-8)


def test_a_fused_compiled_jvp_fuses_and_equals_eager():
    pytest.importorskip("numba", reason="fuse=True needs the fuse extra (numba)")
    w, b = tg.tensor(np.linspace(0.1, 0.9, 8)), tg.tensor(np.linspace(-0.5, 0.5, 8))

    def f(y):
        for _ in range(20):
            y = tg.tanh(y * w + b)
        return y

    y0, t0 = tg.tensor(np.full(8, 0.3)), tg.tensor(np.ones(8))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a FuseWarning: some op of the recording not fused
        compiled = tg.compile(lambda y, t: tg.jvp(f, (y,), (t,)), fuse=True)
        for _ in range(3):
            value, tangent = compiled(y0, t0)
    want_value, want_tangent = tg.jvp(f, (y0,), (t0,))
    np.testing.assert_allclose(value.numpy(), want_value.numpy(), rtol=1e-13)
    np.testing.assert_allclose(tangent.numpy(), want_tangent.numpy(), rtol=1e-12)
