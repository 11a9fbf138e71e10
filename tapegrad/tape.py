"""GradientTape: the Wengert list that primitives append to while it is active."""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from tapegrad import backend, debug
from tapegrad.sites import caller_site, code_line, format_site, scipy_caller, warn_once
from tapegrad.tensor import Tensor, Variable
from tapegrad.wording import a, count

if TYPE_CHECKING:
    from tapegrad.listing import TapeSummary

# The tapes entered in this thread/context, innermost last. Primitives read this
# once per call: an empty tuple means "nothing records", the fast path.
_active: contextvars.ContextVar[tuple[GradientTape, ...]] = contextvars.ContextVar(
    "tapegrad_tapes", default=()
)

# A tape's mode: what it does when an op reads one of its watched Tensors.
# TRACING is the mode of tg.compile's recording pass (tapegrad/replay.py): it sees
# every primitive call, differentiable or not, and every Tensor -> Python conversion.
RECORDING, STOPPED, SWEEPING, TRACING = "recording", "stopped", "sweeping", "tracing"

_PRETTY_LINES = 60  # entries a notebook shows of a longer tape's listing (first and last half)


# One line of the Wengert list as the tape stores it, a plain tuple (cheaper than an
# instance, once per recorded op): (primitive, inputs, arrays, output, params, versions,
# code, lasti). ``arrays`` are the inputs' backend arrays as the forward read them;
# ``code`` and ``lasti`` locate the user's source line, resolved only when someone asks.
INPUTS, OUTPUT = 1, 3  # positions in an entry tuple


class Entry:
    """One line of the Wengert list: ``output = primitive(*inputs, **params)``.

    ``inputs`` keeps the Tensors (the saved inputs) and the constants the op
    read; ``versions`` the version of each Variable input at record time (in input order);
    ``site`` the user's ``(filename, line)`` that recorded it.
    """

    __slots__ = ("primitive", "inputs", "output", "params", "versions", "_code", "_lasti")

    def __init__(self, stored: tuple[Any, ...]) -> None:
        self.primitive, self.inputs, _, self.output, self.params, self.versions = stored[:6]
        self._code, self._lasti = stored[6:]

    @property
    def site(self) -> tuple[str, int] | None:
        """``(filename, line)`` of the user's code that recorded this entry."""
        if self._code is None:
            return None
        return self._code.co_filename, code_line(self._code, self._lasti)

    @property
    def where(self) -> str | None:
        """``"train.py:42"``: the user's source line that recorded this entry."""
        return format_site(self.site)

    def __repr__(self) -> str:
        return f"<Entry {self.primitive.name} -> #{self.output._id} {self.output.shape}>"


