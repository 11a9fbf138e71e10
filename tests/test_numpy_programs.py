"""Whole NumPy programs, written as NumPy code is written, differentiated unchanged.

Each program takes the NumPy module as ``np``: run with ``numpy`` it computes numbers,
run with ``tapegrad.numpy`` (``import tapegrad.numpy as np``) on Tensors it records, and
its gradient is checked against finite differences of the plain NumPy run."""

import math

import numpy
import numpy as np_
import pytest

import tapegrad as tg
import tapegrad.numpy as tnp
from tapegrad.testing import gradcheck

# --- a Gaussian process: the negative log marginal likelihood of an RBF kernel --------


def cholesky(np, A):
    # The Cholesky-Banachiewicz algorithm, row by row into lists (no linear algebra
    # library needed).
    n = len(A)
    L = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1):
            s = sum(L[i][k] * L[j][k] for k in range(j))
            if i == j:
                L[i][j] = np.sqrt(A[i, i] - s)
            else:
                L[i][j] = (A[i, j] - s) / L[j][j]
    return np.array(L)


def solve_lower(np, L, b):
    x = []
    for i in range(len(b)):
        x.append((b[i] - sum(L[i, k] * x[k] for k in range(i))) / L[i, i])
    return np.array(x)


def solve_upper(np, U, b):
    n = len(b)
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (b[i] - sum(U[i, k] * x[k] for k in range(i + 1, n))) / U[i, i]
    return np.array(x)


def gp_negative_log_likelihood(np, params, X, y):
    length_scale, signal, noise = np.exp(params[0]), np.exp(params[1]), np.exp(params[2])
    sq_dist = np.sum(X**2, 1)[:, None] + np.sum(X**2, 1)[None, :] - 2 * np.dot(X, X.T)
    K = signal**2 * np.exp(-0.5 * sq_dist / length_scale**2) + noise**2 * np.eye(len(X))
    L = cholesky(np, K)
    alpha = solve_upper(np, L.T, solve_lower(np, L, y))
    return 0.5 * np.dot(y, alpha) + np.sum(np.log(np.diag(L))) + 0.5 * len(X) * np.log(2 * np.pi)


def test_gaussian_process_marginal_likelihood():
    rng = np_.random.default_rng(0)
    X = rng.uniform(-2, 2, (7, 2))
    y = np_.sin(X[:, 0]) + 0.1 * rng.standard_normal(7)
    params = np_.array([0.1, -0.2, -1.0])
    value = gp_negative_log_likelihood(numpy, params, X, y)
    # the same quantity by numpy.linalg, to check the hand-written algebra
    K = np_.exp(2 * params[1]) * np_.exp(
        -0.5 * ((X[:, None] - X[None]) ** 2).sum(-1) / np_.exp(2 * params[0])
    ) + np_.exp(2 * params[2]) * np_.eye(7)
    expected = (
        0.5 * y @ np_.linalg.solve(K, y)
        + 0.5 * np_.linalg.slogdet(K)[1]
        + 3.5 * math.log(2 * math.pi)
    )
    assert value == pytest.approx(expected, rel=1e-10)
    got = gp_negative_log_likelihood(tnp, tg.tensor(params), X, y)
    assert got.item() == pytest.approx(value, rel=1e-12)
    gradcheck(lambda p: gp_negative_log_likelihood(tnp, p, X, y), [params])


# --- a neural network: tanh hidden layer, softmax cross-entropy --------------------------


def network_loss(np, W1, b1, W2, b2, X, labels):
    hidden = np.tanh(np.dot(X, W1) + b1)
    scores = np.dot(hidden, W2) + b2
    scores = scores - np.max(scores, axis=1, keepdims=True)
    log_probs = scores - np.log(np.sum(np.exp(scores), axis=1, keepdims=True))
    return -np.mean(log_probs[np.arange(len(labels)), labels])


