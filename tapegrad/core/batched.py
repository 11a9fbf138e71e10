"""Batched: the value of a Tensor inside ``tg.vmap``, one array for every example at once.

A Tensor inside a vmapped function holds a :class:`Batched` in place of an array: the
examples' values stacked along leading axes, one per enclosing ``vmap`` that batches it
(its *levels*, outermost first), while ``shape``, ``ndim`` and ``dtype`` describe one
example, as the function sees it. No array namespace takes a Batched, so every primitive
call that meets one leaves the fast path and reaches the batching rules
(tapegrad/transforms/vmap), which run the op once for the whole batch.
"""

from __future__ import annotations

import math
from typing import Any

# The last vmap level handed out: a vmap entered later (an inner one) gets a larger level,
# and a tape remembers the last one at its start, so it knows which levels began inside it.
_last_level = [0]


def new_level() -> int:
    """A level for a vmap being entered, larger than every earlier one."""
    _last_level[0] += 1
    return _last_level[0]


def last_level() -> int:
    return _last_level[0]


class BatchedValueError(TypeError):
    """A Tensor inside tg.vmap was asked for its one value (``bool``, ``float``, a host
    copy): it has one per example. The NumPy namespace catches it and runs the function
    once per example instead (tapegrad/transforms/vmap/per_example.py)."""


class Batched:
    """The examples' values of one Tensor inside vmap: ``value`` holds one leading axis
    per level in ``levels`` (ascending: the outermost vmap first), then the shape of one
    example.

    >>> import numpy as np
    >>> b = Batched(np.zeros((5, 2, 3)), (1,))
    >>> b.shape, b.ndim, b.batch_shape
    ((2, 3), 2, (5,))
    """

    __slots__ = ("value", "levels", "shape", "dtype")

    def __init__(self, value: Any, levels: tuple[int, ...]) -> None:
        self.value = value
        self.levels = levels
        self.shape = tuple(value.shape[len(levels) :])
        self.dtype = value.dtype

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def batch_shape(self) -> tuple[int, ...]:
        return tuple(self.value.shape[: len(self.levels)])

    @property
    def nbytes(self) -> int:
        return int(self.value.nbytes)

    def _leave(self, what: str) -> Any:
        raise BatchedValueError(
            f"{what} of a Tensor inside tg.vmap: its value differs from example to example "
            f"(batch shape {self.batch_shape}, example shape {self.shape}), so it has no one "
            "value to give. Keep the computation in tapegrad ops (tg.where in place of if, "
            "for example), or move the conversion outside the vmapped function"
        )

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return self._leave("np.asarray()")

    def __bool__(self) -> bool:
        return bool(self._leave("bool()"))

    def __float__(self) -> float:
        return float(self._leave("float()"))

    def __int__(self) -> int:
        return int(self._leave("int()"))

    def __index__(self) -> int:
        return int(self._leave("an index"))

    def __dlpack__(self, *args: Any, **kwargs: Any) -> Any:
        return self._leave("a host copy")

    def item(self) -> Any:
        return self._leave("item()")

    def tolist(self) -> Any:
        return self._leave("tolist()")

    def __iter__(self) -> Any:
        return self._leave("iteration")

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d Tensor")
        return self.shape[0]

    def __repr__(self) -> str:
        return f"<batched over {self.batch_shape}: example shape {self.shape}, {self.dtype}>"