class GradientTape:
    """Records the ops that read watched Tensors, for reverse-mode differentiation.

    Args:
        persistent: Whether ``gradient`` may be called more than once (the entries are kept
            until the tape is garbage-collected or ``reset``).
        watch_accessed_variables: Whether trainable Variables read inside the block are
            watched automatically (otherwise only what ``watch`` names).

    Raises:
        ValueError: On entering a tape that is already active.

    >>> import tapegrad as tg
    >>> x = tg.tensor(3.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * x
    >>> tape.gradient(y, x).item()
    6.0
    """

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True) -> None:
        self.persistent = persistent
        self.watch_accessed_variables = watch_accessed_variables
        self._entries: list[tuple[Any, ...] | None] = []  # Entry's fields, as tuples (speed)
        self._watched: set[int] = set()  # the sources and every output computed from them
        self._roots: set[int] = set()  # the sources: watched, not computed on this tape
        self._variables: list[Variable] = []
        # Each Variable the tape watches or an entry read: its id -> (it, its version when
        # the tape began to watch it or first read it). Versions only grow, so the sweep
        # checks entries' versions only when one of these has changed.
        self._first_versions: dict[int, tuple[Variable, int]] = {}
        self._stopped_reads: set[int] = set()
        self._escapes: dict[int, str] = {}
        self._mode = RECORDING
        self._entered = False
        self._used = False

    # --- context management ----------------------------------------------------
    def __enter__(self) -> GradientTape:
        if self._entered:
            raise ValueError(
                "GradientTape: this tape is already active; a tape cannot be entered twice"
            )
        self._entered = True
        self._mode = RECORDING
        _active.set((*_active.get(), self))
        return self

    def __exit__(self, *exc: Any) -> None:
        self._entered = False
        _active.set(tuple(t for t in _active.get() if t is not self))

    @contextlib.contextmanager
    def stop_recording(self) -> Iterator[None]:
        """Ops inside do not record on this tape (other active tapes are unaffected).

        Returns:
            A context manager.

        Raises:
            ValueError: The tape is not active (not inside its ``with`` block).
        """
        if not self._entered:
            raise ValueError("GradientTape.stop_recording: the tape is not active")
        previous, self._mode = self._mode, STOPPED
        try:
            yield
        finally:
            self._mode = previous

    @contextlib.contextmanager
    def _paused(self) -> Iterator[None]:
        previous, self._mode = self._mode, SWEEPING
        try:
            yield
        finally:
            self._mode = previous

    # --- watching --------------------------------------------------------------
    def watch(self, tensor: Any) -> None:
        """Watch a Tensor, or every Tensor of a nest (list, tuple, dict) of them.

        Args:
            tensor: A floating-point Tensor (real or complex), or a nest of them.

        Raises:
            TypeError: A leaf is not a Tensor, or its dtype is not floating-point.
        """
        for t in _flatten(tensor):
            if not isinstance(t, Tensor):
                raise TypeError(
                    f"GradientTape.watch: expected a Tensor, got {type(t).__name__}; "
                    "wrap arrays with tg.tensor(...) first"
                )
            if not backend.is_floating(t.dtype):
                raise TypeError(
                    f"GradientTape.watch: cannot watch {a(t.dtype)} Tensor of shape {t.shape}: "
                    "only floating dtypes (real or complex) have gradients"
                )
            self._add_watched(t)

    def _add_watched(self, t: Tensor) -> None:
        if t._id not in self._watched:
            self._watched.add(t._id)
            self._roots.add(t._id)
            if isinstance(t, Variable):
                self._variables.append(t)
                self._first_versions.setdefault(t._id, (t, t.version))

    def watched_variables(self) -> tuple[Variable, ...]:
        """The Variables this tape watches, in the order it first watched them.

        Returns:
            A tuple of Variables.
        """
        return tuple(self._variables)

    def reset(self) -> None:
        """Forget every entry and watched Tensor; the tape stays active if it was."""
        self._entries = []
        self._watched = set()
        self._roots = set()
        self._variables = []
        self._first_versions = {}
        self._stopped_reads = set()
        self._escapes = {}
        self._used = False

    # --- the list ----------------------------------------------------------------
    def __len__(self) -> int:
        return sum(1 for e in self._entries if e is not None)

    def __iter__(self) -> Iterator[Entry]:
        return (Entry(e) for e in self._entries if e is not None)

    def __str__(self) -> str:
        from tapegrad.listing import format_tape

        return format_tape(self)

    def __repr__(self) -> str:
        flags = " persistent" if self.persistent else ""
        return f"<GradientTape{flags} with {count(len(self), 'entry', 'entries')}>"

    # Jupyter shows the richest of these it can: the drawing when Graphviz is installed,
    # else the text listing (IPython's pretty printer), never just the one-line repr.
    def _repr_svg_(self) -> str | None:
        from tapegrad.viz import to_svg

        return to_svg(self)

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        lines = str(self).splitlines() if len(self) else []
        if len(lines) > _PRETTY_LINES:
            half = _PRETTY_LINES // 2
            hidden = len(lines) - 2 * half
            cut = f"... {count(hidden, 'entry', 'entries')} not shown (print(tape) shows all)"
            lines = [*lines[:half], cut, *lines[-half:]]
        printer.text("\n".join([repr(self), *lines]))

    def summary(self) -> TapeSummary:
        """The memory report: entries and saved bytes per op and in total.

        >>> import tapegrad as tg
        >>> x = tg.tensor([1.0, 2.0])
        >>> with tg.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = (x * x).sum()
        >>> report = tape.summary()
        >>> report.entries, report.ops["multiply"].entries
        (2, 1)
        """
        from tapegrad.listing import summary

        return summary(self)

    def to_dot(self, target: Any = None, sources: Any = None) -> str:
        """Graphviz DOT text of the tape: Tensors as ellipses, ops as boxes.

        Watched sources (or ``sources``) and the target (or the results no entry
        reads) are highlighted. Needs no dependency; see :func:`tapegrad.viz.to_dot`.
        """
        from tapegrad.viz import to_dot

        return to_dot(self, target=target, sources=sources)

    def render(
        self,
        path: str | os.PathLike[str],
        format: str = "png",
        target: Any = None,
        sources: Any = None,
    ) -> str:
        """Draw the tape to ``path`` with Graphviz; see :func:`tapegrad.viz.render`."""
        from tapegrad.viz import render

        return render(self, path, format=format, target=target, sources=sources)

    # --- differentiation -----------------------------------------------------------
    def gradient(
        self,
        target: Any,
        sources: Any,
        output_gradients: Any = None,
        unconnected_gradients: str = "none",
    ) -> Any:
        """Gradients of ``target`` (summed if not scalar) in the structure of ``sources``.

        ``output_gradients`` seeds the sweep instead of ones. Sources with no
        path to the target give ``None``, zeros (``"zero"``) or a ValueError
        saying why (``"raise"``).

        Args:
            target: A Tensor, or a nest of them (their gradients add up).
            sources: A Tensor or Variable, or a nest (list, tuple, dict) of them.
            output_gradients: The cotangent of ``target``, shaped like it (a nest for a nest);
                ones when None.
            unconnected_gradients: What a source with no path to the target gets: ``"none"``
                (None), ``"zero"`` (zeros shaped like it) or ``"raise"`` (a ValueError).

        Returns:
            One gradient per source, in the nesting of ``sources``, each shaped and typed like its
            source.

        Raises:
            RuntimeError: A non-persistent tape was already used, or a Variable the tape read
                was assigned to since.
            ValueError: ``output_gradients`` does not match ``target``, ``unconnected_gradients``
                is unknown, or a source is unconnected under ``"raise"``.

        >>> import tapegrad as tg
        >>> w = tg.Variable([1.0, 2.0])
        >>> with tg.GradientTape() as tape:
        ...     y = tg.sum(w * w)
        >>> tape.gradient(y, {"w": w})
        {'w': tensor([2., 4.], dtype=float64)}
        """
        from tapegrad.sweep import gradient

        return gradient(self, target, sources, output_gradients, unconnected_gradients)

    def jacobian(self, target: Any, sources: Any, unconnected_gradients: str = "none") -> Any:
        """The Jacobian of ``target`` with respect to each source: shape target + source.

        Args:
            target: A Tensor.
            sources: A Tensor or Variable, or a nest of them.
            unconnected_gradients: ``"none"``, ``"zero"`` or ``"raise"``, as in ``gradient``.

        Returns:
            One Jacobian per source, of shape ``target.shape + source.shape``, in the nesting of
            ``sources``.

        Raises:
            RuntimeError: A non-persistent tape was already used.
            ValueError: ``unconnected_gradients`` is unknown, or a source is unconnected under
                ``"raise"``.

        >>> import tapegrad as tg
        >>> x = tg.tensor([1.0, 2.0])
        >>> with tg.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.jacobian(y, x)
        tensor([[2., 0.],
                [0., 4.]], dtype=float64)
        """
        from tapegrad.sweep import jacobian

        return jacobian(self, target, sources, unconnected_gradients)


