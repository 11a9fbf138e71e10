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
import textwrap
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
    tracemalloc.start()
    try:
        # Warm caches (compiled recordings, lazily built tables), traced: tracemalloc sees a
        # free only of memory it saw allocated, so the arrays a call replaces (parameters a
        # step updates into new arrays) must come from a traced call to count as freed.
        fn()
        gc.collect()
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


def to_json(header: list[str], results: list[Result]) -> dict[str, Any]:
    """What latest.json holds: the run's header lines and every measurement."""
    return {
        "header": header,
        "results": [
            {
                "name": res.name,
                "description": res.description,
                "unit": res.unit,
                "per": res.per,
                "rows": [
                    {
                        "system": r.system,
                        "median_s": r.seconds,
                        "samples_s": r.samples,
                        "peak_bytes": r.peak_bytes,
                        "ratio_to_numpy": ratio(res, r.system),
                        "note": r.note,
                    }
                    for r in res.rows
                ],
            }
            for res in results
        ],
    }


def from_json(payload: dict[str, Any]) -> tuple[list[str], list[Result]]:
    """The header and results that :func:`to_json` wrote (to redraw the chart)."""
    results = [
        Result(
            res["name"],
            res["description"],
            res["unit"],
            res["per"],
            [
                Row(r["system"], r["median_s"], r["samples_s"], r["peak_bytes"], r["note"])
                for r in res["rows"]
            ],
        )
        for res in payload["results"]
    ]
    return payload["header"], results


# What each system's bars are, in the chart's legend.
SYSTEM_LABELS = {
    "numpy": "hand-written NumPy",
    "tapegrad": "tapegrad, eager",
    "tapegrad replay": "tapegrad, replayed (tg.compile)",
    "tapegrad fused": "tapegrad, fused (tg.compile(fuse=True), numba)",
    "torch": "PyTorch, eager",
    "autograd": "HIPS autograd",
    "mygrad": "MyGrad",
    "jax jit": "JAX, jit",
    "tapegrad variables": "tapegrad, eager, parameters as Variables",
    "torch compile": "PyTorch, torch.compile",
}


LABEL_BOX = {"facecolor": "white", "edgecolor": "none", "pad": 0.6}  # the 1x line stays behind


def bar_chart(results: list[Result], systems: list[str], path: str, title: str) -> bool:
    """Horizontal bars of the ratios to NumPy (log scale), a group per workload with a bar
    per system that ran it, each labelled with its ratio; a system skipped on a workload
    shows its note instead. False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    except ImportError:
        return False
    # Only systems with at least one bar get a colour and a legend entry.
    shown = [
        s for s in systems if s != "numpy" and any(ratio(res, s) is not None for res in results)
    ]
    colors = {s: f"C{i}" for i, s in enumerate(shown)}
    slot, gap = 0.3, 0.45  # the height of one bar's row, and the space between workloads
    rows = [[r for s in shown for r in res.rows if r.system == s] for res in results]
    height = slot * sum(len(group) for group in rows) + gap * len(results)
    fig, ax = plt.subplots(figsize=(10, 0.75 + height * 0.9))
    first_bar: dict[str, Any] = {}  # system -> one of its bars, for the legend
    centres, y, values = [], gap / 2, []
    for res, group in zip(results, rows):
        centres.append(y + slot * (len(group) - 1) / 2)
        for row in group:
            value = ratio(res, row.system)
            label = SYSTEM_LABELS.get(row.system, row.system)
            if value is None:
                ax.text(1.0, y, f"  {label}: {row.note or 'not run'}",
                        va="center", fontsize=6.5, color="0.4")  # fmt: skip
            else:
                bars = ax.barh(y, value, slot * 0.85, color=colors[row.system])
                first_bar.setdefault(row.system, bars)
                ax.text(value * 1.03, y, f"{value:.2f}×" if value < 10 else f"{value:.0f}×",
                        va="center", fontsize=6.5, bbox=LABEL_BOX)  # fmt: skip
                values.append(value)
            y += slot
        y += gap
    numpy_line = ax.axvline(1.0, color="black", linewidth=0.8, linestyle="--", zorder=1)
    ax.set_xscale("log")
    low, high = min([*values, 1.0]) / 1.5, max([*values, 1.0]) * 2.2  # room for the labels
    ax.set_xlim(low, high)
    ticks = [t for t in (0.25, 0.5, 1, 2, 5, 10, 20, 50, 100, 200) if low <= t <= high]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}×"))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_yticks(centres)
    ax.set_yticklabels([textwrap.fill(res.description, 34) for res in results], fontsize=7.5)
    ax.set_ylim(y - gap / 2, 0)  # the first workload on top
    ax.set_xlabel("time (or peak memory) / hand-written NumPy, lower is better")
    ax.set_title(title, fontsize=9)
    ax.legend(
        [numpy_line, *(first_bar[s] for s in shown)],
        ["hand-written NumPy (1×)", *(SYSTEM_LABELS.get(s, s) for s in shown)],
        fontsize=7,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
    )
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return True
