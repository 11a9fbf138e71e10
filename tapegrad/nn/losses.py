"""Losses between predictions and targets of one shape: mse_loss, l1_loss, smooth_l1_loss,
huber_loss, kl_div, binary_cross_entropy, binary_cross_entropy_with_logits (PyTorch's
formulas). The losses of class labels, nll_loss and cross_entropy, are in classification.py.

Each is a composition of differentiable ops (no hand-written gradients) and checks its
arguments before computing anything: a wrong shape, dtype or range raises ValueError
naming the loss and the shapes. The shapes must be equal (no broadcasting, which hides
``(N, 1)`` against ``(N,)`` bugs). ``reduction`` is ``"mean"``, ``"sum"`` or ``"none"``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw, shape_of

ArrayLike = Any
REDUCTIONS = ("mean", "sum", "none")


def check_reduction(reduction: str, op: str, extra: tuple[str, ...] = ()) -> None:
    if reduction not in REDUCTIONS + extra:
        raise ValueError(f"{op}: reduction must be one of {REDUCTIONS + extra}, got {reduction!r}")


def check_weight(weight: Any, op: str) -> None:
    """A TypeError for a reduction passed where PyTorch's order puts the weights."""
    if isinstance(weight, str):
        raise TypeError(
            f"{op}: weight is {weight!r}; the argument after the target is the weight, as in "
            f"PyTorch: pass reduction={weight!r} by keyword"
        )


def reduce(losses: Tensor, reduction: str) -> Tensor:
    if reduction == "mean":
        return ops.mean(losses)
    if reduction == "sum":
        return ops.sum(losses)
    return losses


def as_tensor(x: ArrayLike) -> Tensor:
    return x if isinstance(x, Tensor) else ops.asarray(x)


def host(values: Any) -> np.ndarray:
    """A host NumPy view of labels or targets, for checking them."""
    data = raw(values)
    return backend.to_host(data) if hasattr(data, "shape") else np.asarray(data)


def _like(values: Any, like: Tensor) -> Any:
    """``values`` as an operand next to ``like``: a Tensor of its kind and dtype as it is (it
    keeps its gradient), anything else converted to ``like``'s dtype and device."""
    if isinstance(values, Tensor) and type(values._data) is type(like._data):
        return values if values.dtype == like.dtype else ops.astype(values, like.dtype)
    return ops.asarray(raw(values), dtype=like.dtype, like=like)


def _pair(pred: ArrayLike, target: ArrayLike, op: str, reduction: str) -> tuple[Tensor, Any]:
    """Checked ``(pred, target)`` of equal shapes, the target next to the prediction."""
    check_reduction(reduction, op)
    if shape_of(pred) != shape_of(target):
        raise ValueError(
            f"{op}: pred of shape {shape_of(pred)} and target of shape {shape_of(target)} "
            "differ (reshape one of them; the loss does not broadcast)"
        )
    pred = as_tensor(pred)
    if host(target).dtype.kind not in "biuf":
        raise ValueError(f"{op}: target must be real numbers, got {host(target).dtype}")
    return pred, _like(target, pred)


def mse_loss(pred: ArrayLike, target: ArrayLike, reduction: str = "mean") -> Tensor:
    """Mean squared error ``mean((pred - target) ** 2)``; the shapes must be equal.

    Args:
        pred: The predictions.
        target: The targets, of the same shape.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` (the per-element losses).

    Returns:
        The loss: a scalar, or one per element with ``"none"``.

    Raises:
        ValueError: The shapes differ, or ``reduction`` is unknown.

    >>> import tapegrad as tg
    >>> tg.nn.mse_loss(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 4.0])).item()
    2.0
    """
    check_reduction(reduction, "mse_loss")
    if shape_of(pred) != shape_of(target):
        raise ValueError(
            f"mse_loss: pred of shape {shape_of(pred)} and target of shape {shape_of(target)} "
            "differ (reshape one of them; the loss does not broadcast)"
        )
    return reduce(ops.square(ops.subtract(pred, target)), reduction)


def l1_loss(pred: ArrayLike, target: ArrayLike, reduction: str = "mean") -> Tensor:
    """Mean absolute error ``mean(|pred - target|)`` (gradient 0 where they are equal).

    Args:
        pred: The predictions.
        target: The targets, of the same shape.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` (the per-element losses).

    Returns:
        The loss: a scalar, or one per element with ``"none"``.

    Raises:
        ValueError: The shapes differ, or ``reduction`` is unknown.

    >>> import tapegrad as tg
    >>> tg.nn.l1_loss(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 5.0]), reduction="sum").item()
    3.0
    """
    pred, target = _pair(pred, target, "l1_loss", reduction)
    return reduce(ops.abs(pred - target), reduction)


