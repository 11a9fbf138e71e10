"""tg.compile's code generator: a recording as straight-line Python, forward and reverse.

A :class:`~tapegrad.replay.compiled.Recording` is a list of steps over slots; interpreting
it costs a tuple unpacking, a kind test and list reads and writes per step. Here
each recording becomes the source of one Python function, one line per step,
that calls the step's NumPy function (or forward) on local variables::

    def forward(v0, v1, v2):
        v3 = multiply(v0, v1)
        v4 = add(v3, v2)
        v5 = tanh(v4)
        ...
        return [v0, v1, v2, v3, v4, v5, ...], None, None

and each verified reverse plan one function that calls the gradient rules in reverse
(tapegrad/replay/sweep_code.py). This module has the forward and the parts both share:
the names a function closes over, the reuse of locals (:func:`allocate`) and the inlining
of one-expression rules (:func:`inline_rule`).

Functions, rules and constants are bound as closure variables of a factory, so
every name in the body is a local or a cell. The source is compiled once per
recording (and per plan) with :func:`compile`; ``tg.compile(f).source(...)``
shows it. A step the generator cannot write leaves that recording to the
interpreted replay (:func:`forward_code` and ``sweep_code`` return None).
"""

from __future__ import annotations

import ast
import copy
import functools
import keyword
import linecache
import re
import sys
from typing import Any

import numpy as np

from tapegrad.backends.namespaces import ONE_NAME

_ndarray, _generic = np.ndarray, np.generic
_refcount = sys.getrefcount
_TWO_NAMES = ONE_NAME + 1

# A value at least this large is dropped from the reverse sweep's locals after its last
# use, as the interpreted sweep drops it; smaller ones cost less kept than dropped.
DROP_BYTES = 1 << 16


def as_array(value: Any) -> Any:
    """A NumPy scalar (a reduction to 0-d) as a 0-d array, as Primitive.__call__ makes it."""
    if type(value) is not _ndarray and isinstance(value, _generic):
        return np.asarray(value)
    return value


class _Scope:
    """Readable, unique names for the objects a generated function closes over."""

    def __init__(self) -> None:
        self.bound: dict[str, Any] = {}
        self.names: dict[int, str] = {}

    def bind(self, value: Any, hint: str) -> str:
        name = self.names.get(id(value))
        if name is not None and self.bound[name] is value:
            return name
        base = re.sub(r"\W", "_", hint) or "c"
        if (
            base[0].isdigit()
            or keyword.iskeyword(base)
            or base in ("env", "g", "free", "read", "new")
            or re.fullmatch(r"[vgt]\d+", base)
        ):
            base = "_" + base
        name, n = base, 1
        while name in self.bound:
            n += 1
            name = f"{base}_{n}"
        self.bound[name] = value
        self.names[id(value)] = name
        return name

    def build(self, body: str, label: str) -> Any:
        """Compile ``body`` (a ``def``) inside a factory taking the bound objects."""
        names = list(self.bound)
        indented = "".join("    " + line + "\n" for line in body.splitlines())
        factory = f"def _factory({', '.join(names)}):\n{indented}    return {_def_name(body)}\n"
        namespace: dict[str, Any] = {}
        exec(compile(factory, f"<tg.compile {label}>", "exec"), namespace)  # noqa: S102
        return namespace["_factory"](*(self.bound[n] for n in names))


_LOCAL = re.compile(r"\b[vg]\d+\b")
_ASSIGN = re.compile(r"^(\s+)([vg]\d+) (\+?=) (.*)$")


