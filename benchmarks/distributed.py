"""All-reduce bandwidth by message size, and the data-parallel speed-up from 1 to N processes.

    python -m benchmarks.distributed              # 1 and 2 processes on this machine
    python -m benchmarks.distributed --ranks 4 --quick

The driver launches the measurements itself (``mpiexec -n N python -m
benchmarks.distributed --worker ...``, from the mpi extra), with every BLAS pool
pinned to one thread so that N processes use N cores. It prints Markdown and writes
it to benchmarks/results/distributed.md.

- **all-reduce**: float32 sum of one buffer, sizes 4 B to 64 MiB; the time is the
  median over repetitions of the slowest rank. *algbw* = bytes / time; *busbw* =
  algbw * 2(N-1)/N, the bytes each link must carry in a ring all-reduce (the
  definition of NVIDIA's nccl-tests), comparable across N. Measured on MPI alone (a
  blocking ``Allreduce``), through the world's timed non-blocking all-reduce (the
  timeout loop, no agreement), the per-call agreement alone, and through
  ``dist.all_reduce`` (agreement, timed all-reduce, and the copies in and out of its
  bucket): so the cost of the timeouts and of the checks can be read off.
- **training step**: an MLP (1024-1024-1024-10, 2.1 M float32 parameters, 8.4 MB of
  gradients), Adam, a global batch of 256 and of 2048 split evenly over the
  processes; the median step of the slowest rank, split into compute (forward and
  backward on the rank's share) and the DistributedOptimizer step (all-reduce, then
  Adam), with the all-reduce of the gradients also timed alone.
"""

from __future__ import annotations

import os
import sys

if __name__ == "__main__":  # the driver and its workers, before NumPy loads: one core each
    for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[_name] = "1"
if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import argparse  # noqa: E402
import datetime  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

RESULTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "distributed.md")
LAYERS = (1024, 1024, 1024, 10)
BATCHES = (256, 2048)  # global batch sizes: little and much compute per all-reduce


# Workers: run under mpiexec; rank 0 prints one JSON object.


def _slowest(seconds: float) -> float:
    """The slowest rank's time (a step is as slow as its slowest rank)."""
    import tapegrad.distributed as dist

    return dist.all_reduce(seconds, "max")


def _time(fn, repeats: int) -> tuple[float, float]:
    """(median, best) over ``repeats`` of the slowest rank's seconds for one ``fn()``."""
    samples = []
    for _ in range(repeats):
        _slowest(0.0)  # start together
        start = time.perf_counter()
        fn()
        samples.append(_slowest(time.perf_counter() - start))
    return statistics.median(samples), min(samples)


