"""The chain workload: ``y = tanh(y * w + b)`` repeated, then the gradient of sum(y) w.r.t. w, b.

Three recorded ops a step on shape (8,) float64: it measures per-op overhead
(creating, dispatching, recording and sweeping), not arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks import peers

SHAPE = (8,)


def inputs(seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y0, w, b = (rng.uniform(-0.5, 0.5, SHAPE) for _ in range(3))
    return y0, w, b


def numpy_chain(y0: np.ndarray, w: np.ndarray, b: np.ndarray, steps: int) -> Any:
    """Forward keeping each step's output, backward by hand: d tanh = 1 - tanh**2."""
    ys = [y0]
    y = y0
    for _ in range(steps):
        y = np.tanh(y * w + b)
        ys.append(y)
    loss = y.sum()
    g = np.ones_like(y)
    gw = np.zeros_like(w)
    gb = np.zeros_like(b)
    for i in range(steps, 0, -1):
        gz = g * (1.0 - ys[i] * ys[i])
        gw += gz * ys[i - 1]
        gb += gz
        g = gz * w
    return loss, gw, gb


def builders(steps: int) -> dict[str, Callable[[], Callable[[], Any]]]:
    """Each system's workload, built on demand (so a missing peer costs nothing)."""
    y0, w, b = inputs()

    def numpy_() -> Callable[[], Any]:
        return lambda: numpy_chain(y0, w, b, steps)

    def tapegrad_() -> Callable[[], Any]:
        import tapegrad as tg

        ty0, tw, tb = tg.tensor(y0), tg.tensor(w), tg.tensor(b)

        def run() -> Any:
            with tg.GradientTape() as tape:
                tape.watch([tw, tb])
                y = ty0
                for _ in range(steps):
                    y = tg.tanh(y * tw + tb)
                loss = tg.sum(y)
            return loss, tape.gradient(loss, [tw, tb])

        return run

    def tapegrad_variables() -> Callable[[], Any]:
        # Parameters as real code holds them: Variables, watched because they are read.
        import tapegrad as tg

        ty0, vw, vb = tg.tensor(y0), tg.Variable(w), tg.Variable(b)

        def run() -> Any:
            with tg.GradientTape() as tape:
                y = ty0
                for _ in range(steps):
                    y = tg.tanh(y * vw + vb)
                loss = tg.sum(y)
            return loss, tape.gradient(loss, [vw, vb])

        return run

    def tapegrad_compiled(fuse: bool) -> Callable[[], Any]:
        import tapegrad as tg

        ty0, tw, tb = tg.tensor(y0), tg.tensor(w), tg.tensor(b)

        def forward(y: Any, w: Any, b: Any) -> Any:
            for _ in range(steps):
                y = tg.tanh(y * w + b)
            return tg.sum(y)

        compiled = tg.compile(forward, fuse=fuse)  # fused: see benchmarks/fuse_latency.py

        def run() -> Any:
            with tg.GradientTape() as tape:
                tape.watch([tw, tb])
                loss = compiled(ty0, tw, tb)
            return loss, tape.gradient(loss, [tw, tb])

        if fuse:
            run()  # records, compiles (or loads from the on-disk cache): not timed
        return run

    def torch_() -> Callable[[], Any]:
        torch = peers.torch()
        ty0 = torch.from_numpy(y0)
        tw = torch.from_numpy(w.copy()).requires_grad_()
        tb = torch.from_numpy(b.copy()).requires_grad_()

        def run() -> Any:
            y = ty0
            for _ in range(steps):
                y = torch.tanh(y * tw + tb)
            loss = y.sum()
            return loss, torch.autograd.grad(loss, [tw, tb])

        return run

    def torch_compile() -> Callable[[], Any]:
        # The loop is unrolled into one graph: the first call compiles (about a minute
        # for 500 steps on 2 cores, seconds once torch's on-disk cache has it).
        torch = peers.torch()
        ty0 = torch.from_numpy(y0)
        tw = torch.from_numpy(w.copy()).requires_grad_()
        tb = torch.from_numpy(b.copy()).requires_grad_()

        def loss_fn(y: Any, w: Any, b: Any) -> Any:
            for _ in range(steps):
                y = torch.tanh(y * w + b)
            return y.sum()

        compiled = torch.compile(loss_fn)

        def run() -> Any:
            loss = compiled(ty0, tw, tb)
            return loss, torch.autograd.grad(loss, [tw, tb])

        return run

    def autograd_() -> Callable[[], Any]:
        import autograd
        import autograd.numpy as anp

        def loss(y: Any, w: Any, b: Any) -> Any:
            for _ in range(steps):
                y = anp.tanh(y * w + b)
            return anp.sum(y)

        grad = autograd.value_and_grad(loss, (1, 2))
        return lambda: grad(y0, w, b)

    def mygrad_() -> Callable[[], Any]:
        import mygrad as mg

        def run() -> Any:
            mw, mb = mg.tensor(w), mg.tensor(b)
            y = y0
            for _ in range(steps):
                y = mg.tanh(y * mw + mb)
            loss = mg.sum(y)
            loss.backward()
            return loss, mw.grad, mb.grad

        return run

    def jax_() -> Callable[[], Any]:
        jax = peers.jax()
        jnp = jax.numpy

        def loss(y: Any, w: Any, b: Any) -> Any:
            for _ in range(steps):
                y = jnp.tanh(y * w + b)
            return jnp.sum(y)

        step = jax.jit(jax.value_and_grad(loss, (1, 2)))
        jy0, jw, jb = jnp.asarray(y0), jnp.asarray(w), jnp.asarray(b)
        return lambda: jax.block_until_ready(step(jy0, jw, jb))

    found = {
        "numpy": numpy_,
        "tapegrad": tapegrad_,
        "tapegrad replay": lambda: tapegrad_compiled(fuse=False),
        "tapegrad fused": lambda: tapegrad_compiled(fuse=True),
        "torch": torch_,
        "tapegrad variables": tapegrad_variables,
        "torch compile": torch_compile,
        "autograd": autograd_,
        "mygrad": mygrad_,
        "jax jit": jax_,
    }
    return found
