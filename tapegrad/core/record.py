"""Recording: what a primitive call appends to the active tapes.

:func:`record` runs once per op while a tape is active, so it is written for
speed (the common case, one recording tape, inline). A tape records an op that
reads one of its watched Tensors; the entry it appends is a plain tuple (see
tapegrad/core/entry.py).
"""

from __future__ import annotations

import contextvars
import copy
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core import forward
from tapegrad.core.active import FORWARD, RECORDING, STOPPED, TRACING, _active
from tapegrad.core.anomaly import anomaly_mode
from tapegrad.core.sites import inside_package
from tapegrad.core.tensor import Tensor, Variable, _reads

if TYPE_CHECKING:
    from tapegrad.core.tape import GradientTape


def record(
    primitive: Any,
    inputs: tuple[Any, ...],
    arrays: Sequence[Any],
    output: Tensor,
    params: dict[str, Any],
    tapes: tuple[GradientTape, ...],
    depth: int = 2,
) -> None:
    """Append ``output = primitive(*inputs)`` to each active tape that watches an input.

    Validates first (a missing gradient rule raises LookupError) so that a failure
    leaves every tape as it was. Runs once per op while a tape is active, so the common
    checks are inlined. The search for the user's frame starts ``depth`` frames up.
    """
    if len(tapes) == 1 and tapes[0]._mode is RECORDING:  # the common case, inline
        if not primitive.differentiable:
            return
        tape = tapes[0]
        watched = tape._watched
        for x in inputs:
            if isinstance(x, Tensor) and (x._id in watched or _reads(tape, x)):
                break
        else:
            return
        targets: tuple[GradientTape, ...] = tapes
    else:
        if forward.open_tapes:  # a forward-mode tape is open (in some thread)
            for tape in tapes:
                if tape._mode is FORWARD:
                    if len(tapes) > 1:
                        _record_others(primitive, inputs, arrays, output, params, tapes, depth)
                    if primitive.differentiable:
                        forward.push_tangents(primitive, inputs, arrays, output, params, tapes)
                    return
        targets = _recording_tapes(primitive, inputs, output, params, tapes)
        if not targets:
            return
    dtype = output._data.dtype
    if dtype is not _FLOAT64 and dtype is not _FLOAT32:
        primitive = _recorded_form(primitive, dtype, inputs)
        if primitive is None:
            return  # integer and boolean results carry no gradient
    if len(inputs) > primitive.ruled_inputs:
        _check_rules(primitive, inputs, targets)
    # The version of each Variable input as this entry reads it, in input order. A tape
    # that watches the Variable has nothing more to do (it noted the version when it
    # began to watch it).
    versions: tuple[int, ...] = ()
    for x in inputs:
        if type(x) is Variable:
            versions += (x.version,)
            for tape in targets:
                if x._id not in tape._watched:
                    _read_unwatched(tape, x)
    # The user's frame: the first outside tapegrad. Asked for by depth, not through
    # f_back, so no frame object is made for the tapegrad frames skipped (costly).
    frame = _getframe(depth)
    code = frame.f_code
    while inside_package[code.co_filename]:
        frame = frame.f_back
        if frame is None:
            code = None
            break
        code = frame.f_code
    saved = output
    if primitive.unsaved is not None:
        # Only large arrays are dropped; an input larger than the output is a reduction's
        # first, so two sizes tell whether there is anything to drop.
        data, first = output._data, arrays[0] if arrays else None
        if (type(data) is _ndarray and data.nbytes >= DROP_BYTES) or (
            type(first) is _ndarray and first.nbytes >= DROP_BYTES
        ):
            inputs, arrays, saved = _drop_unread(primitive, inputs, arrays, output, targets)
    entry = (
        primitive, inputs, arrays, saved, params or _NO_PARAMS, versions, code,
        -1 if frame is None else frame.f_lasti,
    )  # fmt: skip
    for tape in targets:
        tape._entries.append(entry)
        tape._watched.add(output._id)


def _record_others(
    primitive: Any,
    inputs: tuple[Any, ...],
    arrays: Sequence[Any],
    output: Tensor,
    params: dict[str, Any],
    tapes: tuple[Any, ...],
    depth: int,
) -> None:
    """With forward-mode tapes among ``tapes``, the others record first, so that an entry
    comes before the entries of its tangent's rule; then record() gives the output its
    tangent on each forward tape (tapegrad/core/forward.py)."""
    others = tuple(t for t in tapes if t._mode is not FORWARD)
    if others:
        record(primitive, inputs, arrays, output, params, others, depth + 2)


