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


# --- lists holding Tensors -------------------------------------------------------------------
def holds_tensor(value: Any) -> bool:
    """Whether ``value`` is a Tensor or a (nested) list or tuple holding one."""
    if isinstance(value, Tensor):
        return True
    if isinstance(value, (list, tuple)):
        return any(holds_tensor(v) for v in value)
    return False


def nested_leaves(value: Any) -> list[Any]:
    """The leaves of a (nested) list or tuple, in order (anything else is one leaf)."""
    if isinstance(value, (list, tuple)):
        return [leaf for item in value for leaf in nested_leaves(item)]
    return [value]


def _rebuilt(value: Any, leaves: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_rebuilt(item, leaves) for item in value]
    return next(leaves)


def stand_ins(value: Any) -> Any:
    """``value``, a (nested) list or tuple, with each Tensor replaced by zeros of its shape
    and dtype: what NumPy's shape and dtype rules are asked about without reading values."""
    return _rebuilt(value, iter([stand_in(leaf) for leaf in nested_leaves(value)]))


def stand_in(leaf: Any) -> Any:
    """A stand-in with the leaf's shape and dtype (constants stand for themselves)."""
    if isinstance(leaf, Tensor):
        return np.zeros(leaf.shape, dtype=backend.dtype_name(leaf.dtype))
    return leaf


def from_nested(value: Any, dtype: Any = None, ndmin: int = 0) -> Tensor:
    """The array ``np.array(value)`` would make of a (nested) list or tuple holding Tensors,
    as a Tensor that keeps each element's gradient (``tnp.array`` of such a list; and what a
    primitive makes of a list it is given as an input).

    >>> import tapegrad as tg
    >>> x = tg.tensor(2.0)
    >>> tg.grad(lambda x: tg.sum(from_nested([[x, 1.0], [3.0, x * x]])))(x)
    tensor(5., dtype=float64)
    """
    leaves = nested_leaves(value)
    result_dtype = np.array(stand_ins(value), dtype=dtype).dtype
    return gather_layout(
        leaves, lambda numbers: np.array(_rebuilt(value, iter(numbers)), ndmin=ndmin),
        result_dtype,
    )  # fmt: skip