def allocate(lines: list[str], pinned: set[str]) -> list[str]:
    """``lines`` with the locals not in ``pinned`` renamed onto as few names as can hold them.

    A value's local is given up after its last use and the next result takes it,
    so each intermediate is freed as soon as nothing reads it (as in hand-written
    NumPy, whose temporaries die at once), and NumPy's allocator hands the same
    memory back warm. Only ``name = ...`` and ``name += ...`` lines assign.
    """
    last: dict[str, int] = {}
    for i, line in enumerate(lines):
        for name in _LOCAL.findall(line):
            last[name] = i
    register: dict[str, str] = {}
    free: list[str] = []
    count = 0
    out = []
    for i, line in enumerate(lines):
        match = _ASSIGN.match(line)
        target = match.group(2) if match else None
        used = set(_LOCAL.findall(line if match is None else match.group(4)))
        renamed = _LOCAL.sub(lambda m: register.get(m.group(0), m.group(0)), line)
        if match is not None:
            expression = _LOCAL.sub(lambda m: register.get(m.group(0), m.group(0)), match.group(4))
        for name in used:
            if last[name] == i and name in register:
                free.append(register.pop(name))
        if match is not None and target is not None and target not in pinned:
            if target not in register:
                if free:
                    register[target] = free.pop()
                else:
                    register[target] = f"t{count}"
                    count += 1
            renamed = f"{match.group(1)}{register[target]} {match.group(3)} {expression}"
            if last[target] == i:
                free.append(register.pop(target))
        out.append(renamed)
    return out


def _def_name(body: str) -> str:
    return body.split("(", 1)[0].split()[-1]


def _literal(value: Any) -> bool:
    """Whether ``repr(value)`` reads back as an equal value of the same type."""
    if value is None or type(value) in (bool, int, str):
        return True
    if type(value) is float:
        return bool(np.isfinite(value))
    return type(value) is tuple and all(_literal(v) for v in value)


def _params_expression(step: Any, scope: _Scope, local: Any) -> str:
    """``**P`` for a step's params, with the traced arrays among them read from locals."""
    if not step.params:
        return ""
    if not step.refs and all(k.isidentifier() and _literal(v) for k, v in step.params.items()):
        return "".join(f", {k}={v!r}" for k, v in step.params.items())
    constant = scope.bind(step.params, f"{step.primitive.name}_params")
    if not step.refs:
        return f", **{constant}"
    by_key: dict[str, dict[int | None, int]] = {}
    for key, position, slot in step.refs:
        by_key.setdefault(key, {})[position] = slot
    items = []
    for key, positions in by_key.items():
        if None in positions:
            items.append(f"{key!r}: {local(positions[None])}")
            continue
        parts = [
            local(positions[i]) if i in positions else f"{constant}[{key!r}][{i}]"
            for i in range(len(step.params[key]))
        ]
        items.append(f"{key!r}: ({', '.join(parts)},)")
    return f", **{{**{constant}, {', '.join(items)}}}"


