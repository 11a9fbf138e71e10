"""tg.nn.cross_entropy's common case (integer labels, no class weights, no smoothing, "mean"
or "sum") is one primitive, softmax_cross_entropy (tapegrad/ops/nn.py): the same values and
gradients as the composed path (taken with class weights of one), any shape of logits,
ignored labels, float32, second order, vmap's per-example gradients and tg.compile's replays
with new labels."""

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad import nn
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


@st.composite
def problems(draw):
    """Logits of shape (C,), (N, C) or (N, C, d), labels with some ignored (-100)."""
    classes = draw(st.integers(1, 4))
    shape = draw(st.sampled_from([(classes,), (3, classes), (2, classes, 2)]))
    logits = draw(tst.arrays(shape), label="logits")
    label_shape = () if len(shape) == 1 else (shape[0], *shape[2:])
    labels = draw(
        tst.hnp.arrays(np.int64, label_shape, elements=st.integers(-1, classes - 1)),
        label="labels",
    )
    labels = np.where(labels < 0, -100, labels)
    if not (labels != -100).any():  # at least one kept (all ignored is the mean of nothing)
        labels = np.zeros_like(labels)
    return logits, labels


@given(problem=problems(), reduction=st.sampled_from(["mean", "sum"]))
def test_equals_the_composed_path_and_finite_differences(problem, reduction):
    logits, labels = problem
    ones = np.ones(logits.shape[0 if logits.ndim == 1 else 1])

    def fused(x):
        return nn.cross_entropy(x, labels, reduction=reduction)

    def composed(x):
        return nn.cross_entropy(x, labels, weight=ones, reduction=reduction)

    x = tg.tensor(logits)
    np.testing.assert_allclose(fused(x).numpy(), composed(x).numpy(), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(
        tg.grad(fused)(logits), tg.grad(composed)(logits), rtol=1e-10, atol=1e-14
    )
    gradcheck(fused, [x])
    gradgradcheck(fused, [x])


def test_the_common_case_records_one_entry_and_keeps_float32():
    x = tg.tensor(np.random.default_rng(0).standard_normal((4, 3)).astype(np.float32))
    with tg.GradientTape() as tape:
        tape.watch(x)
        loss = nn.cross_entropy(x, [0, 2, 1, 2])
    assert [entry.primitive.name for entry in tape] == ["softmax_cross_entropy"]
    g = tape.gradient(loss, x)
    assert loss.dtype == g.dtype == np.float32
    p = np.exp(x.numpy()) / np.exp(x.numpy()).sum(axis=1, keepdims=True)
    p[np.arange(4), [0, 2, 1, 2]] -= 1.0
    np.testing.assert_allclose(g.numpy(), p / 4, rtol=1e-5, atol=1e-7)


def test_huge_and_minus_infinite_logits():
    # A row's peak is subtracted first: 1e4 does not overflow; a class at -inf has
    # probability 0 and gradient 0, as in the composed path.
    logits = np.array([[1e4, 0.0, -np.inf], [0.0, 1e4, 1.0]])
    g = tg.grad(lambda x: nn.cross_entropy(x, [0, 1]))(logits)
    assert nn.cross_entropy(tg.tensor(logits), [0, 1]).item() == 0.0
    np.testing.assert_array_equal(g, np.zeros_like(logits))


def test_per_example_gradients_under_vmap_equal_a_loop():
    rng = np.random.default_rng(1)
    w = tg.tensor(rng.standard_normal((3, 4)))
    xs, ys = rng.standard_normal((5, 3)), rng.integers(0, 4, 5)

    def loss(w, x, y):
        return nn.cross_entropy(tg.reshape(x @ w, (1, 4)), tg.reshape(y, (1,)))

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a batching rule, not the loop fallback
        batched = tg.vmap(tg.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
    looped = [tg.grad(loss)(w, tg.tensor(x), tg.tensor(y)).numpy() for x, y in zip(xs, ys)]
    np.testing.assert_allclose(batched.numpy(), np.stack(looped), rtol=1e-12)


def test_compiled_loss_reads_new_labels_on_every_call():
    rng = np.random.default_rng(2)
    w = tg.Variable(rng.standard_normal((3, 4)))
    x = tg.tensor(rng.standard_normal((6, 3)))
    compiled = tg.compile(lambda x, y: nn.cross_entropy(x @ w, y))
    for labels in ([0, 1, 2, 3, 0, 1], [3, 3, 3, 0, -100, 2], [1, 1, 1, 1, 1, 1]):
        y = tg.tensor(np.array(labels))
        with tg.GradientTape() as tape:
            replayed = compiled(x, y)
        with tg.GradientTape() as eager_tape:
            eager = nn.cross_entropy(x @ w, y)
        np.testing.assert_allclose(replayed.numpy(), eager.numpy(), rtol=1e-12)
        np.testing.assert_allclose(
            tape.gradient(replayed, w).numpy(), eager_tape.gradient(eager, w).numpy(), rtol=1e-12
        )


def test_bad_labels_leave_the_tape_as_it_was():
    x = tg.tensor(np.zeros((2, 3)))
    with tg.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(ValueError, match=r"cross_entropy: labels range over \[0, 3\]"):
            nn.cross_entropy(x, [0, 3])
    assert len(tape) == 0


def test_under_vmap_an_example_without_a_kept_label_is_a_clear_error():
    xs = tg.tensor(np.zeros((2, 1, 3)))
    ys = tg.tensor(np.array([[0], [-100]]))
    with pytest.raises(ValueError, match="cross_entropy: under tg.vmap, an example's labels"):
        tg.vmap(nn.cross_entropy)(xs, ys)
