"""Regenerate what the docs show from the code that produces it.

    python docs/regenerate.py           # rewrite the pages whose listings or tables changed
    python docs/regenerate.py --check   # say which are stale, change nothing (exit status 1)

What it regenerates:

- **Listings.** On the pages in ``PAGES``, the ``python`` blocks run in order, in one
  namespace, as one file (``train.py`` for docs/debugging.md), in a temporary directory; the
  plain fenced block right after a ``python`` block (a "prints" line may stand between them)
  is replaced by what that block printed, or by ``Type: message`` for the error it raised.
  The README's one-line listing in its debugging section is the first line of
  docs/debugging.md's listing.
- **The benchmark table** of docs/performance.md, between its ``<!-- benchmark table -->``
  markers, from ``benchmarks/results/latest.json`` (what ``python -m benchmarks`` wrote last).

- **The figures**, with ``--figures``: each image a page shows, drawn again by the command in
  ``FIGURES`` (the examples train for their default epochs: a few minutes in all; Graphviz
  for the tape drawing).

tests/test_docs.py fails when a page differs from what this script writes, so a listing or
table cannot go stale, and when a page shows an image that ``FIGURES`` does not draw.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
FENCE = re.compile(r"^```(\w*)\s*$")


@dataclass(frozen=True)
class Page:
    """A page whose python blocks run as one file named ``run_as``; ``blocks``: how many."""

    path: str
    run_as: str
    blocks: int | None = None  # None: every python block of the page


PAGES = [
    Page("docs/debugging.md", "train.py"),
    Page("docs/replay.md", "model.py"),
    Page("docs/nn.md", "train.py"),
    Page("README.md", "example.py", blocks=1),
]


def fenced_blocks(lines: list[str]) -> list[tuple[str, int, int]]:
    """``(language, first line, end line)`` of each fenced block (the lines between fences)."""
    blocks, start, language = [], None, ""
    for number, line in enumerate(lines):
        match = FENCE.match(line)
        if match is None:
            continue
        if start is None:
            start, language = number + 1, match.group(1)
        else:
            blocks.append((language, start, number))
            start = None
    return blocks


def run_block(code: str, first_line: int, filename: str, namespace: dict[str, Any]) -> str:
    """What ``code`` prints, run as lines ``first_line``... of ``filename``; an error's text."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(compile("\n" * (first_line - 1) + code, filename, "exec"), namespace)
        except Exception as exc:  # the page shows the error the reader will see
            print(f"{type(exc).__name__}: {exc}")
    return out.getvalue().rstrip("\n")


def with_listings(text: str, page: Page) -> str:
    """``text`` with each output block replaced by what the python block before it prints."""
    lines = text.split("\n")
    blocks = fenced_blocks(lines)
    python = [b for b in blocks if b[0] == "python"][: page.blocks]
    replacements: dict[int, tuple[int, str]] = {}
    namespace: dict[str, Any] = {"__name__": "__main__"}
    line = 1
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)  # files the snippets write (a drawing) land here
        try:
            for _language, start, end in python:
                code = "\n".join(lines[start:end])
                printed = run_block(code, line, page.run_as, namespace)
                line += end - start
                after = next((b for b in blocks if b[1] > end), None)
                between = [s for s in lines[end + 1 : after[1] - 1] if s.strip()] if after else []
                if after is not None and after[0] == "" and between in ([], ["prints"]):
                    if not printed:
                        raise ValueError(
                            f"{page.path}: the block before line {after[1]} prints nothing"
                        )
                    replacements[after[1]] = (after[2], printed)
        finally:
            os.chdir(here)
    for start in sorted(replacements, reverse=True):
        end, printed = replacements[start]
        lines[start:end] = printed.split("\n")
    return "\n".join(lines)


def squeeze(line: str) -> str:
    """A listing line with its column padding cut to three spaces, for a code comment."""
    return re.sub(r" {3,}", "   ", line.strip())


def readme_comment(readme: str, debugging: str) -> str:
    """The README's ``print(tape)  # ...`` comment: the first line of debugging.md's listing."""
    lines = debugging.split("\n")
    blocks = fenced_blocks(lines)
    first = next(
        lines[start]
        for language, start, end in blocks
        if language == "" and lines[start].startswith("%")
    )
    return re.sub(
        r"^(print\(tape\)  # )%\d+ = .*$",
        lambda m: m.group(1) + squeeze(first),
        readme,
        flags=re.M,
    )


