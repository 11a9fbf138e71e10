"""Tape replay: ``tg.compile(f)`` records f's Wengert list once per input signature and
re-runs it on new inputs, forward and reverse, without running f's Python again.

The first call with a new signature (the shapes, dtypes and devices of the array
arguments, the values of the others) runs f under a *trace*: a pseudo-tape in
TRACING mode that sees every primitive call reading a traced value (the
arguments, and every Variable f reads, whose current value each replay reads
again) and every Tensor -> Python conversion of one. Each conversion becomes a
*guard*: the replay recomputes it and, if it differs, f's Python could have
taken another path, so the replay re-records (or raises :class:`GuardError`),
like CppAD's ``compare_change``. A replay runs each recorded primitive's forward
on raw arrays; under a tape that watches an input it records a single entry per
output whose gradient rule runs the recorded rules in reverse, also on raw
arrays (tapegrad/replay/sweep.py). The recording pass is tapegrad/replay/trace.py; see
docs/replay.md.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad import wording
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import TRACING, _active
from tapegrad.core.record import record
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.replay.recording import (
    Recording,
    _check_complex_rules,
    _is_array,
    _tree_unflatten,
)
from tapegrad.replay.sweep import Call, wanted_inputs
from tapegrad.replay.trace import Trace

_ndarray, _generic = np.ndarray, np.generic


class GuardError(RuntimeError):
    """A replay's guard failed and the compiled function was told not to re-record.

    >>> import tapegrad as tg
    >>> @tg.compile(on_guard_failure="raise")
    ... def relu_sum(x):
    ...     return tg.sum(x) if tg.sum(x).item() > 0 else tg.sum(-x)
    >>> relu_sum(tg.tensor([1.0, 2.0])).item()
    3.0
    >>> relu_sum(tg.tensor([-1.0, -2.0]))
    Traceback (most recent call last):
    ...
    tapegrad.replay.compiled.GuardError: ...
    """


class Compiled:
    """A function that replays its recorded tape; made by :func:`compile`."""

    def __init__(
        self, f: Callable[..., Any], on_guard_failure: str, max_recordings: int, fuse: bool = False
    ):
        if on_guard_failure not in ("retrace", "raise"):
            raise ValueError(
                f"compile: on_guard_failure must be 'retrace' or 'raise', got {on_guard_failure!r}"
            )
        self.f = f
        self.on_guard_failure = on_guard_failure
        self.max_recordings = max_recordings
        self.recordings: dict[Any, list[Recording]] = {}
        self.traces = 0  # how many times f's Python ran
        if fuse:  # tapegrad/replay/fuse.py: numba-compiled recordings
            from tapegrad.replay.fuse import numba_or_warning

            fuse = numba_or_warning()
        self.fuse = fuse
        functools.update_wrapper(self, f)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        for t in _active.get():
            if t._mode is TRACING:
                return self.f(*args, **kwargs)  # inside another trace: inline f
        key, leaves = _signature((args, kwargs))
        inputs = [x if isinstance(x, Tensor) else Tensor(_as_array(x)) for x in leaves]
        arrays = [x._data for x in inputs]
        failure = None
        for recording in self.recordings.get(key, ()):
            env, guard, new = recording.forward(arrays)
            if guard is None:
                return self._finish(recording, env, inputs, recording.kept)
            failure = (guard, new)
        if failure is not None and self.on_guard_failure == "raise":
            guard, new = failure
            if guard.how == "shape":
                raise GuardError(
                    f"compile({self.__name__}): an op at {guard.where} gave a result of shape "
                    f"{guard.value} when recorded, whose shape depends on the values (a "
                    f"boolean mask, a count); these inputs give shape {new}. Use "
                    "on_guard_failure='retrace' to record this shape too"
                )
            raise GuardError(
                f"compile({self.__name__}): the recording converted a Tensor to Python with "
                f"{guard.how} at {guard.where} and got {_short(guard.value)}; these inputs give "
                f"{_short(new)}, so f's Python may take another path. Use "
                "on_guard_failure='retrace' to record that path too"
            )
        recording, env = self._trace(key, args, kwargs, inputs)
        return self._finish(recording, env, inputs, None)

    def _trace(self, key: Any, args: Any, kwargs: Any, inputs: list[Tensor]) -> Any:
        trace = Trace()
        input_slots = [trace.add_traced(t) for t in inputs]
        swapped = iter(inputs)
        call_args, call_kwargs = _tree_map(lambda _: next(swapped), (args, kwargs))
        token = _active.set((trace,))
        try:
            out = self.f(*call_args, **call_kwargs)
        finally:
            _active.reset(token)
        self.traces += 1
        make = Recording
        if self.fuse:
            from tapegrad.replay.fuse import fused_recording as make
        recording = make(getattr(self.f, "__name__", "f"), trace, input_slots, out)
        kept = self.recordings.setdefault(key, [])
        kept.insert(0, recording)
        del kept[self.max_recordings :]
        return recording, trace.env

    def _finish(self, recording: Recording, env: list[Any], inputs: list[Tensor], kept: Any) -> Any:
        leaves, computed = recording.outputs_of(env, inputs)
        tapes = _active.get()
        if tapes and computed:
            variables = [v for _, v in recording.variables]
            call = Call(recording, env, [*inputs, *variables], kept)
            if recording.real_only:
                call.wanted = wanted_inputs(call.inputs)
                _check_complex_rules(recording, call)
            arrays = [x._data for x in call.inputs]
            for j in computed:
                params = {"call": call, "output": j}
                record(recording.primitive, call.inputs, arrays, leaves[j], params, tapes)
            call.wanted = wanted_inputs(call.inputs)  # after record(): the Variables watched
        return _tree_unflatten(recording.treedef, iter(leaves))

    def source(self, *args: Any, **kwargs: Any) -> str:
        """The generated Python of the recordings for these arguments' signature.

        Each recording of that signature (one per path the guards saw) shows its
        forward, one line per recorded op, and the reverse sweeps that gradients
        through it have generated so far (a sweep is generated when a gradient first
        runs through the recording a second time: the first checks every rule's
        result). Values are named by slot: ``v3`` is slot 3's value, ``g3`` its
        cotangent, and ``t0``, ``t1``... are locals reused once their value is dead. Once
        a reverse sweep is generated, the forward keeps only the values it reads (the
        others are None in the returned slots). A recording the generator cannot write
        says so and is interpreted. With no recording yet for the signature, f is
        called once on the arguments to record one.

        Args:
            *args: Arguments of the signature to show, as for a call.
            **kwargs: Keyword arguments of that signature.

        Returns:
            The source text, one section per generated function.

        >>> import tapegrad as tg
        >>> f = tg.compile(lambda x, w: tg.sum(tg.tanh(x * w)))
        >>> x, w = tg.tensor([0.5, 1.0]), tg.tensor([2.0, 3.0])
        >>> grad = tg.grad(f, argnums=1)
        >>> grad(x, w) is not None and grad(x, w) is not None  # record, check, generate
        True
        >>> print(f.source(x, w))
        # <lambda>: forward
        def forward(v0, v1):
            t0 = multiply(v0, v1)
            v3 = tanh(t0)
            v4 = as_array(sum(v3, axis=(0,), keepdims=False))
            return [v0, v1, None, v3, v4], None, None
        <BLANKLINE>
        # reverse from v4 to v1
        def sweep(env, g, free):
            v0, v3, v4, = _read(env)
            if free: env.clear()
            t0 = sum_vjp0(g, v4, v3, axis=(0,), keepdims=False)
            t0 = (t0 * (1.0 - v3 * v3))
            g1 = (t0 * v0)
            return (g1,)
        <BLANKLINE>
        """
        key, _ = _signature((args, kwargs))
        if key not in self.recordings:
            self(*args, **kwargs)
        return "\n".join(recording.source() for recording in self.recordings.get(key, ()))

    def clear(self) -> None:
        """Forget every recording: the next call runs f's Python again."""
        self.recordings.clear()

    def __repr__(self) -> str:
        count = sum(len(r) for r in self.recordings.values())
        recordings = wording.count(count, "recording")
        return (
            f"<compiled {self.__name__}: {recordings}, traced {wording.count(self.traces, 'time')}>"
        )


