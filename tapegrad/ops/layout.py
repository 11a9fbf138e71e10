"""Functions that only move elements around, computed by NumPy on element numbers.

``np.insert``, ``np.block``, ``np.r_``, ``np.put_along_axis``, ``np.array`` of nested
lists ... decide where each input element lands by rules that do not look at the
values. :func:`gather_layout` runs such a NumPy function on *element numbers* (each
input replaced by an integer array numbering its elements), so NumPy's own rules pick
the layout, and then builds the result with one gather from the inputs' elements. The
gather's gradient is a scatter-add, so every such function is differentiable to any
order, and elements placed twice (broadcast values) accumulate their gradients.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of


def element_numbers(leaves: Sequence[Any]) -> list[np.ndarray]:
    """For each leaf, an int64 array of its shape numbering its elements; the numbers run
    on from one leaf to the next, starting at 0."""
    numbers, start = [], 0
    for leaf in leaves:
        shape = shape_of(leaf)
        size = int(np.prod(shape, dtype=np.int64))
        numbers.append(np.arange(start, start + size, dtype=np.int64).reshape(shape))
        start += size
    return numbers


def gather_layout(
    leaves: Sequence[Any], arrange: Callable[[list[np.ndarray]], Any], dtype: Any
) -> Tensor:
    """The array ``arrange`` builds from ``leaves``, as a Tensor of ``dtype``.

    ``arrange(numbers)`` gets :func:`element_numbers` of the leaves and returns the
    element numbers laid out as the result (a NumPy array). Leaves are Tensors, arrays or
    scalars of one array namespace (host index arrays go with any).
    """
    layout = np.asarray(arrange(element_numbers(leaves)))
    if layout.dtype.kind not in "iu":
        raise TypeError(f"gather_layout: the layout must hold integers, got {layout.dtype}")
    like = next((leaf for leaf in leaves if _is_array(leaf)), None)
    pool = [ops.reshape(_as_operand(leaf, dtype, like), (-1,)) for leaf in leaves]
    flat = pool[0] if len(pool) == 1 else ops.concatenate(pool)
    total = int(np.sum([int(np.prod(shape_of(leaf))) for leaf in leaves]))
    if layout.size == total and np.array_equal(layout.ravel(), np.arange(total)):
        return ops.reshape(flat, layout.shape)  # every element once, in order: no gather
    return ops.getitem(flat, layout)


def _is_array(leaf: Any) -> bool:
    return isinstance(leaf, Tensor) or backend.is_foreign(leaf)


def _as_operand(leaf: Any, dtype: Any, like: Any) -> Any:
    """``leaf`` in ``dtype``: Tensors through the differentiable cast, constants placed next
    to ``like`` (another backend's Tensors refuse host arrays)."""
    if _is_array(leaf):
        if np.dtype(backend.dtype_name(leaf.dtype)) != np.dtype(dtype):
            return ops.astype(leaf, dtype)
        return leaf
    constant = np.asarray(leaf, dtype=dtype)
    return constant if like is None else ops.asarray(constant, like=like)
