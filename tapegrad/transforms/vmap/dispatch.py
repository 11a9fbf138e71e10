"""The batched call: a primitive meets Batched inputs and runs once for the whole batch.

Every Batched input is brought to the union of the call's levels and the batch axes are
flattened into one leading axis, so that a batching rule sees the simplest case: each
batched operand has one leading axis of the same length ``n`` before the shape of one
example, and the unbatched operands are as they were. The rule returns the output with
that leading axis, which is split back into the levels. A primitive without a rule runs
once per example and its results are stacked (correct for every primitive: its forward
is a function of its inputs' values), with one warning naming the op.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.active import _active
from tapegrad.core.batched import Batched

# ``rule(xp, primitive, values, batched, params)``: ``batched[k]`` tells whether
# ``values[k]`` has the leading batch axis. Returns the output with that axis in front.
BatchRule = Callable[..., Any]

# A primitive whose forward takes Batched values itself (vmap's own entry and exit).
BOUNDARY: BatchRule = lambda *args: None  # noqa: E731 - a marker, never called

_warned: set[str] = set()


def batched_call(primitive: Any, arrays: list[Any], params: dict[str, Any]) -> Any:
    """``primitive(*arrays, **params)`` where some of ``arrays`` are Batched."""
    mark_tapes()
    if primitive.batch is BOUNDARY:
        return primitive.forward(_namespace(arrays), *arrays, **params)
    if primitive.value_dependent_shape:
        raise ValueError(
            f"vmap: {primitive.name}'s result has a shape that depends on the values, which "
            "differ from example to example; call it outside the vmapped function (JAX "
            "refuses it too), or give it a fixed size (size= where the function takes one)"
        )
    index = params.get("index")
    index = index if isinstance(index, tuple) else ()
    in_index = [i for i in index if type(i) is Batched]
    levels, batch_shape = _levels(primitive, [*arrays, *in_index])
    n = math.prod(batch_shape)
    values, batched = [], []
    for a in arrays:
        if type(a) is Batched:
            values.append(_flat(a, levels, batch_shape, n))
            batched.append(True)
        else:
            values.append(a)
            batched.append(False)
    xp = _namespace(values)
    rule = primitive.batch or default_rule(primitive)
    if in_index:  # an index that differs from example to example (a sort's permutation)
        params = {**params, "index": tuple(
            PerExample(_flat(i, levels, batch_shape, n)) if type(i) is Batched else i
            for i in index
        )}  # fmt: skip
        rule = loop
    out = rule(xp, primitive, values, batched, params)
    return _wrap(out, levels, batch_shape)


class PerExample:
    """An index item inside a call's params that holds one value per example."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value


def mark_tapes() -> None:
    """Tell the active tapes that an entry holds a Batched value (see GradientTape)."""
    for tape in _active.get():
        if hasattr(tape, "_holds_batched"):
            tape._holds_batched = True


def default_rule(primitive: Any) -> BatchRule:
    """Elementwise for a NumPy ufunc (broadcasting is batching), else the loop."""
    forward = primitive.numpy_forward
    if isinstance(forward, np.ufunc) and forward.signature is None:
        return elementwise
    return loop


def elementwise(
    xp: Any, primitive: Any, values: list[Any], batched: list[bool], params: dict[str, Any]
) -> Any:
    """An op that broadcasts its operands: the batch axis in front of every example's
    axes, each batched operand padded to the widest example so that broadcasting lines
    the examples up."""
    return primitive.forward(xp, *align(xp, values, batched), **params)


def align(xp: Any, values: list[Any], batched: list[bool]) -> list[Any]:
    """Batched operands reshaped to ``(n, 1, ..., 1, *example)`` with as many axes as the
    widest operand's example, so that NumPy's broadcasting from the right pairs every
    example with the unbatched operands and with the same example of the others."""
    width = max(_example_ndim(v, b) for v, b in zip(values, batched))
    out = []
    for v, b in zip(values, batched):
        if b and v.ndim - 1 < width:
            v = xp.reshape(v, v.shape[:1] + (1,) * (width - v.ndim + 1) + v.shape[1:])
        out.append(v)
    return out


def loop(
    xp: Any, primitive: Any, values: list[Any], batched: list[bool], params: dict[str, Any]
) -> Any:
    """The op once per example, the results stacked: correct for every primitive."""
    if primitive.name not in _warned:
        _warned.add(primitive.name)
        warnings.warn(
            f"vmap: {primitive.name} has no batching rule, so it runs once per example "
            "(correct, but a Python loop)",
            stacklevel=2,
        )
    index = params.get("index")
    index = index if isinstance(index, tuple) else ()
    per_example = any(type(i) is PerExample for i in index)
    n = next((v.shape[0] for v, b in zip(values, batched) if b), None) or next(
        i.value.shape[0] for i in index if type(i) is PerExample
    )
    results = []
    for k in range(n):
        example = params
        if per_example:
            example = {**params, "index": tuple(
                i.value[k] if type(i) is PerExample else i for i in index
            )}  # fmt: skip
        args = (v[k] if b else v for v, b in zip(values, batched))
        results.append(primitive.forward(xp, *args, **example))
    if isinstance(results[0], tuple):
        return tuple(xp.stack([xp.asarray(r[k]) for r in results]) for k in range(len(results[0])))
    return xp.stack([xp.asarray(r) for r in results])


def broadcast_batch(xp: Any, v: Any, b: bool, n: int) -> Any:
    """``v`` with the leading batch axis, repeated along it when unbatched."""
    return v if b else xp.broadcast_to(xp.asarray(v), (n, *np.shape(v)))


def _example_ndim(v: Any, b: bool) -> int:
    return v.ndim - 1 if b else np.ndim(v)


def _levels(primitive: Any, arrays: list[Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    sizes: dict[int, int] = {}
    for a in arrays:
        if type(a) is Batched:
            for level, size in zip(a.levels, a.batch_shape):
                if sizes.setdefault(level, size) != size:
                    raise ValueError(
                        f"vmap: {primitive.name} meets inputs batched over sizes "
                        f"{sizes[level]} and {size} by the same vmap"
                    )
    levels = tuple(sorted(sizes))
    return levels, tuple(sizes[level] for level in levels)


def _flat(a: Batched, levels: tuple[int, ...], batch_shape: tuple[int, ...], n: int) -> Any:
    """``a``'s value with one leading axis of length ``n`` for the call's levels."""
    value = a.value
    if a.levels != levels:  # a level it is not batched by: broadcast along it
        xp = backend.namespace(value)
        for k, level in enumerate(levels):  # a.levels is a sorted subset of levels
            if level not in a.levels:
                value = xp.expand_dims(value, k)
        value = xp.broadcast_to(value, (*batch_shape, *a.shape))
    if len(levels) != 1:
        value = backend.namespace(value).reshape(value, (n, *a.shape))
    return value


def _wrap(out: Any, levels: tuple[int, ...], batch_shape: tuple[int, ...]) -> Any:
    if isinstance(out, tuple):
        return tuple(_wrap(o, levels, batch_shape) for o in out)
    if len(levels) != 1:
        out = backend.namespace(out).reshape(out, (*batch_shape, *out.shape[1:]))
    return Batched(out, levels)


def _namespace(values: list[Any]) -> Any:
    arrays = [v.value if type(v) is Batched else v for v in values]
    arrays = [a for a in arrays if hasattr(a, "shape") and not isinstance(a, np.generic)]
    if all(type(a) is np.ndarray for a in arrays):
        return np
    return backend.namespace(*arrays)
