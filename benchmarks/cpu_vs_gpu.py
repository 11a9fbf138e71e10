"""CPU (NumPy) against GPU (CuPy): the time of forward + gradient for three workloads.

    python benchmarks/cpu_vs_gpu.py              # full sizes
    python benchmarks/cpu_vs_gpu.py --quick      # smaller sizes (matmuls up to 2048)
    python benchmarks/cpu_vs_gpu.py --plot-only  # redraw the plot from cpu_vs_gpu.md

(a) an MLP training step (784-512-512-10, float32, softmax cross-entropy, SGD) at
batch sizes 64 to 8192; (b) a chain of three square float32 matmuls, 1024 to 8192
(1024 and 2048 with --quick);
(c) a chain of small ops on shape (8,), 1,500 ops long (and shorter, for the plot).
Each time is the median of repeats after a warm-up run, with the device
synchronised before each clock read. The same host data goes to both devices and
the two results are compared. Without CuPy or a GPU the GPU column says
"unavailable" and the CPU half still runs. Writes a Markdown table and a PNG plot
(when matplotlib is installed) to benchmarks/results/.
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout

import tapegrad as tg  # noqa: E402
from tapegrad.backends import devices

RESULTS = Path(__file__).resolve().parent / "results"
DEVICES = {"numpy": "cpu", "cupy": "gpu:0"}
SERIES = {"numpy": "tapegrad on NumPy (CPU)", "cupy": "tapegrad on CuPy (GPU)"}


@dataclass
class Workload:
    name: str
    unit: str  # what "size" counts
    sizes: tuple[int, ...]
    setup: Callable[[str, int], Callable[[], tg.Tensor]]  # (device, size) -> one step
    times: dict[str, dict[int, float]] = field(default_factory=dict)  # backend -> size -> s
    errors: dict[str, str] = field(default_factory=dict)  # backend -> why it has no times
    max_difference: dict[int, float] = field(default_factory=dict)  # size -> CPU vs GPU


# --- the workloads: each setup builds its data once and returns one timed step ---------


def mlp_step(device: str, batch: int) -> Callable[[], tg.Tensor]:
    rng = np.random.default_rng(0)
    sizes = [784, 512, 512, 10]
    layers = [
        (
            tg.Variable(rng.standard_normal((m, n)).astype(np.float32) / np.sqrt(m), device=device),
            tg.Variable(np.zeros(n, np.float32), device=device),
        )
        for m, n in zip(sizes, sizes[1:])
    ]
    params = [v for layer in layers for v in layer]
    x = tg.tensor(rng.standard_normal((batch, 784)).astype(np.float32), device=device)
    one_hot = np.eye(10, dtype=np.float32)[rng.integers(0, 10, batch)]
    targets = tg.tensor(one_hot, device=device)

    def step() -> tg.Tensor:
        with tg.GradientTape() as tape:
            h = x
            for i, (w, b) in enumerate(layers):
                h = h @ w + b
                if i < len(layers) - 1:
                    h = tg.relu(h)
            loss = -tg.mean(tg.sum(targets * tg.log_softmax(h, axis=-1), axis=-1))
        for v, g in zip(params, tape.gradient(loss, params)):
            v.assign_sub(g * 0.01)
        return loss

    return step


def matmul_chain(device: str, n: int) -> Callable[[], tg.Tensor]:
    rng = np.random.default_rng(1)
    scale = np.float32(1 / np.sqrt(n))
    x = tg.tensor(rng.standard_normal((n, n), dtype=np.float32), device=device)
    ws = [
        tg.tensor(rng.standard_normal((n, n), dtype=np.float32) * scale, device=device)
        for _ in range(3)
    ]

    def step() -> tg.Tensor:
        with tg.GradientTape() as tape:
            tape.watch(ws)
            y = ((x @ ws[0]) @ ws[1]) @ ws[2]
            loss = tg.mean(y * y)
        grads = tape.gradient(loss, ws)
        return tg.stack([loss, grads[0][0, 0], grads[2][-1, -1]])

    return step


def small_op_chain(device: str, length: int) -> Callable[[], tg.Tensor]:
    x = tg.tensor(np.linspace(-1.0, 1.0, 8, dtype=np.float32), device=device)

    def step() -> tg.Tensor:
        with tg.GradientTape() as tape:
            tape.watch(x)
            y = x
            for _ in range(length // 3):  # three ops a round
                y = tg.sin(y) * 0.5 + y
            loss = tg.sum(y)
        return tape.gradient(loss, x)

    return step


def workloads(quick: bool) -> list[Workload]:
    return [
        Workload(
            "MLP training step (784-512-512-10)",
            "batch",
            (64, 512, 2048, 8192) if quick else (64, 256, 1024, 4096, 8192),
            mlp_step,
        ),
        Workload(
            "matmul chain (3 square matmuls)",
            "n",
            (1024, 2048) if quick else (1024, 2048, 4096, 8192),
            matmul_chain,
        ),
        Workload("small-op chain on shape (8,)", "ops", (150, 500, 1500), small_op_chain),
    ]


# --- timing ----------------------------------------------------------------------------


def synchronizer(backend: str) -> Callable[[], None]:
    """Wait for the device: GPU work is asynchronous, so a clock read without it lies."""
    if backend == "numpy":
        return lambda: None
    cp = devices.cupy()
    device = cp.cuda.Device(devices.gpu_index(DEVICES[backend]))
    return device.synchronize


def median_time(
    step: Callable[[], tg.Tensor], sync: Callable[[], None], budget: float
) -> tuple[float, np.ndarray]:
    """Median seconds of a step (one warm-up, then at least 3 repeats, more while fast),
    and the warm-up's result: the first step from fresh data, comparable across devices."""
    first = np.asarray(step().numpy(), dtype=np.float64)
    sync()
    times: list[float] = []
    while len(times) < 3 or (sum(times) < budget and len(times) < 50):
        sync()
        start = time.perf_counter()
        step()
        sync()
        times.append(time.perf_counter() - start)
    return statistics.median(times), first


