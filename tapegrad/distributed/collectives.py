"""``all_reduce`` and ``broadcast`` of nests (lists, tuples, dicts) of Tensors, arrays, numbers.

Both are collective: every rank calls them at the same point with a nest of the
same structure, shapes and dtypes. That is checked on every call, before any
buffer travels (one all-reduce of a hash of the structure and the count of calls),
and a mismatch raises ValueError on every rank, naming the first difference. Dict
entries travel in sorted key order, so dicts built in different orders on different
ranks still match.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor, Variable, note_escape
from tapegrad.distributed.buckets import Plan, Spec, spec_of
from tapegrad.distributed.mpi_world import fingerprint
from tapegrad.distributed.world import world as _world

OPS = ("sum", "mean", "max", "min")
_PLANS_KEPT = 16  # plans (and their buffers) kept for structures seen recently
_plans: dict[tuple[Any, ...], tuple[Plan, int]] = {}  # signature -> (plan, its fingerprint)


def all_reduce(nest: Any, op: str = "sum") -> Any:
    """Reduce every leaf of ``nest`` across ranks; every rank gets the result.

    ``op``: ``"sum"``, ``"mean"``, ``"max"`` or ``"min"`` (elementwise). Returns a
    nest of the same structure: Tensors (Variables too) come back as new Tensors,
    arrays as arrays of their library, numbers as numbers; None stays None. The
    mean of integers is floating, as in NumPy. A float32 leaf stays float32.
    The result carries no gradient.

    Args:
        nest: Tensors, arrays or numbers, nested in lists, tuples and dicts.
        op: ``"sum"``, ``"mean"``, ``"max"`` or ``"min"``.

    Returns:
        A nest like ``nest`` holding the reduced values.

    Raises:
        ValueError: ``op`` is unknown, or the ranks passed nests of different structures,
            shapes or dtypes.
        TypeError: A leaf is not a Tensor, an array or a number.

    >>> import tapegrad as tg
    >>> import tapegrad.distributed as dist
    >>> dist.all_reduce({"loss": tg.tensor([0.5, 1.5]), "count": 32}, op="sum")
    {'loss': tensor([0.5, 1.5], dtype=float64), 'count': 32}
    """
    if op not in OPS:
        raise ValueError(f"all_reduce: op must be one of {', '.join(OPS)}; got {op!r}")
    what = f"all_reduce(op={op!r})"
    paths, leaves, arrays, specs = _leaves(nest, what)
    for path, spec in zip(paths, specs):
        if spec is not None:
            _check_reducible(what, path, spec.dtype, op)
    results = _plan(what, paths, arrays, specs).all_reduce(arrays, op)
    return _rebuild(nest, map(_restore, results, leaves, arrays))


def broadcast(nest: Any, root: int = 0) -> Any:
    """Give every rank ``root``'s values of ``nest``.

    Variables are assigned in place (on the ranks other than ``root``), so
    ``broadcast(model.trainable_variables, root=0)`` starts every rank from rank
    0's weights. Returns a nest of the same structure: the Variables themselves,
    and root's values for the other leaves (as :func:`all_reduce` returns them).

    Args:
        nest: Variables, Tensors, arrays or numbers, nested in lists, tuples and dicts.
        root: The rank whose values everyone gets.

    Returns:
        A nest like ``nest`` holding root's values.

    Raises:
        ValueError: ``root`` is not a rank, or the ranks passed nests of different
            structures, shapes or dtypes.
        TypeError: A leaf is not a Tensor, an array or a number.

    >>> import tapegrad as tg
    >>> import tapegrad.distributed as dist
    >>> w = tg.Variable([1.0, 2.0])
    >>> dist.broadcast([w], root=0)[0] is w
    True
    """
    world = _world()
    if not isinstance(root, (int, np.integer)) or not 0 <= root < world.size:
        raise ValueError(f"broadcast: root must be a rank in [0, {world.size}); got {root!r}")
    what = f"broadcast(root={int(root)})"
    paths, leaves, arrays, specs = _leaves(nest, what)
    results = _plan(what, paths, arrays, specs).broadcast(arrays, int(root))
    restored = []
    for result, leaf, array in zip(results, leaves, arrays):
        if isinstance(leaf, Variable):
            if world.rank != root:
                leaf.assign(backend.move(result, backend.placement_of(leaf.data)))
            restored.append(leaf)
        else:
            restored.append(_restore(result, leaf, array))
    return _rebuild(nest, iter(restored))


def _leaves(nest: Any, what: str) -> tuple[list[str], list[Any], list[Any], list[Spec | None]]:
    """Each leaf's path, the leaf, its backend array and its spec, in the order they travel."""
    world = _world()
    paths, leaves, arrays, specs = [], [], [], []
    for path, leaf in _flatten(nest, ""):
        array = _array_of(leaf, path, what)
        paths.append(path)
        leaves.append(leaf)
        arrays.append(array)
        specs.append(None if array is None else spec_of(array, world))
    return paths, leaves, arrays, specs


