"""Anomaly detection's switch: ``detect_anomaly``, read by every primitive and sweep.

Off by default: a primitive then pays one context-variable read. On, every op's result
and every VJP rule's result is checked, and the first non-finite value raises
FloatingPointError naming the op, its tape index and the user's line. The checks
themselves (what a message says about the op, its inputs and its saved values) live in
tapegrad/debug/anomaly.py, which registers them here when it is imported: the engine
calls :func:`check_forward` and :func:`check_backward` only while the switch is on.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Callable, Iterator
from typing import Any

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


def enter_rules() -> Any:
    """Mark a reverse sweep as running its rules (forward checks pause, the sweep checks
    rule results), until :func:`leave_rules` with the token this returns."""
    return _in_rules.set(True)


def leave_rules(token: Any) -> None:
    """The end of :func:`enter_rules`."""
    _in_rules.reset(token)


def in_rules() -> bool:
    """Whether a reverse sweep is running its rules (forward checks are paused)."""
    return _in_rules.get()


def _not_registered(*args: Any) -> None:
    raise RuntimeError(
        "anomaly detection's checks are not registered: tapegrad.debug registers them "
        "when it is imported (import tapegrad does)"
    )


_checks: dict[str, Callable[..., None]] = {
    "forward": _not_registered,
    "backward": _not_registered,
}


def register_checks(
    forward: Callable[[Any, tuple[Any, ...], Any], None],
    backward: Callable[[Any, int, int, Any, Any], None],
) -> None:
    """Install the checks the switch turns on (tapegrad/debug/anomaly.py calls this)."""
    _checks["forward"], _checks["backward"] = forward, backward


def check_forward(primitive: Any, inputs: tuple[Any, ...], result: Any) -> None:
    """Called by every primitive while anomaly detection is on, before it records."""
    _checks["forward"](primitive, inputs, result)


def check_backward(entry: Any, index: int, k: int, cotangent: Any, received: Any) -> None:
    """Called by the sweep on each cotangent a rule returns while anomaly detection is on:
    ``received`` is the cotangent the rule was given (its output's), ``k`` the input whose
    cotangent ``cotangent`` is."""
    _checks["backward"](entry, index, k, cotangent, received)
