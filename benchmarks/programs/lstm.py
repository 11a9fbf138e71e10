"""A character-level LSTM, forward and gradient: one-hot characters of a batch of text
windows, one LSTM layer, a softmax over the next character at every step, and the
gradient of the mean cross-entropy in every weight (autograd's ``lstm.py`` example)."""

from __future__ import annotations

from typing import Any

import numpy

TEXT = (
    "it was the best of times, it was the worst of times, it was the age of wisdom, "
    "it was the age of foolishness, it was the epoch of belief, it was the epoch of "
    "incredulity, it was the season of light, it was the season of darkness"
)
HIDDEN, BATCH, LENGTH = 64, 16, 30
TINY = 4


def description(length: int) -> str:
    return f"char LSTM: hidden {HIDDEN}, batch {BATCH} x {length} characters, fwd+grad"


def inputs(length: int = LENGTH, seed: int = 0) -> tuple[Any, dict[str, Any]]:
    """The weights, and one-hot windows of TEXT, shape (length, BATCH, vocabulary)."""
    rng = numpy.random.default_rng(seed)
    alphabet = sorted(set(TEXT))
    codes = numpy.array([alphabet.index(c) for c in TEXT])
    starts = rng.integers(0, len(TEXT) - length - 1, BATCH)
    windows = numpy.stack([codes[s : s + length + 1] for s in starts], axis=1)
    one_hot = numpy.eye(len(alphabet))[windows]  # (length + 1, BATCH, V)
    vocab = len(alphabet)
    scale = 0.1
    params = [
        scale * rng.standard_normal((vocab + HIDDEN + 1, 4 * HIDDEN)),  # the four gates
        scale * rng.standard_normal((HIDDEN + 1, vocab)),  # the readout
    ]
    return params, {"one_hot": one_hot}


def sigmoid(np: Any, x: Any) -> Any:
    return 0.5 * (np.tanh(0.5 * x) + 1.0)


def loss(np: Any, sp: Any, params: Any, data: dict[str, Any]) -> Any:
    """Mean cross-entropy of predicting character ``t + 1`` from characters ``<= t``."""
    gates_w, readout_w = params
    one_hot = data["one_hot"]
    steps, batch, _ = one_hot.shape
    hidden = gates_w.shape[1] // 4
    h = np.zeros((batch, hidden))
    c = np.zeros((batch, hidden))
    ones = numpy.ones((batch, 1))
    total = 0.0
    for t in range(steps - 1):
        z = np.dot(np.concatenate([one_hot[t], h, ones], axis=1), gates_w)
        forget = sigmoid(np, z[:, :hidden])
        ingate = sigmoid(np, z[:, hidden : 2 * hidden])
        outgate = sigmoid(np, z[:, 2 * hidden : 3 * hidden])
        change = np.tanh(z[:, 3 * hidden :])
        c = forget * c + ingate * change
        h = outgate * np.tanh(c)
        logits = np.dot(np.concatenate([h, ones], axis=1), readout_w)
        log_probs = logits - sp.special.logsumexp(logits, axis=1, keepdims=True)
        total = total - np.sum(log_probs * one_hot[t + 1])
    return total / ((steps - 1) * batch)