def _read_unwatched(tape: GradientTape, x: Variable) -> None:
    """``tape`` records an entry that reads ``x``, which it does not watch: it watches
    ``x`` if it reads it (an accessed Variable), else notes the version read (the sweep
    compares it with the current version before it checks any entry's)."""
    dtype = x._data.dtype
    floating = dtype.kind in "fc" if isinstance(dtype, np.dtype) else backend.is_floating(dtype)
    if tape.watch_accessed_variables and x.trainable and floating:
        # What _reads(tape, x) says of an unwatched Variable, spelled out (keep the two in
        # step): calling it here cost the MLP training step 0.5% in paired runs.
        tape._add_watched(x)
    else:
        tape._first_versions.setdefault(x._id, (x, x.version))


# The smallest NumPy array a tape drops when no gradient rule reads it (Primitive.saves):
# smaller ones cost more to replace than they keep.
DROP_BYTES = 1 << 16

# True while every value must stay readable from the entries (tg.checkpoint's forward and
# odeint's probe find the Tensors a function reads in the entries, and use their values).
keep_values: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "tapegrad_keep_values", default=False
)


def _drop_unread(
    primitive: Any,
    inputs: tuple[Any, ...],
    arrays: Sequence[Any],
    output: Tensor,
    targets: Sequence[GradientTape],
) -> tuple[tuple[Any, ...], Sequence[Any], Tensor]:
    """``inputs``, ``arrays`` and ``output`` with each large NumPy value no gradient rule
    of ``primitive`` reads replaced by a placeholder of its shape and dtype (same id), so
    that the tape does not keep it alive. Only Tensors the tapes read are replaced: a
    constant, or a Variable (its owner keeps it), stays."""
    drop = [
        k
        for k in primitive.unsaved
        if k < len(inputs)
        and type(inputs[k]) is Tensor
        and type(arrays[k]) is _ndarray
        and arrays[k].nbytes >= DROP_BYTES
        and any(inputs[k]._id in tape._watched for tape in targets)
    ]
    data = output._data
    drop_output = not primitive.saves_output and type(data) is _ndarray
    drop_output = drop_output and data.nbytes >= DROP_BYTES
    if not (drop or drop_output) or keep_values.get() or anomaly_mode():
        # (anomaly detection's messages describe the saved values)
        return inputs, arrays, output
    if drop:
        inputs, arrays = list(inputs), list(arrays)
        for k in drop:
            inputs[k] = _placeholder(inputs[k])
            arrays[k] = inputs[k]._data
        inputs = tuple(inputs)
    return inputs, arrays, _placeholder(output) if drop_output else output


def _placeholder(t: Tensor) -> Tensor:
    """A Tensor with ``t``'s id, shape and dtype whose array holds no memory of its own."""
    p = _new(Tensor)
    p._data, p._id = placeholder_array(t._data.shape, t._data.dtype), t._id
    return p


def placeholder_array(shape: tuple[int, ...], dtype: Any) -> Any:
    """A read-only NumPy array of ``shape`` and ``dtype`` that holds no memory of its own
    (one zero broadcast to the shape): what a gradient rule gets for a value it reads only
    the shape and dtype of."""
    key = (shape, dtype)
    array = _placeholders.get(key)
    if array is None:
        if len(_placeholders) > 256:
            _placeholders.clear()
        array = _placeholders[key] = np.broadcast_to(np.zeros((), dtype), shape)
    return array


_placeholders: dict[tuple[Any, Any], Any] = {}
_ndarray = np.ndarray
_new = object.__new__

# The commonest results: no need to ask the backend.
_FLOAT64, _FLOAT32 = np.dtype(np.float64), np.dtype(np.float32)
_getframe = sys._getframe


