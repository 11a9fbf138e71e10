"""GradientTape: the Wengert list that primitives append to while it is active."""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from tapegrad import backend
from tapegrad.tensor import Tensor, Variable

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


class Entry:
    """One line of the Wengert list: ``output = primitive(*inputs, **params)``.

    ``inputs`` keeps the Tensors (the saved inputs) and the constants the op
    read; ``versions`` the version of each Variable input at record time;
    ``site`` the user's ``(filename, line)`` that recorded it.
    """

    __slots__ = ("primitive", "inputs", "output", "params", "versions", "site")

    def __init__(
        self,
        primitive: Any,
        inputs: tuple[Any, ...],
        output: Tensor,
        params: dict[str, Any],
        versions: tuple[tuple[int, int], ...],
        site: tuple[str, int] | None,
    ) -> None:
        self.primitive = primitive
        self.inputs = inputs
        self.output = output
        self.params = params
        self.versions = versions
        self.site = site

    @property
    def where(self) -> str | None:
        """``"train.py:42"``: the user's source line that recorded this entry."""
        return format_site(self.site)

    def __repr__(self) -> str:
        return f"<Entry {self.primitive.name} -> #{self.output._id} {self.output.shape}>"


class GradientTape:
    """Records the ops that read watched Tensors, for reverse-mode differentiation.

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
        self._entries: list[Entry | None] = []
        self._watched: set[int] = set()
        self._variables: list[Variable] = []
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
        """Ops inside do not record on this tape (other active tapes are unaffected)."""
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
        """Watch a Tensor, or every Tensor of a nest (list, tuple, dict) of them."""
        for t in _flatten(tensor):
            if not isinstance(t, Tensor):
                raise TypeError(
                    f"GradientTape.watch: expected a Tensor, got {type(t).__name__}; "
                    "wrap arrays with tg.tensor(...) first"
                )
            if not backend.is_real_floating(t.dtype):
                raise TypeError(
                    f"GradientTape.watch: cannot watch a {t.dtype} Tensor of shape {t.shape}: "
                    "only real floating dtypes have gradients"
                )
            self._add_watched(t)

    def _add_watched(self, t: Tensor) -> None:
        if t._id not in self._watched:
            self._watched.add(t._id)
            if isinstance(t, Variable):
                self._variables.append(t)

    def watched_variables(self) -> tuple[Variable, ...]:
        """The Variables this tape watches, in the order it first watched them."""
        return tuple(self._variables)

    def reset(self) -> None:
        """Forget every entry and watched Tensor; the tape stays active if it was."""
        self._entries = []
        self._watched = set()
        self._variables = []
        self._stopped_reads = set()
        self._escapes = {}
        self._used = False

    # --- the list ----------------------------------------------------------------
    def __len__(self) -> int:
        return sum(1 for e in self._entries if e is not None)

    def __iter__(self) -> Iterator[Entry]:
        return (e for e in self._entries if e is not None)

    def __str__(self) -> str:
        from tapegrad.listing import format_tape

        return format_tape(self)

    def __repr__(self) -> str:
        flags = " persistent" if self.persistent else ""
        return f"<GradientTape{flags} with {len(self)} entries>"

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
        """
        from tapegrad.sweep import gradient

        return gradient(self, target, sources, output_gradients, unconnected_gradients)

    def jacobian(self, target: Any, sources: Any, unconnected_gradients: str = "none") -> Any:
        """The Jacobian of ``target`` with respect to each source: shape target + source."""
        from tapegrad.sweep import jacobian

        return jacobian(self, target, sources, unconnected_gradients)


def _flatten(nest: Any) -> list[Any]:
    if isinstance(nest, dict):
        return [leaf for key in nest for leaf in _flatten(nest[key])]
    if isinstance(nest, (list, tuple)):
        return [leaf for item in nest for leaf in _flatten(item)]
    return [nest]


def active_tapes() -> tuple[GradientTape, ...]:
    """The tapes entered in this thread/context, innermost last."""
    return _active.get()


