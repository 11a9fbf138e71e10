"""``tg.no_grad()``: a block in which no tape of this thread records anything.

Inside, the thread's stack of active tapes is empty, so every op takes the
no-recording fast path (no entry, no saved values, no per-op cost). A tape entered
inside the block records as usual, as a ``torch.func.grad`` inside ``torch.no_grad``
does: the block pauses the tapes that were active when it began.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, overload

from tapegrad.core.active import TRACING, _active

F = TypeVar("F", bound=Callable[..., Any])


@overload
def no_grad() -> contextlib.AbstractContextManager[None]: ...
@overload
def no_grad(function: F) -> F: ...
def no_grad(function: Callable[..., Any] | None = None) -> Any:
    """Pause recording on every active tape of this thread for the ``with`` block.

    Also a decorator, with or without parentheses (``@tg.no_grad`` or ``@tg.no_grad()``,
    as PyTorch's): each call of the function runs in such a block. Values computed
    inside carry no gradient to the tapes outside, as under ``tape.stop_recording()``
    of each of them.

    Args:
        function: The function to decorate (``@tg.no_grad``); None for a context manager.

    Returns:
        A context manager (also usable as a decorator), or ``function`` wrapped.

    Raises:
        TypeError: ``function`` is not callable.

    >>> import tapegrad as tg
    >>> w = tg.Variable(3.0)
    >>> with tg.GradientTape() as tape:
    ...     with tg.no_grad():
    ...         z = w * 10.0  # not recorded: a constant to the tape
    ...     y = w * w + z
    >>> len(tape), tape.gradient(y, w).item()
    (2, 6.0)
    >>> @tg.no_grad
    ... def scaled(v):
    ...     return v * 10.0
    >>> with tg.GradientTape() as tape:
    ...     y = w * w + scaled(w)
    >>> tape.gradient(y, w).item()
    6.0
    """
    if function is None:
        return _paused()
    if not callable(function):
        raise TypeError(
            f"no_grad: got {type(function).__name__} {function!r:.40}; use it as "
            "`with tg.no_grad():`, `@tg.no_grad` or `@tg.no_grad()`"
        )

    @functools.wraps(function)
    def paused(*args: Any, **kwargs: Any) -> Any:
        with _paused():
            return function(*args, **kwargs)

    return paused


@contextlib.contextmanager
def _paused() -> Iterator[None]:
    """The block of :func:`no_grad`: the thread's stack of active tapes set empty."""
    outer = _active.get()
    if any(t._mode is TRACING for t in outer):
        raise NotImplementedError(
            "tg.no_grad inside a function being compiled by tg.compile: the replay would "
            "differentiate what the block computes; use tg.stop_gradient on its result instead"
        )
    token = _active.set(())
    try:
        yield
    finally:
        inside = _active.get()
        _active.reset(token)
        # A tape exited inside the block must not come back; one entered inside and still
        # open stays active (both are unusual, but neither may be lost or revived).
        kept = tuple(t for t in outer if t._entered)
        opened = tuple(t for t in inside if all(t is not o for o in outer))
        if len(kept) != len(outer) or opened:
            _active.set(kept + opened)
