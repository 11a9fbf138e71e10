"""The tape as text: the Wengert list, one line an entry."""

from __future__ import annotations

from typing import Any

from tapegrad.tensor import Tensor, Variable


def _number(names: dict[int, str], t: Tensor) -> str:
    if t._id not in names:
        names[t._id] = f"%{len(names)}"
    return names[t._id]


def _argument(names: dict[int, str], x: Any) -> str:
    if isinstance(x, Tensor):
        label = _number(names, x)
        if isinstance(x, Variable) and x.name:
            label += f"<{x.name}>"
        return label
    if hasattr(x, "shape"):
        return f"array{tuple(x.shape)}"
    return repr(x)


def _bytes(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"  # pragma: no cover


def saved_bytes(entry: Any) -> int:
    """The bytes of the arrays an entry keeps alive (its Tensor inputs and output)."""
    arrays = [x.data for x in entry.inputs if isinstance(x, Tensor)] + [entry.output.data]
    return sum(int(getattr(a, "nbytes", 0)) for a in {id(a): a for a in arrays}.values())


def format_tape(tape: Any) -> str:
    """``%7 = matmul(%3, %5)   (256, 512) float32   saved 1.0 MiB   train.py:42``."""
    names: dict[int, str] = {}
    rows = []
    for entry in tape:
        args = [_argument(names, x) for x in entry.inputs]
        params = [f"{k}={v!r}" for k, v in entry.params.items()]
        call = (
            f"{_number(names, entry.output)} = {entry.primitive.name}({', '.join(args + params)})"
        )
        out = entry.output
        rows.append(
            (
                call,
                f"{out.shape} {out.dtype}",
                f"saved {_bytes(saved_bytes(entry))}",
                entry.where or "",
            )
        )
    if not rows:
        return "<empty GradientTape>"
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    return "\n".join(
        "   ".join(cell.ljust(w) for cell, w in zip(r[:3], widths)) + "   " + r[3] for r in rows
    ).rstrip()
