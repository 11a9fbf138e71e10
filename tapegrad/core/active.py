"""The active tapes: a per-thread (context-variable) stack, and what each tape does now.

Every primitive reads this stack once per call: an empty tuple means nothing records,
the fast path. A tape's mode says what it does when an op reads one of its watched
Tensors; tg.compile's traces (tapegrad/replay/trace.py) sit on the same stack in the
TRACING mode, and forward mode's tapes (tapegrad/core/forward.py) in the FORWARD mode.
"""

from __future__ import annotations

import contextvars
from typing import Any

# The tapes entered in this thread/context, innermost last (GradientTapes, and tg.compile's
# Traces, which are duck-typed tapes).
_active: contextvars.ContextVar[tuple[Any, ...]] = contextvars.ContextVar(
    "tapegrad_tapes", default=()
)

# RECORDING appends an entry; STOPPED (under tape.stop_recording) remembers only that a
# watched value was read; SWEEPING is a tape running its own gradient rules; TRACING is
# tg.compile's recording pass, which sees every primitive call, differentiable or not, and
# every Tensor -> Python conversion; FORWARD is a forward-mode tape, which carries a
# tangent beside each value computed from one that has a tangent.
RECORDING, STOPPED, SWEEPING, TRACING = "recording", "stopped", "sweeping", "tracing"
FORWARD = "forward"


def tracing() -> bool:
    """Whether tg.compile is recording a function (its trace is among the active tapes)."""
    return any(t._mode is TRACING for t in _active.get())


def active_tapes() -> tuple[Any, ...]:
    """The tapes entered in this thread/context, innermost last."""
    return _active.get()
