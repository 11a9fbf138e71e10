"""The MLP training step as the README and the examples write it: ``tg.nn.Linear`` layers
784-512-512-10 with ReLU, ``tg.nn.cross_entropy``, and a ``tg.optim.SGD`` update, on a
batch of 256 float32 rows. Forward, every parameter's gradient, and the update.

Hand-written NumPy does the same step (mlp.numpy_step, then ``p -= lr * g`` in place).
Each system trains its own copy of the same initial parameters, so after the same
number of calls they hold the same values (tests/test_benchmarks.py checks it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks import mlp, peers

LR = 0.01  # small: the repeated step on one batch must not diverge over a benchmark's calls


def numpy_step(X: np.ndarray, labels: np.ndarray, params: list[np.ndarray]) -> Any:
    """mlp.numpy_step, then the SGD update in place, as a careful NumPy user writes it."""
    loss, grads = mlp.numpy_step(X, labels, params)
    for p, g in zip(params, grads):
        p -= LR * g
    return loss, grads


def builders() -> dict[str, Callable[[], Callable[[], Any]]]:
    """Each system's training step, built on demand (so a missing peer costs nothing)."""
    X, labels, initial = mlp.inputs()

    def numpy_() -> Callable[[], Any]:
        params = [p.copy() for p in initial]
        return lambda: numpy_step(X, labels, params)

    def tapegrad_model(tg: Any) -> Any:
        nn = tg.nn
        model = nn.Sequential(
            nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10)
        )
        for v, p in zip(model.trainable_variables, initial):
            v.assign(p)
        return model

    def tapegrad_() -> Callable[[], Any]:
        import tapegrad as tg

        model = tapegrad_model(tg)
        optimizer = tg.optim.SGD(model.trainable_variables, lr=LR)
        x, y = tg.tensor(X), tg.tensor(labels)

        def run() -> Any:
            with tg.GradientTape() as tape:
                loss = tg.nn.cross_entropy(model(x), y)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(grads)
            return loss, grads

        return run

    def tapegrad_replay() -> Callable[[], Any]:
        import tapegrad as tg

        model = tapegrad_model(tg)
        optimizer = tg.optim.SGD(model.trainable_variables, lr=LR)
        x, y = tg.tensor(X), tg.tensor(labels)
        loss_fn = tg.compile(lambda x, y: tg.nn.cross_entropy(model(x), y))

        def run() -> Any:
            with tg.GradientTape() as tape:
                loss = loss_fn(x, y)
            grads = tape.gradient(loss, model.trainable_variables)
            optimizer.apply_gradients(grads)
            return loss, grads

        return run

    def torch_model(torch: Any) -> tuple[Any, Any]:
        model = torch.nn.Sequential(
            torch.nn.Linear(784, 512),
            torch.nn.ReLU(),
            torch.nn.Linear(512, 512),
            torch.nn.ReLU(),
            torch.nn.Linear(512, 10),
        )
        with torch.no_grad():
            for k, layer in enumerate(model[::2]):
                layer.weight.copy_(torch.from_numpy(initial[2 * k].T.copy()))
                layer.bias.copy_(torch.from_numpy(initial[2 * k + 1]))
        return model, torch.optim.SGD(model.parameters(), lr=LR)

    def torch_(compiled: bool) -> Callable[[], Any]:
        torch = peers.torch()
        F = torch.nn.functional
        model, optimizer = torch_model(torch)
        tx, ty = torch.from_numpy(X), torch.from_numpy(labels)
        forward = torch.compile(model) if compiled else model

        def run() -> Any:
            optimizer.zero_grad(set_to_none=True)
            loss = F.cross_entropy(forward(tx), ty)
            loss.backward()
            # Gradients in tapegrad's layout (weight (in, out)), taken before the update.
            grads = []
            for layer in model[::2]:
                grads += [layer.weight.grad.T.clone(), layer.bias.grad.clone()]
            optimizer.step()
            return loss, grads

        return run

    def jax_() -> Callable[[], Any]:
        jax = peers.jax()
        jnp = jax.numpy
        loss = mlp.jax_loss(jax)

        def step(ps: list[Any], x: Any, y: Any) -> Any:
            value, grads = jax.value_and_grad(loss)(ps, x, y)
            return value, grads, [p - LR * g for p, g in zip(ps, grads)]

        # The parameters' buffers are donated: the update reuses them, as an in-place one.
        compiled = jax.jit(step, donate_argnums=0)
        state = [[jnp.asarray(p) for p in initial]]
        jx, jy = jnp.asarray(X), jnp.asarray(labels)

        def run() -> Any:
            value, grads, state[0] = compiled(state[0], jx, jy)
            return jax.block_until_ready((value, grads))

        return run

    return {
        "numpy": numpy_,
        "tapegrad": tapegrad_,
        "tapegrad replay": tapegrad_replay,
        "torch": lambda: torch_(False),
        "torch compile": lambda: torch_(True),
        "jax jit": jax_,
    }
