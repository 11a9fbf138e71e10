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
arrays (tapegrad/replay_sweep.py). The recording pass is tapegrad/replay_trace.py; see
docs/replay.md.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad import backend, debug, replay_codegen, wording
from tapegrad.ops.primitive import Primitive
from tapegrad.record import complex_rules_error, record
from tapegrad.replay_trace import Guard, Step, Trace
from tapegrad.tape import TRACING, _active
from tapegrad.tensor import Tensor, Variable

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
    tapegrad.replay.GuardError: ...
    """


class Recording:
    """f's Wengert list for one signature: steps, guards, and where inputs and outputs live."""

    def __init__(self, name: str, trace: Trace, input_slots: list[int], out: Any) -> None:
        self.name = name
        self.steps = trace.steps
        self.template = [None] * len(trace.env)
        computed = {s.out for s in trace.steps} | set(input_slots)
        computed |= {slot for slot, _ in trace.variables}
        for slot, value in enumerate(trace.env):
            if slot not in computed:
                self.template[slot] = value  # constants
        self.input_slots = input_slots
        self.variables = trace.variables
        # Steps split at each guard, so that a failing guard stops the replay early.
        self.segments: list[tuple[list[tuple], list[Guard]]] = []
        start = 0
        for position, guard in trace.guards:
            self.segments.append((_table(self.steps[start:position]), [guard]))
            start = position
        self.segments.append((_table(self.steps[start:]), []))
        self.guards = [guard for _, guard in trace.guards]
        self.guard_positions = trace.guards
        self.nbytes = [getattr(value, "nbytes", 0) for value in trace.env]
        self.treedef, leaves = _tree_flatten(out)
        self.outputs: list[tuple[str, Any]] = []
        leaf_of_input = {slot: k for k, slot in enumerate(input_slots)}
        for leaf in leaves:
            slot = trace.slot_of.get(leaf._id) if isinstance(leaf, Tensor) else None
            if slot is not None and slot in leaf_of_input:
                self.outputs.append(("input", leaf_of_input[slot]))
            elif slot is not None and not isinstance(leaf, Variable):
                self.outputs.append(("slot", slot))
            else:
                self.outputs.append(("constant", leaf))  # untraced values, and Variables
        from tapegrad.replay_sweep import compiled_vjp

        # Its rules are the recorded ones: those of complex steps are checked at each call.
        self.primitive = Primitive(
            f"compiled[{name}]", _never_called, complex_rules=True
        ).defvjp_argnum(compiled_vjp)
        # Steps with complex results whose rules are for real values only (max...): record()
        # refuses to differentiate them, and so does a replay.
        self.real_only = [
            s
            for s in self.steps
            if s.primitive.differentiable
            and s.primitive.complex_rules is not True
            and backend.is_complex(trace.env[s.out].dtype)
        ]
        self.reverse_plans: dict[tuple, Any] = {}
        # The steps as straight-line Python (tapegrad/replay_codegen.py), or None: interpreted.
        generated = replay_codegen.forward_code(self)
        self.generated, self.forward_source = generated or (None, None)
        self.generated_full = self.generated
        # The slots the generated forward's env holds (None: all): once reverse sweeps are
        # generated, only the values they read, the outputs and the inputs.
        self.kept: frozenset[int] | None = None

    def forward(
        self, arrays: list[Any], full: bool = False
    ) -> tuple[list[Any] | None, Guard | None, Any]:
        """Run the steps on ``arrays``: (env, None, None), or the failing guard and its value.

        The input arrays come first, then the Variables' (read afresh when left out).
        ``full``: every slot's value in env, whatever :attr:`kept` says.
        """
        generated = self.generated_full if full else self.generated
        if generated is not None and not debug.anomaly_mode():
            if len(arrays) == len(self.input_slots):
                arrays = [*arrays, *[v._data for _, v in self.variables]]
            try:
                return generated(*arrays)
            except (ValueError, TypeError, IndexError):
                pass  # the interpreted replay raises it again, naming the op
        return self.interpret(arrays)

    def keep_for_sweeps(self) -> None:
        """Regenerate the forward to keep only the values the generated sweeps read."""
        if self.generated is None or self.real_only:
            return
        kept = {slot for kind, slot in self.outputs if kind == "slot"}
        # Large values are kept too: freeing them in the forward only to allocate as much
        # again in the sweep costs more (fresh pages from the OS) than holding them.
        kept |= {s for s, n in enumerate(self.nbytes) if n >= replay_codegen.DROP_BYTES}
        for plan in self.reverse_plans.values():
            if not plan.code:
                return  # an interpreted sweep reads any value: keep them all
            kept |= plan.code_reads
        generated = replay_codegen.forward_code(self, kept)
        if generated is not None:
            self.generated, self.forward_source = generated
            self.kept = frozenset(kept)

    def interpret(self, arrays: list[Any]) -> tuple[list[Any] | None, Guard | None, Any]:
        """:meth:`forward` one step at a time, without the generated code."""
        env = self.template.copy()
        for slot, a in zip(self.input_slots, arrays):
            env[slot] = a
        for slot, variable in self.variables:
            env[slot] = variable._data
        for (slot, _), a in zip(self.variables, arrays[len(self.input_slots) :]):
            env[slot] = a
        step = None
        try:
            for table, guards in self.segments:
                # The replay's hot loop: one tuple unpacking and one call per step; the
                # common arities are spelled out (no argument tuple, no keyword dict).
                for kind, forward, first, second, out, step in table:
                    if kind == 2:
                        env[out] = forward(env[first], env[second])
                        continue
                    if kind == 1:
                        env[out] = forward(env[first])
                        continue
                    value = forward(step.xp, *step.get(env), **step.call_params(env))
                    if type(value) is not _ndarray and isinstance(value, _generic):
                        value = np.asarray(value)  # as Primitive.__call__ does
                    env[out] = value
                for guard in guards:
                    new = guard.check(env)
                    if new is not None:
                        return None, guard, new
        except (ValueError, TypeError, IndexError) as exc:
            if step is None:
                raise
            arrays = [env[a] for a in step.args]
            params = step.call_params(env)  # the replayed values, not the recorded ones
            raise type(exc)(step.primitive._explain(exc, arrays, params)) from exc
        if debug.anomaly_mode():
            for step in self.steps:
                inputs = tuple(env[a] for a in step.args)
                debug.check_forward(step.primitive, inputs, Tensor(env[step.out]))
        return env, None, None

    def source(self) -> str:
        """The generated forward and the reverse sweeps generated so far, as Python source."""
        if self.forward_source is None:
            parts = [f"# {self.name}: interpreted (no generated code for this recording)\n"]
        else:
            parts = [f"# {self.name}: forward\n{self.forward_source}"]
        for (out_slot, sources), plan in self.reverse_plans.items():
            if plan.code_source is not None:
                where = ", ".join(f"v{s}" for s in sources)
                parts.append(f"# reverse from v{out_slot} to {where}\n{plan.code_source}")
        if len(parts) == 1:
            parts.append("# (a reverse sweep is generated by the second gradient through it)\n")
        return "\n".join(parts)

    def outputs_of(self, env: list[Any], inputs: list[Tensor]) -> tuple[list[Any], list[int]]:
        """The output leaves, and the positions of those computed by the steps."""
        leaves, computed = [], []
        for j, (kind, value) in enumerate(self.outputs):
            if kind == "slot":
                leaves.append(Tensor(env[value]))
                computed.append(j)
            elif kind == "input":
                leaves.append(inputs[value])
            else:
                leaves.append(value)
        return leaves, computed