def compile(  # noqa: A001 - the name users know from torch.compile / jax.jit
    f: Callable[..., Any] | None = None,
    *,
    on_guard_failure: str = "retrace",
    max_recordings: int = 8,
    fuse: bool = False,
) -> Any:
    """Record ``f``'s tape once per input signature, then replay it on new inputs.

    A signature is the structure of the arguments, the shape, dtype and device
    of each Tensor or array, and the value of every other argument. Replays
    read each Variable that f read afresh. A Tensor -> Python conversion inside f
    (``bool``, ``float``, ``int``, ``item``, ``numpy``, indexing with a Tensor)
    is a guard: when a replay's value differs, f is recorded again for that path
    (``on_guard_failure="retrace"``, keeping up to ``max_recordings`` paths per
    signature) or :class:`GuardError` is raised (``"raise"``). Gradients flow
    through a replay: it records one entry per output on the tapes that watch
    its inputs, whose rule runs the recorded rules in reverse.
    Each recording runs as generated straight-line Python, one line per op, forward
    and reverse; ``compiled.source(*args)`` shows that code (docs/replay.md).

    Args:
        f: The function, of Tensors, arrays, Variables it reads, and other arguments that
            become part of the signature. Without it, ``compile(...)`` returns a decorator.
        on_guard_failure: ``"retrace"`` (record the new path) or ``"raise"``
            (:class:`GuardError`).
        max_recordings: How many paths to keep per signature before the oldest is dropped.
        fuse: Compile each recording of elementwise float64 ops into one numba loop, forward
            and gradient (docs/replay.md); a recording it cannot compile replays as without
            ``fuse``, after a :class:`~tapegrad.FuseWarning`. Needs numba
            (``pip install 'tapegrad[fuse]'``); without it, one FuseWarning and plain replays.

    Returns:
        The compiled function (or a decorator making one), with ``f``'s name and docstring.

    Raises:
        ValueError: ``on_guard_failure`` is not ``"retrace"`` or ``"raise"``.

    >>> import tapegrad as tg
    >>> @tg.compile
    ... def f(x):
    ...     return tg.sum(tg.tanh(x) * x)
    >>> x = tg.tensor([0.5, -1.0])
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = f(x)
    >>> [round(v, 6) for v in tape.gradient(y, x).numpy().tolist()]
    [0.855341, -1.181568]
    """
    if f is None:
        return functools.partial(
            compile, on_guard_failure=on_guard_failure, max_recordings=max_recordings, fuse=fuse
        )
    return Compiled(f, on_guard_failure, max_recordings, fuse)