def _flatten(nest: Any) -> list[Any]:
    if isinstance(nest, dict):
        return [leaf for key in nest for leaf in _flatten(nest[key])]
    if isinstance(nest, (list, tuple)):
        return [leaf for item in nest for leaf in _flatten(item)]
    return [nest]


def tracing() -> bool:
    """Whether tg.compile is recording a function (its trace is among the active tapes)."""
    return any(t._mode is TRACING for t in _active.get())


def active_tapes() -> tuple[GradientTape, ...]:
    """The tapes entered in this thread/context, innermost last."""
    return _active.get()


def _reads(tape: GradientTape, x: Tensor) -> bool:
    """Whether an op reading ``x`` is recorded on ``tape``: watched, or an accessed Variable."""
    return x._id in tape._watched or (
        tape.watch_accessed_variables
        and type(x) is Variable
        and x.trainable
        and backend.is_floating(x.dtype)
    )


def note_escape(t: Tensor, how: str) -> None:
    """Remember (and warn once per call site) that a watched value left a recording tape.

    ``tape.gradient(..., unconnected_gradients="raise")`` later gives this as the
    reason a source has no gradient. SciPy's functions written in Python convert their
    inputs this way: there it is a TypeError (see :func:`_refuse_scipy`).
    """
    site = None
    for tape in _active.get():
        if tape._mode is TRACING:
            tape._guard(t, how)  # type: ignore[attr-defined]  # a tg.compile Trace
        elif tape._mode is RECORDING and _reads(tape, t):
            if site is None:
                _refuse_scipy(t)
                site = caller_site()
            tape._escapes.setdefault(t._id, f"{how} at {format_site(site)}")
    if site is None:
        return
    message = (
        f"a watched Tensor of shape {t.shape} left the tape through {how} at "
        f"{format_site(site)} inside a recording GradientTape: values computed from the "
        "result carry no gradient"
    )
    if how.startswith("np."):
        message += " (tapegrad.numpy's array and asarray keep it, for Tensors inside lists too)"
    if debug.anomaly_mode():
        raise RuntimeError(message + "; tg.detect_anomaly() makes this an error")
    warn_once(site, message)