def _recorded_form(primitive: Any, dtype: Any, inputs: tuple[Any, ...] = ()) -> Any:
    """What an entry with a result of ``dtype`` records: ``primitive``, None for results
    with no gradient (integers, booleans), and for complex results a copy without the
    shortcut rules, which are for real values (they take no complex conjugates). A
    complex result of an op not declared with ``complex_rules=True`` raises (see
    :func:`complex_rules_error`)."""
    if backend.is_real_floating(dtype):
        return primitive
    if not backend.is_complex(dtype):
        if getattr(dtype, "kind", "") in "OSUV":  # NumPy made an array of objects or strings
            what = next(
                (
                    f"operand {k} is an array of dtype {x.dtype}"
                    for k, x in enumerate(inputs)
                    if getattr(getattr(x, "dtype", None), "kind", "") in "OSUV"
                ),
                "an operand holds strings or Python objects",
            )
            raise TypeError(
                f"{primitive.name}: {what} (the result has dtype {dtype}); tapegrad's ops take "
                "Tensors, arrays of numbers or booleans and Python numbers"
            )
        return None
    if primitive.complex_rules is not True:
        raise complex_rules_error(primitive, dtype)
    if primitive.same_shape_vjps is None:
        return primitive
    form = _complex_forms.get(primitive)
    if form is None:
        form = _complex_forms[primitive] = copy.copy(primitive)
        form.same_shape_vjps = None
    return form


_complex_forms: dict[Any, Any] = {}  # primitive -> the same without its shortcut rules


def complex_rules_error(primitive: Any, dtype: Any) -> Exception:
    """The error for differentiating an op on complex values without complex rules:
    TypeError for one declared real-only (it orders values, or is a function of the real
    line: ``complex_rules=False``), NotImplementedError for one whose
    rules are written for real values only (``complex_rules`` left None)."""
    if primitive.complex_rules is False:
        return TypeError(
            f"{primitive.name}: no gradient for complex values ({dtype} result): its "
            "derivative is taken on real values only (an op that orders values, as NumPy "
            "orders complex numbers lexicographically, or a function of a real variable); "
            "apply it to tg.real(z), tg.imag(z) or tg.abs(z) instead"
        )
    return NotImplementedError(
        f"{primitive.name}: no gradient for complex values ({dtype} result): its gradient "
        "rules are written for real values; a Primitive whose rules follow tapegrad's "
        "complex convention says so with complex_rules=True (docs/complex.md)"
    )


def _recording_tapes(
    primitive: Any,
    inputs: tuple[Any, ...],
    output: Tensor,
    params: dict,
    tapes: tuple[GradientTape, ...],
) -> list[GradientTape]:
    """The recording tapes among ``tapes`` that watch an input of this op. Of the others,
    tg.compile's traces see every op, and a stopped tape remembers which watched values
    were read (to explain a missing gradient)."""
    targets = []
    for tape in tapes:
        if tape._mode is TRACING:
            tape._trace(primitive, inputs, output, params)
        elif primitive.differentiable and any(
            isinstance(x, Tensor) and _reads(tape, x) for x in inputs
        ):
            if tape._mode is RECORDING:
                targets.append(tape)
            elif tape._mode is STOPPED:
                tape._stopped_reads.update(x._id for x in inputs if isinstance(x, Tensor))
    return targets


# One shared empty dict for the entries of ops without params, not one per entry (a long
# tape's memory). Read-only by convention: rules never change params.
_NO_PARAMS: dict[str, Any] = {}


def _check_rules(primitive: Any, inputs: tuple[Any, ...], targets: list[GradientTape]) -> None:
    """LookupError when a floating input that a target tape reads has no gradient rule."""
    for k, x in enumerate(inputs):
        if isinstance(x, Tensor) and primitive.rule(k) is None:
            if backend.is_floating(x.dtype) and any(_reads(t, x) for t in targets):
                raise LookupError(
                    f"{primitive.name}: no gradient rule for input {k} "
                    f"({x.dtype}, shape {x.shape}); it cannot be differentiated"
                )


def recorded_positions(tensors: Sequence[Any]) -> frozenset[int]:
    """The positions in ``tensors`` of those :func:`is_recorded` holds for, in one pass."""
    tapes = [t for t in _active.get() if t._mode is RECORDING or t._mode is FORWARD]
    found = []
    if tapes:
        for k, x in enumerate(tensors):  # (plain loops: a replayed call's every step asks)
            if isinstance(x, Tensor):
                for tape in tapes:
                    if x._id in tape._watched or _reads(tape, x):
                        found.append(k)
                        break
    return frozenset(found)


def is_recorded(*tensors: Any) -> bool:
    """Whether some recording tape watches one of ``tensors`` (so ops on them are recorded),
    or a forward-mode tape carries a tangent for one (so ops on them get tangents)."""
    return any(
        (tape._mode is RECORDING or tape._mode is FORWARD) and _reads(tape, t)
        for tape in _active.get()
        for t in tensors
        if isinstance(t, Tensor)
    )
