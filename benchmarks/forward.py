"""Forward mode: ``tg.jvp`` against the forward pass alone and against the double-VJP trick
(two reverse sweeps, what ``tg.jvp`` computed before it had a forward tape), on the
500-step chain and the MLP; ``tg.hvp`` (forward-over-reverse) against reverse-over-reverse
and against JAX's ``jvp(grad(f))`` when JAX is installed.

    python -m benchmarks.forward            # interleaved rounds, medians and ratios
    python -m benchmarks.forward --rounds 5

The chain's tangents are along y0, w and b; the MLP's along every parameter (as its
gradient is), so each layer's JVP is two matrix products where the forward pass has one
(the first layer's input has no tangent: one), about 2.4 times the forward pass's
floating-point work before any overhead.
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402

from benchmarks import chain, harness, mlp, peers  # noqa: E402

STEPS = 500


def double_vjp(f: Callable[..., Any], primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> Any:
    """``J v`` by two reverse sweeps: ``u -> J^T u`` recorded as a linear function of a watched
    ``u``, then differentiated along ``v`` (the trick tg.jvp used before forward mode)."""
    import tapegrad as tg

    sources = [tg.tensor(p) for p in primals]
    with tg.GradientTape() as tape:
        tape.watch(sources)
        out = f(*sources)
    seed = tg.zeros_like(out)
    with tg.GradientTape() as linear:
        linear.watch(seed)
        pulled = tape.gradient(out, sources, output_gradients=seed)
    pairs = [(p, tg.tensor(v)) for p, v in zip(pulled, tangents) if p is not None]
    return out, linear.gradient([p for p, _ in pairs], seed, output_gradients=[v for _, v in pairs])


def chain_systems() -> dict[str, Callable[[], Any]]:
    import tapegrad as tg

    y0, w, b = chain.inputs()
    primals = (tg.tensor(y0), tg.tensor(w), tg.tensor(b))
    rng = np.random.default_rng(1)
    tangents = tuple(tg.tensor(rng.normal(size=chain.SHAPE)) for _ in range(3))

    def f(y: Any, w: Any, b: Any) -> Any:
        for _ in range(STEPS):
            y = tg.tanh(y * w + b)
        return y

    def recorded() -> Any:
        with tg.GradientTape() as tape:
            tape.watch(list(primals))
            return f(*primals)

    return {
        "forward": lambda: f(*primals),
        "forward, recorded": recorded,
        "tg.jvp": lambda: tg.jvp(f, primals, tangents),
        "double VJP": lambda: double_vjp(f, primals, tangents),
    }


def mlp_systems() -> dict[str, Callable[[], Any]]:
    import tapegrad as tg

    X, labels, params = mlp.inputs()
    tx, ty = tg.tensor(X), tg.tensor(labels)
    primals = tuple(tg.tensor(p) for p in params)
    rng = np.random.default_rng(1)
    tangents = tuple(tg.tensor(rng.normal(size=p.shape).astype(p.dtype)) for p in params)

    def f(W1: Any, b1: Any, W2: Any, b2: Any, W3: Any, b3: Any) -> Any:
        h1 = tg.relu(tx @ W1 + b1)
        h2 = tg.relu(h1 @ W2 + b2)
        logp = tg.log_softmax(h2 @ W3 + b3, axis=1)
        return -tg.mean(tg.take_along_axis(logp, ty[:, None], axis=1))

    def recorded() -> Any:
        with tg.GradientTape() as tape:
            tape.watch(list(primals))
            return f(*primals)

    def reverse_over_reverse() -> Any:
        # H v as the gradient of <grad f, v>: what tg.hvp computed before forward mode.
        def inner(*ps: Any) -> Any:
            grads = tg.grad(f, argnums=tuple(range(6)))(*ps)
            return sum(tg.sum(g * v) for g, v in zip(grads, tangents))

        return tg.grad(inner, argnums=tuple(range(6)))(*primals)

    systems = {
        "forward": lambda: f(*primals),
        "forward, recorded": recorded,
        "tg.jvp": lambda: tg.jvp(f, primals, tangents),
        "double VJP": lambda: double_vjp(f, primals, tangents),
        "grad": lambda: tg.grad(f, argnums=tuple(range(6)))(*primals),
        "tg.hvp (all parameters)": lambda: tg.jvp(
            tg.grad(f, argnums=tuple(range(6))), primals, tangents
        ),
        "hvp reverse-over-reverse": reverse_over_reverse,
    }
    jax = peers.jax()
    if jax is not None:
        loss = mlp.jax_loss(jax)
        jparams = [jax.numpy.asarray(p) for p in params]
        jtangents = [jax.numpy.asarray(np.asarray(t)) for t in tangents]
        jx, jy = jax.numpy.asarray(X), jax.numpy.asarray(labels)

        def jax_hvp(ps: Any, ts: Any) -> Any:
            return jax.jvp(jax.grad(lambda p: loss(p, jx, jy)), (ps,), (ts,))

        compiled = jax.jit(jax_hvp)
        eager_jvp = jax.jit(lambda ps, ts: jax.jvp(lambda p: loss(p, jx, jy), (ps,), (ts,)))
        systems["jax jit: jvp"] = lambda: jax.block_until_ready(eager_jvp(jparams, jtangents))
        systems["jax jit: hvp"] = lambda: jax.block_until_ready(compiled(jparams, jtangents))
    return systems


def report(name: str, systems: dict[str, Callable[[], Any]], rounds: int) -> list[str]:
    samples = harness.time_interleaved(systems, rounds=rounds)
    medians = {k: statistics.median(v) for k, v in samples.items()}
    base = medians["forward"]
    lines = [f"{name}: median of {rounds} interleaved rounds"]
    for system, seconds in medians.items():
        lines.append(f"  {system:<28} {seconds * 1e3:9.3f} ms   {seconds / base:6.2f}x forward")
    jvp, double = medians["tg.jvp"], medians["double VJP"]
    lines.append(
        f"  tg.jvp / forward = {jvp / base:.2f}; tg.jvp / recorded forward = "
        f"{jvp / medians['forward, recorded']:.2f}; double VJP / tg.jvp = {double / jvp:.2f}"
    )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    for name, systems in (("chain-500", chain_systems()), ("mlp", mlp_systems())):
        print("\n".join(report(name, systems, args.rounds)))


if __name__ == "__main__":
    main()
