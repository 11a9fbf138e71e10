"""tg.compile's generated reverse sweep: a verified plan (tapegrad/replay/sweep.py) as one
Python function that calls the gradient rules in reverse, inlined where a rule is a
one-expression lambda (tapegrad/replay/codegen.py has the generator's shared parts and the
forward), with fan-out summed as the interpreted sweep sums it (the first contribution kept,
the second a new buffer, the rest added in place), decided once since a recording's shapes
never change::

    def sweep(env, g, free):
        v0, v1, v2, v3, ... = read(env)
        g5 = g
        g4 = tanh_vjp0_same_shape(g5, v5, v4)
        ...
        return (g1, g2)

Large values a rule declares unread (Primitive.saves) are passed as placeholders, so that
the forward need not keep them, and a same-shape rule with an in-place form
(Primitive.defvjp_in_place) writes into a cotangent nothing reads after it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.core.record import placeholder_array
from tapegrad.core.sweep_raw import passthrough
from tapegrad.core.tensor import Tensor
from tapegrad.ops.arithmetic import cast_cotangent
from tapegrad.replay.codegen import (
    _LOCAL,
    DROP_BYTES,
    _params_expression,
    _Scope,
    _when_alone,
    allocate,
    as_array,
    inline_rule,
)

_ndarray = np.ndarray


def sweep_code(
    plan: Any, env: list[Any], sources: tuple[int, ...]
) -> tuple[Any, str, frozenset[int]] | None:
    """The generated reverse sweep of a verified ``plan``, its source and the slots it
    reads, or None.

    ``fn(env, g, free)`` returns the cotangents of ``sources`` (None where none
    reaches one); ``free`` clears ``env`` once read, as a freeing sweep drops values.
    """
    scope = _Scope()
    out_slot = plan.steps[0][0].out
    # Which cotangents exist: the seed, and slots that some kept target reaches.
    alive = {out_slot}
    # (line, the locals it reads, and the line writing into a dead cotangent, with its local)
    statements: list[tuple[str, set[str], tuple[str, str] | None]] = []
    read_slots: set[int] = set()
    contributions: dict[int, int] = {}
    owned: set[int] = set()
    names = {out_slot: "g"}  # slot -> the local holding its cotangent (passthroughs alias)
    for step, targets in plan.steps:
        if step.out not in alive:
            continue  # every rule that would have reached it returned None
        kind0 = bool(step.params) or len(step.args) > 2
        g_out = names[step.out]
        for position, a, rule, fix in targets:
            if fix is _SKIP:
                continue
            alternative = None  # the rule written into g_out, where g_out is dead after it
            count = contributions.get(a, 0)
            contributions[a] = count + 1
            alive.add(a)
            if rule is passthrough:
                if count == 0:
                    names[a] = g_out  # the same array: no statement at all
                    continue
                expression, reads = g_out, {g_out}
            else:
                hint = f"{step.primitive.name}_vjp{position}"
                shortcuts = step.primitive.same_shape_vjps
                if shortcuts is not None and rule is shortcuts[position]:
                    hint += "_same_shape"
                unsaved = step.primitive.unsaved or ()
                args = [_operand(s, k not in unsaved, env, scope) for k, s in enumerate(step.args)]
                ans = _operand(step.out, step.primitive.saves_output, env, scope)
                params = _params_expression(step, scope, lambda s: f"v{s}") if kind0 else ""
                operands = [g_out, ans, *args]
                inlined = None if params else inline_rule(rule, operands, scope)
                if inlined is not None:
                    expression = inlined
                else:
                    rule_name = scope.bind(rule, hint)
                    expression = f"{rule_name}({g_out}, {ans}, {', '.join(args)}{params})"
                reads = set(_LOCAL.findall(expression)) | ({g_out} if g_out == "g" else set())
                in_place = step.primitive.in_place_vjp
                if (
                    in_place is not None
                    and shortcuts is not None
                    and rule is shortcuts[position]
                    and fix is None
                    and count == 0
                    and g_out != "g"
                    and not params
                ):
                    name = scope.bind(_when_alone(rule, in_place), f"{hint}_in_place")
                    alternative = f"{name}({g_out}, {ans}, {', '.join(args)})"
                    reads |= set(_LOCAL.findall(alternative))
                read_slots.update(int(name[1:]) for name in reads if name[0] == "v")
                if fix is not None:
                    fixed = scope.bind(_fixed, "fixed")
                    expression = f"{fixed}({expression}, {scope.bind(fix, f'dtype_{fix}')})"
            target = f"g{a}"
            if count == 0:
                line = f"{target} = {expression}"
            elif a in owned:
                line = f"{target} += {expression}"
                reads = reads | {target}
            else:
                total = f"{names[a]} + {expression}"
                if env[a] is not None and getattr(env[a], "ndim", 1) == 0:
                    total = f"{scope.bind(as_array, 'as_array')}({total})"
                line = f"{target} = {total}"
                reads = reads | {names[a]}
                owned.add(a)
            names[a] = target
            in_place_line = None if alternative is None else (f"{target} = {alternative}", g_out)
            statements.append((line, reads, in_place_line))
    if not read_slots and not statements:
        return None
    # Locals dropped after their last use when large (the seed's cotangent is the caller's).
    last: dict[str, int] = {}
    for index, (_, reads, _) in enumerate(statements):
        for name in reads:
            last[name] = index
    kept = {"g", *(names[s] for s in sources if s in names)}
    drops: dict[int, list[str]] = {}
    for name, index in last.items():
        value = env[int(name[1:])] if name != "g" else None
        if name[0] == "v" and getattr(value, "nbytes", 0) >= DROP_BYTES:
            drops.setdefault(index, []).append(name)
    lines = ["def sweep(env, g, free):"]
    ordered = sorted(read_slots)
    if len(ordered) == 1:
        lines.append(f"    v{ordered[0]} = env[{ordered[0]}]")
    elif ordered:
        from operator import itemgetter

        read = scope.bind(itemgetter(*ordered), "read")
        lines.append(f"    {', '.join(f'v{s}' for s in ordered)}, = {read}(env)")
    lines.append("    if free: env.clear()")
    for index, (line, _, in_place_line) in enumerate(statements):
        if in_place_line is not None and last[in_place_line[1]] == index:
            if in_place_line[1] not in kept:  # nothing reads the cotangent after this rule
                line = in_place_line[0]
        lines.append(f"    {line}")
        if index in drops:
            lines.append(f"    del {', '.join(sorted(drops[index]))}")
    results = [names.get(s, "None") for s in sources]
    lines.append(f"    return ({', '.join(results)},)")
    pinned = {f"v{s}" for s in ordered} | kept
    source = "\n".join([lines[0], *allocate(lines[1:], pinned)]) + "\n"
    return scope.build(source, "reverse sweep"), source, frozenset(read_slots)


_SKIP = object()  # the rule returned None: the input gets no gradient from this step


def _operand(slot: int, saved: bool, env: list[Any], scope: _Scope) -> str:
    """The local a rule reads for ``slot``'s value, or, for a large array its primitive
    declares unread (``Primitive.saves``), a placeholder of its shape and dtype: the
    sweep then does not read the value, and the forward need not keep it."""
    value = env[slot]
    if saved or type(value) is not _ndarray or value.nbytes < DROP_BYTES:
        return f"v{slot}"
    return scope.bind(placeholder_array(value.shape, value.dtype), "unread")


def _fixed(gx: Any, dtype: Any) -> Any:
    """A rule's result as a NumPy array of ``dtype`` (the sweeps' cast of a cotangent)."""
    if isinstance(gx, Tensor):
        gx = gx._data
    elif type(gx) is not _ndarray:
        gx = np.asarray(gx)
    return gx if gx.dtype == dtype else cast_cotangent(gx, dtype)._data
