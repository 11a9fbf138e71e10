"""The tape as text: the Wengert list, one line an entry, and its memory report.

``str(tape)`` gives lines like
``%7 = matmul(%3, %5)   (256, 512) float32   saved 1.0 MiB   train.py:42``;
``tape.summary()`` the entries and saved bytes per op and in total.

Saved bytes count each array buffer once, on the first entry that keeps it
alive (a view counts as the buffer it views): the lines add up to the total,
which is the memory that dropping the tape can give back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from tapegrad.core.tensor import Tensor, Variable

_MAX_PARAM = 40  # characters of a parameter's repr shown before it is cut


__all__ = ["OpSummary", "TapeSummary", "format_tape", "summary"]


class TensorNames:
    """``%0``, ``%1``, ...: the Tensors of a tape, numbered by first appearance.

    The listing and the drawing share one numbering, so ``%5`` is the same
    Tensor in ``str(tape)`` and in ``tape.to_dot()``.
    """

    def __init__(self) -> None:
        self._names: dict[int, str] = {}

    def __call__(self, t: Tensor) -> str:
        name = self._names.get(t._id)
        if name is None:
            name = self._names[t._id] = f"%{len(self._names)}"
        return name

    def label(self, t: Tensor) -> str:
        """``%0`` or, for a named Variable, ``%0<w>``."""
        name = self(t)
        return f"{name}<{t.name}>" if isinstance(t, Variable) and t.name else name


def constant(x: Any) -> str:
    """A non-Tensor input or parameter as short text: ``1.0``, ``(array(3,) int64, 0)``."""
    if isinstance(x, tuple):
        inner = ", ".join(constant(item) for item in x)
        text = f"({inner},)" if len(x) == 1 else f"({inner})"
    elif not isinstance(x, type) and hasattr(x, "shape") and hasattr(x, "dtype") and x.ndim > 0:
        text = f"array{tuple(x.shape)} {dtype_name(x.dtype)}"
    else:
        text = " ".join(repr(x).split())
    return text if len(text) <= _MAX_PARAM else text[: _MAX_PARAM - 3] + "..."


def dtype_name(dtype: Any) -> str:
    """``float32`` for every namespace's float32 (array_api_strict's too)."""
    return str(dtype).rsplit(".", 1)[-1]


def format_bytes(n: float) -> str:
    """``1536`` -> ``"1.5 KiB"``."""
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError("unreachable")  # pragma: no cover


def _arrays(entry: Any) -> Iterator[Any]:
    """Every array an entry keeps alive: its inputs (Tensors or raw), output and array params."""
    for x in entry.inputs:
        yield x._data if isinstance(x, Tensor) else x
    yield entry.output._data
    for value in entry.params.values():
        yield from value if isinstance(value, tuple) else (value,)


def _buffer(a: Any) -> tuple[int, int] | None:
    """``(id, nbytes)`` of the memory ``a`` keeps alive: its base array when it is a view."""
    inner = getattr(a, "_array", None)  # array_api_strict wraps a NumPy array
    if inner is not None and not hasattr(a, "nbytes"):
        a = inner
    if isinstance(a, type) or not hasattr(a, "nbytes") or not hasattr(a, "shape"):
        return None  # Python scalars, slices, dtypes, scalar types (np.float32)...
    base = getattr(a, "base", None)
    while base is not None and hasattr(base, "nbytes") and hasattr(base, "shape"):
        a, base = base, getattr(base, "base", None)
    return id(a), int(a.nbytes)


def saved_bytes(entries: Any) -> list[int]:
    """Bytes each entry is first to keep alive; their sum is the tape's total."""
    seen: set[int] = set()
    result = []
    for entry in entries:
        total = 0
        for a in _arrays(entry):
            buffer = _buffer(a)
            if buffer is not None and buffer[0] not in seen:
                seen.add(buffer[0])
                total += buffer[1]
        result.append(total)
    return result


