"""A recording: f's Wengert list for one input signature, and its replayed forward.

:class:`Recording` holds the steps tg.compile's trace saw (tapegrad/replay/trace.py),
the guards a replay recomputes, and where the inputs and outputs live; its ``forward``
re-runs the steps on raw arrays (or their generated straight-line Python,
tapegrad/replay/codegen.py). ``fuse=True`` recordings (tapegrad/replay/fuse.py) are a
subclass. The compiled function that keeps recordings per signature is
tapegrad/replay/compiled.py.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.anomaly import anomaly_mode, check_forward
from tapegrad.core.record import complex_rules_error
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.ops.primitive import Primitive
from tapegrad.replay import codegen
from tapegrad.replay.trace import Guard, Step, Trace

_ndarray, _generic = np.ndarray, np.generic


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
        # Each NumPy value's shape and dtype (the generated forward's writes in place).
        self.layouts = [
            (value.shape, value.dtype) if type(value) is _ndarray else None for value in trace.env
        ]
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
        from tapegrad.replay.sweep import compiled_vjp

        # Its rules are the recorded ones: those of complex steps are checked at each call.
        # One rule per input (the inputs, then the Variables f read), as the sweep finds them.
        arity = len(input_slots) + len(trace.variables)
        self.primitive = Primitive(f"compiled[{name}]", _never_called, complex_rules=True).defvjp(
            *[functools.partial(compiled_vjp, k) for k in range(arity)]
        )
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
        # The steps as straight-line Python (tapegrad/replay/codegen.py), or None: interpreted.
        generated = codegen.forward_code(self)
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
        if generated is not None and not anomaly_mode():
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
        # Large values no sweep reads go too: their memory goes back to the allocator warm,
        # for the next array to take (the MLP train step: 1.02-1.04x hand-written NumPy
        # replayed, 1.06x when they were kept).
        for plan in self.reverse_plans.values():
            if not plan.code:
                return  # an interpreted sweep reads any value: keep them all
            kept |= plan.code_reads
        generated = codegen.forward_code(self, kept)
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
        if anomaly_mode():
            for step in self.steps:
                inputs = tuple(env[a] for a in step.args)
                check_forward(step.primitive, inputs, Tensor(env[step.out]))
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
    from tapegrad.replay.sweep import _slots

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


def _is_array(x: Any) -> bool:
    return type(x) is _ndarray or isinstance(x, _generic) or hasattr(x, "__array_namespace__")
