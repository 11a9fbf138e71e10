"""Fast paths agree with the general ones: shortcut gradient rules
(Primitive.defvjp_same_shape) and NumPy forwards (Primitive(numpy=...))."""

import importlib
import pkgutil

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.ops import arithmetic, elementwise, indexing, linalg, reductions, shape
from tapegrad.testing import strategies as tst

PRIMITIVES = [arithmetic._add, arithmetic._subtract, arithmetic._multiply, arithmetic._divide]
UNARY = [
    elementwise._exp, elementwise._log, elementwise._log1p, elementwise._expm1,
    elementwise._sqrt, elementwise._square, elementwise._sin, elementwise._cos,
    elementwise._tan, elementwise._tanh, elementwise._sinh, elementwise._cosh,
    elementwise._arctan, elementwise._sigmoid, elementwise._relu,
]  # fmt: skip


def _every_primitive():
    modules = [
        importlib.import_module(f"tapegrad.ops.{info.name}")
        for info in pkgutil.iter_modules(tg.ops.__path__)
    ]
    return [
        value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, tg.Primitive)
    ]


def test_the_list_covers_every_primitive_with_shortcuts():
    found = {p for p in _every_primitive() if p.same_shape_vjps is not None}
    assert found == set(PRIMITIVES + UNARY)


WITH_NUMPY_FORWARD = sorted(
    (p for p in _every_primitive() if isinstance(p.numpy_forward, np.ufunc)), key=lambda p: p.name
)


def test_the_hot_elementwise_primitives_have_numpy_forwards():
    names = {p.name for p in WITH_NUMPY_FORWARD}
    assert {"add", "subtract", "multiply", "divide", "negative", "exp", "tanh", "matmul"} <= names


@pytest.mark.parametrize("primitive", WITH_NUMPY_FORWARD, ids=lambda p: p.name)
@given(data=st.data(), dtype=st.sampled_from([np.float64, np.float32]))
def test_numpy_forwards_match_the_general_forward(primitive, data, dtype):
    arity = primitive.numpy_forward.nin
    dims = (2, 2) if primitive.name == "matmul" else (0, 3)
    shape = data.draw(tst.shapes(min_dims=dims[0], max_dims=dims[1]), label="shape")
    if primitive.name == "matmul":
        shapes = [shape, shape[::-1]]
    else:
        shapes = [shape, data.draw(st.sampled_from([shape, shape[1:], ()]), label="other")]
    # positive values: inside the domain of log, sqrt and power
    if not any(t.startswith("d" * arity) for t in primitive.numpy_forward.types):
        dtype = np.int64  # an integer op (bitwise_and, gcd): integer inputs
    inputs = [
        data.draw(tst.arrays(s, domain="positive"), label=f"x{k}").astype(dtype)
        for k, s in enumerate(shapes[:arity])
    ]
    expected = primitive.forward(np, *inputs)
    got = primitive.numpy_forward(*inputs)
    assert type(got) is type(expected) and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("primitive", PRIMITIVES, ids=lambda p: p.name)
@given(data=st.data(), dtype=st.sampled_from([np.float64, np.float32]))
def test_shortcuts_match_the_general_rules(primitive, data, dtype):
    shape = data.draw(tst.shapes(), label="shape")
    # the other input may broadcast: the shortcut of an input is valid when it has the
    # output's shape, whatever the other input's shape
    other = data.draw(st.sampled_from([shape, shape[1:], ()]), label="other shape")
    x = data.draw(tst.arrays(shape, domain="nonzero"), label="x").astype(dtype)
    y = data.draw(tst.arrays(other, domain="nonzero"), label="y").astype(dtype)
    ans = primitive.forward(np, x, y)
    g = data.draw(tst.arrays(np.shape(ans)), label="g").astype(ans.dtype)
    for k, inputs in ((0, (x, y)), (1, (y, x))):
        if np.shape(inputs[k]) != np.shape(ans):
            continue
        ans = primitive.forward(np, *inputs)
        fast = primitive.same_shape_vjps[k](g, ans, *inputs)
        general = primitive.rule(k)(g, ans, *inputs)
        general = general.numpy() if isinstance(general, tg.Tensor) else general
        assert np.shape(fast) == np.shape(general) == np.shape(inputs[k])
        np.testing.assert_array_equal(fast, general)