def test_neural_network_loss():
    rng = np_.random.default_rng(1)
    X = rng.standard_normal((6, 3))
    labels = np_.array([0, 2, 1, 1, 0, 2])
    weights = [
        rng.standard_normal((3, 4)) * 0.5,
        np_.zeros(4),
        rng.standard_normal((4, 3)),
        np_.zeros(3),
    ]
    value = network_loss(numpy, *weights, X, labels)
    got = network_loss(tnp, *[tg.tensor(w) for w in weights], X, labels)
    assert got.item() == pytest.approx(value, rel=1e-12)
    gradcheck(lambda *w: network_loss(tnp, *w, X, labels), weights)
    # and it trains: a few steps of gradient descent lower the loss
    params = [tg.Variable(w) for w in weights]
    for _ in range(60):
        with tg.GradientTape() as tape:
            loss = network_loss(tnp, *params, X, labels)
        for p, g in zip(params, tape.gradient(loss, params)):
            p.assign_sub(0.5 * g)
    assert network_loss(numpy, *[p.numpy() for p in params], X, labels) < 0.5 * value


# --- a physics simulation: diffusion and advection on a ring, with np.roll and np.diff ----


def simulate(np, u0, diffusion, velocity, steps=40, dx=0.1, dt=0.002):
    u = u0
    for _ in range(steps):
        laplacian = (np.roll(u, 1) - 2 * u + np.roll(u, -1)) / dx**2
        gradient = (np.roll(u, -1) - np.roll(u, 1)) / (2 * dx)
        u = u + dt * (diffusion * laplacian - velocity * gradient)
    roughness = np.sum(np.diff(u) ** 2) / dx
    center = np.sum(np.arange(len(u)) * u) / np.sum(u)
    return roughness + 0.01 * center


def test_physics_simulation():
    x = np_.linspace(0, 2 * np_.pi, 24, endpoint=False)
    u0 = 1.0 + np_.exp(-4 * (x - 2.0) ** 2)
    value = simulate(numpy, u0, 0.3, 1.0)
    got = simulate(tnp, tg.tensor(u0), tg.tensor(0.3), tg.tensor(1.0))
    assert got.item() == pytest.approx(value, rel=1e-12)
    gradcheck(
        lambda u, d, v: simulate(tnp, u, d, v, steps=10), [u0, np_.array(0.3), np_.array(1.0)]
    )


# --- statistics code: robust scale and quantiles ----------------------------------------


def robust_summary(np, samples):
    center = np.median(samples, axis=0)
    spread = np.percentile(samples, 75, axis=0) - np.percentile(samples, 25, axis=0)
    clipped = np.clip((samples - center) / spread, -2, 2)
    sorted_tail = np.sort(np.abs(clipped), axis=0)[-2:]
    return np.sum(np.mean(clipped**2, axis=0)) + np.sum(sorted_tail) + np.var(np.cumsum(samples, 0))


def test_statistics_code():
    samples = np_.random.default_rng(2).standard_normal((9, 3))
    value = robust_summary(numpy, samples)
    got = robust_summary(tnp, tg.tensor(samples))
    assert got.item() == pytest.approx(value, rel=1e-12)
    gradcheck(lambda s: robust_summary(tnp, s), [samples])


# --- complex-valued signal code: a filter fitted in the frequency domain ----------------


def filter_mismatch(np, taps, signal, target):
    # Circular convolution through the FFT, the output's global phase removed (aligned to
    # its first sample), compared with a complex target; plus a penalty on the taps' energy.
    spectrum = np.fft.fft(signal) * np.fft.fft(taps, n=len(signal))
    output = np.fft.ifft(spectrum)
    aligned = output * np.exp(-1j * np.angle(output[0]))
    return np.sum(np.abs(aligned - target) ** 2) + 0.1 * np.real(np.vdot(taps, taps))


def test_complex_signal_code():
    rng = np_.random.default_rng(3)
    taps = rng.standard_normal(4) + 1j * rng.standard_normal(4)
    signal = rng.standard_normal(16)
    target = rng.standard_normal(16) + 1j * rng.standard_normal(16)
    value = filter_mismatch(numpy, taps, signal, target)
    got = filter_mismatch(tnp, tg.tensor(taps), tg.tensor(signal), target)
    assert got.item() == pytest.approx(value, rel=1e-12)
    # Complex taps and a real signal: the gradient in both directions of each complex
    # entry, and a real gradient for the real input (a real -> complex -> real path).
    gradcheck(lambda h, s: filter_mismatch(tnp, h, s, target), [taps, signal])
    with tg.GradientTape() as tape:
        s = tg.tensor(signal)
        tape.watch(s)
        loss = filter_mismatch(tnp, tg.tensor(taps), s, target)
    assert tape.gradient(loss, s).dtype == np_.float64