def _plan(what: str, paths: list[str], arrays: list[Any], specs: list[Spec | None]) -> Plan:
    """The plan for this structure (cached), once every rank agrees on this call."""
    world = _world()
    signature = (what, tuple(zip(paths, specs)))
    cached = _plans.get(signature)
    if cached is None:
        if len(_plans) >= _PLANS_KEPT:
            del _plans[next(iter(_plans))]
        cached = _plans[signature] = (Plan(specs, arrays, world), fingerprint(signature))
    world.agree(cached[1], what.partition("(")[0], lambda: _describe(signature))
    return cached[0]


def _describe(signature: tuple[Any, ...]) -> list[str]:
    """The call and one line per leaf, for the message when ranks disagree."""
    what, leaves = signature
    lines = [what]
    for path, spec in leaves:
        if spec is None:
            lines.append(f"{path}: None")
        else:
            lines.append(f"{path}: shape {spec.shape} {spec.dtype} ({spec.home})")
    return lines


def _flatten(nest: Any, path: str) -> Iterator[tuple[str, Any]]:
    if isinstance(nest, dict):
        for key in sorted(nest, key=repr):
            yield from _flatten(nest[key], f"{path}[{key!r}]")
    elif isinstance(nest, (list, tuple)):
        for i, item in enumerate(nest):
            yield from _flatten(item, f"{path}[{i}]")
    else:
        yield path or "the value", nest


def _rebuild(nest: Any, leaves: Iterator[Any]) -> Any:
    """``nest`` with its leaves replaced, in ``_flatten``'s order; containers keep their type."""
    if isinstance(nest, dict):
        rebuilt = {key: _rebuild(nest[key], leaves) for key in sorted(nest, key=repr)}
        if type(nest) is dict:
            return {key: rebuilt[key] for key in nest}
        out = copy.copy(nest)  # OrderedDict, defaultdict ...: keep the type and its settings
        out.clear()
        out.update((key, rebuilt[key]) for key in nest)
        return out
    if isinstance(nest, (list, tuple)):
        items = [_rebuild(item, leaves) for item in nest]
        if hasattr(nest, "_fields"):  # a namedtuple
            return type(nest)(*items)
        return type(nest)(items)
    return next(leaves)


def _array_of(leaf: Any, path: str, what: str) -> Any:
    """The backend array behind a leaf (None for None)."""
    if leaf is None:
        return None
    if isinstance(leaf, Tensor):
        note_escape(leaf, f"tapegrad.distributed.{what.partition('(')[0]}()")
        return leaf.data
    if isinstance(leaf, (int, float, complex, np.generic)):
        return np.asarray(leaf)
    if hasattr(leaf, "shape") and hasattr(leaf, "dtype"):
        return leaf
    raise TypeError(
        f"{what}: {path} is a {type(leaf).__name__}; pass Tensors, arrays or numbers, "
        "nested in lists, tuples and dicts"
    )


def _check_reducible(what: str, path: str, dtype: np.dtype, op: str) -> None:
    if dtype.kind not in "iufc" or (dtype.kind == "c" and op in ("max", "min")):
        raise TypeError(f"{what}: {path} is {dtype}, which {op} cannot reduce")


def _restore(result: Any, leaf: Any, array: Any) -> Any:
    """A result in its leaf's form: Tensor, number, or array on the leaf's device."""
    if result is None:
        return None
    result = backend.move(result, backend.placement_of(array))
    if isinstance(leaf, Tensor):
        return Tensor(result)
    if isinstance(leaf, np.generic):
        return result[()]
    if isinstance(leaf, (int, float, complex)):
        return result.item()
    return result
