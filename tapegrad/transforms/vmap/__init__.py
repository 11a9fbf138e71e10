"""``tg.vmap``: a function of one example run on a whole batch, with JAX's semantics.

Inside the vmapped function each batched argument is a Tensor whose value is a
:class:`~tapegrad.core.batched.Batched` (every example at once; ``shape`` is one
example's); each primitive it meets runs once on the batch by its batching rule
(rules.py; dispatch.py for how a call reaches it). Entering and leaving are primitives
of their own, so the tape records them and every transform composes with vmap in either
order: ``vmap(grad(f))`` gives per-example gradients, ``grad(lambda p: sum(vmap(f)(p,
xs)))`` differentiates through a batched call, and vmaps nest.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.core import sweep as _sweep
from tapegrad.core.active import _active
from tapegrad.core.batched import Batched, new_level
from tapegrad.core.nests import flatten, pack
from tapegrad.core.tensor import Tensor
from tapegrad.numpy import protocol as _protocol
from tapegrad.ops import primitive as _primitive
from tapegrad.ops.primitive import Primitive
from tapegrad.ops.reductions import sum as _sum
from tapegrad.transforms.vmap import per_example, rules
from tapegrad.transforms.vmap.dispatch import BOUNDARY, batched_call, mark_tapes


def vmap(
    f: Callable[..., Any],
    in_axes: Any = 0,
    out_axes: Any = 0,
    axis_size: int | None = None,
) -> Callable[..., Any]:
    """``f`` mapped over an axis of its arguments, as ``jax.vmap``.

    ``in_axes``: an int (the batch axis of every argument), None (not batched), or a
    tuple with one entry per positional argument, each an int, None, or a nest of them
    matching that argument's lists, tuples and dicts. ``out_axes`` likewise for the
    result; an output that does not depend on the batch is repeated along it.
    ``axis_size`` gives the batch size when no argument is batched. Arrays in, arrays
    out: NumPy arrays give NumPy arrays, Tensors give Tensors that record.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> xs = np.arange(6.0).reshape(3, 2)
    >>> tg.vmap(lambda x: x @ x)(xs)  # one dot product per row
    array([ 1., 13., 41.])
    >>> w = np.array([1.0, 2.0])
    >>> tg.vmap(tg.grad(lambda w, x: tg.sum(w * x) ** 2), in_axes=(None, 0))(w, xs)
    array([[  0.,   4.],
           [ 32.,  48.],
           [112., 140.]])
    """
    if not callable(f):
        raise TypeError(f"vmap: f must be callable, got {type(f).__name__}")

    @functools.wraps(f)
    def vmapped(*args: Any) -> Any:
        level = new_level()
        axes = _in_axes(in_axes, args)
        leaves, leaf_axes = flatten(args), flatten(axes)
        size = _size(leaves, leaf_axes, axis_size)
        entered = [
            leaf
            if axis is None
            else _enter(leaf, axis=axis % np.ndim(leaf), level=level, size=size)
            for leaf, axis in zip(leaves, leaf_axes)
        ]
        out = f(*pack(args, iter(entered)))
        plain = not any(isinstance(leaf, Tensor) for leaf in leaves)
        out_leaves = flatten(out)
        exits = flatten(_prefix(out_axes, out, "out_axes"))
        results = [_leave(leaf, axis, level, size, plain) for leaf, axis in zip(out_leaves, exits)]
        return pack(out, iter(results))

    return vmapped


def _in_axes(in_axes: Any, args: tuple[Any, ...]) -> Any:
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)  # JAX takes a list for the arguments too
    if isinstance(in_axes, tuple) and len(in_axes) != len(args):
        raise ValueError(
            f"vmap: in_axes has {len(in_axes)} entries but the function was called with "
            f"{len(args)} positional arguments"
        )
    return _prefix(
        in_axes if isinstance(in_axes, tuple) else (in_axes,) * len(args), args, "in_axes"
    )


def _prefix(axes: Any, tree: Any, what: str) -> Any:
    """``axes`` spread over ``tree``'s leaves (a prefix tree, as JAX reads in_axes)."""
    if axes is None or isinstance(axes, (int, np.integer)):
        return pack(tree, iter([axes] * len(flatten(tree))))
    if isinstance(axes, dict) and isinstance(tree, dict) and set(axes) == set(tree):
        return {key: _prefix(axes[key], tree[key], what) for key in tree}
    if (
        isinstance(axes, (tuple, list))
        and isinstance(tree, (tuple, list))
        and len(axes) == len(tree)
    ):
        return pack(tree, iter(flatten([_prefix(a, t, what) for a, t in zip(axes, tree)])))
    raise ValueError(
        f"vmap: {what} {axes!r} does not match the structure of the values it describes "
        f"({type(tree).__name__}); give an int or None per leaf, or a prefix of the structure"
    )


