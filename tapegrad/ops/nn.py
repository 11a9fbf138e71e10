"""Neural-network functions built from primitives: softmax and log_softmax.

Both go through ``logsumexp``, so they are stable for large inputs and their
gradients (any order) come from its rule.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.tensor import Tensor


def log_softmax(x: Any, axis: int = -1) -> Tensor:
    """``x - logsumexp(x)`` along ``axis``."""
    return x - ops.logsumexp(x, axis=axis, keepdims=True)


def softmax(x: Any, axis: int = -1) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis``, computed as ``exp(log_softmax(x))``."""
    return ops.exp(log_softmax(x, axis=axis))
