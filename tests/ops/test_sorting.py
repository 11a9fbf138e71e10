"""Gradient checks of tapegrad/ops/sorting.py and sets.py."""

import numpy as np
import pytest
from helpers import assert_matches, axes, separated, value_and_gradients
from hypothesis import given, settings
from hypothesis.extra import numpy as hnp

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


@given(data=tst.st.data())
def test_sort_and_partition(backend, data):
    shape = data.draw(tst.shapes(min_dims=1, max_side=4), label="shape")
    (values,) = data.draw(separated(shape))
    x = backend.tensor(values)
    axis = data.draw(axes(x.ndim, single=True))
    assert_matches(tg.sort(x, axis=axis), np.sort(values, axis=axis))
    assert_matches(tg.argsort(x, axis=axis), np.argsort(values, axis=axis, kind="stable"))
    gradcheck(lambda a: tg.sort(a, axis=axis), [x])
    gradgradcheck(lambda a: tg.sort(a, axis=axis) ** 2, [x])
    n = values.size if axis is None else values.shape[axis]
    kth = data.draw(tst.st.integers(0, n - 1), label="kth")
    expected = np.partition(values, kth, axis=axis)
    got = tg.partition(x, kth, axis=axis)
    assert_matches(got, expected)
    gradcheck(lambda a: tg.partition(a, kth, axis=axis), [x])


def test_sort_puts_nan_last_and_ties_in_stable_order(backend):
    values = np.array([2.0, np.nan, 1.0, 2.0])
    x = backend.tensor(values)
    assert_matches(tg.sort(x), np.sort(values))
    # the tied 2.0s keep their order: the first goes to position 1, the second to 2
    weights = backend.tensor(np.array([1.0, 10.0, 100.0, 0.0]))
    _, (g,) = value_and_gradients(lambda a: tg.sort(a) * weights, x)
    np.testing.assert_array_equal(g.numpy(), [10.0, 0.0, 1.0, 100.0])


def test_no_gradient_functions_return_integers(backend):
    values = np.array([[3.0, 1.0, 2.0], [0.5, 0.25, 4.0]])
    x = backend.tensor(values)
    assert_matches(tg.argpartition(x, 1), np.argpartition(values, 1))
    assert_matches(tg.searchsorted(x[0, 1:], x[1]), np.searchsorted(values[0, 1:], values[1]))
    assert_matches(tg.lexsort([x[0], x[1]]), np.lexsort([values[0], values[1]]))
    assert_matches(
        tg.searchsorted(x[1], 1.0, side="right"), np.searchsorted(values[1], 1.0, "right")
    )


@settings(max_examples=10)
@given(data=tst.st.data())
def test_unique_values_carry_the_gradient(backend, data):
    values = data.draw(
        hnp.arrays(np.float64, (2, 5), elements=tst.st.sampled_from([0.0, 1.5, 2.0]))
    )
    x = backend.tensor(values)
    for axis in (None, 1):
        got = tg.unique(x, return_index=True, return_inverse=True, return_counts=True, axis=axis)
        expected = np.unique(values, True, True, True, axis=axis)
        for g, e in zip(got, expected):
            assert_matches(g, e)
    (distinct,) = data.draw(separated((2, 5)))
    gradcheck(tg.unique, [backend.tensor(distinct)])
    assert_matches(tg.unique_values(x), np.unique_values(values))
    for ours, theirs in [(tg.unique_all(x), np.unique_all(values)),
                         (tg.unique_counts(x), np.unique_counts(values)),
                         (tg.unique_inverse(x), np.unique_inverse(values))]:  # fmt: skip
        for g, e in zip(ours, theirs):
            assert_matches(g, e)


def test_unique_gradient_goes_to_the_first_occurrence():
    x = tg.tensor([2.0, 1.0, 2.0])
    _, (g,) = value_and_gradients(tg.unique, x)
    np.testing.assert_array_equal(g.numpy(), [1.0, 1.0, 0.0])


@pytest.mark.parametrize(
    ("op", "reference"),
    [
        (tg.union1d, np.union1d),
        (tg.intersect1d, np.intersect1d),
        (tg.setdiff1d, np.setdiff1d),
        (tg.setxor1d, np.setxor1d),
    ],
    ids=["union1d", "intersect1d", "setdiff1d", "setxor1d"],
)
def test_set_operations(op, reference, backend):
    a, b = np.array([3.0, 1.0, 2.0, 3.0, 5.0]), np.array([2.0, 4.0, 5.0, 5.0])
    x, y = backend.tensor(a), backend.tensor(b)
    assert_matches(op(x, y), reference(a, b))
    # Each value comes from one input element (the structure changes under any
    # perturbation that splits equal values, so finite differences do not apply here)
    weights = np.arange(1.0, len(reference(a, b)) + 1.0)
    _, grads = value_and_gradients(lambda p, q: op(p, q) * backend.tensor(weights), x, y)
    picked = np.concatenate([np.zeros(0)] + [g.numpy() for g in grads if g is not None])
    assert sorted(picked[picked != 0].tolist()) == weights.tolist()
    if op is tg.intersect1d:
        for got, want in zip(op(x, y, return_indices=True), reference(a, b, return_indices=True)):
            assert_matches(got, want)
