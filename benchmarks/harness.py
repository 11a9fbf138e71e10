"""Interleaved timing, peak-memory measurement, and the result table.

Timing: each round runs every system once, in a rotating order, so that load
from other processes falls on all of them alike; a system's number is the median
of its rounds. Memory: the tracemalloc peak above the memory in use before the
call, for systems whose arrays NumPy allocates (tracemalloc cannot see PyTorch's
or XLA's allocators, so those report n/a).
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Workload = Callable[[], Any]


@dataclass
class Row:
    """One system's measurement of one workload."""

    system: str
    seconds: float | None  # median seconds of one call
    samples: list[float] = field(default_factory=list)
    peak_bytes: int | None = None
    note: str = ""


@dataclass
class Result:
    """A workload: what it is, how it is counted, and one Row per system."""

    name: str
    description: str
    unit: str  # "us/op" or "ms"
    per: int  # the count the time is divided by (ops, or 1)
    rows: list[Row]

    def baseline(self) -> Row | None:
        return next((r for r in self.rows if r.system == "numpy"), None)


def time_interleaved(
    systems: dict[str, Workload], rounds: int, inner: int = 1, warmup: int = 1
) -> dict[str, list[float]]:
    """Seconds per call of each system, one sample per round; rounds interleave systems."""
    for fn in systems.values():
        for _ in range(warmup):
            fn()
    names = list(systems)
    samples: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        order = names[r % len(names) :] + names[: r % len(names)]
        for name in order:
            fn = systems[name]
            gc.collect()
            start = time.perf_counter()
            for _ in range(inner):
                fn()
            samples[name].append((time.perf_counter() - start) / inner)
    return samples


def peak_memory(fn: Workload) -> int:
    """Bytes allocated at the peak of ``fn()`` above what was in use before it (tracemalloc)."""
    fn()  # warm caches (compiled recordings, lazily built tables)
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tracemalloc.reset_peak()
        result = fn()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    del result
    return peak - before


def rows_from(samples: dict[str, list[float]], notes: dict[str, str] | None = None) -> list[Row]:
    notes = notes or {}
    return [
        Row(name, statistics.median(values), values, note=notes.get(name, ""))
        for name, values in samples.items()
    ]


def _fmt_time(seconds: float, unit: str, per: int) -> str:
    if unit == "us/op":
        return f"{seconds / per * 1e6:.2f} us/op"
    if unit == "s":
        return f"{seconds:.2f} s"
    return f"{seconds * 1e3:.2f} ms"


def _fmt_bytes(n: int) -> str:
    return f"{n / 2**20:.1f} MiB"


def format_table(results: list[Result], systems: list[str]) -> str:
    """A Markdown table: one row per workload, one column per system, ratio to NumPy."""
    header = ["workload", *systems]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for res in results:
        base = res.baseline()
        cells = [res.description]
        by_system = {r.system: r for r in res.rows}
        for system in systems:
            row = by_system.get(system)
            if row is None or (row.seconds is None and row.peak_bytes is None):
                cells.append(row.note if row is not None and row.note else "-")
                continue
            if row.peak_bytes is not None:
                text = _fmt_bytes(row.peak_bytes)
                if base is not None and base.peak_bytes and row is not base:
                    text += f" ({row.peak_bytes / base.peak_bytes:.2f}x)"
                elif row is base:
                    text += " (1.0x)"
            else:
                text = _fmt_time(row.seconds, res.unit, res.per)
                if base is not None and base.seconds and row is not base:
                    text += f" ({row.seconds / base.seconds:.2f}x)"
                elif row is base:
                    text += " (1.0x)"
            if row.note:
                text += f" [{row.note}]"
            cells.append(text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ratio(result: Result, system: str) -> float | None:
    """``system``'s median over NumPy's (time, or peak memory for memory workloads)."""
    base = result.baseline()
    row = next((r for r in result.rows if r.system == system), None)
    if base is None or row is None:
        return None
    if row.peak_bytes is not None and base.peak_bytes:
        return row.peak_bytes / base.peak_bytes
    if row.seconds is None or not base.seconds:
        return None
    return row.seconds / base.seconds


def bar_chart(results: list[Result], systems: list[str], path: str, title: str) -> bool:
    """A grouped bar chart of the ratios to NumPy (log scale); False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    shown = [s for s in systems if s != "numpy"]
    fig, ax = plt.subplots(figsize=(11, 5.5))
    width = 0.8 / max(len(shown), 1)
    labels = [res.name for res in results]
    for j, system in enumerate(shown):
        values = [ratio(res, system) for res in results]
        xs = [i + (j - (len(shown) - 1) / 2) * width for i in range(len(results))]
        heights = [v if v is not None else 0 for v in values]
        bars = ax.bar(xs, heights, width, label=system)
        for bar, v in zip(bars, values):
            if v is not None:
                ax.annotate(
                    f"{v:.2f}" if v < 10 else f"{v:.0f}",
                    (bar.get_x() + bar.get_width() / 2, v),
                    ha="center",
                    va="bottom",
                    fontsize=6,
                )
    ax.axhline(1.0, color="black", linewidth=0.8, linestyle="--", label="hand-written NumPy")
    ax.set_yscale("log")
    ax.set_xticks(range(len(results)))
    ax.set_xticklabels(labels, rotation=15, ha="right", fontsize=8)
    ax.set_ylabel("time (or peak memory) / hand-written NumPy, lower is better")
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True
