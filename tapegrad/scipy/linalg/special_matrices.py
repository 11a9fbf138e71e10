"""Matrices built from others: block_diag (composed from pad and concatenate, so it runs on
every backend and differentiates to any order)."""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = ["block_diag"]

ArrayLike = Any


@plain_calls_scipy("linalg")
def block_diag(*arrs: ArrayLike) -> Tensor:
    """The block-diagonal matrix of ``arrs`` (0-d and 1-d inputs are 1-row blocks, as in
    SciPy).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import block_diag
    >>> block_diag(tg.tensor([[1.0]]), tg.tensor([2.0, 3.0])).numpy()
    array([[1., 0., 0.],
           [0., 2., 3.]])
    """
    if not arrs:
        return ops.zeros((1, 0))
    blocks = []
    for k, a in enumerate(arrs):
        shape = shape_of(a)
        if len(shape) > 2:
            raise ValueError(
                f"block_diag: arguments must have at most 2 dimensions, argument {k} has "
                f"shape {tuple(shape)}"
            )
        blocks.append(ops.reshape(a, (1, -1)) if len(shape) < 2 else a)
    widths = [shape_of(b)[1] for b in blocks]
    total = sum(widths)
    rows, start = [], 0
    for block, width in zip(blocks, widths):
        rows.append(ops.pad(block, ((0, 0), (start, total - start - width))))
        start += width
    return ops.concatenate(rows, axis=0)
