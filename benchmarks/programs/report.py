"""The programs' tables and chart: medians as ratios to the fastest system on each
workload, the first call's cost (recording, tracing, compiling), and tapegrad's ratio
to each peer."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from typing import Any

from benchmarks.harness import Result, Row
from benchmarks.programs.systems import LABELS


@dataclass
class Measured:
    """One workload's timings, and each system's first call (seconds)."""

    result: Result
    first_call: dict[str, float] = field(default_factory=dict)

    def timed(self) -> dict[str, Row]:
        return {r.system: r for r in self.result.rows if r.seconds is not None}

    def fastest(self) -> Row | None:
        rows = list(self.timed().values())
        return min(rows, key=lambda r: r.seconds or 0.0) if rows else None

    def ratio(self, system: str, to: str | None = None) -> float | None:
        """``system``'s median over ``to``'s, or over the fastest system's."""
        timed = self.timed()
        row = timed.get(system)
        base = self.fastest() if to is None else timed.get(to)
        if row is None or base is None or not base.seconds or row.seconds is None:
            return None
        return row.seconds / base.seconds


def _ms(seconds: float) -> str:
    if seconds >= 1.0:
        return f"{seconds:.2f} s"
    return f"{seconds * 1e3:.3g} ms"


def table(measured: list[Measured], systems: list[str]) -> str:
    """Medians, with each one's ratio to the fastest system on its row (fastest in bold)."""
    lines = [
        "| workload | " + " | ".join(LABELS.get(s, s) for s in systems) + " |",
        "|---|" + "---|" * len(systems),
    ]
    for m in measured:
        rows = {r.system: r for r in m.result.rows}
        fastest = m.fastest()
        cells = [m.result.description]
        for s in systems:
            row = rows.get(s)
            if row is None or row.seconds is None:
                cells.append(row.note if row is not None and row.note else "-")
                continue
            text = f"{_ms(row.seconds)} ({m.ratio(s):.2f}x)"
            cells.append(f"**{text}**" if row is fastest else text)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def first_call_table(measured: list[Measured], systems: list[str]) -> str:
    """The first call of each system: tapegrad's recording, JAX's tracing and compiling."""
    lines = [
        "| workload | " + " | ".join(LABELS.get(s, s) for s in systems) + " |",
        "|---|" + "---|" * len(systems),
    ]
    for m in measured:
        cells = [m.result.name]
        for s in systems:
            seconds = m.first_call.get(s)
            cells.append("-" if seconds is None else _ms(seconds))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def goals_table(measured: list[Measured]) -> str:
    """tapegrad's faster mode (eager or replayed) over autograd, JAX eager and JAX jit."""
    lines = [
        "| workload | tapegrad's faster mode | / autograd | / JAX eager | / JAX jit |",
        "|---|---|---|---|---|",
    ]
    for m in measured:
        timed = m.timed()
        ours = [s for s in ("tapegrad", "tapegrad replay") if s in timed]
        if not ours:
            continue
        best = min(ours, key=lambda s: timed[s].seconds or 0.0)
        cells = [m.result.name, "eager" if best == "tapegrad" else "replayed"]
        for peer in ("autograd", "jax", "jax jit"):
            value = m.ratio(best, to=peer)
            cells.append("-" if value is None else f"{value:.2f}x")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def chart(measured: list[Measured], systems: list[str], path: str, title: str) -> bool:
    """Horizontal bars of each system's ratio to the fastest on each workload (log scale,
    1x is the fastest). False when matplotlib is missing."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import FixedLocator, FuncFormatter, NullLocator
    except ImportError:
        return False
    colors = {s: f"C{i}" for i, s in enumerate(systems)}
    slot, gap = 0.3, 0.45
    groups = [[s for s in systems if m.ratio(s) is not None] for m in measured]
    height = slot * sum(len(g) for g in groups) + gap * len(measured)
    fig, ax = plt.subplots(figsize=(10, 0.75 + height * 0.9))
    first_bar: dict[str, Any] = {}
    centres, y, values = [], gap / 2, []
    for m, group in zip(measured, groups):
        centres.append(y + slot * (len(group) - 1) / 2)
        for s in group:
            value = m.ratio(s) or 1.0
            bars = ax.barh(y, value, slot * 0.85, color=colors[s])
            first_bar.setdefault(s, bars)
            label = f"{value:.2f}×" if value < 10 else f"{value:.0f}×"
            ax.text(value * 1.04, y, label, va="center", fontsize=6.5)
            values.append(value)
            y += slot
        y += gap
    ax.set_xscale("log")
    high = max([*values, 2.0]) * 2.2
    ax.set_xlim(0.8, high)
    ticks = [t for t in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000) if t <= high]
    ax.xaxis.set_major_locator(FixedLocator(ticks))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}×"))
    ax.xaxis.set_minor_locator(NullLocator())
    ax.set_yticks(centres)
    labels = [textwrap.fill(m.result.description, 34) for m in measured]
    ax.set_yticklabels(labels, fontsize=7.5)
    ax.set_ylim(y - gap / 2, 0)
    ax.set_xlabel("time / the fastest system on the workload, lower is better")
    ax.set_title(title, fontsize=9)
    shown = [s for s in systems if s in first_bar]
    ax.legend(
        [first_bar[s] for s in shown],
        [LABELS.get(s, s) for s in shown],
        fontsize=7,
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
    )
    fig.savefig(path, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return True


def to_json(header: list[str], measured: list[Measured]) -> dict[str, Any]:
    """What programs.json holds (to redraw the chart and tables without running)."""
    return {
        "header": header,
        "workloads": [
            {
                "name": m.result.name,
                "description": m.result.description,
                "first_call_s": m.first_call,
                "rows": [
                    {
                        "system": r.system,
                        "median_s": r.seconds,
                        "samples_s": r.samples,
                        "ratio_to_fastest": m.ratio(r.system),
                        "note": r.note,
                    }
                    for r in m.result.rows
                ],
            }
            for m in measured
        ],
    }


def from_json(payload: dict[str, Any]) -> tuple[list[str], list[Measured]]:
    """The header and measurements that :func:`to_json` wrote."""
    measured = [
        Measured(
            Result(
                w["name"],
                w["description"],
                "ms",
                1,
                [
                    Row(r["system"], r["median_s"], r["samples_s"], note=r["note"])
                    for r in w["rows"]
                ],
            ),
            dict(w["first_call_s"]),
        )
        for w in payload["workloads"]
    ]
    return payload["header"], measured
