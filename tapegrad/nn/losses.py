"""Losses: mse_loss, cross_entropy, binary_cross_entropy_with_logits.

Each is a composition of differentiable ops (no hand-written gradients) and
checks its labels before computing anything: a wrong shape, dtype or range
raises ValueError naming the loss and the shapes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import backend, ops
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.tensor import Tensor

ArrayLike = Any
REDUCTIONS = ("mean", "sum", "none")


def _check_reduction(reduction: str, op: str) -> None:
    if reduction not in REDUCTIONS:
        raise ValueError(f"{op}: reduction must be one of {REDUCTIONS}, got {reduction!r}")


def _reduce(losses: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return ops.mean(losses)
    if reduction == "sum":
        return ops.sum(losses)
    return losses


def _as_tensor(x: ArrayLike) -> Tensor:
    return x if isinstance(x, Tensor) else ops.asarray(x)


def _host_labels(labels: Any) -> np.ndarray:
    data = raw(labels)
    return backend.to_host(data) if hasattr(data, "shape") else np.asarray(data)


def mse_loss(pred: ArrayLike, target: ArrayLike, reduction: str = "mean") -> Tensor:
    """Mean squared error ``mean((pred - target) ** 2)``; the shapes must be equal.

    >>> import tapegrad as tg
    >>> tg.nn.mse_loss(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 4.0])).item()
    2.0
    """
    _check_reduction(reduction, "mse_loss")
    if shape_of(pred) != shape_of(target):
        raise ValueError(
            f"mse_loss: pred of shape {shape_of(pred)} and target of shape {shape_of(target)} "
            "differ (reshape one of them; the loss does not broadcast)"
        )
    return _reduce(ops.square(ops.subtract(pred, target)), reduction)


def cross_entropy(logits: ArrayLike, labels: Any, reduction: str = "mean") -> Tensor:
    """Softmax cross-entropy of ``logits`` ``(N, C)`` against integer class ``labels`` ``(N,)``,
    averaged over the batch; stable for large logits (it goes through ``log_softmax``).

    >>> import tapegrad as tg
    >>> round(tg.nn.cross_entropy(tg.tensor([[0.0, 0.0]]), [1]).item(), 4)
    0.6931
    """
    _check_reduction(reduction, "cross_entropy")
    logits = _as_tensor(logits)
    if logits.ndim != 2:
        raise ValueError(
            f"cross_entropy: logits must have shape (N, C), got {logits.shape} "
            f"(labels of shape {shape_of(labels)})"
        )
    n, num_classes = logits.shape
    host = _host_labels(labels)
    if host.dtype.kind not in "iu":
        raise ValueError(
            f"cross_entropy: labels must be integer class indices, got {host.dtype} of shape "
            f"{host.shape} (logits of shape {logits.shape})"
        )
    if host.shape != (n,):
        raise ValueError(
            f"cross_entropy: labels of shape {host.shape} do not match logits of shape "
            f"{logits.shape}; expected labels of shape ({n},)"
        )
    if n and (host.min() < 0 or host.max() >= num_classes):
        raise ValueError(
            f"cross_entropy: labels range over [{host.min()}, {host.max()}], outside "
            f"[0, {num_classes}) for logits of shape {logits.shape}"
        )
    index = ops.reshape(ops.asarray(raw(labels), like=logits), (n, 1))
    log_probs = ops.log_softmax(logits, axis=1)
    picked = ops.take_along_axis(log_probs, index, axis=1)
    return _reduce(-ops.reshape(picked, (n,)), reduction)


def binary_cross_entropy_with_logits(
    logits: ArrayLike, targets: ArrayLike, reduction: str = "mean"
) -> Tensor:
    """Binary cross-entropy of ``sigmoid(logits)`` against ``targets`` in ``[0, 1]`` of the
    same shape, computed as ``softplus(logits) - logits * targets`` (no overflow).

    >>> import tapegrad as tg
    >>> round(tg.nn.binary_cross_entropy_with_logits(tg.tensor([0.0]), [1.0]).item(), 4)
    0.6931
    """
    _check_reduction(reduction, "binary_cross_entropy_with_logits")
    logits = _as_tensor(logits)
    host = _host_labels(targets)
    if host.shape != logits.shape:
        raise ValueError(
            f"binary_cross_entropy_with_logits: targets of shape {host.shape} do not match "
            f"logits of shape {logits.shape}"
        )
    if host.dtype.kind not in "biuf":
        raise ValueError(
            f"binary_cross_entropy_with_logits: targets must be real numbers, got {host.dtype} "
            f"of shape {host.shape}"
        )
    if host.size and not (host.min() >= 0 and host.max() <= 1):
        raise ValueError(
            f"binary_cross_entropy_with_logits: targets of shape {host.shape} range over "
            f"[{host.min()}, {host.max()}], outside [0, 1]"
        )
    same_kind = isinstance(targets, Tensor) and type(targets._data) is type(logits._data)
    if not (same_kind and targets.dtype == logits.dtype):
        # A Tensor of the logits' kind and dtype is used as it is, so its gradient is kept.
        targets = ops.asarray(raw(targets), dtype=logits.dtype, like=logits)
    losses = ops.softplus(logits) - logits * targets
    return _reduce(losses, reduction)
