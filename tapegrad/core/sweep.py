"""The reverse sweep: walk a tape's Wengert list backwards, accumulating cotangents.

Iterative (a million-entry tape needs no recursion), restricted to the entries
that lie between the sources and the target, with each rule's result checked
against its input's shape and cast to its input's dtype.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core import anomaly, explain
from tapegrad.core.active import SWEEPING, TRACING, _active
from tapegrad.core.batched import Batched, BatchedValueError
from tapegrad.core.entry import INPUTS, OUTPUT, Entry
from tapegrad.core.hooks import ops
from tapegrad.core.nests import flatten, pack
from tapegrad.core.sites import caller_site, warn_once
from tapegrad.core.sweep_raw import (
    accumulate_raw,
    current_sweep,
    frees,
    nested_recording,
    sweep_raw,
)
from tapegrad.core.tensor import Tensor, Variable, _serials
from tapegrad.wording import count

if TYPE_CHECKING:
    from tapegrad.core.tape import GradientTape

UNCONNECTED = ("none", "zero", "raise")
_new = object.__new__

# tg.vmap's fallback for a gradient rule that reads values inside vmap: it runs the rule
# once per example (set by tapegrad/transforms/vmap, as the NumPy namespace's).
per_example_rules: list[Any] = []
# And ``sum_inner(g, x, level)``: g summed over the vmap levels above ``level`` (begun inside
# the tape) that x is not batched by.
batched_cotangents: list[Any] = []


def gradient(
    tape: GradientTape,
    target: Any,
    sources: Any,
    output_gradients: Any,
    unconnected_gradients: str,
) -> Any:
    """``GradientTape.gradient``: see its docstring."""
    _check_usable(tape, "gradient")
    flat_sources = _check_sources(sources, unconnected_gradients, "gradient")
    targets = [t for t in flatten(target) if isinstance(t, Tensor)]
    seeds = _seeds(target, output_gradients)
    plan = _Plan(tape, targets, flat_sources)
    plan.check_connected(unconnected_gradients)
    plan.check_versions()
    # When no source can get a gradient, say why while the entries are still there.
    reason = None
    if unconnected_gradients == "none" and flat_sources and not plan.may_connect():
        reason = explain.why_unconnected(tape, flat_sources[0], targets)
    # Under detect_anomaly the entries stay to the end: the tape can be printed after an error.
    cotangents = plan.sweep(seeds, free=not tape.persistent and not anomaly.anomaly_mode())
    results = [cotangents.get(s._id) for s in flat_sources]
    if unconnected_gradients == "zero":
        results = [_result(g, s, unconnected_gradients) for g, s in zip(results, flat_sources)]
    if unconnected_gradients == "none" and flat_sources and all(r is None for r in results):
        _warn_all_none(flat_sources, reason)
    _finish(tape)
    return pack(sources, iter(results))


def _warn_all_none(sources: list[Tensor], reason: str | None) -> None:
    """Every requested gradient is None: say why once per call site (a silent None is how
    a forgotten ``tape.watch`` goes unnoticed)."""
    site = caller_site()
    if site is None:
        return
    what = _describe(sources[0]) if len(sources) == 1 else f"{len(sources)} sources"
    why = reason or "there is no path from them to the target on this tape"
    warn_once(
        site,
        f"gradient: every gradient is None ({what}): {why}. Pass "
        'unconnected_gradients="zero" to get zeros, or "raise" for an error naming each source',
    )


def jacobian(tape: GradientTape, target: Any, sources: Any, unconnected_gradients: str) -> Any:
    """``GradientTape.jacobian``: one reverse sweep per element of ``target``."""
    _check_usable(tape, "jacobian")
    flat_sources = _check_sources(sources, unconnected_gradients, "jacobian")
    if not isinstance(target, Tensor):
        raise TypeError(f"jacobian: target must be a Tensor, got {type(target).__name__}")
    if backend.is_complex(target.dtype):
        raise TypeError(
            f"jacobian: the target is {target.dtype} (shape {target.shape}); a Jacobian's rows "
            "are gradients of real values: take the jacobian of tg.real(y) and tg.imag(y)"
        )
    plan = _Plan(tape, [target], flat_sources)
    plan.check_connected(unconnected_gradients)
    plan.check_versions()
    rows: list[list[Any]] = [[] for _ in flat_sources]
    eye = ops.eye(target.size, dtype=target.dtype, like=target)
    for i in range(target.size):
        seed = ops.reshape(eye[i, :], target.shape)  # both axes: the array API needs them
        cotangents = plan.sweep([seed], free=False)
        for j, s in enumerate(flat_sources):
            g = cotangents.get(s._id)
            rows[j].append(ops.zeros_like(s) if g is None else g)
    results = []
    for j, s in enumerate(flat_sources):
        if s._id not in plan.connected and unconnected_gradients == "none":
            results.append(None)
        elif not rows[j]:  # a 0-element target
            results.append(ops.zeros(target.shape + s.shape, dtype=s.dtype, like=s))
        else:
            results.append(ops.reshape(ops.stack(rows[j]), target.shape + s.shape))
    _finish(tape)
    return pack(sources, iter(results))


def batch_jacobian(tape: GradientTape, target: Any, source: Any, unconnected_gradients: str) -> Any:
    """``GradientTape.batch_jacobian``: one reverse sweep per element of one example of
    ``target``, each giving that row of every example's Jacobian at once (the examples are
    independent, so one seed per row serves the whole batch)."""
    _check_usable(tape, "batch_jacobian")
    (src,) = _check_sources([source], unconnected_gradients, "batch_jacobian")
    if not isinstance(target, Tensor):
        raise TypeError(f"batch_jacobian: target must be a Tensor, got {type(target).__name__}")
    if target.ndim < 1 or src.ndim < 1 or target.shape[0] != src.shape[0]:
        raise ValueError(
            "batch_jacobian: target and source need the same first (batch) axis, got shapes "
            f"{target.shape} and {src.shape}"
        )
    if backend.is_complex(target.dtype):
        raise TypeError(f"batch_jacobian: the target is {target.dtype}; take tg.real/tg.imag")
    plan = _Plan(tape, [target], [src])
    plan.check_connected(unconnected_gradients)
    plan.check_versions()
    batch, rows = target.shape[0], target.shape[1:]
    m = int(np.prod(rows))
    eye = ops.eye(m, dtype=target.dtype, like=target)
    out = []
    for i in range(m):
        seed = ops.add(ops.zeros_like(target), ops.reshape(eye[i, :], rows))
        g = plan.sweep([seed], free=False).get(src._id)
        out.append(ops.zeros_like(src) if g is None else g)
    unconnected = src._id not in plan.connected
    _finish(tape)
    if unconnected and unconnected_gradients == "none":
        return None
    if not out:
        return ops.zeros(target.shape + src.shape[1:], dtype=src.dtype, like=src)
    stacked = ops.stack(out, axis=1)  # (batch, m, *source's example shape)
    return ops.reshape(stacked, (batch, *rows, *src.shape[1:]))


class _Plan:
    """Which entries matter for one (targets, sources) pair.

    ``depends`` holds the serials computed from a watched source: when every
    source the tape watches is asked for (the common case), that is every
    serial the tape watches, and nothing needs computing. The entries on the
    path to the targets (``on_path``) are found only when asked: the sweep itself
    skips an entry whose output got no cotangent.
    """

    def __init__(self, tape: GradientTape, targets: list[Tensor], sources: list[Tensor]) -> None:
        self.tape = tape
        self.targets = targets
        self.sources = sources
        self.source_ids = {s._id for s in sources}
        if tape._roots <= self.source_ids:
            self.depends = tape._watched  # every recorded op read something watched
        else:  # forward pass: an unwatched source gets no gradient (TensorFlow's rule)
            depends = self.source_ids & tape._watched
            for entry in tape._entries:
                if entry is not None:
                    for x in entry[INPUTS]:
                        if isinstance(x, Tensor) and x._id in depends:
                            depends.add(entry[OUTPUT]._id)
                            break
            self.depends = depends
        self._path: tuple[list[int], set[int]] | None = None

    def may_connect(self) -> bool:
        """False when no source can have a gradient: none is watched, or no target was
        computed from a watched value (cheap: no walk of the tape)."""
        depends = self.depends
        for t in self.targets:
            if t._id in depends:
                break
        else:
            return False
        for s in self.sources:
            if s._id in depends:
                return True
        return False

    @property
    def on_path(self) -> list[int]:
        """The indices of the entries the targets depend on, in reverse tape order."""
        return self._find_path()[0]

    @property
    def connected(self) -> set[int]:
        """The serials of the sources with a path to a target."""
        return self._find_path()[1]

    def _find_path(self) -> tuple[list[int], set[int]]:
        """Walk back from the targets once: (on_path, connected)."""
        if self._path is None:
            depends = self.depends
            needed = {t._id for t in self.targets if t._id in depends}
            on_path = []
            entries = self.tape._entries
            for i in range(len(entries) - 1, -1, -1):
                entry = entries[i]
                if entry is not None and entry[OUTPUT]._id in needed:
                    on_path.append(i)
                    for x in entry[INPUTS]:
                        if isinstance(x, Tensor) and x._id in depends:
                            needed.add(x._id)
            self._path = (on_path, needed & self.source_ids)
        return self._path

    def check_connected(self, unconnected_gradients: str) -> None:
        if unconnected_gradients != "raise":
            return
        for s in self.sources:
            if s._id not in self.connected:
                raise ValueError(
                    f"gradient: source {_describe(s)} is unconnected: "
                    f"{explain.why_unconnected(self.tape, s, self.targets)}"
                )

    def check_versions(self) -> None:
        """A RuntimeError if a Variable on the path changed after the tape read it."""
        # Versions only grow: if every Variable is as the tape first saw it, no entry
        # read an older value.
        for var, version in self.tape._first_versions.values():
            if var.version != version:
                break
        else:
            return
        entries = self.tape._entries
        on_path: set[int] | None = None
        for i, entry in enumerate(entries):
            if entry is None:
                continue
            primitive, inputs, _, _, _, versions = entry[:6]
            if not versions:
                continue
            read = [x for x in inputs if type(x) is Variable]
            for var, version in zip(read, versions):
                if var.version == version:
                    continue
                if on_path is None:
                    on_path = set(self.on_path)
                if i in on_path:
                    label = f"Variable {var.name}" if var.name else f"a {_describe(var)}"
                    raise RuntimeError(
                        f"{primitive.name}: {label} was modified after the tape recorded it "
                        f"(version {version} -> {var.version}); its gradient would be computed "
                        "from the new value"
                    )

    def sweep(self, seeds: list[Any], free: bool) -> dict[int, Any]:
        """Run the rules from the targets back to the sources; serial -> cotangent Tensor.

        When no other tape records, nothing the rules compute needs recording, so
        they get raw arrays (ops on them skip Tensor creation and dispatch) and
        fan-out accumulates in place into buffers the sweep owns.
        """
        raw_mode = not nested_recording() and not self.tape._holds_batched
        cotangents: dict[int, Any] = {}
        owned: set[int] = set()  # the keys whose buffer the sweep allocated (safe to add into)
        for t, seed in zip(self.targets, seeds):
            if t._id in self.depends:
                if raw_mode:
                    accumulate_raw(cotangents, owned, t._id, seed._data)
                else:
                    _accumulate(cotangents, t._id, seed)
        tape, entries = self.tape, self.tape._entries
        token = frees.set(free)
        sweep_token = current_sweep.set(object())
        # The tape paused (SWEEPING) and the rules marked as running, in a try block rather
        # than context managers: a training step's every gradient passes here.
        mode, tape._mode = tape._mode, SWEEPING
        rules_token = anomaly.enter_rules()
        try:
            if raw_mode:
                sweep_raw(entries, cotangents, owned, self.depends, self.source_ids, free)
            else:
                self._sweep_tensors(cotangents, free)
        except BaseException:
            if free:  # some entries are gone: the tape cannot give another (wrong) answer
                tape._entries = []
                tape._used = True
            raise
        finally:
            anomaly.leave_rules(rules_token)
            tape._mode = mode
            current_sweep.reset(sweep_token)
            frees.reset(token)
        if raw_mode:
            wrapped = {}
            for key, g in cotangents.items():
                t = _new(Tensor)  # Tensor(g) without the __init__ frame
                t._data, t._id = g, next(_serials)
                wrapped[key] = t
            return wrapped
        return cotangents

    def _sweep_tensors(self, cotangents: dict, free: bool) -> None:
        """The sweep under a recording tape: rules on Tensors, so that tape records them."""
        entries, depends, keep = self.tape._entries, self.depends, self.source_ids
        for i in range(len(entries) - 1, -1, -1):
            entry = entries[i]
            if entry is None:
                continue
            out_id = entry[OUTPUT]._id
            g = cotangents.get(out_id) if out_id in keep else cotangents.pop(out_id, None)
            if g is not None:
                _apply_rules(i, Entry(entry), g, depends, cotangents, self.tape._level)
            if free:
                entries[i] = None


def _apply_rules(
    index: int, entry: Entry, g: Tensor, depends: set[int], cotangents: dict, level: int = 0
) -> None:
    primitive = entry.primitive
    inputs = entry.inputs
    for k, x in enumerate(inputs):
        if isinstance(x, Tensor) and x._id in depends:
            rule = primitive.rule(k)
            if rule is None:  # a non-floating input, such as where's condition
                continue
            try:
                gx = rule(g, entry.output, *inputs, **entry.params)
            except BatchedValueError:  # inside tg.vmap, a rule that reads values
                if not per_example_rules:
                    raise
                operands = (g, entry.output, *inputs)
                gx = per_example_rules[0](rule, primitive.name, operands, entry.params)
            if gx is None:
                continue
            if type(gx._data) is Batched and batched_cotangents:
                # An input the same for every example of a vmap begun inside the tape: its
                # cotangent is the sum over those examples.
                gx = batched_cotangents[0](gx, x, level)
            if gx.shape != x.shape:
                raise RuntimeError(
                    f"{entry.primitive.name}: the gradient rule for input {k} returned shape "
                    f"{gx.shape}, but the input has shape {x.shape} (a bug in the rule)"
                )
            if gx.dtype != x.dtype:
                gx = ops.cast_cotangent(gx, x.dtype)
            if anomaly.anomaly_mode():
                anomaly.check_backward(entry, index, k, gx, g)
            _accumulate(cotangents, x._id, gx)


def _accumulate(cotangents: dict, key: int, g: Any) -> None:
    previous = cotangents.get(key)
    cotangents[key] = g if previous is None else ops.add(previous, g)


def _check_usable(tape: GradientTape, what: str) -> None:
    if any(t._mode is TRACING for t in _active.get()):
        raise NotImplementedError(
            f"GradientTape.{what} inside a function being compiled by tg.compile: the "
            "replay would not repeat the sweep. Compile the forward function and "
            "differentiate the compiled one, e.g. tg.value_and_grad(tg.compile(f))"
        )
    if tape._used and not tape.persistent:
        raise RuntimeError(
            f"GradientTape.{what}: a non-persistent tape can only be used once; "
            "create it with GradientTape(persistent=True) to call it several times"
        )


def _check_sources(sources: Any, unconnected_gradients: str, what: str) -> list[Tensor]:
    if unconnected_gradients not in UNCONNECTED:
        raise ValueError(
            f"{what}: unconnected_gradients must be one of {UNCONNECTED}, "
            f"got {unconnected_gradients!r}"
        )
    flat = flatten(sources)
    for s in flat:
        if not isinstance(s, Tensor):
            raise TypeError(f"{what}: sources must be Tensors, got {type(s).__name__}")
    return flat


def _seeds(target: Any, output_gradients: Any) -> list[Any]:
    targets = flatten(target)
    if output_gradients is None:
        for t in targets:
            if isinstance(t, Tensor) and backend.is_complex(t.dtype):
                raise TypeError(
                    f"gradient: the target is {t.dtype} (shape {t.shape}), but the loss must "
                    "be real: differentiate a real function of it (tg.abs(y) ** 2, tg.real(y)), "
                    "or pass output_gradients, the gradient of a real loss with respect to it"
                )
        return [
            (Tensor(np.ones_like(t._data)) if type(t._data) is np.ndarray else ops.ones_like(t))
            if isinstance(t, Tensor)
            else None
            for t in targets
        ]
    given = flatten(output_gradients)
    if len(given) != len(targets):
        raise ValueError(
            f"gradient: {count(len(targets), 'target')} but {len(given)} output_gradients given"
        )
    seeds = []
    for t, g in zip(targets, given):
        if not isinstance(t, Tensor):
            seeds.append(None)
            continue
        if backend.is_complex(_dtype_of(g)) and not backend.is_complex(t.dtype):
            raise TypeError(
                f"gradient: output_gradients for a real target (shape {t.shape} {t.dtype}) "
                f"must be real, got {_dtype_of(g)}"
            )
        g = g if isinstance(g, Tensor) else ops.asarray(g, dtype=t.dtype, like=t)
        if g.dtype != t.dtype:  # a target that is also a source gets its seed as gradient
            g = ops.astype(g, t.dtype)
        if g.shape != t.shape:
            raise ValueError(
                f"gradient: output_gradients of shape {g.shape} does not match "
                f"the target's shape {t.shape}"
            )
        seeds.append(g)
    # Targets that are not Tensors have no sweep to seed; keep positions aligned.
    return [s for t, s in zip(targets, seeds) if isinstance(t, Tensor)]


def _dtype_of(g: Any) -> Any:
    dtype = getattr(g, "dtype", None)
    return np.asarray(g).dtype if dtype is None else dtype  # Python numbers and lists


def _result(g: Any, source: Tensor, unconnected_gradients: str) -> Any:
    if g is None and unconnected_gradients == "zero":
        return ops.zeros_like(source)
    return g


def _finish(tape: GradientTape) -> None:
    if not tape.persistent:
        tape._entries = []
        tape._used = True


def _describe(t: Tensor) -> str:
    name = f"{t.name!r} " if isinstance(t, Variable) and t.name else ""
    return f"{name}{type(t).__name__} of shape {t.shape} {t.dtype}"