@pytest.mark.parametrize("primitive", UNARY, ids=lambda p: p.name)
@given(data=st.data(), dtype=st.sampled_from([np.float64, np.float32]))
def test_unary_shortcuts_match_the_general_rules(primitive, data, dtype):
    x = data.draw(tst.arrays(), label="x").astype(dtype)
    x = np.where(data.draw(st.booleans(), label="with zeros"), np.round(x), x)  # ties at 0
    ans = primitive.forward(np, x)
    g = data.draw(tst.arrays(np.shape(ans)), label="g").astype(ans.dtype)
    fast = primitive.same_shape_vjps[0](g, ans, x)
    general = primitive.rule(0)(g, ans, x)
    general = general.numpy() if isinstance(general, tg.Tensor) else general
    assert np.shape(fast) == np.shape(general) == np.shape(x)
    assert np.result_type(fast) == np.result_type(general)
    np.testing.assert_array_equal(fast, general)


IN_PLACE = [p for p in UNARY if p.in_place_vjp is not None]


def test_relu_has_an_in_place_rule():
    assert elementwise._relu in IN_PLACE


@pytest.mark.parametrize("primitive", IN_PLACE, ids=lambda p: p.name)
@given(data=st.data(), dtype=st.sampled_from([np.float64, np.float32]))
def test_in_place_rules_match_the_shortcuts(primitive, data, dtype):
    x = data.draw(tst.arrays(), label="x").astype(dtype)
    ans = primitive.forward(np, x)
    g = data.draw(tst.arrays(np.shape(ans)), label="g").astype(ans.dtype)
    expected = primitive.same_shape_vjps[0](g, ans, x)
    written = np.array(g)
    got = primitive.in_place_vjp(written, ans, x)
    assert got is written
    np.testing.assert_array_equal(got, expected)


def _relu_network(x, w, v):
    h = tg.relu(x @ w)  # its cotangent is the matmul rule's new array: written in place
    a, b = tg.relu(h * 2.0), tg.relu(h - 1.0)
    both = a + b  # add passes one cotangent to both: neither may write into it
    return tg.relu(both @ v)  # its cotangent is the caller's output_gradients


def test_in_place_rules_change_no_gradient_and_no_array_they_do_not_own(monkeypatch):
    rng = np.random.default_rng(0)
    x = tg.tensor(rng.normal(size=(4, 3)))
    w, v = tg.Variable(rng.normal(size=(3, 5))), tg.Variable(rng.normal(size=(5, 2)))

    def gradients(seed):
        with tg.GradientTape() as tape:
            y = _relu_network(x, w, v)
        return [g.numpy() for g in tape.gradient(y, [w, v], output_gradients=seed)]

    written = []
    rule = elementwise._relu.in_place_vjp
    monkeypatch.setattr(
        elementwise._relu, "in_place_vjp", lambda g, *a: written.append(g) or rule(g, *a)
    )
    seed = rng.normal(size=(4, 2))
    kept = seed.copy()
    got = gradients(seed)
    assert len(written) == 1  # h's; not a's or b's (shared), not the output's (the seed)
    np.testing.assert_array_equal(seed, kept)
    monkeypatch.setattr(elementwise._relu, "in_place_vjp", None)
    for g, expected in zip(got, gradients(seed), strict=True):
        np.testing.assert_array_equal(g, expected)


# Rules with a NumPy branch for raw arrays (the sweep's raw mode, where nothing records)
# give what the same rules give on Tensors (the recorded path), bit for bit, and no Tensor.
# name: (primitive, input shapes, params)
RAW_BRANCHES = {
    "matmul": (linalg._matmul, [(2, 3), (3, 4)], {}),
    "matmul batch": (linalg._matmul, [(2, 2, 3), (2, 3, 4)], {}),
    "add broadcast": (arithmetic._add, [(2, 3), (3,)], {}),
    "subtract broadcast": (arithmetic._subtract, [(2, 3), (2, 1)], {}),
    "multiply broadcast": (arithmetic._multiply, [(2, 1, 3), (4, 1)], {}),
    "broadcast_to": (shape._broadcast_to, [(3, 1)], {"shape": (2, 3, 4)}),
    "sum": (reductions._sum, [(2, 3, 4)], {"axis": (0, 2), "keepdims": False}),
    "sum keepdims": (reductions._sum, [(2, 3)], {"axis": (1,), "keepdims": True}),
    "logsumexp": (reductions._logsumexp, [(2, 3, 4)], {"axis": (1,), "keepdims": False}),
    "logsumexp keepdims": (reductions._logsumexp, [(3, 4)], {"axis": (0, 1), "keepdims": True}),
    "getitem": (indexing._getitem, [(3, 4)], {"index": (np.array([0, 2, 0]), slice(None))}),
    "getitem slice": (indexing._getitem, [(3, 4)], {"index": (slice(1, None), 2)}),
    "index_add": (indexing._index_add, [(3,)], {"shape": (4,), "index": (np.array([0, 1, 0]),)}),
}


