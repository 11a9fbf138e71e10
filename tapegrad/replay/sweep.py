"""The gradient of a replayed call: its recorded rules run in reverse.

A replay records one entry per output on the tapes that watch its inputs; the
entry's rule, :func:`compiled_vjp`, sweeps the recording's steps backwards from
that output. When nothing records the sweep (first-order gradients), the rules
get the replay's raw arrays, as in the eager sweep's raw mode. When a tape
records it (higher-order gradients), the steps run again as tapegrad ops under
an inner tape, so the outer tape sees every op of the gradient.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.anomaly import anomaly_mode, check_backward
from tapegrad.core.record import is_recorded, recorded_positions
from tapegrad.core.sweep_raw import (
    accumulate_raw,
    call_rule_raw,
    check_raw,
    current_sweep,
    passthrough,
    sweep_frees,
)
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw
from tapegrad.replay import sweep_code
from tapegrad.replay.sweep_code import _SKIP, _fixed

_ndarray = np.ndarray


class Call:
    """One replay's residuals (every step's value) and its inputs, kept for the gradient."""

    __slots__ = ("recording", "env", "kept", "inputs", "wanted", "cache")

    def __init__(
        self, recording: Any, env: list[Any], inputs: list[Tensor], kept: frozenset[int] | None
    ) -> None:
        self.recording = recording
        self.env = env
        self.kept = kept  # the slots env holds (None: all)
        self.inputs = inputs
        # The inputs a gradient can be asked for: wanted_inputs(), once the call's entry is
        # recorded.
        self.wanted: frozenset[int] = frozenset()
        self.cache: tuple[int, Any, object | None, dict[int, Any]] | None = None

    def __repr__(self) -> str:
        return f"<replay of {self.recording.name}>"


def wanted_inputs(inputs: list[Tensor]) -> frozenset[int]:
    """The inputs a gradient can be asked for: floating ones some recording tape reads
    (cheapest once the call's entry is recorded: the Variables it read are watched)."""
    return frozenset(
        [k for k in recorded_positions(inputs) if backend.is_floating(inputs[k]._data.dtype)]
    )


def compiled_vjp(k: int, g: Any, ans: Any, *inputs: Any, call: Call, output: int) -> Any:
    """Input ``k``'s cotangent; one reverse sweep serves every input of the same cotangent."""
    cached = call.cache
    sweep = current_sweep.get()
    if (
        cached is not None
        and cached[0] == output
        and cached[1] is g
        and cached[2] is sweep
        and k in cached[3]
    ):
        return cached[3][k]
    wanted = sorted(call.wanted | {k})
    if isinstance(g, Tensor) and is_recorded(g, *inputs):
        grads = _recorded_vjp(call, output, g, wanted)
    else:
        grads = _raw_vjp(call, output, raw(g), wanted)
        if isinstance(g, Tensor):
            grads = {key: None if v is None else Tensor(v) for key, v in grads.items()}
    call.cache = (output, g, sweep, grads)
    return grads[k]


def _slots(call: Call) -> list[int]:
    recording = call.recording
    return [*recording.input_slots, *[slot for slot, _ in recording.variables]]


class _Plan:
    """The steps between some sources and one output, in reverse, with the rules to run.

    A recording's shapes and dtypes never change, so the first sweep checks each
    rule's result (shape, dtype, array type) and later sweeps run the rules bare:
    ``fixes`` holds what the first sweep found each target needs.
    """

    __slots__ = ("steps", "verified", "unread", "table", "code", "code_source", "code_reads")

    def __init__(
        self, recording: Any, env: list[Any], out_slot: int, sources: tuple[int, ...]
    ) -> None:
        depends = set(sources)
        relevant = []
        for step in recording.steps:
            # Mirrors record(): only differentiable steps with floating outputs carry gradient.
            if (
                step.primitive.differentiable
                and step.floating
                and any(a in depends for a in step.args)
            ):
                depends.add(step.out)
                relevant.append(step)
        needed = {out_slot} & depends
        self.steps: list[tuple[Any, list[list[Any]]]] = []
        for step in reversed(relevant):
            if step.out not in needed:
                continue
            targets = []
            shortcuts = step.primitive.same_shape_vjps
            matrices = step.primitive.matrix_vjps
            if matrices is not None and not _real_matrices(env, (*step.args[:2], step.out)):
                matrices = None
            for position, a in enumerate(step.args):
                rule = step.primitive.rule(position) if a in depends else None
                if rule is not None:
                    if (  # as record(): shortcut rules are for real values
                        shortcuts is not None
                        and type(env[a]) is _ndarray
                        and env[a].shape == env[step.out].shape
                        and env[step.out].dtype.kind != "c"
                    ):
                        rule = shortcuts[position]
                    elif matrices is not None:
                        rule = matrices[position]
                    targets.append([position, a, rule, None])  # None: result needs no fix
                    needed.add(a)
            self.steps.append((step, targets))
        self.verified = False
        self.table: list[tuple] | None = None  # the verified sweep's rows, built on first use
        # The verified sweep as generated Python (tapegrad/replay/sweep_code.py): None until
        # generated, False where it cannot be (the interpreted verified sweep serves).
        self.code: Any = None
        self.code_source: str | None = None
        self.code_reads: frozenset[int] = frozenset()  # the slots the generated sweep reads
        # Values no step of the plan reads: a freeing sweep drops them at once.
        read = {a for step, _ in self.steps for a in (*step.args, step.out)}
        read |= {slot for step, _ in self.steps for _, _, slot in step.refs}
        self.unread = [s.out for s in recording.steps if s.out not in read]


def _real_matrices(env: list[Any], slots: tuple[int, ...]) -> bool:
    """Whether the values in ``slots`` are all real 2-d NumPy arrays (Primitive.defvjp_matrices)."""
    return all(
        type(env[s]) is _ndarray and env[s].ndim == 2 and env[s].dtype.kind == "f" for s in slots
    )


def _plan(recording: Any, env: list[Any], out_slot: int, sources: tuple[int, ...]) -> _Plan:
    key = (out_slot, sources)
    plan = recording.reverse_plans.get(key)
    if plan is None:
        plan = recording.reverse_plans[key] = _Plan(recording, env, out_slot, sources)
    return plan


def _raw_vjp(call: Call, output: int, g: Any, wanted: list[int]) -> dict[int, Any]:
    recording, env = call.recording, call.env
    out_slot = recording.outputs[output][1]
    slots = _slots(call)
    sources = tuple(sorted({slots[k] for k in wanted}))
    plan = recording.reverse_plans.get((out_slot, sources))
    if env is None or not (
        call.kept is None or (plan is not None and plan.code and plan.code_reads <= call.kept)
    ):
        # A freeing sweep passed this call before, or its forward kept only the values
        # other sweeps read: replay the forward again, keeping every value.
        env, _, _ = recording.forward([x._data for x in call.inputs], full=True)
    if plan is None:
        plan = _plan(recording, env, out_slot, sources)
    if not plan.steps:  # no differentiable path from the sources to this output
        return dict.fromkeys(wanted)
    # Like the eager sweep's freeing of passed entries: drop each value once passed.
    free = sweep_frees()
    if free:
        call.env = None
        for slot in plan.unread:
            env[slot] = None
    if plan.verified and type(g) is _ndarray and not anomaly_mode():
        if plan.code is None:
            generated = sweep_code.sweep_code(plan, env, sources)
            plan.code, plan.code_source, plan.code_reads = generated or (False, None, frozenset())
            if plan.code:
                recording.keep_for_sweeps()
        if plan.code:
            by_source = dict(zip(sources, plan.code(env, g, free)))
            return {k: by_source[slots[k]] for k in wanted}
        by_slot = _sweep_verified(plan, env, g, free)
        return {k: by_slot[slots[k]] for k in wanted}
    cotangents = _sweep_checked(plan, env, g)
    return {k: cotangents.get(slots[k]) for k in wanted}


def _sweep_checked(plan: _Plan, env: list[Any], g: Any) -> dict[int, Any]:
    """The general sweep: every result checked; records what later sweeps must fix."""
    cotangents: dict[int, Any] = {plan.steps[0][0].out: g} if plan.steps else {}
    owned: set[int] = set()
    anomaly = anomaly_mode()
    numpy_only = type(g) is _ndarray
    for index, (step, targets) in enumerate(plan.steps):
        g_out = cotangents.pop(step.out, None)
        if g_out is None:
            continue
        arrays = [env[a] for a in step.args]
        params = step.call_params(env)
        ans = env[step.out]
        for target in targets:
            position, a, rule, _ = target
            result = call_rule_raw(rule, g_out, ans, arrays, params)
            gx = check_raw(step.primitive, position, result, env[a])
            if gx is None:
                target[3] = _SKIP
                continue
            if type(gx) is not _ndarray:
                numpy_only = False
            elif type(result) is not _ndarray or result.dtype != gx.dtype:
                target[3] = gx.dtype  # unwrap a Tensor or NumPy scalar, or cast
            if anomaly:
                entry = SimpleNamespace(primitive=step.primitive, where=step.where, inputs=arrays)
                check_backward(entry, len(plan.steps) - 1 - index, position, gx, g_out)
            accumulate_raw(cotangents, owned, a, gx)
    plan.verified = numpy_only
    return cotangents


def _sweep_verified(plan: _Plan, env: list[Any], g: Any, free: bool) -> list[Any]:
    """The lean sweep of a verified plan: NumPy arrays only, rules called bare.

    Cotangents live in a list indexed like ``env`` (slot -> cotangent or None).
    """
    if plan.table is None:
        plan.table = [
            (
                len(step.args) if not step.params and len(step.args) <= 2 else 0,
                step.out,
                step.args[0],
                step.args[-1],
                step,
                [(a, rule, fix) for _, a, rule, fix in targets],
            )
            for step, targets in plan.steps
        ]
    cotangents: list[Any] = [None] * len(env)
    cotangents[plan.steps[0][0].out] = g
    owned: set[int] = set()
    for kind, out, first, second, step, targets in plan.table:
        g_out = cotangents[out]
        if g_out is None:
            continue
        cotangents[out] = None
        ans = env[out]
        if kind == 0:
            arrays = step.get(env)
            params = step.call_params(env)
        for a, rule, fix in targets:
            # The common arities spelled out: no argument tuple, no keyword dict.
            if rule is passthrough:
                gx = g_out
            elif kind == 2:
                gx = rule(g_out, ans, env[first], env[second])
            elif kind == 1:
                gx = rule(g_out, ans, env[first])
            else:
                gx = rule(g_out, ans, *arrays, **params)
            if fix is not None:
                if fix is _SKIP:
                    continue
                gx = _fixed(gx, fix)
            previous = cotangents[a]
            if previous is None:
                cotangents[a] = gx
            elif a in owned:
                previous += gx
            else:
                total = previous + gx
                if type(total) is not _ndarray:  # a NumPy scalar: the sum of two 0-d arrays
                    total = np.asarray(total)
                cotangents[a] = total
                owned.add(a)
        if free:
            env[out] = None  # every reader of this value came later, so was passed
    return cotangents


def _recorded_vjp(call: Call, output: int, g: Tensor, wanted: list[int]) -> dict[int, Any]:
    """Re-run the steps as tapegrad ops (never f's Python) so recording tapes see the gradient."""
    recording = call.recording
    sources = [call.inputs[k] for k in wanted]
    with GradientTape() as tape:
        tape.watch(sources)
        env = list(recording.template)
        for slot, x in zip(_slots(call), call.inputs):
            env[slot] = x
        for step in recording.steps:
            params = step.call_params(env, unwrap=raw)
            env[step.out] = step.primitive(*(env[a] for a in step.args), **params)
    out = env[recording.outputs[output][1]]
    grads = tape.gradient(out, sources, output_gradients=g)
    return dict(zip(wanted, grads))
