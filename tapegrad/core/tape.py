"""GradientTape: the Wengert list that primitives append to while it is active."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from tapegrad.backends import namespaces as backend
from tapegrad.core import batched, sweep
from tapegrad.core.active import RECORDING, STOPPED, _active
from tapegrad.core.entry import Entry
from tapegrad.core.nests import flatten
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.wording import a, count

_PRETTY_LINES = 60  # entries a notebook shows of a longer tape's listing (first and last half)


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
        # Whether an entry holds a Batched value (recorded inside tg.vmap): the sweep then
        # runs the rules on Tensors, so that they reach the batching rules too.
        self._holds_batched = False
        self._level = batched.last_level()  # vmap levels above this one began inside the tape

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

    # --- watching --------------------------------------------------------------
    def watch(self, tensor: Any) -> None:
        """Watch a Tensor, or every Tensor of a nest (list, tuple, dict) of them.

        Args:
            tensor: A floating-point Tensor (real or complex), or a nest of them.

        Raises:
            TypeError: A leaf is not a Tensor, or its dtype is not floating-point.
        """
        for t in flatten(tensor):
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

    def __repr__(self) -> str:
        flags = " persistent" if self.persistent else ""
        return f"<GradientTape{flags} with {count(len(self), 'entry', 'entries')}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        lines = str(self).splitlines() if len(self) else []
        if len(lines) > _PRETTY_LINES:
            half = _PRETTY_LINES // 2
            hidden = len(lines) - 2 * half
            cut = f"... {count(hidden, 'entry', 'entries')} not shown (print(tape) shows all)"
            lines = [*lines[:half], cut, *lines[-half:]]
        printer.text("\n".join([repr(self), *lines]))

    # The listing and the drawing are tapegrad.debug's, set on the class when it is imported
    # (tapegrad/debug/__init__.py): ``print(tape)`` and ``tape.summary()`` (listing.py),
    # ``tape.to_dot()``, ``tape.render(path)`` and Jupyter's drawing (viz.py). Jupyter
    # shows the richest it can: the drawing when Graphviz is installed, else the text
    # listing (``_repr_pretty_``), never just the one-line repr.
    summary: ClassVar[Callable[..., Any]]
    to_dot: ClassVar[Callable[..., str]]
    render: ClassVar[Callable[..., str]]
    _repr_svg_: ClassVar[Callable[..., str | None]]

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
        return sweep.gradient(self, target, sources, output_gradients, unconnected_gradients)

    def jacobian(
        self,
        target: Any,
        sources: Any,
        unconnected_gradients: str = "none",
        experimental_use_pfor: bool = True,
    ) -> Any:
        """The Jacobian of ``target`` with respect to each source: shape target + source.

        Args:
            target: A Tensor.
            sources: A Tensor or Variable, or a nest of them.
            unconnected_gradients: ``"none"``, ``"zero"`` or ``"raise"``, as in ``gradient``.
            experimental_use_pfor: TensorFlow's choice between a vectorised Jacobian and a
                loop; accepted and ignored: tapegrad sweeps the tape once per element of
                ``target`` either way, so the result is the same.

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
        return sweep.jacobian(self, target, sources, unconnected_gradients)

    def batch_jacobian(
        self,
        target: Any,
        source: Any,
        unconnected_gradients: str = "none",
        parallel_iterations: int | None = None,
        experimental_use_pfor: bool = True,
    ) -> Any:
        """The Jacobian of each example of ``target`` with respect to the same example of
        ``source``, as TensorFlow's: shape ``target.shape + source.shape[1:]``, where both
        share the first (batch) axis and each example of ``target`` depends only on its own
        example of ``source`` (as it does in a layer applied row by row).

        One reverse sweep per element of one example of ``target``, each serving the whole
        batch; ``parallel_iterations`` and ``experimental_use_pfor`` are TensorFlow's
        choices of how to run the same sweeps, accepted and ignored (the result is the
        same). For a function of one example, ``tg.vmap(tg.jacobian(f))`` is the same.

        >>> import tapegrad as tg
        >>> x = tg.tensor([[1.0, 2.0], [3.0, 4.0]])
        >>> with tg.GradientTape() as tape:
        ...     tape.watch(x)
        ...     y = x * x
        >>> tape.batch_jacobian(y, x)
        tensor([[[2., 0.],
                 [0., 4.]],
        <BLANKLINE>
                [[6., 0.],
                 [0., 8.]]], dtype=float64)
        """
        return sweep.batch_jacobian(self, target, source, unconnected_gradients)