def format_tape(tape: Any) -> str:
    """``print(tape)``: ``%7 = matmul(%3, %5)   (256, 512) float32   saved 1.0 MiB   train.py:42``,
    a line each (the output, the op and its inputs, the output's shape and dtype, the bytes
    the entry keeps alive, the user's line that recorded it).

    >>> import tapegrad as tg
    >>> x = tg.tensor([1.0, 2.0])
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tg.sum(x * x)
    >>> print(format_tape(tape).splitlines()[0].split("   ")[0])
    %1 = multiply(%0, %0)
    """
    entries = list(tape)
    if not entries:
        return "<empty GradientTape>"
    names = TensorNames()
    rows = []
    for entry, saved in zip(entries, saved_bytes(entries)):
        args = [names.label(x) if isinstance(x, Tensor) else constant(x) for x in entry.inputs]
        args += [f"{key}={constant(value)}" for key, value in entry.params.items()]
        out = entry.output
        rows.append(
            (
                f"{names(out)} = {entry.primitive.name}({', '.join(args)})",
                f"{out.shape} {dtype_name(out.dtype)}",
                f"saved {format_bytes(saved)}",
                entry.where or "",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    return "\n".join(
        "   ".join([*(cell.ljust(w) for cell, w in zip(row, widths)), row[3]]).rstrip()
        for row in rows
    )


@dataclasses.dataclass(frozen=True)
class OpSummary:
    """One op's line of the memory report: its entries and the bytes they keep alive.

    >>> import tapegrad as tg
    >>> x = tg.tensor([1.0, 2.0])
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tg.exp(x)
    >>> tape.summary().ops["exp"]
    OpSummary(entries=1, saved_bytes=32)
    """

    entries: int
    saved_bytes: int


@dataclasses.dataclass(frozen=True)
class TapeSummary:
    """The tape's memory report: entries and saved bytes per op and in total.

    ``ops`` is ordered by saved bytes, largest first. Printing it gives a table.

    >>> import tapegrad as tg
    >>> x = tg.tensor([1.0, 2.0])
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tg.sum(x * x)
    >>> print(tape.summary())
    op         entries   saved
    multiply         1    32 B
    sum              1     8 B
    --------------------------
    total            2    40 B
    watched sources: 1
    """

    entries: int
    saved_bytes: int
    ops: dict[str, OpSummary]
    sources: int  # watched Tensors that no entry computed: tape.watch'd or Variables

    def __str__(self) -> str:
        rows = [("op", "entries", "saved")]
        rows += [
            (name, str(s.entries), format_bytes(s.saved_bytes)) for name, s in self.ops.items()
        ]
        rows.append(("total", str(self.entries), format_bytes(self.saved_bytes)))
        widths = [max(len(row[i]) for row in rows) for i in range(3)]
        lines = [
            f"{row[0].ljust(widths[0])}   {row[1].rjust(widths[1])}   {row[2].rjust(widths[2])}"
            for row in rows
        ]
        lines.insert(-1, "-" * len(lines[0]))
        lines.append(f"watched sources: {self.sources}")
        return "\n".join(lines)

    __repr__ = __str__


def summary(tape: Any) -> TapeSummary:
    """``tape.summary()``: the memory report, entries and saved bytes per op and in total.

    >>> import tapegrad as tg
    >>> x = tg.tensor([1.0, 2.0])
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = (x * x).sum()
    >>> report = tape.summary()
    >>> report.entries, report.ops["multiply"].entries
    (2, 1)
    """
    entries = list(tape)
    counts: dict[str, list[int]] = {}
    per_entry = saved_bytes(entries)
    for entry, saved in zip(entries, per_entry):
        line = counts.setdefault(entry.primitive.name, [0, 0])
        line[0] += 1
        line[1] += saved
    ordered = sorted(counts.items(), key=lambda item: (-item[1][1], -item[1][0], item[0]))
    return TapeSummary(
        entries=len(entries),
        saved_bytes=sum(per_entry),
        ops={name: OpSummary(n, b) for name, (n, b) in ordered},
        sources=len(tape._watched - {entry.output._id for entry in entries}),
    )