def _as_array(x: Any) -> Any:
    return np.asarray(x) if isinstance(x, _generic) else x


def _signature(tree: Any) -> tuple[Any, list[Any]]:
    """A hashable key of ``tree``'s structure and leaf metadata, and its array leaves."""
    leaves: list[Any] = []
    first: dict[int, int] = {}

    def key(x: Any) -> Any:
        if isinstance(x, Tensor):
            alias = first.setdefault(x._id, len(leaves))  # f(x, x) is not f(x, y)
            leaves.append(x)
            kind = "V" if isinstance(x, Variable) else "T"
            return (kind, x.shape, x.dtype, x.device, alias)
        if _is_array(x):
            leaves.append(x)
            return ("A", tuple(x.shape), x.dtype, backend.device_of(x))
        if isinstance(x, (list, tuple)):
            return (type(x).__name__, tuple(key(item) for item in x))
        if isinstance(x, dict):
            return ("dict", tuple((k, key(v)) for k, v in x.items()))
        try:
            hash(x)
        except TypeError:
            raise TypeError(
                f"compile: argument {x!r} of type {type(x).__name__} is neither a Tensor, an "
                "array, a nest of them, nor hashable, so it cannot be part of a signature"
            ) from None
        return ("S", type(x), x)

    return key(tree), leaves


def _tree_map(fn: Callable[[Any], Any], tree: Any) -> Any:
    """``tree`` with each Tensor or array leaf replaced by ``fn(leaf)``, in _signature's order."""
    if isinstance(tree, Tensor) or _is_array(tree):
        return fn(tree)
    if isinstance(tree, (list, tuple)):
        return type(tree)(_tree_map(fn, item) for item in tree)
    if isinstance(tree, dict):
        return {k: _tree_map(fn, v) for k, v in tree.items()}
    return tree


def _short(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}" if value.size > 4 else repr(value.tolist())
    return repr(value)
