"""Gradient clipping by the global norm of all gradients together."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor


def clip_by_global_norm(grads: Sequence[Any], max_norm: float) -> tuple[list[Any], Tensor]:
    """Scale ``grads`` so that their joint L2 norm is at most ``max_norm``.

    Returns ``(clipped, norm)``, where ``norm`` is the norm before clipping and
    ``clipped[i] = grads[i] * max_norm / max(norm, max_norm)`` (TensorFlow's
    rule: grads under the limit come back unchanged in value). ``None`` entries
    stay ``None``; a complex gradient counts as its real and imaginary parts. Written with
    tapegrad ops, so it is differentiable.

    Args:
        grads: Gradients (Tensors, arrays or None).
        max_norm: The largest joint norm allowed, positive.

    Returns:
        ``(clipped, norm)``.

    Raises:
        ValueError: ``max_norm`` is not positive.

    >>> import tapegrad as tg
    >>> grads = [tg.tensor([3.0]), None, tg.tensor([4.0])]
    >>> clipped, norm = tg.optim.clip_by_global_norm(grads, 1.0)
    >>> norm.item(), round(clipped[0].item(), 6), clipped[1], round(clipped[2].item(), 6)
    (5.0, 0.6, None, 0.8)
    """
    if not max_norm > 0:
        raise ValueError(f"clip_by_global_norm: max_norm must be positive, got {max_norm}")
    present = [g if isinstance(g, Tensor) else ops.asarray(g) for g in grads if g is not None]
    if not present:
        return list(grads), ops.zeros(())
    norm = ops.sqrt(sum(ops.sum(_squares(g)) for g in present))
    scale = max_norm / ops.maximum(norm, max_norm)
    clipped = iter(g * ops.astype(scale, g.dtype) for g in present)
    return [None if g is None else next(clipped) for g in grads], norm


def _squares(g: Tensor) -> Tensor:
    """``|g|**2`` elementwise: a complex gradient's norm is that of its pairs of reals."""
    if backend.is_complex(g.dtype):
        return ops.real(g * ops.conj(g))
    return ops.square(g)