def run(work: Workload, backend: str, budget: float, first: dict) -> None:
    """Time every size of ``work`` on ``backend``; keep the first results in ``first``."""
    sync = synchronizer(backend)
    work.times[backend] = {}
    for size in work.sizes:
        step = work.setup(DEVICES[backend], size)
        work.times[backend][size], first[backend, size] = median_time(step, sync, budget)
        print(f"  {work.name:40s} {work.unit}={size:<6d} {backend:5s} "
              f"{work.times[backend][size] * 1e3:10.2f} ms", flush=True)  # fmt: skip


def compare(work: Workload, first: dict) -> None:
    """The largest CPU-GPU difference of the first step, relative to the largest value."""
    for size in work.sizes:
        if ("numpy", size) in first and ("cupy", size) in first:
            cpu, gpu = first["numpy", size], first["cupy", size]
            scale = max(float(np.max(np.abs(cpu))), 1e-30)
            work.max_difference[size] = float(np.max(np.abs(cpu - gpu))) / scale


def gpu_status() -> str | None:
    """None when CuPy and a GPU are usable, else why not."""
    try:
        devices.cupy()
    except RuntimeError as exc:
        return str(exc)
    return None


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def gpu_name() -> str:
    cp = devices.cupy()
    name = cp.cuda.runtime.getDeviceProperties(0)["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


# --- reporting ---------------------------------------------------------------------------


def table(works: list[Workload], gpu_note: str | None) -> str:
    rows = ["| workload | size | NumPy (CPU) ms | CuPy (GPU) ms | GPU speed-up | max rel. diff |"]
    rows.append("| --- | ---: | ---: | ---: | ---: | ---: |")
    for w in works:
        for size in w.sizes:
            cpu = w.times.get("numpy", {}).get(size)
            gpu = w.times.get("cupy", {}).get(size)
            cpu_cell = f"{cpu * 1e3:.2f}" if cpu is not None else w.errors.get("numpy", "-")
            if gpu is not None:
                gpu_cell, speed = f"{gpu * 1e3:.2f}", f"{cpu / gpu:.2f}x" if cpu else "-"
            else:
                gpu_cell, speed = ("unavailable" if gpu_note else w.errors.get("cupy", "-")), "-"
            diff = w.max_difference.get(size)
            diff_cell = f"{diff:.1e}" if diff is not None else "-"
            rows.append(
                f"| {w.name} | {w.unit}={size} | {cpu_cell} | {gpu_cell} | {speed} | {diff_cell} |"
            )
    return "\n".join(rows)


def report(works: list[Workload], gpu_note: str | None, quick: bool, plot_note: str) -> str:
    gpu = f"GPU: {gpu_name()}, CuPy {devices.cupy().__version__}" if gpu_note is None else ""
    lines = [
        "# tapegrad: CPU (NumPy) against GPU (CuPy)",
        "",
        f"Generated by `python benchmarks/cpu_vs_gpu.py{' --quick' if quick else ''}` on "
        f"{time.strftime('%Y-%m-%d')}: forward + gradient, median of repeats after a warm-up, "
        "device synchronised before each clock read, float32.",
        "",
        f"- CPU: {cpu_name()}, {os.cpu_count()} cores "
        f"(load average {os.getloadavg()[0]:.1f} at the end), NumPy {np.__version__}, "
        f"Python {platform.python_version()}",
        f"- {gpu}" if gpu else f"- GPU column unavailable: {gpu_note}",
        *(
            ["- The machine was busy (load above its core count): CPU times are pessimistic."]
            if os.getloadavg()[0] > (os.cpu_count() or 1)
            else []
        ),
        f"- Plot: {plot_note}",
        "",
        table(works, gpu_note),
        "",
        "max rel. diff: the largest difference between the CPU and GPU results of the first "
        "step on the same data (loss and gradient entries), relative to the largest of them; "
        "both run in float32.",
    ]
    return "\n".join(lines) + "\n"


def read_table(text: str) -> list[Workload]:
    """The workloads and times of a report that :func:`table` wrote (for --plot-only)."""
    setups = {w.name: w.setup for w in workloads(quick=False)}
    works: dict[str, Workload] = {}
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        size = re.fullmatch(r"(\w+)=(\d+)", cells[1]) if len(cells) == 6 else None
        if size is None or cells[0] not in setups:
            continue
        work = works.setdefault(cells[0], Workload(cells[0], size[1], (), setups[cells[0]]))
        work.sizes += (int(size[2]),)
        for backend, cell in zip(("numpy", "cupy"), cells[2:4]):
            if re.fullmatch(r"[\d.]+", cell):
                work.times.setdefault(backend, {})[int(size[2])] = float(cell) / 1e3
    return list(works.values())


def plot(works: list[Workload], path: Path) -> str:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FuncFormatter, LogLocator, NullLocator
    except ImportError:
        return "not drawn: matplotlib is not installed (pip install matplotlib)"
    fig, axes = plt.subplots(1, len(works), figsize=(5 * len(works), 4.2), squeeze=False)
    for ax, w in zip(axes[0], works):
        for backend, style in (("numpy", "o-"), ("cupy", "s--")):
            points = w.times.get(backend, {})
            if points:
                sizes = sorted(points)
                ax.plot(sizes, [points[s] * 1e3 for s in sizes], style, label=SERIES[backend])
        ax.set(xscale="log", yscale="log", xlabel=w.unit, ylabel="ms (forward + gradient)")
        ax.set_xticks(w.sizes, [str(s) for s in w.sizes])
        ax.xaxis.set_minor_locator(NullLocator())
        # Ticks at 1, 2, 5 of each decade, written as plain numbers: several on every panel.
        ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        ax.yaxis.set_minor_locator(NullLocator())
        ax.set_title(w.name, fontsize=9)
        ax.legend(fontsize=8, loc="upper left")
    if not any("cupy" in w.times for w in works):
        fig.suptitle("no GPU took part in this run: the CPU half only", fontsize=9, color="0.3")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return f"`{path.name}`"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, fewer repeats")
    parser.add_argument("--out", type=Path, default=RESULTS, help="folder for .md and .png")
    parser.add_argument(
        "--only", choices=["mlp", "matmul", "small"], action="append", help="run some workloads"
    )
    parser.add_argument(
        "--plot-only", action="store_true", help="redraw the plot from cpu_vs_gpu.md; run nothing"
    )
    args = parser.parse_args(argv)
    if args.plot_only:
        works = read_table((args.out / "cpu_vs_gpu.md").read_text())
        print(f"plot: {plot(works, args.out / 'cpu_vs_gpu.png')}")
        return 0
    works = workloads(args.quick)
    if args.only:
        works = [w for w, key in zip(works, ("mlp", "matmul", "small")) if key in args.only]
    gpu_note = gpu_status()
    backends = ["numpy"] + (["cupy"] if gpu_note is None else [])
    print(
        f"backends: {', '.join(backends)}" + (f" (GPU unavailable: {gpu_note})" if gpu_note else "")
    )
    budget = 0.3 if args.quick else 1.0
    for w in works:
        first: dict = {}
        run(w, "numpy", budget, first)
        if "cupy" in backends:
            try:
                run(w, "cupy", budget, first)
            except Exception as exc:  # report a GPU failure; never lose the CPU half
                w.times.pop("cupy", None)
                w.errors["cupy"] = f"failed: {type(exc).__name__}: {exc}"
                print(f"  {w.name}: GPU run failed: {exc}", file=sys.stderr)
        compare(w, first)
    args.out.mkdir(parents=True, exist_ok=True)
    plot_note = plot(works, args.out / "cpu_vs_gpu.png")
    text = report(works, gpu_note, args.quick, plot_note)
    (args.out / "cpu_vs_gpu.md").write_text(text)
    print()
    print(table(works, gpu_note))
    print(f"\nwrote {args.out / 'cpu_vs_gpu.md'}; plot: {plot_note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
