"""``tapegrad.data.DataLoader``: minibatches of arrays that share their first axis.

>>> import numpy as np
>>> from tapegrad.data import DataLoader
>>> x, y = np.arange(10.0).reshape(5, 2), np.arange(5)
>>> loader = DataLoader((x, y), batch_size=2, shuffle=True, seed=0)
>>> len(loader), [tuple(b.shape for b in batch) for batch in loader]
(3, [((2, 2), (2,)), ((2, 2), (2,)), ((1, 2), (1,))])
"""

from __future__ import annotations

import operator
from collections.abc import Iterator
from typing import Any

import numpy as np

from tapegrad import random
from tapegrad.core.tensor import Tensor, tensor


class DataLoader:
    """Iterate over minibatches of ``arrays`` (Tensors or arrays with one length along
    their first axis), ``batch_size`` examples at a time, as tuples of Tensors (the
    batch itself when ``arrays`` is a single array rather than a tuple or list).

    ``len(loader)`` is the number of batches per pass: ``ceil(n / batch_size)``, or
    ``n // batch_size`` with ``drop_last`` (which drops a last, smaller batch).
    ``shuffle`` visits the examples in a new order each pass: with ``seed``, pass ``k``'s
    order is a function of ``(seed, k)`` alone, so a run resumed at pass ``k``
    (``loader.epoch = k``, or ``load_state_dict``) sees the same batches as an
    uninterrupted one; without a seed the order comes from the default ``tg.random``
    stream (``tg.random.seed`` makes it reproducible). Arrays become Tensors on the
    default device, copied as ``tg.tensor`` copies; Tensors are indexed where they are.

    Args:
        arrays: A Tensor or array, or a tuple or list of them sharing their first axis.
        batch_size: Examples per batch, at least 1.
        shuffle: Whether each pass visits the examples in a new order.
        drop_last: Whether to drop a last batch smaller than ``batch_size``.
        seed: Seeds the shuffled orders (from the default generator when None).

    Raises:
        TypeError: ``batch_size`` is not an int.
        ValueError: ``arrays`` is empty, the arrays differ in length (or have no first axis),
            or ``batch_size`` is below 1.

    >>> import tapegrad as tg
    >>> x, y = tg.arange(10.0), tg.arange(10.0) * 2
    >>> loader = tg.data.DataLoader((x, y), batch_size=4)
    >>> len(loader)
    3
    >>> [xb.shape for xb, yb in loader]
    [(4,), (4,), (2,)]
    """

    def __init__(
        self,
        arrays: Any,
        batch_size: int,
        shuffle: bool = False,
        drop_last: bool = False,
        seed: int | None = None,
    ) -> None:
        self.single = not isinstance(arrays, (tuple, list))
        items = [arrays] if self.single else list(arrays)
        if not items:
            raise ValueError("DataLoader: arrays is empty; pass one or more arrays")
        self.arrays = [a if hasattr(a, "shape") else np.asarray(a) for a in items]
        lengths = {tuple(a.shape)[:1] for a in self.arrays}
        if len(lengths) != 1 or () in lengths:
            shapes = ", ".join(str(tuple(a.shape)) for a in self.arrays)
            raise ValueError(
                f"DataLoader: the arrays must share their first axis (the examples), got shapes "
                f"{shapes}"
            )
        try:
            batch_size = operator.index(batch_size)
        except TypeError:
            raise TypeError(
                f"DataLoader: batch_size must be an int, got {type(batch_size).__name__}"
            ) from None
        if batch_size < 1:
            raise ValueError(f"DataLoader: batch_size must be >= 1, got {batch_size}")
        self.num_examples = lengths.pop()[0]
        self.batch_size = batch_size
        self.shuffle = shuffle
        self.drop_last = drop_last
        self.seed = seed
        self.epoch = 0  # passes started so far: the next pass's order is epoch's

    def __len__(self) -> int:
        if self.drop_last:
            return self.num_examples // self.batch_size
        return -(-self.num_examples // self.batch_size)

    def _order(self, epoch: int) -> np.ndarray | None:
        if not self.shuffle:
            return None
        if self.seed is None:
            return random._default.numpy_generator.permutation(self.num_examples)
        return np.random.default_rng([self.seed, epoch]).permutation(self.num_examples)

    def __iter__(self) -> Iterator[Any]:
        order = self._order(self.epoch)
        self.epoch += 1
        for k in range(len(self)):
            start = k * self.batch_size
            stop = min(start + self.batch_size, self.num_examples)
            index = slice(start, stop) if order is None else order[start:stop]
            batch = tuple(_take(a, index) for a in self.arrays)
            yield batch[0] if self.single else batch

    def state_dict(self) -> dict[str, int]:
        """The number of passes started (with a seed, all a resumed run needs)."""
        return {"epoch": self.epoch}

    def load_state_dict(self, state: dict[str, Any]) -> DataLoader:
        """Resume from what :meth:`state_dict` returned; returns self."""
        self.epoch = int(state["epoch"])
        return self

    def __repr__(self) -> str:
        return (
            f"DataLoader({self.num_examples} examples in {len(self)} batches of "
            f"{self.batch_size}, shuffle={self.shuffle}, drop_last={self.drop_last}, "
            f"seed={self.seed})"
        )


def _take(array: Any, index: slice | np.ndarray) -> Tensor:
    if isinstance(array, Tensor):
        return array[index]
    return tensor(array[index])