def _size(leaves: list[Any], axes: list[Any], axis_size: int | None) -> int:
    sizes = {}
    for k, (leaf, axis) in enumerate(zip(leaves, axes)):
        if axis is None:
            continue
        shape = np.shape(leaf) if not isinstance(leaf, Tensor) else leaf.shape
        if not -len(shape) <= axis < len(shape):
            raise ValueError(
                f"vmap: in_axes {axis} is out of range for argument leaf {k} of shape {shape}"
            )
        sizes[k] = shape[axis]
    found = set(sizes.values())
    if len(found) > 1:
        listing = ", ".join(f"leaf {k}: {n}" for k, n in sizes.items())
        raise ValueError(f"vmap: the batched arguments have different sizes ({listing})")
    if found:
        (size,) = found
        if axis_size is not None and axis_size != size:
            raise ValueError(
                f"vmap: axis_size={axis_size} but the batched arguments have size {size}"
            )
        return size
    if axis_size is None:
        raise ValueError("vmap: no argument is batched (in_axes all None): give axis_size")
    return operator.index(axis_size)


def _leave(leaf: Any, axis: Any, level: int, size: int, plain: bool) -> Any:
    if not isinstance(leaf, Tensor):
        if axis is None:
            return leaf
        leaf = Tensor(np.asarray(leaf))
    data = leaf._data
    if axis is None:
        if type(data) is Batched and level in data.levels:
            raise ValueError(
                "vmap: out_axes is None for an output that differs from example to example"
            )
        return leaf
    result = _exit(leaf, axis=axis % (leaf.ndim + 1), level=level, size=size)
    if not plain or type(result._data) is Batched or _recorded(result):
        return result
    return result._data  # arrays in, arrays out, unless a tape records it (a closed-over source)


def _recorded(t: Tensor) -> bool:
    return any(t._id in getattr(tape, "_watched", ()) for tape in _active.get())


# --- entering and leaving: primitives of their own, so that tapes record them -----------


def _enter_forward(xp: Any, x: Any, axis: int, level: int, size: int) -> Batched:
    mark_tapes()
    if type(x) is Batched:  # batched by an outer vmap too: the new level goes last
        depth = len(x.levels)
        return Batched(xp.moveaxis(x.value, depth + axis % x.ndim, depth), (*x.levels, level))
    return Batched(xp.moveaxis(xp.asarray(x), axis, 0), (level,))


def _exit_forward(xp: Any, x: Any, axis: int, level: int, size: int) -> Any:
    if type(x) is Batched and level in x.levels:
        j = x.levels.index(level)
        rest = x.levels[:j] + x.levels[j + 1 :]
        value = xp.moveaxis(x.value, j, len(rest) + axis)
        return Batched(value, rest) if rest else value
    # The same for every example: repeated along the new axis, as JAX does.
    depth = len(x.levels) if type(x) is Batched else 0
    value = x.value if type(x) is Batched else xp.asarray(x)
    shape = list(value.shape)
    shape.insert(depth + axis, size)
    value = xp.broadcast_to(xp.expand_dims(value, depth + axis), tuple(shape))
    return Batched(value, x.levels) if type(x) is Batched else value


def _exit_vjp(g: Any, ans: Any, x: Any, axis: int, level: int, size: int) -> Any:
    data = x._data if isinstance(x, Tensor) else x
    if type(data) is Batched and level in data.levels:
        return _enter(g, axis=axis, level=level, size=size)
    return _sum(g, axis=axis)  # repeated along the axis: the cotangents add up


_enter: Primitive = Primitive("vmap_in", _enter_forward, complex_rules=True).defvjp(
    lambda g, ans, x, axis, level, size: _exit(g, axis=axis, level=level, size=size)
)
_exit: Primitive = Primitive("vmap_out", _exit_forward, complex_rules=True).defvjp(_exit_vjp)
_enter.defbatch(BOUNDARY)
_exit.defbatch(BOUNDARY)

rules.declare()
_primitive.set_batching(batched_call)
_protocol.per_example[:] = [per_example.run]
_sweep.per_example_rules[:] = [per_example.run]
_sweep.batched_cotangents[:] = [per_example.sum_inner]

__all__ = ["vmap"]
