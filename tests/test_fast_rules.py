"""Shortcut gradient rules (Primitive.defvjp_same_shape) agree with the general rules."""

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
UNARY = [elementwise._relu]


def test_the_list_covers_every_primitive_with_shortcuts():
    modules = [
        importlib.import_module(f"tapegrad.ops.{info.name}")
        for info in pkgutil.iter_modules(tg.ops.__path__)
    ]
    found = {
        value
        for module in modules
        for value in vars(module).values()
        if isinstance(value, tg.Primitive) and value.same_shape_vjps is not None
    }
    assert found == set(PRIMITIVES + UNARY)


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
