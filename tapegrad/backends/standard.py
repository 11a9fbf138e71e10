"""Standard-only fallbacks: NumPy-style gather, scatter-add and einsum for any array namespace.

The array API standard has ``take``, ``where``, ``cumulative_sum`` and basic
indexing, but not NumPy's full indexing, ``np.add.at`` or ``einsum``.
:mod:`tapegrad.backend` uses the native kernels of NumPy and CuPy and calls
these only for other namespaces (array_api_strict in the test suite). Each one
works out *which* elements move on the host, with NumPy's own indexing rules
applied to an array of flat positions, and then moves the values on the device
with standard calls alone. They are correct first: none of them is a fast path.
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

import numpy as np


def _host_item(item: Any) -> Any:
    """An index item as NumPy indexing understands it; 0-d integers become ints."""
    if isinstance(item, (list, tuple)):
        item = np.asarray(item)
    elif hasattr(item, "__array_namespace__") and type(item) is not np.ndarray:
        item = np.asarray(item)
    if isinstance(item, np.ndarray) and item.ndim == 0 and item.dtype.kind in "iu":
        return int(item)
    if isinstance(item, np.integer):
        return int(item)
    if isinstance(item, slice):
        return slice(*(None if v is None else int(v) for v in (item.start, item.stop, item.step)))
    return item


def _host_index(index: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(_host_item(item) for item in index)


def _is_basic(index: tuple[Any, ...]) -> bool:
    return not any(isinstance(item, np.ndarray) for item in index)


def flat_positions(shape: tuple[int, ...], index: tuple[Any, ...]) -> np.ndarray:
    """The flat positions that ``x[index]`` picks from an ``x`` of ``shape``, in its shape."""
    return np.asarray(np.arange(math.prod(shape), dtype=np.int64).reshape(shape)[index])


def gather(xp: ModuleType, x: Any, index: tuple[Any, ...]) -> Any:
    """``x[index]`` with NumPy's rules (integer arrays, masks, partial indexes)."""
    host = _host_index(index)
    if _is_basic(host):
        if Ellipsis not in host:
            # NumPy reads a partial index as if it ended with "...": the standard wants it said.
            host = (*host, Ellipsis)
        return x[host]
    positions = flat_positions(tuple(x.shape), host)
    picked = xp.take(xp.reshape(x, (-1,)), _on(xp, positions.reshape(-1), x), axis=0)
    return xp.reshape(picked, positions.shape)


def scatter_add(xp: ModuleType, target: Any, index: tuple[Any, ...], values: Any) -> Any:
    """``target`` plus ``values`` added at ``index``, repeated positions accumulating.

    Values landing on the same position are summed in the order they occur (as
    ``np.add.at`` does): a stable sort groups them, then round ``k`` adds every
    position's ``k``-th value with one ``take``. The cost is
    O(len(index) * most repeats + target.size).
    """
    positions = flat_positions(tuple(target.shape), _host_index(index))
    if positions.size == 0:
        return target
    values = xp.broadcast_to(xp.asarray(values), positions.shape)
    flat_values = xp.reshape(values, (-1,))
    order = np.argsort(positions.reshape(-1), kind="stable")
    unique, first, counts = np.unique(
        positions.reshape(-1)[order], return_index=True, return_counts=True
    )
    sums = xp.take(flat_values, _on(xp, order[first], target), axis=0)
    for k in range(1, int(counts.max())):
        has_kth = counts > k
        kth = order[np.minimum(first + k, order.size - 1)]
        picked = xp.take(flat_values, _on(xp, kth, target), axis=0)
        sums = sums + xp.where(_on(xp, has_kth, target), picked, xp.zeros_like(picked))
    # Spread the per-position sums over the whole target in one gather.
    slot = np.zeros(math.prod(target.shape), dtype=np.int64)
    slot[unique] = np.arange(unique.size)
    hit = np.zeros(slot.size, dtype=bool)
    hit[unique] = True
    spread = xp.take(sums, _on(xp, slot, target), axis=0)
    spread = xp.where(_on(xp, hit, target), spread, xp.zeros_like(spread))
    return target + xp.reshape(spread, tuple(target.shape))


def _on(xp: ModuleType, host: np.ndarray, like: Any) -> Any:
    return xp.asarray(host, device=like.device)


def einsum(xp: ModuleType, terms: tuple[str, ...], output: str, *operands: Any) -> Any:
    """Explicit-subscript einsum by broadcasting: multiply, then sum the contracted letters.

    Every operand is laid out over all letters (output letters first), so memory
    grows with the product of all letter sizes: fine for a fallback, never for speed.
    """
    letters = list(dict.fromkeys(output + "".join(terms)))
    product = None
    for term, x in zip(terms, operands):
        x, term = _diagonal(xp, x, term)
        present = [c for c in letters if c in term]
        x = xp.permute_dims(x, tuple(term.index(c) for c in present))
        sizes = dict(zip(present, x.shape))
        x = xp.reshape(x, tuple(sizes.get(c, 1) for c in letters))
        product = x if product is None else product * x
    contracted = tuple(range(len(output), len(letters)))
    return xp.sum(product, axis=contracted) if contracted else product


def _diagonal(xp: ModuleType, x: Any, term: str) -> tuple[Any, str]:
    """For a term with a repeated letter (``"ii"``), its diagonal and the unique letters."""
    unique = "".join(dict.fromkeys(term))
    if unique == term:
        return x, term
    sizes = dict(zip(term, x.shape))
    grids = []
    for c in term:
        shape = [1] * len(unique)
        shape[unique.index(c)] = sizes[c]
        grids.append(np.arange(sizes[c]).reshape(shape))
    return gather(xp, x, tuple(grids)), unique
