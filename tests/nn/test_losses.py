"""tapegrad/nn/losses.py: values against NumPy formulas, gradients, stability, bad labels."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad import nn
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


@st.composite
def logits_and_labels(draw):
    n, classes = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    logits = draw(tst.arrays((n, classes)), label="logits")
    labels = draw(tst.hnp.arrays(np.int64, (n,), elements=st.integers(0, classes - 1)))
    return logits, labels


def cross_entropy_numpy(logits, labels):
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return -log_probs[np.arange(len(labels)), labels]


@given(
    shape=tst.shapes(max_dims=3, max_side=3),
    reduction=st.sampled_from(["mean", "sum", "none"]),
    data=st.data(),
)
def test_mse_loss(backend, shape, reduction, data):
    pred, target = (backend.tensor(data.draw(tst.arrays(shape))) for _ in range(2))
    squares = (pred.numpy() - target.numpy()) ** 2
    expected = {"mean": squares.mean(), "sum": squares.sum(), "none": squares}[reduction]
    out = nn.mse_loss(pred, target, reduction)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12)
    gradcheck(lambda p, t: nn.mse_loss(p, t, reduction), [pred, target])


@given(pair=logits_and_labels(), reduction=st.sampled_from(["mean", "sum", "none"]))
def test_cross_entropy_value_and_gradient(backend, pair, reduction):
    logits, labels = pair
    x = backend.tensor(logits)
    per_example = cross_entropy_numpy(logits, labels)
    expected = {"mean": per_example.mean(), "sum": per_example.sum(), "none": per_example}
    out = nn.cross_entropy(x, labels, reduction)
    np.testing.assert_allclose(out.numpy(), expected[reduction], rtol=1e-12, atol=1e-12)
    gradcheck(lambda x: nn.cross_entropy(x, labels, reduction), [x])


@settings(max_examples=5)
@given(pair=logits_and_labels())
def test_cross_entropy_second_derivative(pair):
    logits, labels = pair
    gradgradcheck(lambda x: nn.cross_entropy(x, labels), [tg.tensor(logits)])


def test_cross_entropy_gradient_is_softmax_minus_one_hot_over_n():
    logits = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]])
    labels = tg.tensor([2, 0])
    x = tg.tensor(logits)
    with tg.GradientTape() as tape:
        tape.watch(x)
        loss = nn.cross_entropy(x, labels)
    softmax = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy(), (softmax - np.eye(3)[[2, 0]]) / 2)


def test_cross_entropy_is_stable_for_huge_logits_and_keeps_float32():
    x = tg.tensor([[1000.0, -1000.0, 0.0], [-5e4, 5e4, 0.0]], dtype=np.float32)
    with tg.GradientTape() as tape:
        tape.watch(x)
        loss = nn.cross_entropy(x, [1, 1])
    grad = tape.gradient(loss, x)
    assert loss.dtype == np.float32 and grad.dtype == np.float32
    np.testing.assert_allclose(loss.item(), 1000.0, rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), [[0.5, -0.5, 0.0], [0.0, 0.0, 0.0]], atol=1e-6)


@pytest.mark.parametrize(
    ("logits", "labels", "message"),
    [
        (np.zeros((2, 3)), [0, 3], r"labels range over \[0, 3\], outside \[0, 3\) .* \(2, 3\)"),
        (np.zeros((2, 3)), [-1, 0], "outside"),
        (np.zeros((2, 3)), [0.0, 1.0], r"integer class indices, got float64 of shape \(2,\)"),
        (np.zeros((2, 3)), [0, 1, 2], r"labels of shape \(3,\) do not match logits .* \(2, 3\)"),
        (np.zeros((2, 3)), [[0], [1]], r"labels of shape \(2, 1\)"),
        (np.zeros(3), [0], r"logits must have shape \(N, C\), got \(3,\)"),
    ],
)
def test_cross_entropy_rejects_bad_labels(logits, labels, message):
    x = tg.tensor(logits)
    with tg.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(ValueError, match="cross_entropy: .*" + message):
            nn.cross_entropy(x, labels)
    assert len(tape) == 0


def test_unknown_reduction_raises_before_any_work():
    x = tg.tensor(np.zeros((1, 2)))
    with tg.GradientTape() as tape:
        tape.watch(x)
        for call in (
            lambda: nn.cross_entropy(x, [0], reduction="avg"),
            lambda: nn.mse_loss(x, x, reduction="avg"),
            lambda: nn.binary_cross_entropy_with_logits(x, np.zeros((1, 2)), reduction="avg"),
        ):
            with pytest.raises(ValueError, match="reduction must be one of"):
                call()
    assert len(tape) == 0


def bce_numpy(x, t):
    p = 1 / (1 + np.exp(-x))
    return -(t * np.log(p) + (1 - t) * np.log(1 - p))


@given(
    shape=tst.shapes(max_dims=2, max_side=4),
    reduction=st.sampled_from(["mean", "sum", "none"]),
    data=st.data(),
)
def test_binary_cross_entropy_with_logits(backend, shape, reduction, data):
    x = backend.tensor(data.draw(tst.arrays(shape), label="logits"))
    # inside (0, 1) by more than gradcheck's step: the loss refuses targets outside [0, 1]
    t = backend.tensor(data.draw(tst.arrays(shape, domain="small"), label="targets") * 0.49 + 0.5)
    per_element = bce_numpy(x.numpy(), t.numpy())
    expected = {"mean": per_element.mean(), "sum": per_element.sum(), "none": per_element}
    out = nn.binary_cross_entropy_with_logits(x, t, reduction)
    np.testing.assert_allclose(out.numpy(), expected[reduction], rtol=1e-10, atol=1e-12)
    gradcheck(lambda x: nn.binary_cross_entropy_with_logits(x, t, reduction), [x])
    # With Tensor targets of the logits' dtype, the targets get a gradient too.
    gradcheck(lambda x, t: nn.binary_cross_entropy_with_logits(x, t, reduction), [x, t])


@settings(max_examples=5)
@given(data=st.data())
def test_binary_cross_entropy_second_derivative(data):
    x = tg.tensor(data.draw(tst.arrays((3,)), label="logits"))
    t = data.draw(tst.arrays((3,), domain="small"), label="targets") * 0.5 + 0.5
    gradgradcheck(lambda x: nn.binary_cross_entropy_with_logits(x, t), [x])


def test_binary_cross_entropy_is_stable_for_huge_logits():
    x = tg.tensor([1000.0, -1000.0, 1000.0])
    loss = nn.binary_cross_entropy_with_logits(x, [1.0, 0.0, 0.0], reduction="none")
    np.testing.assert_allclose(loss.numpy(), [0.0, 0.0, 1000.0])
    assert nn.binary_cross_entropy_with_logits(x, [1, 0, 1]).dtype == np.float64


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        ([0.5, 1.5], r"range over \[0.5, 1.5\], outside \[0, 1\]"),
        ([0.5], r"targets of shape \(1,\) do not match logits of shape \(2,\)"),
        (["a", "b"], "must be real numbers"),
    ],
)
def test_binary_cross_entropy_rejects_bad_targets(targets, message):
    with pytest.raises(ValueError, match="binary_cross_entropy_with_logits: .*" + message):
        nn.binary_cross_entropy_with_logits(tg.zeros(2), targets)


def test_mse_loss_does_not_broadcast():
    with pytest.raises(ValueError, match=r"mse_loss: pred of shape \(3, 1\) and target .* \(3,\)"):
        nn.mse_loss(tg.zeros((3, 1)), tg.zeros(3))