def forward_code(recording: Any, kept: Any = None) -> tuple[Any, str] | None:
    """The generated forward of ``recording`` and its source, or None where it cannot be.

    ``kept``: the slots the returned env holds (None: every slot); the others are
    freed as soon as the forward has no more use for them, and read None.
    """
    scope = _Scope()
    template = recording.template
    computed = {s.out for s in recording.steps}
    inputs = [*recording.input_slots, *(slot for slot, _ in recording.variables)]
    if len(set(inputs)) != len(inputs):
        return None

    def local(slot: int) -> str:
        if slot in computed or slot in inputs:
            return f"v{slot}"
        value = template[slot]
        if (
            value is None
            or type(value) in (bool, int)
            or (type(value) is float and np.isfinite(value))
        ):
            return repr(value)
        return scope.bind(value, f"c{slot}")

    guards_at: dict[int, list[Any]] = {}
    for position, guard in recording.guard_positions:
        guards_at.setdefault(position, []).append(guard)
    lines = [f"def forward({', '.join(f'v{s}' for s in inputs)}):"]

    def emit_guards(position: int) -> None:
        for guard in guards_at.get(position, ()):
            check = scope.bind(guard, "guard")
            lines.append(f"    new = {check}.check_value({local(guard.slot)})")
            lines.append(f"    if new is not None: return None, {check}, new")

    emit_guards(0)
    # When each slot is last read: by step ``index`` (1, 2...), or by a guard after it.
    last_read: dict[int, float] = {}
    for index, step in enumerate(recording.steps, 1):
        for a in step.args:
            last_read[a] = index
    for position, guard in recording.guard_positions:
        last_read[guard.slot] = max(last_read.get(guard.slot, 0), position + 0.5)
    for index, step in enumerate(recording.steps, 1):
        name = step.primitive.name
        args = ", ".join(local(a) for a in step.args)
        params = _params_expression(step, scope, local)
        in_place = _in_place_forward(recording, step, kept, computed, last_read, index)
        if in_place is not None:
            call = f"{scope.bind(in_place, f'{_forward_hint(step)}_in_place')}({args})"
        elif step.xp is np:
            call = (
                f"{scope.bind(step.primitive.numpy_forward, _forward_hint(step))}({args}{params})"
            )
        else:
            forward = scope.bind(step.forward, f"{name}_forward")
            call = f"{forward}({scope.bind(step.xp, 'xp')}, {args}{params})"
        if step.ndim == 0:  # a NumPy scalar back as a 0-d array (larger results are arrays)
            call = f"{scope.bind(as_array, 'as_array')}({call})"
        lines.append(f"    v{step.out} = {call}")
        emit_guards(index)
    pinned = {f"v{s}" for s in inputs}
    if kept is None:
        pinned |= {f"v{s}" for s in computed}
    else:
        pinned |= {f"v{s}" for s in kept if s in computed}
    env = ", ".join(
        local(slot) if slot not in computed or f"v{slot}" in pinned else "None"
        for slot in range(len(template))
    )
    lines.append(f"    return [{env}], None, None")
    source = "\n".join([lines[0], *allocate(lines[1:], pinned)]) + "\n"
    return scope.build(source, f"forward of {recording.name}"), source


def _in_place_forward(
    recording: Any, step: Any, kept: Any, computed: set[int], last_read: dict, index: int
) -> Any:
    """The forward of ``step`` written into its input, where the input is a large NumPy
    temporary of the result's shape and dtype that nothing reads after the step (the
    lean forward only: ``kept`` given), or None."""
    if kept is None or step.xp is not np or len(step.args) != 1 or step.params:
        return None
    (a,) = step.args
    if a not in computed or a in kept or last_read[a] != index:
        return None
    layout = recording.layouts[a]
    if layout is None or layout != recording.layouts[step.out]:
        return None
    if recording.nbytes[a] < DROP_BYTES:
        return None  # a small array's allocation costs less than the ``out=`` keyword
    primitive = step.primitive
    forward = primitive.numpy_forward
    in_place = primitive.in_place_forward
    if in_place is None and isinstance(forward, np.ufunc) and forward.nin == forward.nout == 1:
        in_place = _ufunc_in_place(forward)
    return None if in_place is None else _when_alone(forward, in_place)


@functools.cache
def _ufunc_in_place(ufunc: Any) -> Any:
    return lambda x: ufunc(x, out=x)


@functools.cache
def _when_alone(plain: Any, in_place: Any) -> Any:
    """``in_place(x, ...)``, which writes into ``x``, when nothing but the generated code's
    local holds ``x`` (no view of it, no other name), else ``plain(x, ...)``: checked on
    each call, as the interpreted sweep checks it. For a forward written into its input,
    and a gradient rule written into its cotangent (tapegrad/replay/sweep_code.py)."""

    def run(x: Any, *rest: Any) -> Any:
        if (
            type(x) is _ndarray
            and x.base is None
            and x.flags.writeable
            and _refcount(x) == _TWO_NAMES  # the generated code's local and this parameter
        ):
            return in_place(x, *rest)
        return plain(x, *rest)

    return run


def _forward_hint(step: Any) -> str:
    name = getattr(step.primitive.numpy_forward, "__name__", "")
    return name if name.isidentifier() and name != "<lambda>" else step.primitive.name