@pytest.mark.parametrize("name", list(RAW_BRANCHES))
@given(data=st.data(), dtype=st.sampled_from([np.float64, np.float32]))
def test_raw_branches_match_the_rules_on_tensors(name, data, dtype):
    primitive, shapes, params = RAW_BRANCHES[name]
    inputs = [data.draw(tst.arrays(s), label=f"input {s}").astype(dtype) for s in shapes]
    if primitive is reductions._logsumexp and data.draw(st.booleans(), label="-inf"):
        inputs[0][0] = -np.inf  # a fully masked slice (its gradient is 0, not NaN)
    ans = primitive.forward(np, *inputs, **params)
    g = data.draw(tst.arrays(np.shape(ans)), label="g").astype(dtype)
    for k in range(len(inputs)):
        rule = primitive.rule(k)
        fast = rule(g, ans, *inputs, **params)
        general = rule(tg.tensor(g), tg.tensor(ans), *map(tg.tensor, inputs), **params)
        assert type(fast) is np.ndarray, type(fast)
        assert isinstance(general, tg.Tensor)
        general = general.numpy()
        assert fast.shape == general.shape == inputs[k].shape
        assert fast.dtype == general.dtype
        np.testing.assert_array_equal(fast, general)


@pytest.mark.parametrize("primitive", [linalg._matmul, linalg._matmul_add], ids=lambda p: p.name)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@given(data=st.data())
def test_matrix_rules_match_the_general_rules(primitive, dtype, data):
    m, k, n = (data.draw(st.integers(1, 6)) for _ in range(3))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x, y = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)
    inputs = (x, y) if primitive is linalg._matmul else (x, y, rng.standard_normal(n).astype(dtype))
    ans = primitive.numpy_forward(*inputs)
    g = rng.standard_normal(ans.shape).astype(dtype)
    assert primitive.matrix_vjps is not None and len(primitive.matrix_vjps) == len(inputs)
    for position in range(len(inputs)):
        general = primitive.vjps[position](g, ans, *inputs)
        fast = primitive.matrix_vjps[position](g, ans, *inputs)
        assert fast.dtype == general.dtype and fast.shape == inputs[position].shape
        np.testing.assert_array_equal(fast, general)  # the same products, bit for bit


def test_the_matrix_rules_are_inlined_in_a_replay_and_not_used_for_other_shapes():
    def f(x, w, v):
        return tg.sum((x @ w) @ v)

    rng = np.random.default_rng(2)
    for shapes in ([(5, 4), (4, 3), (3, 2)], [(2, 5, 4), (4, 3), (3,)]):
        args = [tg.tensor(rng.standard_normal(s)) for s in shapes]
        compiled = tg.compile(f)
        for _ in range(3):
            with tg.GradientTape() as tape:
                tape.watch(args)
                out = compiled(*args)
            got = tape.gradient(out, args)
        with tg.GradientTape() as tape:
            tape.watch(args)
            out = f(*args)
        for g, e in zip(got, tape.gradient(out, args)):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-13)
        inlined = ".T)" in compiled.source(*args).split("def sweep")[1]
        assert inlined == (len(shapes[0]) == 2)  # batched or vector operands: the general rules


@pytest.mark.parametrize(
    "primitive",
    [reductions._max, reductions._min, tg.ops.logical._all, tg.ops.logical._any],
    ids=lambda p: p.name,
)
@given(data=st.data())
def test_reductions_numpy_forwards_match_the_general_forward(primitive, data):
    # max, min, all and any call the ufunc's reduce that np.max/np.all call, without their
    # Python frames: the same values and dtypes for every axis, keepdims and dtype.
    dtype = data.draw(st.sampled_from([np.float64, np.float32, np.int64, np.int8, np.bool_]))
    x = (data.draw(tst.arrays(tst.shapes(0, 3))) * 2).astype(dtype)
    if x.size == 0:
        return  # (a max over nothing raises alike; not this test's subject)
    if dtype is np.float64 and x.size and data.draw(st.booleans()):
        x.reshape(-1)[0] = np.nan
    axes = data.draw(st.sampled_from([None, *[(k,) for k in range(x.ndim)], tuple(range(x.ndim))]))
    keepdims = data.draw(st.booleans())
    got = primitive.numpy_forward(x, axis=axes, keepdims=keepdims)
    want = primitive.forward(np, x, axis=axes, keepdims=keepdims)
    assert type(got) is type(want) and np.asarray(got).dtype == np.asarray(want).dtype
    np.testing.assert_array_equal(got, want)
