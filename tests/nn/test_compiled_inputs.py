"""tg.compile replays of the nn functions that read integer or boolean inputs (class labels,
masks, indices): a replay reads the new values, as the eager call does, and checks them.

The labels' and masks' values used to be read on the host while recording, so a replay
reused the first call's labels and masks: a silently wrong loss and gradient.
"""

import math

import numpy as np
import pytest

import tapegrad as tg

RNG = np.random.default_rng(0)


def _replays_equal_eager(f, calls, variables):
    compiled = tg.compile(f)
    for args in calls:
        with tg.GradientTape() as tape:
            got = compiled(*args)
        got_grads = tape.gradient(got, variables)
        with tg.GradientTape() as tape:
            want = f(*args)
        want_grads = tape.gradient(want, variables)
        np.testing.assert_array_equal(got.numpy(), want.numpy())
        for g, w in zip(got_grads, want_grads, strict=True):
            np.testing.assert_array_equal(g.numpy(), w.numpy())
    return compiled


W = tg.Variable(RNG.normal(size=(5, 4)))
X = tg.tensor(RNG.normal(size=(6, 5)))
LABELS = [tg.tensor(RNG.integers(0, 4, 6)) for _ in range(4)]


@pytest.mark.parametrize(
    "loss",
    [
        lambda x, y: tg.nn.cross_entropy(x @ W, y),
        lambda x, y: tg.nn.cross_entropy(x @ W, y, reduction="sum"),
        lambda x, y: tg.nn.cross_entropy(x @ W, y, reduction="none"),
        lambda x, y: tg.nn.cross_entropy(
            x @ W, y, weight=[1.0, 2.0, 0.5, 1.0], ignore_index=1, label_smoothing=0.1
        ),
        lambda x, y: tg.nn.nll_loss(tg.log_softmax(x @ W, axis=1), y, ignore_index=2),
    ],
    ids=["cross_entropy", "sum", "none", "weighted_ignored_smoothed", "nll_loss"],
)
def test_a_replay_reads_new_labels(loss):
    def scalar(x, y):
        return tg.sum(loss(x, y))

    compiled = _replays_equal_eager(scalar, [(X, y) for y in LABELS], [W])
    assert compiled.traces == 1


def test_a_replay_checks_new_labels_and_all_ignored_batches():
    f = tg.compile(lambda x, y: tg.nn.cross_entropy(x @ W, y, ignore_index=3))
    f(X, LABELS[0])
    with pytest.raises(ValueError, match=r"cross_entropy: labels range over \[0, 7\]"):
        f(X, tg.tensor([0, 1, 2, 7, 0, 1]))
    assert math.isnan(f(X, tg.tensor([3] * 6)).item())  # a mean over no label, as eager


def test_a_replay_reads_new_attention_masks():
    mha = tg.nn.MultiheadAttention(4, 2, batch_first=True)
    q = tg.tensor(RNG.normal(size=(2, 3, 4)))

    def padded(q, mask):
        out, _ = mha(q, q, q, key_padding_mask=mask)
        return tg.sum(out**2)

    masks = [[[False, False, True], [False, True, True]], [[False, True, True], [False] * 3]]
    _replays_equal_eager(padded, [(q, tg.tensor(m)) for m in masks * 2], mha.trainable_variables)

    v = tg.Variable(RNG.normal(size=(2, 3, 4)))

    def masked(mask):
        return tg.sum(tg.nn.scaled_dot_product_attention(v, v, v, attn_mask=mask) ** 2)

    lower = np.tril(np.ones((3, 3), bool))
    _replays_equal_eager(masked, [(tg.tensor(m),) for m in (lower, lower.T, np.eye(3) > 0)], [v])


def test_a_replay_reads_new_embedding_indices():
    table = tg.Variable(RNG.normal(size=(6, 2)))

    def looked_up(indices):
        return tg.sum(tg.nn.embedding(indices, table) ** 2)

    calls = [(tg.tensor(RNG.integers(0, 6, 5)),) for _ in range(3)]
    _replays_equal_eager(looked_up, calls, [table])


def test_a_replay_checks_new_embedding_indices():
    table = tg.Variable(RNG.normal(size=(6, 2)))
    looked_up = tg.compile(lambda indices: tg.sum(tg.nn.embedding(indices, table)))
    looked_up(tg.tensor([0, 5, 2]))
    with pytest.raises(ValueError, match=r"embedding: indices .* range over \[-1, 5\]"):
        looked_up(tg.tensor([-1, 5, 2]))  # NumPy's take would wrap -1 around


def test_a_replay_reads_new_soft_targets_of_another_dtype():
    def soft(x, t):
        return tg.nn.cross_entropy(x @ W, t)

    targets = [RNG.dirichlet(np.ones(4), size=6).astype(np.float32) for _ in range(3)]
    _replays_equal_eager(soft, [(X, tg.tensor(t)) for t in targets], [W])


def test_a_replay_of_labels_all_classes_checks_them_with_one_guard():
    # ignore_index=-100 is no class: the recording checks min >= 0 and max < C in one op and
    # one guard; a batch with an ignored label or a label out of range fails the guard and
    # takes the general path, as eager does.
    f = tg.compile(lambda x, y: tg.nn.cross_entropy(x @ W, y))
    labels = tg.tensor([0, 1, 2, 3, 0, 1])
    for _ in range(3):
        np.testing.assert_allclose(
            f(X, labels).item(), tg.nn.cross_entropy(X @ W, labels).item(), rtol=1e-14
        )
    assert "all_classes(" in f.source(X, labels) and f.traces == 1
    ignored = tg.tensor([0, 1, -100, 3, 0, 1])
    np.testing.assert_allclose(
        f(X, ignored).item(), tg.nn.cross_entropy(X @ W, ignored).item(), rtol=1e-14
    )
    assert f.traces == 2
    with pytest.raises(ValueError, match=r"cross_entropy: labels range over \[0, 9\]"):
        f(X, tg.tensor([0, 1, 2, 9, 0, 1]))
