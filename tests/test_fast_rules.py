"""Fast paths agree with the general ones: shortcut gradient rules
(Primitive.defvjp_same_shape) and NumPy forwards (Primitive(numpy=...))."""

import importlib
import pkgutil

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.ops import arithmetic, elementwise
from tapegrad.testing import strategies as tst

PRIMITIVES = [arithmetic._add, arithmetic._subtract, arithmetic._multiply, arithmetic._divide]
UNARY = [elementwise._relu]


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