def allreduce_worker(quick: bool) -> dict:
    """Each size on MPI alone (a blocking Allreduce), through the world's timed collective
    (non-blocking, with the timeout), its agreement alone, and through dist.all_reduce."""
    import tapegrad.distributed as dist
    from tapegrad.distributed.world import world

    mpi_world = world()
    comm, mpi = mpi_world.comm, getattr(mpi_world, "mpi", None)
    rows = []
    for power in range(0, 25, 4 if quick else 2):  # 1 to 16 M float32s: 4 B to 64 MiB
        count = 2**power
        buffer = np.ones(count, dtype=np.float32)
        repeats = max(5, min(200, int(2e7 / max(count, 1))))
        if quick:
            repeats = max(3, repeats // 10)
        if mpi is None:  # a world of one: nothing to measure but the Python
            blocking = lambda b=buffer: None  # noqa: E731
        else:
            blocking = lambda b=buffer: comm.Allreduce(mpi.IN_PLACE, b, op=mpi.SUM)  # noqa: E731
        for _ in range(2):  # warm up: connections, caches, the plan of dist.all_reduce
            blocking()
            dist.all_reduce([buffer], "sum")
        raw = _time(blocking, repeats)
        timed = _time(lambda b=buffer: mpi_world.allreduce(b, "sum"), repeats)
        agree = _time(lambda: mpi_world.agree(7, "benchmark", lambda: ["benchmark"]), repeats)
        wrapped = _time(lambda b=buffer: dist.all_reduce([b], "sum"), repeats)
        rows.append(
            {
                "bytes": count * 4,
                "mpi_s": raw,
                "timed_s": timed,
                "agree_s": agree,
                "tapegrad_s": wrapped,
            }
        )
    return {"ranks": dist.world_size(), "allreduce": rows}


def step_worker(batch: int, steps: int) -> dict:
    import tapegrad as tg
    import tapegrad.distributed as dist

    rank, size = dist.rank(), dist.world_size()
    tg.random.seed(0)
    layers = []
    for fan_in, fan_out in zip(LAYERS, LAYERS[1:]):
        layers += [tg.nn.Linear(fan_in, fan_out), tg.nn.ReLU()]
    model = tg.nn.Sequential(*layers[:-1])
    variables = model.trainable_variables
    dist.broadcast(variables, root=0)
    optimizer = dist.DistributedOptimizer(tg.optim.Adam(variables, lr=1e-4))
    source = np.random.default_rng(0)
    x = source.normal(size=(batch, LAYERS[0])).astype(np.float32)
    y = source.integers(0, LAYERS[-1], size=batch)
    mine = slice(rank * batch // size, (rank + 1) * batch // size)
    x, y = tg.tensor(x[mine]), tg.tensor(y[mine])

    samples: dict[str, list[float]] = {"compute": [], "update": [], "step": [], "reduce": []}
    for step in range(steps + 3):
        _slowest(0.0)
        start = time.perf_counter()
        with tg.GradientTape() as tape:
            loss = tg.nn.cross_entropy(model(x), y)
        grads = tape.gradient(loss, variables)
        middle = time.perf_counter()
        optimizer.apply_gradients(grads)
        end = time.perf_counter()
        # The all-reduce alone, as DistributedOptimizer does it (outside the step's time).
        _slowest(0.0)
        reduce_start = time.perf_counter()
        dist.all_reduce(grads, "mean")
        reduce = time.perf_counter() - reduce_start
        times = dist.all_reduce([middle - start, end - middle, end - start, reduce], "max")
        if step >= 3:  # after the warm-up steps
            for name, value in zip(samples, times):
                samples[name].append(value)
    result = {f"{name}_s": statistics.median(values) for name, values in samples.items()}
    return {"ranks": size, "batch": batch, "parameters": sum(v.size for v in variables), **result}


# The driver.


def _launch(ranks: int, *worker: str) -> dict:
    command = [sys.executable, "-m", "benchmarks.distributed", "--worker", *worker]
    if ranks > 1:
        mpiexec = shutil.which("mpiexec", path=os.path.dirname(sys.executable)) or shutil.which(
            "mpiexec"
        )
        if mpiexec is None:
            raise SystemExit("no mpiexec: pip install 'tapegrad[mpi]'")
        command = [mpiexec, "-n", str(ranks), *command]
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    result = subprocess.run(command, capture_output=True, text=True, cwd=root, timeout=900)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout}\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def _size(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError


def report(sweep: dict, steps: list[tuple[dict, dict]]) -> str:
    n = sweep["ranks"]
    lines = [
        f"# Distributed: all-reduce and data-parallel speed-up ({datetime.date.today()})",
        "",
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, load average "
        f"{os.getloadavg()[0]:.1f} at the end (the machine is shared: other people's "
        "processes compete for the same cores); MPICH from PyPI (shared memory within one "
        "machine); one BLAS thread per process.",
        "",
        f"## All-reduce, float32 sum, {n} processes",
        "",
        "Median and best of the repetitions; busbw from the median (best). *MPI*: a blocking",
        "`Allreduce`, no checks. *timed*: the world's non-blocking all-reduce with its timeout",
        "loop, no agreement. *agreement*: the per-call check alone (one all-reduce of four",
        "int64s). *dist.all_reduce*: both, and the copies in and out of its bucket.",
        "",
        "| size | MPI time | MPI busbw | timed | agreement | dist.all_reduce time "
        "| dist.all_reduce busbw |",
        "|---:|---:|---:|---:|---:|---:|---:|",
    ]
    ring = 2 * (n - 1) / n
    for row in sweep["allreduce"]:
        b = row["bytes"]
        cells = [_size(b)]
        for key in ("mpi_s", "timed_s", "agree_s", "tapegrad_s"):
            if key not in row:  # a sweep from before the timed collectives
                cells.append("–")
                continue
            median, best = row[key]
            cells.append(f"{median * 1e6:,.0f} us ({best * 1e6:,.0f})")
            if key in ("mpi_s", "tapegrad_s"):
                cells.append(f"{_size(ring * b / median)}/s ({_size(ring * b / best)}/s)")
        lines.append("| " + " | ".join(cells) + " |")
    parameters = steps[0][0]["parameters"]
    lines += [
        "",
        f"## Training step: MLP {'-'.join(map(str, LAYERS))}, {parameters:,} parameters "
        f"({_size(4 * parameters)} of float32 gradients), Adam",
        "",
        "Median step of the slowest rank; the all-reduce alone is timed apart from the step.",
        "The model's prediction: compute on 1 process / N + the all-reduce on N + Adam on 1.",
        "",
        "| global batch | processes | step | compute (forward + backward) "
        "| optimizer (all-reduce + Adam) | its all-reduce alone | speed-up | predicted step |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for single, multi in steps:
        for run in (single, multi):
            # In a world of one, DistributedOptimizer hands the gradients straight through.
            reduce = run["reduce_s"] if run["ranks"] > 1 else None
            predicted = single["compute_s"] / run["ranks"] + (reduce or 0.0) + single["update_s"]
            cells = [run[f"{name}_s"] for name in ("step", "compute", "update")] + [reduce]
            lines.append(
                f"| {run['batch']} | {run['ranks']} | "
                + " | ".join("–" if t is None else f"{t * 1e3:.1f} ms" for t in cells)
                + f" | {single['step_s'] / run['step_s']:.2f}x | {predicted * 1e3:.1f} ms |"
            )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--ranks", type=int, default=2, help="processes to compare with one")
    parser.add_argument("--steps", type=int, default=20, help="timed training steps")
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repetitions")
    parser.add_argument("--out", default=RESULTS, help="where to write the Markdown")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        import tapegrad.distributed as dist

        kind, *rest = args.worker
        if kind == "allreduce":
            result = allreduce_worker(args.quick)
        else:
            result = step_worker(*map(int, rest))
        if dist.rank() == 0:
            print(json.dumps(result), flush=True)
        return
    steps = max(3, args.steps // 4) if args.quick else args.steps
    quick = ("--quick",) if args.quick else ()
    sweep = _launch(args.ranks, "allreduce", *quick)
    runs = [
        tuple(_launch(ranks, "step", str(batch), str(steps)) for ranks in (1, args.ranks))
        for batch in BATCHES
    ]
    text = report(sweep, runs)
    print(text)
    with open(args.out, "w") as f:
        f.write(text)


if __name__ == "__main__":
    main()
