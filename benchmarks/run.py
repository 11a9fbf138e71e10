"""Run tapegrad's benchmark suite: ``python -m benchmarks`` or ``python benchmarks/run.py``.

Pins every BLAS/OpenMP pool to one thread before NumPy is imported, prints the
thread counts it finds, runs the workloads with interleaved rounds, prints a
table of medians and ratios to hand-written NumPy, and writes the table (Markdown
and JSON) and a bar chart to benchmarks/results/.

    python -m benchmarks              # the full suite (a few minutes on 2 cores)
    python -m benchmarks --quick      # fewer rounds, no million-entry tape
    python -m benchmarks --plot-only  # redraw latest.png from latest.json, running nothing

Separate studies run as modules: ``python -m benchmarks.solvers`` (implicit gradients of
minimize/root/spsolve/cg next to the solve and to unrolling), ``benchmarks.chain_split``,
``benchmarks.checkpoint_memory``, ``benchmarks.fuse_latency``, ``benchmarks.programs``
(real programs written once in NumPy style, under tapegrad, HIPS autograd and JAX), and
``benchmarks.forward`` (jvp against the forward pass and two reverse sweeps, hvp against
JAX's, on the chain and the MLP).
"""

from __future__ import annotations

import os
import sys

THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
for _name in THREAD_VARIABLES:
    os.environ[_name] = "1"
os.environ.setdefault(
    "XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)
if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
from collections.abc import Callable  # noqa: E402
from typing import Any  # noqa: E402

from benchmarks import chain, harness, mlp, mlp_train, overhead, peers  # noqa: E402
from benchmarks.harness import Result, Row  # noqa: E402

SYSTEMS = [
    "numpy",
    "tapegrad",
    "tapegrad variables",
    "tapegrad replay",
    "tapegrad fused",
    "torch",
    "torch compile",
    "autograd",
    "mygrad",
    "jax jit",
]
# numba compiles a recording as straight-line code: minutes for 100,000 steps, so the
# fused row runs on the 500-step chain only (benchmarks/fuse_latency.py measures compiling).
UNROLLED = "skipped (compiles the unrolled recording)"
PEER_MODULE = {
    "torch": "torch",
    "torch compile": "torch",
    "autograd": "autograd",
    "mygrad": "mygrad",
    "jax jit": "jax",
}
RESULTS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results")


def _available(builders: dict[str, Callable[[], Any]], skip: set[str]) -> dict[str, Any]:
    """Build the systems whose library is installed; a failing build is reported, not fatal."""
    built = {}
    for name, build in builders.items():
        if name in skip:
            continue
        module = PEER_MODULE.get(name)
        if module is not None and peers.load(module) is None:
            continue
        try:
            built[name] = build()
        except Exception as exc:  # a peer whose API changed should not sink the suite
            print(f"  {name}: not run ({type(exc).__name__}: {exc})", file=sys.stderr)
    return built


def _timed(
    name: str,
    description: str,
    builders: dict[str, Callable[[], Any]],
    rounds: int,
    inner: int,
    unit: str,
    per: int,
    skip: dict[str, str] | None = None,
) -> Result:
    skip = skip or {}
    print(f"- {description} ...", flush=True)
    systems = _available(builders, set(skip))
    samples = harness.time_interleaved(systems, rounds=rounds, inner=inner)
    rows = harness.rows_from(samples)
    rows += [Row(s, None, note=why) for s, why in skip.items()]
    return Result(name, description, unit, per, rows)


def _memory(
    name: str,
    description: str,
    builders: dict[str, Callable[[], Any]],
    systems: list[str],
    notes: dict[str, str],
) -> Result:
    print(f"- {description} ...", flush=True)
    built = _available({s: builders[s] for s in systems if s in builders}, set())
    rows = [Row(s, None, peak_bytes=harness.peak_memory(fn)) for s, fn in built.items()]
    rows += [Row(s, None, note=why) for s, why in notes.items()]
    return Result(name, description, "MiB", 1, rows)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}"


def thread_report() -> list[str]:
    lines = [f"{name}={os.environ.get(name)}" for name in THREAD_VARIABLES]
    try:
        from threadpoolctl import threadpool_info

        for pool in threadpool_info():
            lines.append(
                f"{pool['internal_api']} ({os.path.basename(pool['filepath'])}): "
                f"{pool['num_threads']} thread(s)"
            )
    except ImportError:
        lines.append("threadpoolctl not installed: BLAS pools not inspected")
    torch = peers.load("torch")
    if torch is not None:
        peers.torch()
        lines.append(f"torch: {torch.get_num_threads()} intra-op thread(s)")
    return lines


