"""Tests of tapegrad/ops/nondifferentiable.py: comparisons, argmax argmin sign floor ceil
round match NumPy and record nothing on a tape, so their results carry no gradient."""

import numpy as np
import pytest
from helpers import assert_matches, axes
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.testing import strategies as tst

COMPARISONS = [
    (tg.equal, np.equal),
    (tg.not_equal, np.not_equal),
    (tg.less, np.less),
    (tg.less_equal, np.less_equal),
    (tg.greater, np.greater),
    (tg.greater_equal, np.greater_equal),
]
OPERATORS = {
    "==": (lambda a, b: a == b, np.equal),
    "!=": (lambda a, b: a != b, np.not_equal),
    "<": (lambda a, b: a < b, np.less),
    "<=": (lambda a, b: a <= b, np.less_equal),
    ">": (lambda a, b: a > b, np.greater),
    ">=": (lambda a, b: a >= b, np.greater_equal),
}
ROUNDING = [(tg.sign, np.sign), (tg.floor, np.floor), (tg.ceil, np.ceil), (tg.round, np.round)]
# Values on a half-integer grid: ties between x and y, and rounding halves, are common.
HALVES = st.integers(-6, 6).map(lambda k: k / 2)


def _grid_array(data, shape, label="x"):
    return data.draw(tst.hnp.arrays(np.float64, shape, elements=HALVES), label=label)


def _records_nothing(op, *inputs):
    """Run ``op`` under a tape that watches the float inputs; return its result."""
    with tg.GradientTape(persistent=True) as tape:
        tape.watch([x for x in inputs if isinstance(x, tg.Tensor)])
        before = len(tape)
        out = op(*inputs)
        assert len(tape) == before, str(tape)
    for x in inputs:
        if isinstance(x, tg.Tensor):
            assert tape.gradient(out, x) is None
            zero = tape.gradient(out, x, unconnected_gradients="zero")
            np.testing.assert_array_equal(zero.numpy(), np.zeros(x.shape))
    return out


@pytest.mark.filterwarnings("ignore:gradient. every gradient is None")  # tested in test_explain
@pytest.mark.parametrize(("op", "reference"), COMPARISONS, ids=[r.__name__ for _, r in COMPARISONS])
@given(data=tst.st.data())
def test_comparisons(op, reference, backend, data):
    sx, sy = data.draw(tst.broadcastable_shapes(max_side=3), label="shapes")
    x = backend.tensor(_grid_array(data, sx, "x"))
    y = backend.tensor(_grid_array(data, sy, "y"))
    out = _records_nothing(op, x, y)
    assert_matches(out, reference(x.numpy(), y.numpy()))


@pytest.mark.parametrize("symbol", sorted(OPERATORS))
def test_comparison_operators(symbol, backend):
    op, reference = OPERATORS[symbol]
    x = backend.tensor(np.array([1.0, 2.0, 3.0]))
    out = _records_nothing(op, x, 2.0)
    assert_matches(out, reference(x.numpy(), 2.0))
    assert_matches(_records_nothing(lambda a: op(2.0, a), x), reference(2.0, x.numpy()))


@pytest.mark.parametrize(("op", "reference"), ROUNDING, ids=[r.__name__ for _, r in ROUNDING])
@given(data=tst.st.data())
def test_rounding(op, reference, backend, data):
    x = backend.tensor(_grid_array(data, data.draw(tst.shapes(max_side=3))))
    out = _records_nothing(op, x)
    assert_matches(out, reference(x.numpy()))


def test_round_halves_to_even(backend):
    x = backend.tensor(np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5]))
    np.testing.assert_array_equal(tg.round(x).numpy(), [-2.0, -2.0, -0.0, 0.0, 2.0, 2.0])


@pytest.mark.parametrize("keepdims", [False, True], ids=["drop", "keepdims"])
@pytest.mark.parametrize(("op", "reference"), [(tg.argmax, np.argmax), (tg.argmin, np.argmin)])
@given(data=tst.st.data())
def test_arg_extrema(op, reference, keepdims, backend, data):
    # Ties pick the first occurrence, as in NumPy.
    x = backend.tensor(_grid_array(data, data.draw(tst.shapes(max_side=3))))
    axis = data.draw(axes(x.ndim, single=True))
    out = _records_nothing(lambda a: op(a, axis=axis, keepdims=keepdims), x)
    expected = reference(x.numpy(), axis=axis, keepdims=keepdims)
    assert out.shape == np.shape(expected)
    np.testing.assert_array_equal(out.numpy(), expected)
    assert np.issubdtype(out.numpy().dtype, np.integer)


def test_method_forms(backend):
    x = backend.tensor(np.array([[1.0, 5.0], [7.0, 2.0]]))
    np.testing.assert_array_equal(x.argmax(axis=1).numpy(), [1, 0])
    np.testing.assert_array_equal(x.argmin().numpy(), 0)


@pytest.mark.parametrize(
    ("op", "expected"),
    [
        (lambda a, i: tg.floor(a) * a, [1.0, 2.0, -1.0]),
        (lambda a, i: tg.sign(a) * a, [1.0, 1.0, -1.0]),
        (lambda a, i: tg.where(a > 1.0, a, 0.0), [1.0, 1.0, 0.0]),
        (lambda a, i: a * tg.astype(tg.argmax(a) == i, a.dtype), [0.0, 1.0, 0.0]),
    ],
    ids=["floor", "sign", "comparison", "argmax"],
)
def test_results_act_as_constants_downstream(op, expected, backend):
    x = backend.tensor(np.array([1.5, 2.5, -0.5]))
    positions = backend.tensor(np.arange(3))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = op(x, positions)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), expected)