# Inlining: a rule written as a one-expression lambda of its own parameters (most are:
# ``lambda g, ans, x: g * (1.0 - ans * ans)``) is written into the sweep as that
# expression on the sweep's locals, saving a Python call per rule. The lambda is found
# in its file's syntax tree by line, and checked to compile to the rule's own bytecode.

_lambdas: dict[Any, Any] = {}  # code object -> its ast.Lambda, or None


def _lambda_node(function: Any) -> Any:
    code = getattr(function, "__code__", None)
    if code is None or function.__name__ != "<lambda>" or code.co_freevars:
        return None
    if code in _lambdas:
        return _lambdas[code]
    node = None
    try:
        lines = linecache.getlines(code.co_filename)
        tree = _trees.get(code.co_filename)
        if tree is None:
            tree = _trees[code.co_filename] = ast.parse("".join(lines))
        for candidate in ast.walk(tree):
            if isinstance(candidate, ast.Lambda) and candidate.lineno == code.co_firstlineno:
                expression = ast.Expression(body=candidate)
                compiled = compile(expression, code.co_filename, "eval")
                found = next(c for c in compiled.co_consts if hasattr(c, "co_code"))
                if (found.co_code, found.co_consts, found.co_names, found.co_varnames) == (
                    code.co_code, code.co_consts, code.co_names, code.co_varnames,
                ):  # fmt: skip
                    node = candidate
                    break
    except (OSError, SyntaxError, StopIteration, ValueError):
        node = None
    _lambdas[code] = node
    return node


_trees: dict[str, Any] = {}
_SCOPED = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr)


def inline_rule(rule: Any, arguments: list[str], scope: _Scope) -> str | None:
    """``rule(*arguments)`` as the rule's own expression, or None when it is not a plain
    lambda of positional parameters (the sweep then calls it)."""
    code = getattr(rule, "__code__", None)
    if code is None:
        return None
    if code not in _templates:
        _templates[code] = _template(rule)
    template = _templates[code]
    if template is None:
        return None
    text, arity, globals_read = template
    if arity != len(arguments):
        return None
    names = {f"__arg{k}__": a for k, a in enumerate(arguments)}
    for name in globals_read:
        names[f"__global_{name}__"] = scope.bind(globals_read[name], name)
    return _PLACEHOLDER.sub(lambda m: names[m.group(0)], text)


_templates: dict[Any, Any] = {}  # code object -> (expression, arity, globals) or None
_PLACEHOLDER = re.compile(r"__(?:arg\d+|global_\w+?)__")


def _template(rule: Any) -> tuple[str, int, dict[str, Any]] | None:
    """A rule's expression with placeholders for its parameters and the globals it reads."""
    node = _lambda_node(rule)
    if node is None:
        return None
    spec = node.args
    if spec.vararg or spec.kwarg or spec.kwonlyargs or spec.defaults or spec.posonlyargs:
        return None
    if any(isinstance(n, _SCOPED) for n in ast.walk(node.body)):
        return None
    renames = {a.arg: f"__arg{k}__" for k, a in enumerate(spec.args)}
    names = rule.__globals__
    builtins = names.get("__builtins__", {})
    builtins = builtins if isinstance(builtins, dict) else vars(builtins)
    globals_read: dict[str, Any] = {}
    for n in ast.walk(node.body):
        if isinstance(n, ast.Name) and n.id not in renames:
            if n.id in names:
                globals_read[n.id] = names[n.id]
            elif n.id in builtins:
                globals_read[n.id] = builtins[n.id]
            else:
                return None
            renames[n.id] = f"__global_{n.id}__"

    class Rename(ast.NodeTransformer):
        def visit_Name(self, n: ast.Name) -> Any:
            return ast.copy_location(ast.Name(id=renames[n.id], ctx=n.ctx), n)

    body = Rename().visit(copy.deepcopy(node.body))
    return f"({ast.unparse(body)})", len(spec.args), globals_read