def smooth_l1_loss(
    pred: ArrayLike, target: ArrayLike, reduction: str = "mean", beta: float = 1.0
) -> Tensor:
    """``0.5 d**2 / beta`` where ``d = |pred - target| < beta``, else ``d - 0.5 beta``
    (``beta = 0``: the L1 loss).

    Args:
        pred: The predictions.
        target: The targets, of the same shape.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` (the per-element losses).
        beta: Where the loss turns from quadratic to linear, non-negative.

    Returns:
        The loss: a scalar, or one per element with ``"none"``.

    Raises:
        ValueError: The shapes differ, ``reduction`` is unknown, or ``beta`` is negative.

    >>> import tapegrad as tg
    >>> tg.nn.smooth_l1_loss(tg.tensor([0.0, 0.0]), [0.5, 3.0], reduction="none").numpy()
    array([0.125, 2.5  ])
    """
    if beta < 0:
        raise ValueError(f"smooth_l1_loss: beta must be >= 0, got {beta}")
    pred, target = _pair(pred, target, "smooth_l1_loss", reduction)
    diff = pred - target
    distance = ops.abs(diff)
    if beta == 0:
        return reduce(distance, reduction)
    losses = ops.where(distance < beta, 0.5 / beta * ops.square(diff), distance - 0.5 * beta)
    return reduce(losses, reduction)


def huber_loss(
    pred: ArrayLike, target: ArrayLike, reduction: str = "mean", delta: float = 1.0
) -> Tensor:
    """``0.5 d**2`` where ``d = |pred - target| < delta``, else ``delta * (d - 0.5 delta)``
    (``smooth_l1_loss`` times ``beta = delta``).

    Args:
        pred: The predictions.
        target: The targets, of the same shape.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` (the per-element losses).
        delta: Where the loss turns from quadratic to linear, positive.

    Returns:
        The loss: a scalar, or one per element with ``"none"``.

    Raises:
        ValueError: The shapes differ, ``reduction`` is unknown, or ``delta`` is not positive.

    >>> import tapegrad as tg
    >>> tg.nn.huber_loss(tg.tensor([0.0, 0.0]), [0.5, 3.0], delta=2.0, reduction="none").numpy()
    array([0.125, 4.   ])
    """
    if not delta > 0:
        raise ValueError(f"huber_loss: delta must be > 0, got {delta}")
    pred, target = _pair(pred, target, "huber_loss", reduction)
    diff = pred - target
    distance = ops.abs(diff)
    losses = ops.where(distance < delta, 0.5 * ops.square(diff), delta * (distance - 0.5 * delta))
    return reduce(losses, reduction)


def kl_div(
    input: ArrayLike, target: ArrayLike, reduction: str = "mean", log_target: bool = False
) -> Tensor:
    """Kullback-Leibler divergence of ``target`` from the distribution whose *log*
    probabilities are ``input`` (PyTorch's argument order): ``target * (log(target) - input)``
    elementwise, 0 where ``target`` is 0; with ``log_target``, ``exp(target) * (target -
    input)``. ``reduction="batchmean"`` divides the sum by the batch size (the first axis),
    the true KL divergence per example; ``"mean"`` averages over every element.

    Args:
        input: Log-probabilities.
        target: Probabilities (log-probabilities with ``log_target``), of the same shape.
        reduction: ``"mean"``, ``"sum"``, ``"batchmean"`` or ``"none"``.
        log_target: Whether ``target`` holds log-probabilities.

    Returns:
        The loss: a scalar, or one per element with ``"none"``.

    Raises:
        ValueError: The shapes differ, or ``reduction`` is unknown.

    >>> import tapegrad as tg
    >>> p = tg.tensor([[0.5, 0.5]])
    >>> round(tg.nn.kl_div(tg.log(p), [[0.9, 0.1]], reduction="batchmean").item(), 6)
    0.368064
    """
    check_reduction(reduction, "kl_div", ("batchmean",))
    input, target = _pair(input, target, "kl_div", "none")
    if log_target:
        losses = ops.exp(target) * (target - input)
    else:
        if host(target).size and host(target).min() < 0:
            raise ValueError(
                f"kl_div: target of shape {shape_of(target)} has negative probabilities "
                "(pass log_target=True for log-probabilities)"
            )
        positive = target > 0
        # The inner where keeps log away from 0, so the discarded branch has no nan gradient.
        log_target_values = ops.log(ops.where(positive, target, 1.0))
        losses = ops.where(positive, target * (log_target_values - input), 0.0)
    if reduction == "batchmean":
        return ops.sum(losses) / float(input.shape[0] if input.ndim else 1)
    return reduce(losses, reduction)


