"""The reverse sweep's raw-array mode: gradient rules on backend arrays, not Tensors.

When no tape records the sweep, nothing a rule computes needs recording, so the
rules get the saved arrays themselves: operators stay in NumPy, no Tensor is
created, no op dispatches. Rules are the same functions as in the Tensor mode
(written with tapegrad ops, which still return Tensors; unwrapped here).
Fan-out is summed in place into buffers the sweep allocated itself. tg.compile's
replays (tapegrad/replay/sweep.py) use the same helpers.
"""

from __future__ import annotations

import contextvars
import sys
from typing import Any

import numpy as np

from tapegrad.backends.namespaces import ONE_NAME
from tapegrad.core.active import FORWARD, RECORDING, _active
from tapegrad.core.anomaly import anomaly_mode, check_backward
from tapegrad.core.entry import Entry
from tapegrad.core.hooks import ops
from tapegrad.core.tensor import Tensor

_ndarray, _generic = np.ndarray, np.generic
_refcount = sys.getrefcount


# Whether the running sweep drops each entry once passed (a non-persistent tape's one
# gradient): rules that keep residuals of their own (tg.compile's replays) free them too.
frees: contextvars.ContextVar[bool] = contextvars.ContextVar("tapegrad_frees", default=False)

# The running sweep: an object of its own per sweep. Rules that cache one result for
# all of an entry's inputs (tg.compile's replays, custom_gradient) keep it only for the
# sweep that computed it: a later sweep may pass the same cotangent object refilled (a
# caller's output_gradients array) or with other tapes to record its gradient.
current_sweep: contextvars.ContextVar[object | None] = contextvars.ContextVar(
    "tapegrad_sweep", default=None
)


def passthrough(g: Any, ans: Any, *inputs: Any, **params: Any) -> Any:
    """The rule ``g -> g`` (add's, for example). Sweeps that know it skip the call."""
    return g


def sweep_frees() -> bool:
    """Whether the running sweep frees each entry's saved values as it passes."""
    return frees.get()


def nested_recording() -> bool:
    """Whether some active tape records, or carries tangents (forward mode), so that
    gradient rules must run on Tensors."""
    for t in _active.get():
        if t._mode is RECORDING or t._mode is FORWARD:
            return True
    return False


def sweep_raw(
    entries: list[Any],
    cotangents: dict,
    owned: set[int],
    depends: set[int],
    keep: set[int],
    free: bool,
) -> None:
    """Run the rules of ``entries`` from the last back, on raw arrays, into ``cotangents``.

    The hot loop of a first-order gradient, so the common case runs inline: a
    NumPy cotangent, a rule that returns a NumPy array of its input's shape and
    dtype, and a sum into a buffer the sweep owns (its key is in ``owned``).
    Anything else goes through :func:`vjp_raw` and :func:`check_raw`. Entries whose
    output has no cotangent (off the path to the target) are skipped; with ``free``,
    each passed entry is dropped from the tape.
    """
    anomaly = anomaly_mode()
    get, pop = cotangents.get, cotangents.pop
    for i in range(len(entries) - 1, -1, -1):
        entry = entries[i]
        if entry is None:
            continue
        primitive, inputs, arrays, output, params, _, _, _ = entry
        out_id = output._id
        g = get(out_id) if out_id in keep else pop(out_id, None)
        if free:
            entries[i] = None
        if g is None:
            continue
        if type(g) is not _ndarray:  # another backend: rules get Tensors
            _apply_rules_any(i, entry, g, depends, cotangents, owned, anomaly)
            continue
        ans = output._data
        shortcuts = primitive.same_shape_vjps
        if shortcuts is not None:
            shape = ans.shape
        vjps = primitive.vjps
        k = -1
        for x in inputs:  # counted by hand: enumerate's pairs cost ~1% of a small-op chain
            k += 1
            if type(x) is not Tensor and not isinstance(x, Tensor):
                continue
            key = x._id
            if key not in depends:
                continue
            try:
                rule = vjps[k]
            except IndexError:  # a variadic primitive (concatenate, stack)
                rule = primitive.rule(k)
            if rule is None:  # a non-floating input, such as where's condition
                continue
            data = arrays[k]
            if shortcuts is not None and data.shape == shape:
                # A shortcut keeps the cotangent's shape, which is the output's: only
                # the dtype can differ from the input's (float32 + float64 -> float64).
                rule = shortcuts[k]
                if rule is passthrough:
                    gx = g
                elif (
                    primitive.in_place_vjp is not None
                    and g.base is None
                    and _refcount(g) == ONE_NAME  # this frame's name alone
                    and g.dtype is data.dtype
                    and g.flags.writeable
                ):
                    gx = primitive.in_place_vjp(g, ans, *arrays)
                elif len(arrays) == 2:  # spelled out: a call with *arrays costs ~80 ns more
                    gx = rule(g, ans, arrays[0], arrays[1])
                elif len(arrays) == 1:
                    gx = rule(g, ans, arrays[0])
                else:
                    gx = rule(g, ans, *arrays)
                if type(gx) is not _ndarray or gx.dtype is not data.dtype:
                    gx = check_raw(primitive, k, gx, data)
            else:
                gx = rule(g, ans, *arrays, **params) if params else rule(g, ans, *arrays)
                if type(gx) is not _ndarray or gx.dtype is not data.dtype or gx.shape != data.shape:
                    gx = check_raw(primitive, k, gx, data)
                    if gx is None:
                        continue
            if anomaly:
                check_backward(Entry(entry), i, k, gx, g)
            previous = get(key)  # accumulate_raw inline: a call each is 2% of a small-op chain
            if previous is None:
                cotangents[key] = gx
            elif key in owned:
                previous += gx
            else:
                total = previous + gx
                if type(total) is not _ndarray:  # a NumPy scalar: the sum of two 0-d arrays
                    total = np.asarray(total)
                cotangents[key] = total
                owned.add(key)


