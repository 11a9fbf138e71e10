"""Time the real programs under every installed system: ``python -m benchmarks.programs``.

Pins BLAS/OpenMP (and XLA) to one thread before NumPy is imported (as
``python -m benchmarks`` does), times each system's first call (tapegrad's recording,
JAX's tracing and compiling) on its own, warms each up twice more (a replay's second
and third calls check and generate its gradient code), then runs interleaved rounds
(every system once per round, rotating order) and reports medians as ratios to the
fastest system on each workload, in one run. Writes programs.md, programs.json and
programs.png to benchmarks/results/.

    python -m benchmarks.programs                 # every workload (about ten minutes on 2 cores)
    python -m benchmarks.programs --quick         # 3 rounds
    python -m benchmarks.programs --only gp hmm   # workloads whose name contains a word
    python -m benchmarks.programs --plot-only     # redraw programs.png from programs.json
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import sys
import time

from benchmarks import harness, peers
from benchmarks import run as suite  # pins the thread pools: before anything loads NumPy
from benchmarks.harness import Result, Row
from benchmarks.programs import report, systems
from benchmarks.programs.workloads import WORKLOADS, Workload, step

RESULTS_DIR = suite.RESULTS_DIR


def measure(workload: Workload, names: list[str], rounds: int) -> report.Measured:
    """Build, time the first call of, warm up and time ``workload`` under ``names``."""
    print(f"- {workload.description} ...", flush=True)
    calls, first, notes = {}, {}, {}
    for name, system in systems.available(names).items():
        try:
            call = step(workload, system)
            start = time.perf_counter()
            call()
            first[name] = time.perf_counter() - start
        except Exception as exc:  # a peer that cannot run a program should not sink the run
            notes[name] = f"not run ({type(exc).__name__})"
            print(f"  {name}: {type(exc).__name__}: {exc}", file=sys.stderr)
            continue
        calls[name] = call
        print(f"  {name}: first call {first[name]:.3f} s", flush=True)
    samples = harness.time_interleaved(calls, rounds=rounds, inner=1, warmup=2)
    rows = harness.rows_from(samples) + [Row(s, None, note=why) for s, why in notes.items()]
    return report.Measured(Result(workload.name, workload.description, "ms", 1, rows), first)


def write(header: list[str], measured: list[report.Measured], out: str) -> str:
    """The Markdown report (returned and written), programs.json and programs.png."""
    shown = [s for s in systems.BUILDERS if any(s in m.timed() for m in measured)]
    text = "\n".join(
        [
            "# Real programs, side by side",
            "",
            *(f"- {line}" for line in header),
            "",
            "Median time of one value-and-gradient call (the logistic regression: one whole "
            "L-BFGS-B fit), and its ratio to the fastest system on the row (in bold).",
            "",
            report.table(measured, shown),
            "",
            "tapegrad's faster mode over each peer (below 1x: tapegrad is faster):",
            "",
            report.goals_table(measured),
            "",
            "The first call (tapegrad: the recording; JAX: tracing and compiling), "
            "not part of the medians:",
            "",
            report.first_call_table(measured, shown),
            "",
        ]
    )
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "programs.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "programs.json"), "w") as f:
        json.dump(report.to_json(header, measured), f, indent=1)
    draw(header, measured, out)
    return text


def draw(header: list[str], measured: list[report.Measured], out: str) -> bool:
    """programs.png; its title names the run's date and machine."""
    fields = dict(line.split(": ", 1) for line in header[:2])
    shown = [s for s in systems.BUILDERS if any(s in m.timed() for m in measured)]
    title = f"tapegrad on real programs, {fields['date']}, {fields['machine']}"
    return report.chart(measured, shown, os.path.join(out, "programs.png"), title)


def main(argv: list[str] | None = None) -> list[report.Measured]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 rounds")
    parser.add_argument("--rounds", type=int, default=None, help="rounds per workload")
    parser.add_argument("--only", nargs="*", help="workload names to run (substrings)")
    parser.add_argument("--systems", nargs="*", choices=list(systems.BUILDERS))
    parser.add_argument("--out", default=RESULTS_DIR, help="where to write results")
    parser.add_argument("--plot-only", action="store_true", help="redraw programs.png only")
    args = parser.parse_args(argv)

    if args.plot_only:
        with open(os.path.join(args.out, "programs.json")) as f:
            header, measured = report.from_json(json.load(f))
        drawn = draw(header, measured, args.out)
        print(f"wrote {args.out}/programs.png" if drawn else "no matplotlib: no chart")
        return measured

    rounds = args.rounds or (3 if args.quick else 7)
    now = datetime.datetime.now(datetime.timezone.utc)
    header = [
        f"date: {now:%Y-%m-%d %H:%M} UTC",
        f"machine: {suite.machine()}",
        f"python {platform.python_version()}; "
        + ", ".join(f"{k} {v}" for k, v in peers.versions().items()),
        "threads: " + "; ".join(suite.thread_report()),
        f"method: first call timed alone, 2 warm-up calls, then {rounds} interleaved rounds "
        "(each system once per round, rotating order); median over rounds; ratios to the "
        "fastest system on the workload, in the same run",
    ]
    print("\n".join(header), flush=True)
    chosen = [w for w in WORKLOADS if not args.only or any(p in w.name for p in args.only)]
    names = args.systems or list(systems.BUILDERS)
    measured = [measure(w, names, rounds) for w in chosen]
    text = write(header, measured, args.out)
    print()
    print(text)
    print(f"wrote {args.out}/programs.md, programs.json, programs.png")
    return measured