def host_value(x: Any, how: str) -> Any:
    """``x``'s value as a host NumPy array, read to decide a layout that carries no gradient
    (sort orders, masks, unique's indices). Unlike :func:`note_escape` it does not warn: the
    gradient still flows through the ops built from the decision. tg.compile's traces
    guard the value, so a replay with other values traces again."""
    if not isinstance(x, Tensor):
        return np.asarray(backend.to_host(x)) if hasattr(x, "shape") else np.asarray(x)
    for tape in _active.get():
        if tape._mode is TRACING:
            tape._guard(x, how)  # type: ignore[attr-defined]  # a tg.compile Trace
    return backend.to_host(x.data)


def _refuse_scipy(t: Tensor) -> None:
    """TypeError when SciPy converts a watched Tensor: the result would silently carry
    no gradient, and the conversion happens inside SciPy, where the once-per-site
    warning would name SciPy's line (shared by many of its functions), not the user's."""
    function = scipy_caller()
    if function is None:
        return
    replacement = function.replace("scipy.", "tapegrad.scipy.", 1)
    module, _, name = replacement.rpartition(".")
    try:
        known = hasattr(importlib.import_module(module), name)
    except ImportError:
        known = False
    hint = (
        f"use {replacement}, which records"
        if known
        else "tapegrad.scipy has no differentiable version of it"
    )
    raise TypeError(
        f"{function} converts the watched Tensor of shape {t.shape} to a NumPy array, "
        f"so its result would carry no gradient: {hint} (or pass t.numpy() to compute "
        "without a gradient)"
    )
