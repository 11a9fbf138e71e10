"""Shortcut gradient rules (Primitive.defvjp_same_shape) agree with the general rules."""

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
