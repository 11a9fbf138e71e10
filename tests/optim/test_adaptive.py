"""tapegrad/optim/adaptive.py: RMSprop and Adagrad against steps worked out by hand and
against PyTorch's documented algorithms written out here one scalar at a time."""

import math

import numpy as np
import pytest
from test_optimizers import run

import tapegrad as tg
from tapegrad import optim

# Two steps from p = 1 with gradients 1.0 then 0.5, eps = 0, worked out by hand:
HAND = [
    # v1 = 0.5, p1 = 1 - 0.1/sqrt(0.5); v2 = 0.25 + 0.125 = 0.375, p2 = p1 - 0.1*0.5/sqrt(0.375)
    (optim.RMSprop, {"alpha": 0.5}, [0.8585786438, 0.7769289857]),
    # b1 = 1/sqrt(0.5) = 1.4142135624; b2 = 0.9*b1 + 0.5/sqrt(0.375) = 2.0892887870
    (optim.RMSprop, {"alpha": 0.5, "momentum": 0.9}, [0.8585786438, 0.6496497651]),
    # a1 = 0.5, d1 = sqrt(0.5 - 0.25) = 0.5, p1 = 0.8; a2 = 0.5, d2 = sqrt(0.375 - 0.25)
    (optim.RMSprop, {"alpha": 0.5, "centered": True}, [0.8, 0.6585786438]),
    # s1 = 1, p1 = 0.9; s2 = 1.25, p2 = 0.9 - 0.1*0.5/sqrt(1.25)
    (optim.Adagrad, {}, [0.9, 0.8552786405]),
    # s1 = 3 + 1 = 4, p1 = 1 - 0.1/2; s2 = 4.25, lr2 = 0.1/(1 + 0.5), p2 = p1 - lr2*0.5/sqrt(4.25)
    (optim.Adagrad, {"lr_decay": 0.5, "initial_accumulator_value": 3.0}, [0.95, 0.9338309583]),
    # g = 1 + 0.5*1 = 1.5: s1 = 2.25, p1 = 1 - 0.1*1.5/1.5 = 0.9
    (optim.Adagrad, {"weight_decay": 0.5}, [0.9, 0.9 - 0.1 * 0.95 / math.sqrt(2.25 + 0.95**2)]),
]


@pytest.mark.parametrize(("optimizer_class", "options", "expected"), HAND)
def test_two_steps_by_hand(optimizer_class, options, expected):
    values = run(optimizer_class, [1.0, 0.5], lr=0.1, eps=0.0, **options)
    np.testing.assert_allclose(values, expected, rtol=1e-9)


def rmsprop_reference(p, grads, lr, alpha=0.99, eps=1e-8, weight_decay=0.0, momentum=0.0,
                      centered=False):  # fmt: skip
    """PyTorch's documented RMSprop algorithm, one scalar at a time."""
    out, v, a, b = [], 0.0, 0.0, 0.0
    for g in grads:
        g = g + weight_decay * p
        v = alpha * v + (1 - alpha) * g * g
        if centered:
            a = alpha * a + (1 - alpha) * g
            denominator = math.sqrt(v - a * a) + eps
        else:
            denominator = math.sqrt(v) + eps
        if momentum:
            b = momentum * b + g / denominator
            p = p - lr * b
        else:
            p = p - lr * g / denominator
        out.append(p)
    return out


def adagrad_reference(p, grads, lr, lr_decay=0.0, weight_decay=0.0,
                      initial_accumulator_value=0.0, eps=1e-10):  # fmt: skip
    """PyTorch's documented Adagrad algorithm, one scalar at a time."""
    out, s = [], initial_accumulator_value
    for t, g in enumerate(grads, start=1):
        g = g + weight_decay * p
        s = s + g * g
        p = p - lr / (1 + (t - 1) * lr_decay) * g / (math.sqrt(s) + eps)
        out.append(p)
    return out


SETTINGS = [
    (optim.RMSprop, rmsprop_reference, {"lr": 0.01}),
    (optim.RMSprop, rmsprop_reference, {"lr": 0.01, "momentum": 0.9, "alpha": 0.9}),
    (optim.RMSprop, rmsprop_reference, {"lr": 0.01, "centered": True, "weight_decay": 0.1}),
    (
        optim.RMSprop,
        rmsprop_reference,
        {"lr": 0.01, "centered": True, "momentum": 0.5, "eps": 1e-3},
    ),
    (optim.Adagrad, adagrad_reference, {"lr": 0.1}),
    (
        optim.Adagrad,
        adagrad_reference,
        {"lr": 0.1, "lr_decay": 0.05, "weight_decay": 0.1, "initial_accumulator_value": 0.3},
    ),
]


@pytest.mark.parametrize(("optimizer_class", "reference", "options"), SETTINGS)
def test_twenty_steps_match_the_published_algorithm(optimizer_class, reference, options):
    rng = np.random.default_rng(0)
    p0, grads = rng.standard_normal(5), rng.standard_normal((20, 5)) * 3
    w = tg.Variable(p0)
    optimizer = optimizer_class([w], **options)
    history = []
    for g in grads:
        optimizer.apply_gradients([g])
        history.append(w.numpy().copy())
    for i in range(5):
        expected = reference(p0[i], list(grads[:, i]), **options)
        np.testing.assert_allclose(np.array(history)[:, i], expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("optimizer_class", [optim.RMSprop, optim.Adagrad])
def test_float32_stays_float32_and_bad_settings_raise(optimizer_class):
    w = tg.Variable(np.ones(3, dtype=np.float32))
    optimizer = optimizer_class([w], lr=0.1, weight_decay=0.1)
    for _ in range(3):
        optimizer.apply_gradients([np.full(3, 0.5)])
    assert w.dtype == np.float32 and w.numpy()[0] < 1.0
    with pytest.raises(ValueError, match="eps must be in"):
        optimizer_class([w], eps=-1.0)


def test_rmsprop_alpha_must_be_below_one():
    with pytest.raises(ValueError, match=r"RMSprop: alpha must be in \[0.0, 1.0\), got 1.5"):
        optim.RMSprop([tg.Variable([1.0])], alpha=1.5)