def record(
    primitive: Any,
    inputs: tuple[Any, ...],
    output: Tensor,
    params: dict[str, Any],
    tapes: tuple[GradientTape, ...],
) -> None:
    """Append ``output = primitive(*inputs)`` to each active tape that watches an input.

    Validates first (a missing gradient rule raises LookupError) so that a
    failure leaves every tape as it was. Runs once per op while a tape is
    active, so it is written for speed: the common checks are inlined.
    """
    targets = None
    for tape in tapes:
        mode = tape._mode
        if mode is TRACING:
            tape._trace(primitive, inputs, output, params)
            continue
        if not primitive.differentiable:
            continue
        watched = tape._watched
        for x in inputs:
            if isinstance(x, Tensor) and (x._id in watched or _reads(tape, x)):
                break
        else:
            continue
        if mode is RECORDING:
            targets = [tape] if targets is None else [*targets, tape]
        elif mode is STOPPED:
            tape._stopped_reads.update(x._id for x in inputs if isinstance(x, Tensor))
    if targets is None:
        return
    kind = getattr(output.data.dtype, "kind", None)  # NumPy's dtypes say it directly
    if kind not in ("f", "c") and (kind is not None or not backend.is_floating(output.dtype)):
        return  # integer and boolean results carry no gradient
    if len(inputs) > primitive.ruled_inputs:
        _check_rules(primitive, inputs, targets)
    versions: tuple[tuple[int, int], ...] = ()
    for k, x in enumerate(inputs):
        if type(x) is Variable:
            versions += ((k, x.version),)
    site = caller_site(3)  # from the primitive's caller: record and __call__ are inside
    if not params:
        params = _NO_PARAMS  # one shared empty dict, not one per entry (a long tape's memory)
    for tape in targets:
        for k, _ in versions:
            if _reads(tape, inputs[k]):
                tape._add_watched(inputs[k])
        tape._entries.append(Entry(primitive, inputs, output, params, versions, site))
        tape._watched.add(output._id)


_NO_PARAMS: dict[str, Any] = {}  # read-only by convention: rules never change params


def _check_rules(primitive: Any, inputs: tuple[Any, ...], targets: list[GradientTape]) -> None:
    """LookupError when a floating input that a target tape reads has no gradient rule."""
    for k, x in enumerate(inputs):
        if isinstance(x, Tensor) and primitive.rule(k) is None:
            if backend.is_floating(x.dtype) and any(_reads(t, x) for t in targets):
                raise LookupError(
                    f"{primitive.name}: no gradient rule for input {k} "
                    f"({x.dtype}, shape {x.shape}); it cannot be differentiated"
                )


def is_recorded(*tensors: Any) -> bool:
    """Whether some recording tape watches one of ``tensors`` (so ops on them are recorded)."""
    return any(
        tape._mode is RECORDING and _reads(tape, t)
        for tape in _active.get()
        for t in tensors
        if isinstance(t, Tensor)
    )


def _reads(tape: GradientTape, x: Tensor) -> bool:
    """Whether an op reading ``x`` is recorded on ``tape``: watched, or an accessed Variable."""
    return x._id in tape._watched or (
        tape.watch_accessed_variables
        and type(x) is Variable
        and x.trainable
        and backend.is_real_floating(x.dtype)
    )


# With the separator, so that a user's ``tapegrad_demo.py`` next to the package is not "inside".
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def caller_site(depth: int = 1) -> tuple[str, int] | None:
    """``(filename, line)`` of the innermost frame outside tapegrad.

    Called for every recorded op, so it only walks up to the user's frame (a
    handful of tapegrad frames) and keeps the filename string as it is: the
    formatting waits until someone reads ``entry.where``. ``depth`` skips frames
    the caller knows are tapegrad's (1: start at the caller of caller_site).
    """
    try:
        frame = sys._getframe(depth)
    except ValueError:  # a shallower stack than the caller expected
        frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(_PACKAGE_DIR):
            return filename, frame.f_lineno
        frame = frame.f_back
    return None


def format_site(site: tuple[str, int] | None) -> str | None:
    """``("/home/me/train.py", 42)`` -> ``"train.py:42"``."""
    if site is None:
        return None
    return f"{os.path.basename(site[0])}:{site[1]}"


def note_escape(t: Tensor, how: str) -> None:
    """Remember (and warn once per call site) that a watched value left a recording tape.

    ``tape.gradient(..., unconnected_gradients="raise")`` later gives this as the
    reason a source has no gradient.
    """
    site = None
    for tape in _active.get():
        if tape._mode is TRACING:
            tape._guard(t, how)
        elif tape._mode is RECORDING and _reads(tape, t):
            site = site or caller_site()
            tape._escapes.setdefault(t._id, f"{how} at {format_site(site)}")
    if site is not None:
        _warn_escape(t, how, site)


_warned_sites: set[tuple[str, int]] = set()


def _warn_escape(t: Tensor, how: str, site: tuple[str, int]) -> None:
    if site in _warned_sites:
        return
    _warned_sites.add(site)
    warnings.warn_explicit(
        f"a watched Tensor of shape {t.shape} left the tape through {how} at "
        f"{format_site(site)} inside a recording GradientTape: values computed from the "
        "result carry no gradient",
        UserWarning,
        site[0],
        site[1],
    )
