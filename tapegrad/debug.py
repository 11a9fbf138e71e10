"""Anomaly detection: find the op that first produced a NaN or inf, forward or backward."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from typing import Any

from tapegrad import backend

_anomaly: contextvars.ContextVar[bool] = contextvars.ContextVar("tapegrad_anomaly", default=False)


def anomaly_mode() -> bool:
    """Whether :func:`detect_anomaly` is on in this thread/context."""
    return _anomaly.get()


@contextlib.contextmanager
def detect_anomaly() -> Iterator[None]:
    """Raise FloatingPointError at the first op whose result, or VJP, is NaN or inf.

    >>> import tapegrad as tg
    >>> with tg.detect_anomaly():
    ...     tg.log(tg.tensor(-1.0))
    Traceback (most recent call last):
    ...
    FloatingPointError: log produced nan in the forward pass ...
    """
    token = _anomaly.set(True)
    try:
        yield
    finally:
        _anomaly.reset(token)


def _bad_value(data: Any) -> str | None:
    if not backend.is_floating(data.dtype):
        return None
    xp = backend.namespace(data)
    if bool(xp.any(xp.isnan(data))):
        return "nan"
    if bool(xp.any(xp.isinf(data))):
        return "inf"
    return None


def check_forward(op: str, result: Any) -> None:
    """Called by every primitive while anomaly detection is on."""
    bad = _bad_value(result.data)
    if bad is None:
        return
    from tapegrad.tape import _active, _source_line

    positions = [f"tape index {len(t._entries)}" for t in _active.get()]
    where = ", ".join(positions) or "no active tape"
    raise FloatingPointError(
        f"{op} produced {bad} in the forward pass ({where}) at {_source_line()}"
    )


def check_backward(entry: Any, index: int, cotangent: Any) -> None:
    """Called by the sweep on each cotangent a rule returns while anomaly detection is on."""
    bad = _bad_value(cotangent.data)
    if bad is None:
        return
    raise FloatingPointError(
        f"the gradient rule of {entry.primitive.name} produced {bad} in the reverse sweep "
        f"(tape index {index}, recorded at {entry.where})"
    )
