"""Neural-network functions built from primitives: softmax and log_softmax.

Both go through ``logsumexp``, so they are stable for large inputs and their
gradients (any order) come from its rule.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor


def log_softmax(x: Any, axis: int = -1) -> Tensor:
    """``x - logsumexp(x)`` along ``axis``.

    >>> import tapegrad as tg
    >>> tg.log_softmax(tg.tensor([0.0, 0.0]))
    tensor([-0.69314718, -0.69314718], dtype=float64)
    """
    return x - ops.logsumexp(x, axis=axis, keepdims=True)


def softmax(x: Any, axis: int = -1) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis``, computed as ``exp(log_softmax(x))``.

    >>> import tapegrad as tg
    >>> tg.softmax(tg.tensor([0.0, 0.0, 1.0]))
    tensor([0.21194156, 0.21194156, 0.57611688], dtype=float64)
    """
    return ops.exp(log_softmax(x, axis=axis))
