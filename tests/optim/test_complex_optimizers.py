"""Optimizers on complex Variables: PyTorch's behaviour (a complex parameter is a pair of
real parameters, the gradient dL/dx + i dL/dy), step by step and on a least-squares fit."""

import math

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import optim

P0 = np.array([1.0 + 2.0j, -0.5 + 0.0j, 0.25 - 1.5j])
GRADS = [np.array([1.0 - 0.5j, 0.0 + 2.0j, -3.0 + 0.1j]), np.array([0.5 + 0.5j, -1.0, 2j])]


def _adam_by_hand(p, grads, lr, betas, eps, weight_decay=0.0, decoupled=False):
    """PyTorch's Adam on real arrays: p, grads are (n, 2) arrays of real and imaginary parts."""
    beta1, beta2 = betas
    m = np.zeros_like(p)
    v = np.zeros_like(p)
    for t, g in enumerate(grads, start=1):
        if decoupled:
            p = p * (1 - lr * weight_decay)
        else:
            g = g + weight_decay * p
        m = beta1 * m + (1 - beta1) * g
        v = beta2 * v + (1 - beta2) * g * g
        m_hat = m / (1 - beta1**t)
        v_hat = v / (1 - beta2**t)
        p = p - lr * m_hat / (np.sqrt(v_hat) + eps)
    return p


def _pairs(z):
    return np.stack([z.real, z.imag], axis=-1)


@pytest.mark.parametrize(
    ("optimizer_class", "options", "decoupled"),
    [
        (optim.Adam, {"lr": 0.1, "betas": (0.9, 0.999), "eps": 1e-8}, False),
        (optim.Adam, {"lr": 0.05, "betas": (0.5, 0.9), "eps": 1e-3, "weight_decay": 0.1}, False),
        (optim.AdamW, {"lr": 0.1, "betas": (0.9, 0.999), "eps": 1e-8, "weight_decay": 0.1}, True),
    ],
    ids=["adam", "adam-l2", "adamw"],
)
def test_adam_treats_real_and_imaginary_parts_as_two_parameters(
    optimizer_class, options, decoupled, backend
):
    w = tg.Variable(backend.tensor(P0))
    optimizer = optimizer_class([w], **options)
    for g in GRADS:
        optimizer.apply_gradients([backend.tensor(g)])
    expected = _adam_by_hand(_pairs(P0), [_pairs(g) for g in GRADS], **options, decoupled=decoupled)
    assert w.numpy().dtype == P0.dtype and backend.owns(w)
    np.testing.assert_allclose(_pairs(w.numpy()), expected, rtol=1e-12)


def test_adam_first_step_moves_each_part_by_lr():
    # The first Adam step is lr * sign(g) in each real coordinate (eps aside), not
    # lr * g / |g| as one second moment |g|^2 shared by both parts would give.
    w = tg.Variable(P0)
    optim.Adam([w], lr=0.1).apply_gradients([tg.tensor(GRADS[0])])
    step = (P0 - w.numpy()) / 0.1
    np.testing.assert_allclose(step.real, np.sign(GRADS[0].real), atol=1e-6)
    np.testing.assert_allclose(step.imag, np.sign(GRADS[0].imag), atol=1e-6)


def test_sgd_with_momentum_on_complex_values():
    w = tg.Variable(P0)
    sgd = optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)
    for g in GRADS:
        sgd.apply_gradients([tg.tensor(g)])
    # the same update on the pairs of reals, by hand
    p, buffer = _pairs(P0), None
    for g in (_pairs(g) for g in GRADS):
        g = g + 0.01 * p
        buffer = g if buffer is None else 0.9 * buffer + g
        p = p - 0.1 * (g + 0.9 * buffer)
    np.testing.assert_allclose(_pairs(w.numpy()), p, rtol=1e-12)


@pytest.mark.parametrize(
    ("optimizer_class", "options", "steps"),
    [
        (optim.SGD, {"lr": 0.02}, 300),
        (optim.SGD, {"lr": 0.01, "momentum": 0.9}, 200),
        (optim.Adam, {"lr": 0.05}, 400),
        (optim.AdamW, {"lr": 0.05, "weight_decay": 1e-4}, 400),
    ],
    ids=["sgd", "momentum", "adam", "adamw"],
)
def test_complex_least_squares(optimizer_class, options, steps):
    # Fit a complex w to |A w - b|^2 with a complex A and b; the optimum solves the normal
    # equations A^H A w = A^H b.
    rng = np.random.default_rng(0)
    a = rng.standard_normal((8, 3)) + 1j * rng.standard_normal((8, 3))
    b = rng.standard_normal(8) + 1j * rng.standard_normal(8)
    solution = np.linalg.lstsq(a, b, rcond=None)[0]
    w = tg.Variable(np.zeros(3, complex), name="w")
    optimizer = optimizer_class([w], **options)
    losses = []
    for _ in range(steps):
        with tg.GradientTape() as tape:
            loss = tg.sum(tg.abs(tg.tensor(a) @ w - b) ** 2)
        losses.append(loss.item())
        optimizer.apply_gradients(tape.gradient(loss, [w]))
    assert losses[-1] < losses[0]
    best = np.sum(abs(a @ solution - b) ** 2)
    assert math.isclose(losses[-1], best, rel_tol=1e-3)
    tolerance = 1e-2 if optimizer_class is optim.AdamW else 1e-3
    np.testing.assert_allclose(w.numpy(), solution, atol=tolerance)


def test_clip_by_global_norm_counts_real_and_imaginary_parts():
    grads = [tg.tensor(np.array([3j, 0j])), tg.tensor([4.0])]
    clipped, norm = optim.clip_by_global_norm(grads, 1.0)
    assert norm.dtype == np.float64 and norm.item() == pytest.approx(5.0)
    assert clipped[0].dtype == np.complex128
    np.testing.assert_allclose(clipped[0].numpy(), [0.6j, 0])
    np.testing.assert_allclose(clipped[1].numpy(), [0.8])


@pytest.mark.parametrize(
    ("optimizer_class", "options"),
    [
        (optim.SGD, {"lr": 0.1, "momentum": 0.9, "nesterov": True, "weight_decay": 0.01}),
        (optim.Adam, {"lr": 0.1, "amsgrad": True}),
        (optim.AdamW, {"lr": 0.1, "weight_decay": 0.1}),
        (optim.RMSprop, {"lr": 0.01, "momentum": 0.5, "centered": True}),
        (optim.Adagrad, {"lr": 0.1, "lr_decay": 0.01}),
    ],
)
def test_every_optimizer_steps_a_complex_variable_as_its_real_pairs(optimizer_class, options):
    # The same updates on the (n, 2) real view of the parameter, as PyTorch's view_as_real.
    z = tg.Variable(P0)
    pairs = tg.Variable(_pairs(P0))
    complex_opt = optimizer_class([z], **options)
    real_opt = optimizer_class([pairs], **options)
    for g in GRADS * 2:
        complex_opt.apply_gradients([g])
        real_opt.apply_gradients([_pairs(g)])
    np.testing.assert_allclose(_pairs(z.numpy()), pairs.numpy(), rtol=1e-14, atol=1e-14)