# --- the benchmark table ----------------------------------------------------------------------

TABLE_START = "<!-- benchmark table: docs/regenerate.py writes it from latest.json -->"
TABLE_END = "<!-- end of benchmark table -->"
RESULTS = ROOT / "benchmarks" / "results" / "latest.json"
COLUMNS = {
    "numpy": "NumPy by hand",
    "tapegrad": "tapegrad",
    "tapegrad variables": "tapegrad, Variables",
    "tapegrad replay": "`tg.compile`",
    "tapegrad fused": "`fuse=True`",
    "torch": "PyTorch",
    "torch compile": "`torch.compile`",
    "autograd": "HIPS autograd",
    "mygrad": "MyGrad",
    "jax jit": "`jax.jit`",
}
WORKLOADS = {
    "chain-500": "chain of 1,500 small ops, per op",
    "untaped-multiply-8": "`x * y` on 8 floats, no tape",
    "untaped-multiply-64x64": "`x * y` on (64, 64), no tape",
    "untaped-tanh-8": "`tanh(x)` on 8 floats, no tape",
    "untaped-tanh-64x64": "`tanh(x)` on (64, 64), no tape",
    "mlp-step": "MLP step (hand-built layers)",
    "mlp-peak-memory": "its peak memory",
    "mlp-train": "MLP training step",
    "mlp-train-peak-memory": "its peak memory",
    "chain-100k": "chain of 100,002 ops, per op",
    "tape-1m": "1,000,002-entry tape",
    "tape-1m-memory": "its peak memory",
}
UNITS = {"us/op": ("µs", 1e6), "ms": ("ms", 1e3), "s": ("s", 1.0)}


def _number(value: float) -> str:
    return f"{value:.2f}" if value < 10 else f"{value:.1f}" if value < 100 else f"{value:.0f}"


def _absolute(row: dict[str, Any], unit: str, per: int) -> str:
    if row["peak_bytes"] is not None:
        return f"{row['peak_bytes'] / 2**20:.1f} MiB"
    name, scale = UNITS.get(unit, (unit, 1.0))
    return f"{_number(row['median_s'] * scale / per)} {name}"


def _ratio(row: dict[str, Any], base: dict[str, Any]) -> str:
    key = "peak_bytes" if base["peak_bytes"] is not None else "median_s"
    if row[key] is None or not base[key]:
        return "n/a" if row["note"].startswith("n/a") else "–"
    return f"{row[key] / base[key]:.2f}×"


def benchmark_table(payload: dict[str, Any]) -> str:
    """The Markdown table and the line that says where and how it was measured."""
    results = payload["results"]
    present: set[str] = {row["system"] for res in results for row in res["rows"]}
    systems = [s for s in COLUMNS if s in present] + sorted(present - set(COLUMNS))
    lines = [
        "| workload | " + " | ".join(COLUMNS.get(s, s) for s in systems) + " |",
        "| --- " * (len(systems) + 1) + "|",
    ]
    for res in results:
        rows = {row["system"]: row for row in res["rows"]}
        base = rows.get("numpy")
        cells = [WORKLOADS.get(res["name"], res["description"])]
        for system in systems:
            row = rows.get(system)
            if row is None or base is None:
                cells.append("–")
            elif row is base:
                cells.append(_absolute(row, res["unit"], res["per"]))
            else:
                cells.append(_ratio(row, base))
        lines.append("| " + " | ".join(cells) + " |")
    header = dict(line.split(": ", 1) for line in payload["header"] if ": " in line)
    counts = sorted({len(row["samples_s"]) for res in results for row in res["rows"]} - {0})
    rounds = "–".join(str(n) for n in counts[:: max(len(counts) - 1, 1)]) or "no"
    versions = next((line for line in payload["header"] if line.startswith("python ")), "")
    lines += [
        "",
        f"Measured {header.get('date', '')} on {header.get('machine', '')} ({versions}), every "
        f"BLAS pool on one thread; medians of {rounds} interleaved rounds. The NumPy column "
        "is the time of the hand-written code; the others are ratios to it (below 1 is faster).",
    ]
    return "\n".join(lines)


