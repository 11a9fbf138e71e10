"""Property-based gradient checks of tapegrad/ops/nn.py (softmax, log_softmax) and of the
stability of the logsumexp they are built on."""

import numpy as np
import pytest
from helpers import assert_dtype, assert_matches, value_and_gradients
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


def _np_log_softmax(x, axis):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))


def _np_softmax(x, axis):
    return np.exp(_np_log_softmax(x, axis))


OPS = [(tg.softmax, _np_softmax), (tg.log_softmax, _np_log_softmax)]
IDS = ["softmax", "log_softmax"]


def _input_and_axis(data, backend, **sizes):
    x = backend.tensor(data.draw(tst.arrays(tst.shapes(min_dims=1, **sizes)), label="x"))
    return x, data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")


@pytest.mark.parametrize(("op", "reference"), OPS, ids=IDS)
@given(data=tst.st.data())
def test_value_and_gradient(op, reference, backend, data):
    x, axis = _input_and_axis(data, backend, max_side=3)
    assert_matches(op(x, axis=axis), reference(x.numpy(), axis), rtol=1e-12)
    gradcheck(lambda a: op(a, axis=axis), [x])


@pytest.mark.parametrize(("op", "reference"), OPS, ids=IDS)
@given(data=tst.st.data())
def test_second_derivative(op, reference, backend, data):
    x, axis = _input_and_axis(data, backend, max_dims=2, max_side=3)
    gradgradcheck(lambda a: op(a, axis=axis), [x])


@given(data=tst.st.data())
def test_softmax_sums_to_one_and_is_shift_invariant(backend, data):
    x, axis = _input_and_axis(data, backend, max_side=3)
    p = tg.softmax(x, axis=axis).numpy()
    np.testing.assert_allclose(p.sum(axis=axis), 1.0, rtol=1e-12)
    np.testing.assert_allclose(tg.softmax(x + 500.0, axis=axis).numpy(), p, rtol=1e-9, atol=1e-15)


@pytest.mark.parametrize(("op", "reference"), OPS, ids=IDS)
def test_stable_for_large_magnitudes(op, reference, backend):
    values = np.array([[1000.0, 999.0, -1000.0], [-1e4, -1e4 + 1.0, -1e4 + 2.0]])
    x = backend.tensor(values)
    weights = backend.tensor(np.array([1.0, 2.0, 3.0]))
    y, (g,) = value_and_gradients(lambda a: op(a, axis=1) * weights, x)
    assert np.all(np.isfinite(y.numpy())) and np.all(np.isfinite(g.numpy()))
    # x - logsumexp(x) cancels at |x| = 1e4: absolute error about ulp(1e4) ~ 2e-12
    expected = reference(values, 1) * [1.0, 2.0, 3.0]
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-12, atol=1e-10)


def test_masked_entries_get_zero_probability_and_zero_gradient(backend):
    # -inf is the usual mask: exp(-inf - logsumexp) = 0, with no NaN in the gradient.
    x = backend.tensor(np.array([[0.0, -np.inf, 1.0], [2.0, 2.0, -np.inf]]))
    weights = backend.tensor(np.array([1.0, 2.0, 3.0]))
    p, (g,) = value_and_gradients(lambda a: tg.softmax(a, axis=1) * weights, x)
    expected = np.array([[1.0, 0.0, np.e], [1.0, 1.0, 0.0]])
    expected /= expected.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(p.numpy(), expected * weights.numpy(), rtol=1e-14)
    assert np.all(np.isfinite(g.numpy()))
    np.testing.assert_array_equal(g.numpy()[[0, 1], [1, 2]], 0.0)


@pytest.mark.parametrize("op", [tg.softmax, tg.log_softmax, tg.logsumexp])
def test_float32_stays_float32(op, backend):
    x = backend.tensor(np.array([[0.5, 1.5, -2.0], [80.0, 90.0, 100.0]], dtype=np.float32))
    y, (g,) = value_and_gradients(lambda a: op(a, axis=-1), x)
    assert_dtype(np.float32, y, g)
    assert np.all(np.isfinite(y.numpy())) and np.all(np.isfinite(g.numpy()))


def test_float32_logsumexp_does_not_overflow(backend):
    # exp(100) overflows float32 unless the maximum is subtracted first.
    x = backend.tensor(np.array([100.0, 100.0], dtype=np.float32))
    np.testing.assert_allclose(tg.logsumexp(x).numpy(), 100 + np.log(2), rtol=1e-6)


def test_the_cross_entropy_rule_reuses_the_forwards_softmax_and_lets_it_go():
    import gc

    from tapegrad.ops import nn as nn_ops

    rng = np.random.default_rng(0)
    logits = tg.tensor(rng.standard_normal((64, 10)).astype(np.float32))
    labels = rng.integers(0, 10, 64)

    def gradient(logits):
        with tg.GradientTape() as tape:
            tape.watch(logits)
            loss = tg.nn.cross_entropy(logits, labels)
        return tape.gradient(loss, logits).numpy()

    stashed = gradient(logits)
    assert id(logits._data) in nn_ops._stashed
    nn_ops._stashed.clear()  # the rule computes the softmax itself: the same bits
    with tg.GradientTape() as tape:
        tape.watch(logits)
        loss = tg.nn.cross_entropy(logits, labels)
    nn_ops._stashed.clear()
    np.testing.assert_array_equal(tape.gradient(loss, logits).numpy(), stashed)
    gradient(logits)
    key = id(logits._data)
    del logits, tape, loss
    gc.collect()
    assert key not in nn_ops._stashed  # gone with the logits
