"""Forward mode: ``tg.jvp`` against the forward pass alone and against the double-VJP trick
(two reverse sweeps, what ``tg.jvp`` computed before it had a forward tape), on the
500-step chain and the MLP; ``tg.hvp`` (forward-over-reverse) against reverse-over-reverse
and against JAX's ``jvp(grad(f))`` when JAX is installed.

    python -m benchmarks.forward            # interleaved rounds, medians and ratios
    python -m benchmarks.forward --rounds 5

The chain's tangents are along y0, w and b; the MLP's along every parameter (as its
gradient is), so each layer's JVP is two matrix products where the forward pass has one
(the first layer's input has no tangent: one), about 2.4 times the forward pass's
floating-point work before any overhead. "along the input" is the MLP's JVP along X
alone (the parameters constants): one matrix product per layer, as the forward pass.

Compiled rows: ``tg.compile(jvp)`` is ``tg.compile`` of a function calling ``tg.jvp``
(primals and tangents its arguments), timed against ``tg.compile(forward)``, both
replays; with numba installed, the chain's ``fuse=True`` forms too (a recording that
cannot be fused says why, and replays unfused).
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import statistics  # noqa: E402
import warnings  # noqa: E402
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

    def jvp_of(*args: Any) -> Any:
        return tg.jvp(f, args[:3], args[3:])

    compiled_forward, compiled_jvp = tg.compile(f), tg.compile(jvp_of)
    systems = {
        "forward": lambda: f(*primals),
        "forward, recorded": recorded,
        "tg.jvp": lambda: tg.jvp(f, primals, tangents),
        "double VJP": lambda: double_vjp(f, primals, tangents),
        "tg.compile(forward)": lambda: compiled_forward(*primals),
        "tg.compile(jvp)": lambda: compiled_jvp(*primals, *tangents),
    }
    if importlib.util.find_spec("numba") is not None:
        fused_forward, fused_jvp = tg.compile(f, fuse=True), tg.compile(jvp_of, fuse=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fused_forward(*primals)
            fused_jvp(*primals, *tangents)
        for warning in caught:
            print(f"  (fuse=True: {str(warning.message).splitlines()[0]})")
        systems["tg.compile(forward, fuse)"] = lambda: fused_forward(*primals)
        systems["tg.compile(jvp, fuse)"] = lambda: fused_jvp(*primals, *tangents)
    return systems


def mlp_systems() -> dict[str, Callable[[], Any]]:
    import tapegrad as tg

    X, labels, params = mlp.inputs()
    tx, ty = tg.tensor(X), tg.tensor(labels)
    primals = tuple(tg.tensor(p) for p in params)
    rng = np.random.default_rng(1)
    tangents = tuple(tg.tensor(rng.normal(size=p.shape).astype(p.dtype)) for p in params)

    def f(*ps: Any) -> Any:
        return _mlp_loss(tg, tx, ty, ps)

    def recorded() -> Any:
        with tg.GradientTape() as tape:
            tape.watch(list(primals))
            return f(*primals)

    def f_of_input(inputs: Any) -> Any:  # the parameters constants, X the argument
        return _mlp_loss(tg, inputs, ty, primals)

    tangent_x = tg.tensor(rng.normal(size=X.shape).astype(X.dtype))

    def jvp_of(*args: Any) -> Any:
        return tg.jvp(f, args[:6], args[6:])

    compiled_forward, compiled_jvp = tg.compile(f), tg.compile(jvp_of)
    compiled_input_jvp = tg.compile(lambda x, t: tg.jvp(f_of_input, (x,), (t,)))

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
        "tg.jvp along the input": lambda: tg.jvp(f_of_input, (tx,), (tangent_x,)),
        "tg.compile(forward)": lambda: compiled_forward(*primals),
        "tg.compile(jvp)": lambda: compiled_jvp(*primals, *tangents),
        "tg.compile(jvp along input)": lambda: compiled_input_jvp(tx, tangent_x),
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
        jit_forward = jax.jit(lambda ps: loss(ps, jx, jy))
        systems["jax jit: forward"] = lambda: jax.block_until_ready(jit_forward(jparams))
        systems["jax jit: jvp"] = lambda: jax.block_until_ready(eager_jvp(jparams, jtangents))
        systems["jax jit: hvp"] = lambda: jax.block_until_ready(compiled(jparams, jtangents))
    return systems


def _mlp_loss(tg: Any, inputs: Any, labels: Any, params: Any) -> Any:
    W1, b1, W2, b2, W3, b3 = params
    h1 = tg.relu(inputs @ W1 + b1)
    h2 = tg.relu(h1 @ W2 + b2)
    logp = tg.log_softmax(h2 @ W3 + b3, axis=1)
    return -tg.mean(tg.take_along_axis(logp, labels[:, None], axis=1))


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
    ratios = [
        ("tg.compile(jvp)", "tg.compile(forward)"),
        ("tg.compile(jvp, fuse)", "tg.compile(forward, fuse)"),
        ("tg.jvp along the input", "forward"),
        ("tg.compile(jvp along input)", "tg.compile(forward)"),
        ("jax jit: jvp", "jax jit: forward"),
    ]
    shown = [
        f"{top} / {bottom} = {medians[top] / medians[bottom]:.2f}"
        for top, bottom in ratios
        if top in medians and bottom in medians
    ]
    if shown:
        lines.append("  " + "; ".join(shown))
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args(argv)
    for name, systems in (("chain-500", chain_systems()), ("mlp", mlp_systems())):
        print("\n".join(report(name, systems, args.rounds)))


if __name__ == "__main__":
    main()