def with_table(text: str, payload: dict[str, Any]) -> str:
    start, end = text.index(TABLE_START) + len(TABLE_START), text.index(TABLE_END)
    return text[:start] + "\n\n" + benchmark_table(payload) + "\n\n" + text[end:]


# --- the figures --------------------------------------------------------------------------

# Each image the pages show -> the command that draws it, run from the repository's root
# ({out}: a scratch folder, whose file of the image's name is then copied in).
FIGURES = {
    "docs/tape_add.png": ["examples/draw_tape.py", "--out", "{out}"],
    "docs/digits_mlp.png": ["examples/digits_mlp.py", "--plot", "docs/digits_mlp.png"],
    "docs/digits_cnn.png": ["examples/digits_cnn.py", "--plot", "docs/digits_cnn.png"],
    "docs/digits_lstm.png": ["examples/digits_lstm.py", "--plot", "docs/digits_lstm.png"],
    "docs/fit_ode.png": ["examples/fit_ode.py", "--plot", "docs/fit_ode.png"],
    "benchmarks/results/latest.png": ["-m", "benchmarks", "--plot-only"],
    "benchmarks/results/cpu_vs_gpu.png": ["benchmarks/cpu_vs_gpu.py", "--plot-only"],
}
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.(?:png|svg|jpg))\)")


def shown_images() -> dict[str, list[str]]:
    """Each image the README and the guides show (its path from the root) -> the pages."""
    shown: dict[str, list[str]] = {}
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]:
        for target in IMAGE.findall(page.read_text(encoding="utf-8")):
            if re.match(r"[a-z]+:", target):
                continue
            path = (page.parent / target).resolve().relative_to(ROOT).as_posix()
            shown.setdefault(path, []).append(page.relative_to(ROOT).as_posix())
    return shown


def draw_figures() -> None:
    """Run every command of ``FIGURES``; copy what a scratch folder got to its place."""
    for name, command in FIGURES.items():
        with tempfile.TemporaryDirectory() as out:
            args = [a.format(out=out) for a in command]
            print(f"{name}: python {' '.join(command)}", flush=True)
            subprocess.run([sys.executable, *args], cwd=ROOT, check=True)
            if "{out}" in command:
                shutil.copyfile(Path(out) / Path(name).name, ROOT / name)


# --- the whole set ----------------------------------------------------------------------------


def regenerated() -> dict[Path, tuple[str, str]]:
    """Every regenerated file: path -> (its text now, the text this script writes)."""
    sys.path.insert(0, str(ROOT))
    try:
        out: dict[Path, tuple[str, str]] = {}
        for page in PAGES:
            path = ROOT / page.path
            text = path.read_text(encoding="utf-8")
            out[path] = (text, with_listings(text, page))
        readme, debugging = ROOT / "README.md", ROOT / "docs" / "debugging.md"
        out[readme] = (out[readme][0], readme_comment(out[readme][1], out[debugging][1]))
        performance = ROOT / "docs" / "performance.md"
        text = performance.read_text(encoding="utf-8")
        payload = json.loads(RESULTS.read_text(encoding="utf-8"))
        out[performance] = (text, with_table(text, payload))
        return out
    finally:
        sys.path.remove(str(ROOT))


def stale() -> list[str]:
    """A unified diff for each file whose text is not what this script writes."""
    return [
        "".join(
            difflib.unified_diff(
                now.splitlines(keepends=True),
                new.splitlines(keepends=True),
                f"{path.relative_to(ROOT)} (now)",
                f"{path.relative_to(ROOT)} (regenerated)",
            )
        )
        for path, (now, new) in regenerated().items()
        if now != new
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report stale files, write none")
    parser.add_argument("--figures", action="store_true", help="draw the figures again too")
    args = parser.parse_args(argv)
    if args.check:
        diffs = stale()
        print("\n".join(diffs) or "every listing and table is up to date")
        return 1 if diffs else 0
    for path, (now, new) in regenerated().items():
        if now != new:
            path.write_text(new, encoding="utf-8")
            print(f"rewrote {path.relative_to(ROOT)}")
    if args.figures:
        draw_figures()
    return 0


if __name__ == "__main__":
    sys.exit(main())
