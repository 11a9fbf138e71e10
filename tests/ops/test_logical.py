"""Tests of tapegrad/ops/logical.py: predicates and bit operations accept Tensors, agree
with NumPy and record nothing."""

import numpy as np
import pytest
from helpers import assert_matches

import tapegrad as tg

VALUES = np.array([[-1.5, 0.0, np.nan], [np.inf, -np.inf, 2.0]])
INTEGERS = np.array([[6, 0, -3], [12, 5, 7]])
UNARY = {
    "isnan": (tg.isnan, np.isnan, VALUES),
    "isfinite": (tg.isfinite, np.isfinite, VALUES),
    "isinf": (tg.isinf, np.isinf, VALUES),
    "isposinf": (tg.isposinf, np.isposinf, VALUES),
    "isneginf": (tg.isneginf, np.isneginf, VALUES),
    "signbit": (tg.signbit, np.signbit, VALUES),
    "logical_not": (tg.logical_not, np.logical_not, VALUES),
    "invert": (tg.invert, np.invert, INTEGERS),
    "bitwise_count": (tg.bitwise_count, np.bitwise_count, INTEGERS),
}
BINARY = {
    "logical_and": (tg.logical_and, np.logical_and, VALUES),
    "logical_or": (tg.logical_or, np.logical_or, VALUES),
    "logical_xor": (tg.logical_xor, np.logical_xor, VALUES),
    "bitwise_and": (tg.bitwise_and, np.bitwise_and, INTEGERS),
    "bitwise_or": (tg.bitwise_or, np.bitwise_or, INTEGERS),
    "bitwise_xor": (tg.bitwise_xor, np.bitwise_xor, INTEGERS),
    "left_shift": (tg.left_shift, np.left_shift, np.abs(INTEGERS) % 4),
    "right_shift": (tg.right_shift, np.right_shift, np.abs(INTEGERS)),
    "gcd": (tg.gcd, np.gcd, INTEGERS),
    "lcm": (tg.lcm, np.lcm, INTEGERS),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name, backend):
    op, reference, values = UNARY[name]
    x = backend.tensor(values)
    with tg.GradientTape() as tape:
        tape.watch(x) if values.dtype.kind == "f" else None
        out = op(x)
    assert_matches(out, reference(values))
    assert len(tape) == 0


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary(name, backend):
    op, reference, values = BINARY[name]
    x, y = backend.tensor(values), backend.tensor(values[::-1])
    assert_matches(op(x, y), reference(values, values[::-1]))


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_all_any_count_nonzero(axis, keepdims, backend):
    values = np.array([[1.0, 0.0, 2.0], [3.0, 4.0, 5.0]])
    x = backend.tensor(values)
    assert_matches(tg.all(x, axis=axis, keepdims=keepdims), np.all(values, axis, keepdims=keepdims))
    assert_matches(tg.any(x, axis=axis, keepdims=keepdims), np.any(values, axis, keepdims=keepdims))
    assert_matches(
        tg.count_nonzero(x, axis=axis, keepdims=keepdims),
        np.count_nonzero(values, axis=axis, keepdims=keepdims),
    )


def test_closeness(backend):
    a = np.array([1.0, np.nan, np.inf, 2.0])
    b = np.array([1.0 + 1e-9, np.nan, np.inf, 2.1])
    x, y = backend.tensor(a), backend.tensor(b)
    for equal_nan in (False, True):
        assert_matches(tg.isclose(x, y, equal_nan=equal_nan), np.isclose(a, b, equal_nan=equal_nan))
        assert tg.allclose(x[:1], y[:1]) is True
        assert tg.array_equal(x, x, equal_nan=equal_nan) == np.array_equal(
            a, a, equal_nan=equal_nan
        )
    assert tg.array_equal(x, y[:2]) is False
    assert tg.array_equiv(x[:1], backend.tensor(np.ones((2, 1)))) is True
    assert tg.array_equiv(x, backend.tensor(np.ones(3))) is False
