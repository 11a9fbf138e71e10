"""The fallback for a NumPy function that reads its inputs' values inside tg.vmap.

Some functions look at values on the host (``median`` finds its order statistics there,
``linspace`` checks for a zero step) and so cannot run once on a whole batch. The NumPy
namespace catches the BatchedValueError they raise and calls :func:`run`: the function
once per example, each on that example's values, the results stacked back into a batch.
Taking an example and stacking are primitives, so the tape records the path and
gradients flow through it as through any op.
"""

from __future__ import annotations

import itertools
import math
import warnings
from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.batched import Batched
from tapegrad.core.nests import flatten, pack
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive
from tapegrad.transforms.vmap.dispatch import BOUNDARY, mark_tapes

_warned: set[str] = set()


def run(op: Any, name: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``op(*args, **kwargs)`` once per example, the results stacked into a batch."""
    leaves = flatten((args, kwargs))
    sizes: dict[int, int] = {}
    for leaf in leaves:
        data = leaf._data if isinstance(leaf, Tensor) else None
        if type(data) is Batched:
            sizes.update(zip(data.levels, data.batch_shape))
    levels = tuple(sorted(sizes))
    batch_shape = tuple(sizes[level] for level in levels)
    if name not in _warned:
        _warned.add(name)
        warnings.warn(
            f"vmap: numpy.{name} reads its inputs' values, so it runs once per example "
            "(correct, but a Python loop)",
            stacklevel=3,
        )
    results = []
    for at in itertools.product(*(range(n) for n in batch_shape)):
        example = [_example_of(leaf, levels, at) for leaf in leaves]
        a, kw = pack((args, kwargs), iter(example))
        results.append(op(*a, **kw))
    columns = zip(*(flatten(r) for r in results))
    stacked = [_stack(column, levels, batch_shape) for column in columns]
    return pack(results[0], iter(stacked))


def _example_of(leaf: Any, levels: tuple[int, ...], at: tuple[int, ...]) -> Any:
    if isinstance(leaf, Tensor) and type(leaf._data) is Batched:
        return _example(leaf, levels=levels, at=at)
    return leaf


def _stack(column: tuple[Any, ...], levels: tuple[int, ...], batch_shape: tuple[int, ...]) -> Any:
    first = column[0]
    if not any(isinstance(c, (Tensor, np.ndarray)) for c in column):
        if any(c != first for c in column):
            raise ValueError(
                f"vmap: a result differs from example to example ({first!r}, ...) and is "
                "not an array"
            )
        return first
    return _stacked(*column, levels=levels, batch_shape=batch_shape)


def _position(x: Batched, levels: tuple[int, ...], at: tuple[int, ...]) -> tuple[int, ...]:
    """``x``'s batch index of the example at ``at`` (over ``levels``)."""
    where = dict(zip(levels, at))
    return tuple(where[level] for level in x.levels)


def _example_forward(xp: Any, x: Any, levels: tuple[int, ...], at: tuple[int, ...]) -> Any:
    if type(x) is not Batched:  # the same for every example (a cotangent, say)
        return x
    return x.value[_position(x, levels, at)]


def _example_vjp(g: Any, ans: Any, x: Any, levels: tuple[int, ...], at: tuple[int, ...]) -> Any:
    if type(x._data) is not Batched:
        return g
    return _place(g, like=x._data, levels=levels, at=at)


def _place_forward(
    xp: Any, g: Any, like: Batched, levels: tuple[int, ...], at: tuple[int, ...]
) -> Any:
    mark_tapes()
    value = backend.zeros(xp, like.value.shape, like=like.value)
    value = xp.astype(value, xp.result_type(value, g)) if hasattr(xp, "astype") else value
    value[_position(like, levels, at)] = g
    return Batched(value, like.levels)


def _stacked_forward(
    xp: Any, *column: Any, levels: tuple[int, ...], batch_shape: tuple[int, ...]
) -> Any:
    mark_tapes()
    arrays = [xp.asarray(c) for c in column]
    value = xp.stack(arrays)
    return Batched(xp.reshape(value, (*batch_shape, *value.shape[1:])), levels)


def _stacked_vjp(
    k: int, g: Any, ans: Any, *column: Any, levels: tuple[int, ...], batch_shape: tuple[int, ...]
) -> Any:
    at = np.unravel_index(k, batch_shape) if math.prod(batch_shape) else ()
    return _example(g, levels=levels, at=tuple(int(i) for i in at))


def sum_inner(g: Tensor, x: Any, level: int) -> Tensor:
    """``g`` summed over its levels above ``level`` that ``x`` is not batched by: the
    cotangent of a value shared by the examples of a vmap begun inside a tape."""
    data = x._data if isinstance(x, Tensor) else None
    own = data.levels if type(data) is Batched else ()
    drop = tuple(lv for lv in g._data.levels if lv > level and lv not in own)
    return _summed(g, levels=drop) if drop else g


def _summed_forward(xp: Any, g: Batched, levels: tuple[int, ...]) -> Any:
    axes = tuple(g.levels.index(lv) for lv in levels)
    rest = tuple(lv for lv in g.levels if lv not in levels)
    value = xp.sum(g.value, axis=axes)
    return Batched(value, rest) if rest else value


def _spread_forward(xp: Any, g: Any, like: Batched, levels: tuple[int, ...]) -> Any:
    """``g`` repeated along ``levels`` of ``like`` (the adjoint of the sum over them)."""
    mark_tapes()
    value = g.value if type(g) is Batched else xp.asarray(g)
    own = g.levels if type(g) is Batched else ()
    for k, lv in enumerate(like.levels):
        if lv not in own:
            value = xp.expand_dims(value, k)
    shape = like.batch_shape + tuple(value.shape[len(like.levels) :])
    return Batched(xp.broadcast_to(value, shape), like.levels)


_summed: Primitive = Primitive("vmap_sum", _summed_forward, complex_rules=True).defvjp(
    lambda g, ans, x, levels: _spread(g, like=x._data, levels=levels)
)
_spread: Primitive = Primitive("vmap_spread", _spread_forward, complex_rules=True).defvjp(
    lambda g, ans, x, like, levels: _summed(g, levels=levels)
)
_example = Primitive("vmap_example", _example_forward, complex_rules=True).defvjp(_example_vjp)
_place = Primitive("vmap_place", _place_forward, complex_rules=True).defvjp(
    lambda g, ans, x, like, levels, at: _example(g, levels=levels, at=at)
)
_stacked = Primitive("vmap_stack", _stacked_forward, complex_rules=True).defvjp_argnum(_stacked_vjp)
for _boundary in (_example, _place, _stacked, _summed, _spread):
    _boundary.defbatch(BOUNDARY)
