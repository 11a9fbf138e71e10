"""The MLP step: X (256, 784) float32 through 784-512-512-10 with relu, softmax
cross-entropy, and the gradients of every parameter (not of X).

Dominated by eight matrix products (three forward, five backward): it measures
whether the engine adds work beyond the maths.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks import peers

BATCH, SIZES = 256, (784, 512, 512, 10)


def inputs(seed: int = 0) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((BATCH, SIZES[0]), dtype=np.float32)
    labels = rng.integers(0, SIZES[-1], BATCH)
    params = []
    for n_in, n_out in zip(SIZES[:-1], SIZES[1:]):
        params.append(rng.standard_normal((n_in, n_out), dtype=np.float32) / float(np.sqrt(n_in)))
        params.append(np.zeros(n_out, dtype=np.float32))
    return X, labels, params


def numpy_step(X: np.ndarray, labels: np.ndarray, params: list[np.ndarray]) -> Any:
    """Forward, loss and backward written by hand, as a careful NumPy user would."""
    W1, b1, W2, b2, W3, b3 = params
    n = X.shape[0]
    h1 = np.maximum(X @ W1 + b1, 0.0)
    h2 = np.maximum(h1 @ W2 + b2, 0.0)
    logits = h2 @ W3 + b3
    shifted = logits - logits.max(axis=1, keepdims=True)
    e = np.exp(shifted)
    total = e.sum(axis=1, keepdims=True)
    rows = np.arange(n)
    loss = np.log(total[:, 0]).mean() - shifted[rows, labels].mean()
    # d loss / d logits = (softmax - onehot) / n
    d_logits = e / total
    d_logits[rows, labels] -= 1.0
    d_logits /= n
    dW3, db3 = h2.T @ d_logits, d_logits.sum(axis=0)
    d_h2 = (d_logits @ W3.T) * (h2 > 0)
    dW2, db2 = h1.T @ d_h2, d_h2.sum(axis=0)
    d_h1 = (d_h2 @ W2.T) * (h1 > 0)
    dW1, db1 = X.T @ d_h1, d_h1.sum(axis=0)
    return loss, [dW1, db1, dW2, db2, dW3, db3]


def jax_loss(jax: Any) -> Callable[..., Any]:
    """The MLP's loss in JAX, of the parameter list, the inputs and the labels."""
    jnp = jax.numpy

    def loss(ps: list[Any], x: Any, y: Any) -> Any:
        W1, b1, W2, b2, W3, b3 = ps
        h1 = jax.nn.relu(x @ W1 + b1)
        h2 = jax.nn.relu(h1 @ W2 + b2)
        logp = jax.nn.log_softmax(h2 @ W3 + b3, axis=1)
        return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))

    return loss


def builders() -> dict[str, Callable[[], Callable[[], Any]]]:
    """Each system's step, built on demand (so a missing peer costs nothing)."""
    X, labels, params = inputs()

    def numpy_() -> Callable[[], Any]:
        return lambda: numpy_step(X, labels, params)

    def tapegrad_forward(tg: Any) -> Callable[..., Any]:
        def loss_fn(x: Any, y: Any, W1: Any, b1: Any, W2: Any, b2: Any, W3: Any, b3: Any) -> Any:
            h1 = tg.relu(x @ W1 + b1)
            h2 = tg.relu(h1 @ W2 + b2)
            logp = tg.log_softmax(h2 @ W3 + b3, axis=1)
            return -tg.mean(tg.take_along_axis(logp, y[:, None], axis=1))

        return loss_fn

    def tapegrad_(compiled: bool) -> Callable[[], Any]:
        import tapegrad as tg

        tx, ty = tg.tensor(X), tg.tensor(labels)
        variables = [tg.Variable(p) for p in params]
        loss_fn = tapegrad_forward(tg)
        if compiled:
            loss_fn = tg.compile(loss_fn)

        def run() -> Any:
            with tg.GradientTape() as tape:
                loss = loss_fn(tx, ty, *variables)
            return loss, tape.gradient(loss, variables)

        return run

    def torch_() -> Callable[[], Any]:
        torch = peers.torch()
        F = torch.nn.functional
        tx, ty = torch.from_numpy(X), torch.from_numpy(labels)
        tparams = [torch.from_numpy(p.copy()).requires_grad_() for p in params]

        def run() -> Any:
            W1, b1, W2, b2, W3, b3 = tparams
            h1 = torch.relu(tx @ W1 + b1)
            h2 = torch.relu(h1 @ W2 + b2)
            loss = F.cross_entropy(h2 @ W3 + b3, ty)
            return loss, torch.autograd.grad(loss, tparams)

        return run

    def autograd_() -> Callable[[], Any]:
        import autograd
        import autograd.numpy as anp
        from autograd.scipy.special import logsumexp

        rows = np.arange(BATCH)

        def loss(ps: list[Any]) -> Any:
            W1, b1, W2, b2, W3, b3 = ps
            h1 = anp.maximum(X @ W1 + b1, 0.0)
            h2 = anp.maximum(h1 @ W2 + b2, 0.0)
            logits = h2 @ W3 + b3
            logp = logits - logsumexp(logits, axis=1, keepdims=True)
            return -anp.mean(logp[rows, labels])

        grad = autograd.value_and_grad(loss)
        return lambda: grad(params)

    def mygrad_() -> Callable[[], Any]:
        import mygrad as mg
        from mygrad.nnet.activations import relu
        from mygrad.nnet.losses import softmax_crossentropy

        def run() -> Any:
            W1, b1, W2, b2, W3, b3 = (mg.tensor(p) for p in params)
            h1 = relu(mg.matmul(X, W1) + b1)
            h2 = relu(mg.matmul(h1, W2) + b2)
            loss = softmax_crossentropy(mg.matmul(h2, W3) + b3, labels)
            loss.backward()
            return loss, [p.grad for p in (W1, b1, W2, b2, W3, b3)]

        return run

    def jax_() -> Callable[[], Any]:
        jax = peers.jax()
        jnp = jax.numpy
        loss = jax_loss(jax)

        step = jax.jit(jax.value_and_grad(loss))
        jparams = [jnp.asarray(p) for p in params]
        jx, jy = jnp.asarray(X), jnp.asarray(labels)
        return lambda: jax.block_until_ready(step(jparams, jx, jy))

    return {
        "numpy": numpy_,
        "tapegrad": lambda: tapegrad_(False),
        "tapegrad replay": lambda: tapegrad_(True),
        "torch": torch_,
        "autograd": autograd_,
        "mygrad": mygrad_,
        "jax jit": jax_,
    }
