"""Anomaly detection: find the op that first produced a NaN or inf, forward or backward.

Off by default: a primitive then pays one context-variable read. On, every op's
result and every VJP rule's result is checked, and the first non-finite value
raises FloatingPointError naming the op, its tape index and the user's line.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any

from tapegrad import backend

_anomaly: contextvars.ContextVar[bool] = contextvars.ContextVar("tapegrad_anomaly", default=False)
# True while a reverse sweep runs its VJP rules: the ops inside a rule are not
# checked one by one (a rule may compute inf in a branch that ``where`` then
# discards); the sweep checks what the rule returns instead.
_in_rules: contextvars.ContextVar[bool] = contextvars.ContextVar("tapegrad_in_rules", default=False)


# ``anomaly_mode()``: whether detect_anomaly is on in this thread/context. Every
# primitive asks, so it is the context variable's own C method, not a wrapper.
anomaly_mode: Callable[[], bool] = _anomaly.get


@contextlib.contextmanager
def detect_anomaly() -> Iterator[None]:
    """Raise FloatingPointError at the first op whose result, or VJP, is NaN or inf.

    The forward check names the op, the tape index it would get and the line
    that called it; the reverse check names the op whose gradient rule produced
    the value, its tape index and the line that recorded it. Under
    ``detect_anomaly`` a reverse sweep keeps the tape's entries until it is done,
    so ``print(tape)`` still shows the entry after an error.

    Returns:
        A context manager.

    Raises:
        FloatingPointError: Inside the block, at the first NaN or inf.

    >>> import tapegrad as tg
    >>> with tg.detect_anomaly():
    ...     tg.log(tg.tensor(-1.0))
    Traceback (most recent call last):
    ...
    FloatingPointError: log produced nan in the forward pass at ...
    """
    token = _anomaly.set(True)
    try:
        yield
    finally:
        _anomaly.reset(token)


@contextlib.contextmanager
def running_rules() -> Iterator[None]:
    """Marks a reverse sweep: forward checks pause, the sweep checks rule results."""
    token = _in_rules.set(True)
    try:
        yield
    finally:
        _in_rules.reset(token)


def _bad_value(value: Any) -> str | None:
    """``"nan"``, ``"inf"`` or None for a Tensor or array (non-floating ones are always fine)."""
    from tapegrad.tensor import Tensor

    data = value._data if isinstance(value, Tensor) else value
    if not backend.is_floating(data.dtype):
        return None
    xp = backend.namespace(data)
    if bool(xp.any(xp.isnan(data))):
        return "nan"
    if bool(xp.any(xp.isinf(data))):
        return "inf"
    return None


def _describe_inputs(inputs: tuple[Any, ...], what: str) -> str:
    """Which inputs were already non-finite: then the bad value came from earlier."""
    notes = []
    for k, x in enumerate(inputs):
        if hasattr(x, "dtype") and hasattr(x, "shape"):
            bad = _bad_value(x)
            if bad is not None:
                notes.append(f"{what} {k} ({tuple(x.shape)} {x.dtype}) already contained {bad}")
    return "; ".join(notes)


def check_forward(primitive: Any, inputs: tuple[Any, ...], result: Any) -> None:
    """Called by every primitive while anomaly detection is on, before it records."""
    if _in_rules.get():
        return
    bad = _bad_value(result)
    if bad is None:
        return
    from tapegrad.sites import caller_site, format_site
    from tapegrad.tape import RECORDING, _active, _reads
    from tapegrad.tensor import Tensor

    # The index the entry would get on each tape that would record it.
    indices = [
        str(len(tape._entries))
        for tape in _active.get()
        if tape._mode is RECORDING and any(_reads(tape, x) for x in inputs if isinstance(x, Tensor))
    ]
    if not indices:
        position = "not recorded on any tape"
    elif len(indices) == 1:
        position = f"tape index {indices[0]}"
    else:
        position = f"tape indices {', '.join(indices)} (outermost tape first)"
    message = (
        f"{primitive.name} produced {bad} in the forward pass at "
        f"{format_site(caller_site())} ({position}, output {result.shape} {result.dtype})"
    )
    earlier = _describe_inputs(inputs, "input")
    if earlier:
        message += f"; {earlier}, so the {bad} came from before this op"
    raise FloatingPointError(message)


def check_backward(entry: Any, index: int, k: int, cotangent: Any, received: Any) -> None:
    """Called by the sweep on each cotangent a rule returns while anomaly detection is on.

    ``received`` is the cotangent the rule was given (its output's), ``k`` the
    input whose cotangent ``cotangent`` is.
    """
    bad = _bad_value(cotangent)
    if bad is None:
        return
    name = entry.primitive.name
    message = (
        f"the gradient rule of {name} produced {bad} for input {k} "
        f"({tuple(cotangent.shape)} {cotangent.dtype}) in the reverse sweep "
        f"(tape index {index}, recorded at {entry.where})"
    )
    upstream = _bad_value(received)
    if upstream is not None:
        message += f"; the cotangent {name} received already contained {upstream}"
    saved = _describe_inputs(entry.inputs, "its saved input")
    if saved:
        message += f"; {saved}"
    raise FloatingPointError(message)