def _check_unit_interval(values: Any, what: str, op: str) -> None:
    found = host(values)
    if found.size and not (found.min() >= 0 and found.max() <= 1):
        raise ValueError(
            f"{op}: {what} of shape {found.shape} range over [{found.min()}, {found.max()}], "
            "outside [0, 1]"
        )


def _clamped_log(p: Tensor) -> Tensor:
    """``max(log p, -100)`` (PyTorch's clamp), 0 included, with no nan in the gradient."""
    positive = p > 0
    logs = ops.log(ops.where(positive, p, 1.0))
    return ops.where(positive, ops.maximum(logs, -100.0), -100.0)


def _clamped_log1m(p: Tensor) -> Tensor:
    """``max(log(1 - p), -100)``, through log1p for p near 0."""
    below = p < 1
    logs = ops.log1p(-ops.where(below, p, 0.0))
    return ops.where(below, ops.maximum(logs, -100.0), -100.0)


def _weighted(losses: Tensor, weight: Any, op: str) -> Tensor:
    if weight is None:
        return losses
    try:
        np.broadcast_shapes(shape_of(weight), losses.shape)
    except ValueError:
        raise ValueError(
            f"{op}: weight of shape {shape_of(weight)} does not broadcast to the input's "
            f"shape {losses.shape}"
        ) from None
    return losses * _like(weight, losses)


def binary_cross_entropy(
    input: ArrayLike, target: ArrayLike, weight: ArrayLike | None = None, reduction: str = "mean"
) -> Tensor:
    """``-weight * (target log(input) + (1 - target) log(1 - input))`` for probabilities
    ``input`` in [0, 1]; each log is clamped at -100, as PyTorch's.

    Args:
        input: Probabilities in ``[0, 1]``.
        target: Targets in ``[0, 1]``, of the same shape.
        weight: Weights broadcast to the input's shape.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` (the per-element losses).

    Returns:
        The loss: a scalar, or one per element with ``"none"``.

    Raises:
        ValueError: The shapes differ, ``input`` is outside ``[0, 1]``, or ``reduction`` is unknown.

    >>> import tapegrad as tg
    >>> round(tg.nn.binary_cross_entropy(tg.tensor([0.5, 0.9]), [1.0, 1.0]).item(), 6)
    0.399254
    """
    op = "binary_cross_entropy"
    check_weight(weight, op)
    input, target = _pair(input, target, op, reduction)
    _check_unit_interval(input, "input probabilities", op)
    _check_unit_interval(target, "targets", op)
    losses = -(target * _clamped_log(input) + (1.0 - target) * _clamped_log1m(input))
    return reduce(_weighted(losses, weight, op), reduction)


def binary_cross_entropy_with_logits(
    logits: ArrayLike,
    targets: ArrayLike,
    weight: ArrayLike | None = None,
    reduction: str = "mean",
    pos_weight: ArrayLike | None = None,
) -> Tensor:
    """Binary cross-entropy of ``sigmoid(logits)`` against ``targets`` in ``[0, 1]`` of the
    same shape, computed as ``softplus(logits) - logits * targets`` (no overflow).
    ``pos_weight`` (broadcast over the last axis, one per class) weighs the positive term:
    ``(1 - t) x + (1 + (pos_weight - 1) t) softplus(-x)``; ``weight`` every element.

    Args:
        logits: The logits.
        targets: Targets in ``[0, 1]``, of the same shape.
        weight: Weights broadcast to the logits' shape.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` (the per-element losses).
        pos_weight: The weight of the positive term, one per class (the last axis).

    Returns:
        The loss: a scalar, or one per element with ``"none"``.

    Raises:
        ValueError: The shapes differ, or ``reduction`` is unknown.
        TypeError: ``weight`` is a string (``reduction`` passed by position).

    >>> import tapegrad as tg
    >>> round(tg.nn.binary_cross_entropy_with_logits(tg.tensor([0.0]), [1.0]).item(), 4)
    0.6931
    """
    op = "binary_cross_entropy_with_logits"
    check_weight(weight, op)
    check_reduction(reduction, op)
    logits = as_tensor(logits)
    found = host(targets)
    if found.shape != logits.shape:
        raise ValueError(
            f"{op}: targets of shape {found.shape} do not match logits of shape {logits.shape}"
        )
    if found.dtype.kind not in "biuf":
        raise ValueError(
            f"{op}: targets must be real numbers, got {found.dtype} of shape {found.shape}"
        )
    _check_unit_interval(found, "targets", op)
    targets = _like(targets, logits)
    if pos_weight is None:
        losses = ops.softplus(logits) - logits * targets
    else:
        pos_weight = _like(pos_weight, logits)
        losses = (1.0 - targets) * logits + (1.0 + (pos_weight - 1.0) * targets) * ops.softplus(
            -logits
        )
    return reduce(_weighted(losses, weight, op), reduction)