def _check_complex_rules(recording: Recording, call: Any) -> None:
    """record()'s TypeError for a complex step with real-only rules on a path from an input
    some tape differentiates, raised before the replay records anything."""
    from tapegrad.replay_sweep import _slots

    slots = _slots(call)
    depends = {slots[k] for k in call.wanted}
    for step in recording.steps:
        if step.floating and step.primitive.differentiable and any(a in depends for a in step.args):
            depends.add(step.out)
            if step in recording.real_only:
                raise complex_rules_error(step.primitive, call.env[step.out].dtype)


def _table(steps: list[Step]) -> list[tuple]:
    """Rows for Recording.forward: (kind, forward, first arg, last arg, out, step).

    Kind 1 or 2: that many arguments and no params, and a result that cannot be a
    NumPy scalar (those come from reductions to 0-d, which Primitive.__call__ wraps);
    its forward takes the arrays alone (on NumPy, the primitive's NumPy function).
    Kind 0: the general call, ``forward(xp, *arrays, **params)``.
    """
    rows = []
    for s in steps:
        if s.params or s.ndim == 0 or len(s.args) > 2:
            rows.append((0, s.forward, s.args[0], s.args[-1], s.out, s))
            continue
        if s.xp is np:
            forward = s.primitive.numpy_forward
        else:
            forward = functools.partial(s.forward, s.xp)
        rows.append((len(s.args), forward, s.args[0], s.args[-1], s.out, s))
    return rows


def _never_called(xp: Any, *arrays: Any, **params: Any) -> Any:
    raise NotImplementedError("a compiled call is replayed by its Recording, not called")


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
        if fuse:  # tapegrad/replay_fuse.py: numba-compiled recordings
            from tapegrad.replay_fuse import numba_or_warning

            fuse = numba_or_warning()
        self.fuse = fuse
        functools.update_wrapper(self, f)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if any(t._mode is TRACING for t in _active.get()):
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
            from tapegrad.replay_fuse import fused_recording as make
        recording = make(getattr(self.f, "__name__", "f"), trace, input_slots, out)
        kept = self.recordings.setdefault(key, [])
        kept.insert(0, recording)
        del kept[self.max_recordings :]
        return recording, trace.env

    def _finish(self, recording: Recording, env: list[Any], inputs: list[Tensor], kept: Any) -> Any:
        leaves, computed = recording.outputs_of(env, inputs)
        tapes = _active.get()
        if tapes and computed:
            from tapegrad.replay_sweep import Call

            variables = [v for _, v in recording.variables]
            call = Call(recording, env, [*inputs, *variables], kept)
            if recording.real_only:
                _check_complex_rules(recording, call)
            for j in computed:
                arrays = [x._data for x in call.inputs]
                params = {"call": call, "output": j}
                record(recording.primitive, call.inputs, arrays, leaves[j], params, tapes)
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


def _is_array(x: Any) -> bool:
    return type(x) is _ndarray or isinstance(x, _generic) or hasattr(x, "__array_namespace__")


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


def _tree_flatten(tree: Any) -> tuple[Any, list[Any]]:
    leaves: list[Any] = []

    def shape(x: Any) -> Any:
        if isinstance(x, (list, tuple)) and not isinstance(x, Tensor):
            return (type(x), [shape(item) for item in x])
        if isinstance(x, dict):
            return (dict, [(k, shape(v)) for k, v in x.items()])
        leaves.append(x)
        return None

    return shape(tree), leaves


def _tree_unflatten(treedef: Any, leaves: Any) -> Any:
    if treedef is None:
        return next(leaves)
    kind, children = treedef
    if kind is dict:
        return {k: _tree_unflatten(child, leaves) for k, child in children}
    return kind(_tree_unflatten(child, leaves) for child in children)


def _short(value: Any) -> str:
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape}" if value.size > 4 else repr(value.tolist())
    return repr(value)