def run_suite(args: argparse.Namespace) -> list[Result]:
    quick = args.quick
    rounds = args.rounds or (5 if quick else 15)
    results = []
    slow_peers = {"autograd": "skipped (slow; --full)", "mygrad": "skipped (slow; --full)"}

    def want(name: str) -> bool:
        return not args.only or any(part in name for part in args.only)

    if want("chain-500"):
        results.append(
            _timed(
                "chain-500",
                "chain: 500 x tanh(y*w+b), (8,) f64, fwd+grad (1,500 ops)",
                chain.builders(500),
                rounds,
                3,
                "us/op",
                1500,
            )
        )
    if want("untaped"):
        for op in ("multiply", "tanh"):
            for shape in ((8,), (64, 64)):
                results.append(
                    _timed(
                        f"untaped-{op}-{'x'.join(map(str, shape))}",
                        f"untaped {op} on {shape} f64 (per call)",
                        overhead.builders(op, shape),
                        rounds,
                        1,
                        "us/op",
                        overhead.CALLS,
                    )
                )
    if want("mlp"):
        results.append(
            _timed(
                "mlp-step",
                "MLP step: X (256, 784) f32, 784-512-512-10, all grads",
                mlp.builders(),
                max(rounds, 9) if quick else 25,
                3,
                "ms",
                1,
            )
        )
        results.append(
            _memory(
                "mlp-peak-memory",
                "MLP step: peak memory above inputs and parameters",
                mlp.builders(),
                ["numpy", "tapegrad", "tapegrad replay", "autograd", "mygrad"],
                {"torch": "n/a (own allocator)", "jax jit": "n/a (own allocator)"},
            )
        )
    if want("mlp-train"):
        results.append(
            _timed(
                "mlp-train",
                "MLP train step: nn.Linear x3, nn.cross_entropy, optim.SGD (256, 784) f32",
                mlp_train.builders(),
                max(rounds, 9) if quick else 25,
                3,
                "ms",
                1,
            )
        )
        results.append(
            _memory(
                "mlp-train-peak-memory",
                "MLP train step: peak memory above inputs and parameters",
                mlp_train.builders(),
                ["numpy", "tapegrad", "tapegrad replay"],
                {
                    "torch": "n/a (own allocator)",
                    "torch compile": "n/a (own allocator)",
                    "jax jit": "n/a (own allocator)",
                },
            )
        )
    if want("chain-100k"):
        results.append(
            _timed(
                "chain-100k",
                "chain: 33,334 steps (100,002 ops), fwd+grad",
                chain.builders(33_334),
                3 if quick else 5,
                1,
                "us/op",
                100_002,
                skip={
                    "jax jit": "skipped (unrolled compile)",
                    "torch compile": "skipped (unrolled compile)",
                    "tapegrad fused": UNROLLED,
                },
            )
        )
    if want("tape-1m") and not quick:
        skip = {
            "jax jit": "skipped (unrolled compile)",
            "torch compile": "skipped (unrolled compile)",
            "tapegrad fused": UNROLLED,
        }
        if not args.full:
            skip.update(slow_peers)
        steps = 333_334
        results.append(
            _timed(
                "tape-1m",
                "1,000,002-entry tape: record + gradient",
                chain.builders(steps),
                3,
                1,
                "s",
                1,
                skip=skip,
            )
        )
        results.append(
            _memory(
                "tape-1m-memory",
                "1,000,002-entry tape: peak memory",
                chain.builders(steps),
                ["numpy", "tapegrad", "tapegrad replay"],
                {"torch": "n/a (own allocator)"},
            )
        )
    return results


def chart(header: list[str], results: list[Result], out: str) -> bool:
    """Draw latest.png in ``out``; the title names the run's date and machine."""
    fields = dict(line.split(": ", 1) for line in header[:2])  # date: ..., machine: ...
    shown = [s for s in SYSTEMS if any(r.system == s for res in results for r in res.rows)]
    title = f"tapegrad benchmarks, {fields['date']}, {fields['machine']}"
    return harness.bar_chart(results, shown, os.path.join(out, "latest.png"), title)


def main(argv: list[str] | None = None) -> list[Result]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds, no 1M tape")
    parser.add_argument("--full", action="store_true", help="run slow peers on the 1M tape too")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per workload")
    parser.add_argument("--only", nargs="*", help="workload names to run (substrings)")
    parser.add_argument(
        "--programs", action="store_true", help="then the real programs (benchmarks.programs)"
    )
    parser.add_argument("--out", default=RESULTS_DIR, help="where to write results")
    parser.add_argument(
        "--plot-only", action="store_true", help="redraw latest.png from latest.json; run nothing"
    )
    args = parser.parse_args(argv)

    if args.plot_only:
        with open(os.path.join(args.out, "latest.json")) as f:
            header, results = harness.from_json(json.load(f))
        drawn = chart(header, results, args.out)
        print(f"wrote {args.out}/latest.png" if drawn else "no matplotlib: no chart")
        return results

    import numpy  # noqa: F401 - after the thread variables are set

    now = datetime.datetime.now(datetime.timezone.utc)
    header = [
        f"date: {now:%Y-%m-%d %H:%M} UTC",
        f"machine: {machine()}",
        f"python {platform.python_version()}; "
        + ", ".join(f"{k} {v}" for k, v in peers.versions().items()),
        "threads: " + "; ".join(thread_report()),
        "method: interleaved rounds (each system once per round, rotating order), "
        "median over rounds; ratios to hand-written NumPy in the same run",
    ]
    print("\n".join(header), flush=True)
    results = run_suite(args)
    shown = [s for s in SYSTEMS if any(r.system == s for res in results for r in res.rows)]
    table = harness.format_table(results, shown)
    print()
    print(table)

    os.makedirs(args.out, exist_ok=True)
    stamp = f"{now:%Y%m%d-%H%M}"
    text = "\n".join(f"- {line}" for line in header) + "\n\n" + table + "\n"
    for name in (f"{stamp}.md", "latest.md"):
        with open(os.path.join(args.out, name), "w") as f:
            f.write(text)
    with open(os.path.join(args.out, "latest.json"), "w") as f:
        json.dump(harness.to_json(header, results), f, indent=1)
    if chart(header, results, args.out):
        print(f"\nwrote {args.out}/latest.md, latest.json, latest.png ({stamp}.md)")
    else:
        print(f"\nwrote {args.out}/latest.md, latest.json (no matplotlib: no chart)")
    if args.programs:
        from benchmarks.programs import run as programs

        programs.main(["--out", args.out] + (["--quick"] if args.quick else []))
    return results


if __name__ == "__main__":
    main()