def _apply_rules_any(
    index: int,
    entry: tuple[Any, ...],
    g: Any,
    depends: set[int],
    cotangents: dict,
    owned: set[int],
    anomaly: bool,
) -> None:
    """One entry's rules for a cotangent of another array library (CuPy, array_api_strict)."""
    primitive, inputs, arrays, output, params, _, _, _ = entry
    for k, x in enumerate(inputs):
        if isinstance(x, Tensor) and x._id in depends:
            rule = primitive.rule(k)
            if rule is None:
                continue
            gx = vjp_raw(primitive, k, rule, g, output._data, arrays, params, arrays[k])
            if gx is None:
                continue
            if anomaly:
                check_backward(Entry(entry), index, k, gx, g)
            accumulate_raw(cotangents, owned, x._id, gx)


def vjp_raw(
    primitive: Any, k: int, rule: Any, g: Any, ans: Any, arrays: list, params: dict, x: Any
) -> Any:
    """Input ``k``'s cotangent as a raw array, checked against ``x``'s shape, in its dtype."""
    return check_raw(primitive, k, call_rule_raw(rule, g, ans, arrays, params), x)


def call_rule_raw(rule: Any, g: Any, ans: Any, arrays: list, params: dict) -> Any:
    """Run a gradient rule on raw arrays.

    Rules are written with tapegrad ops; given NumPy arrays, operators stay in
    NumPy and the ops they call return Tensors (unwrapped by :func:`check_raw`).
    Other array libraries refuse to mix their arrays with Tensors, so they get Tensors.
    """
    if type(g) is _ndarray:
        return rule(g, ans, *arrays, **params)
    wrapped = [Tensor(a) if hasattr(a, "__array_namespace__") else a for a in arrays]
    return rule(Tensor(g), Tensor(ans), *wrapped, **params)


def check_raw(primitive: Any, k: int, gx: Any, x: Any) -> Any:
    """A rule's result as a raw array of ``x``'s dtype (the real part of a complex result
    for a real ``x``); a wrong shape is a bug in the rule."""
    if gx is None:
        return None
    if isinstance(gx, Tensor):
        gx = gx._data
    elif type(gx) is not _ndarray and isinstance(gx, _generic):
        gx = np.asarray(gx)  # arithmetic on 0-d arrays gives NumPy scalars
    if gx.shape != x.shape:
        raise RuntimeError(
            f"{primitive.name}: the gradient rule for input {k} returned shape "
            f"{tuple(gx.shape)}, but the input has shape {tuple(x.shape)} (a bug in the rule)"
        )
    if gx.dtype != x.dtype:
        gx = ops.cast_cotangent(gx, x.dtype)._data
    return gx


def accumulate_raw(cotangents: dict, owned: set, key: Any, g: Any) -> None:
    """Add raw cotangent ``g`` into ``cotangents[key]``; in place once the sweep owns the buffer.

    A buffer is owned when the sweep allocated it (a sum of two contributions): a
    rule's result may alias its cotangent or a saved value, so it is never written.
    """
    previous = cotangents.get(key)
    if previous is None:
        cotangents[key] = g
    elif key in owned:
        previous += g
    else:
        total = previous + g
        if isinstance(total, _generic):  # a NumPy scalar: the sum of two 0-d arrays
            total = np.asarray(total)
        cotangents[key] = total
        if type(total) is _ndarray:
            owned.add(key)
