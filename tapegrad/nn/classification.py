"""The losses of class labels: nll_loss and cross_entropy, with PyTorch's ``weight``,
``ignore_index``, ``label_smoothing`` and reductions.

The classes are axis 1 of the input, ``(N, C)`` or ``(N, C, d1, ...)`` with integer labels
``(N,)`` or ``(N, d1, ...)``; an unbatched ``(C,)`` input takes a 0-d label. Labels are
checked before anything is computed (so nothing is recorded on a bad call).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.active import tracing
from tapegrad.core.batched import Batched
from tapegrad.core.tensor import Tensor
from tapegrad.nn.losses import as_tensor, check_reduction, check_weight, host, reduce
from tapegrad.ops.primitive import Primitive, raw, shape_of

ArrayLike = Any


def _classes_last(x: Tensor) -> Tensor:
    """``(M, C)``: the class axis moved last and every other axis flattened."""
    if x.ndim == 1:
        return ops.reshape(x, (1, -1))
    moved = ops.transpose(x, (0, *range(2, x.ndim), 1)) if x.ndim > 2 else x
    return ops.reshape(moved, (-1, x.shape[1]))


def _label_shape(shape: tuple[int, ...]) -> tuple[int, ...]:
    return () if len(shape) == 1 else (shape[0], *shape[2:])


def _check_input(x: Tensor, op: str, labels: Any) -> None:
    if x.ndim < 1 or not 0 < x.shape[min(1, x.ndim - 1)]:
        raise ValueError(
            f"{op}: input must have shape (N, C, ...) or (C,) with C >= 1, got {x.shape} "
            f"(labels of shape {shape_of(labels)})"
        )


@dataclass
class _Labels:
    """Checked class labels, flattened: ``kept`` (not ``ignore_index``) and ``index`` (the
    label, 0 where ignored). From a Tensor inside tg.compile's trace they are recorded ops
    on it, so that a replay reads the new labels; otherwise host arrays."""

    shape: tuple[int, ...]
    kept: Any
    index: Any
    any_kept: bool


def _labels(labels: Any, x: Tensor, op: str, ignore_index: int) -> _Labels:
    """The labels checked: integers, the input's shape without C, in range."""
    dtype = labels.dtype if hasattr(labels, "dtype") else np.asarray(labels).dtype
    shape = shape_of(labels)
    if np.dtype(dtype).kind not in "iu":
        raise ValueError(
            f"{op}: labels must be integer class indices, got {dtype} of shape "
            f"{shape} (logits of shape {x.shape})"
        )
    expected = _label_shape(x.shape)
    if shape != expected:
        raise ValueError(
            f"{op}: labels of shape {shape} do not match logits of shape {x.shape}; "
            f"expected labels of shape {expected}"
        )
    num_classes = x.shape[0] if x.ndim == 1 else x.shape[1]
    size = math.prod(shape)
    # The common case: every label a class, none ignored (ignore_index is no class), told
    # from the smallest and the largest label alone.
    none_ignored = size > 0 and not 0 <= ignore_index < num_classes
    if isinstance(labels, Tensor) and tracing():
        # Recorded, and read by bool(): guards, which a replay checks on its labels.
        flat = ops.reshape(labels, (-1,))
        if none_ignored and bool(_all_classes(flat, classes=num_classes)):
            return _Labels(shape, np.ones(size, bool), flat, True)
        kept = flat != ignore_index
        valid = ops.logical_or(ops.logical_and(flat >= 0, flat < num_classes), ~kept)
        if bool(ops.all(valid)):
            return _Labels(shape, kept, ops.where(kept, flat, 0), bool(ops.any(kept)))
    batched = isinstance(labels, Tensor) and type(labels._data) is Batched
    # Inside tg.vmap, every example's labels are checked at once, and the labels used are
    # recorded ops on the Tensor, so that each example reads its own.
    found = host(labels._data.value if batched else labels)
    flat_found = found.reshape(-1)
    if none_ignored and not batched and found.dtype.kind in "iu":
        if _all_classes.numpy_forward(flat_found, classes=num_classes):
            return _Labels(shape, np.ones(size, bool), flat_found, True)
    kept_found = flat_found != ignore_index
    chosen = flat_found[kept_found]
    if chosen.size and (chosen.min() < 0 or chosen.max() >= num_classes):
        raise ValueError(
            f"{op}: labels range over [{chosen.min()}, {chosen.max()}], outside "
            f"[0, {num_classes}) for logits of shape {x.shape}"
            + (
                f" (ignore_index={ignore_index} aside)"
                if ignore_index != -100 or chosen.size != found.size
                else ""
            )
        )
    if batched:
        examples = kept_found.reshape(math.prod(labels._data.batch_shape), -1)
        flat = ops.reshape(labels, (-1,))
        kept = flat != ignore_index
        if not examples.any(axis=1).all():
            raise ValueError(
                f"{op}: under tg.vmap, an example's labels of shape {shape} all equal "
                f"ignore_index={ignore_index}: the mean over no label is not defined per example"
            )
        return _Labels(shape, kept, ops.where(kept, flat, 0), True)
    index = np.where(kept_found, flat_found, 0)
    return _Labels(shape, kept_found, index, bool(chosen.size))


def _all_classes_forward(xp: Any, labels: Any, classes: int) -> Any:
    """Whether every label is in [0, classes): from the smallest and the largest alone."""
    return xp.asarray((xp.min(labels) >= 0) & (xp.max(labels) < classes))


# One recorded op (a replay's guard reads it), not five: min, max, two tests and an and.
_all_classes = Primitive(
    "all_classes",
    _all_classes_forward,
    differentiable=False,
    numpy=lambda labels, classes: np.asarray(
        (np.minimum.reduce(labels, axis=None) >= 0)
        & (np.maximum.reduce(labels, axis=None) < classes)
    ),
)


def _check_weight(weight: Any, num_classes: int, op: str) -> None:
    if weight is not None and shape_of(weight) != (num_classes,):
        raise ValueError(
            f"{op}: weight of shape {shape_of(weight)}, expected one per class ({num_classes},)"
        )


def _weight_tensor(weight: Any, like: Tensor) -> Tensor:
    if isinstance(weight, Tensor):
        return weight if weight.dtype == like.dtype else ops.astype(weight, like.dtype)
    return ops.asarray(raw(weight), dtype=like.dtype, like=like)


def _picked_nll(log_probs: Tensor, labels: _Labels, weight: Any) -> tuple[Tensor, Tensor]:
    """Per label: ``-weight[y] * log_probs[y]`` (0 where ignored), and the weights used."""
    flat = _classes_last(log_probs)
    index = labels.index
    if not isinstance(index, Tensor):
        index = ops.asarray(index, like=flat)  # on the logits' device
    picked = ops.reshape(ops.take_along_axis(flat, ops.reshape(index, (-1, 1)), axis=1), (-1,))
    mask = _mask(labels, flat)
    weights = mask if weight is None else ops.take(_weight_tensor(weight, flat), index) * mask
    return -picked * weights, weights


def nll_loss(
    input: ArrayLike,
    target: Any,
    weight: ArrayLike | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
) -> Tensor:
    """The negative log-likelihood of integer class ``target`` under log-probabilities
    ``input``: ``-weight[y] * input[y]`` per label; labels equal to ``ignore_index``
    count for nothing. ``"mean"`` divides by the sum of the weights of the labels kept.

    Args:
        input: Log-probabilities ``(N, C)``, ``(N, C, d...)`` or ``(C,)``.
        target: Integer classes ``(N,)`` (``(N, d...)``).
        weight: One weight per class.
        ignore_index: A class label whose examples count for nothing.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` (the per-element losses).

    Returns:
        The loss: a scalar, or one per example with ``"none"``.

    Raises:
        ValueError: The shapes do not fit, a label is out of range, or ``reduction`` is
            unknown.

    >>> import tapegrad as tg
    >>> log_probs = tg.log(tg.tensor([[0.5, 0.25, 0.25], [0.1, 0.8, 0.1]]))
    >>> round(tg.nn.nll_loss(log_probs, [0, 1]).item(), 6)
    0.458145
    >>> round(tg.nn.nll_loss(log_probs, [0, -100]).item(), 6)  # the second label ignored
    0.693147
    """
    check_weight(weight, "nll_loss")
    check_reduction(reduction, "nll_loss")
    x = as_tensor(input)
    _check_input(x, "nll_loss", target)
    labels = _labels(target, x, "nll_loss", ignore_index)
    _check_weight(weight, x.shape[min(1, x.ndim - 1)], "nll_loss")
    losses, weights = _picked_nll(x, labels, weight)
    return _reduce_labelled(losses, weights, labels, reduction)


def cross_entropy(
    input: ArrayLike,
    target: Any,
    weight: ArrayLike | None = None,
    ignore_index: int = -100,
    reduction: str = "mean",
    label_smoothing: float = 0.0,
) -> Tensor:
    """Softmax cross-entropy of logits ``input`` (classes on axis 1) against integer class
    ``target``, or against class probabilities ``target`` of the input's shape.

    Stable for large logits (through ``log_softmax``). ``weight`` rescales each class,
    ``ignore_index`` drops labels, and ``label_smoothing`` mixes the one-hot target with
    the uniform distribution: ``(1 - eps) * nll + eps * mean_c(-weight_c log p_c)``, with
    PyTorch's normalisation under ``"mean"`` (the sum of the kept labels' weights).

    Args:
        input: Logits ``(N, C)``, ``(N, C, d...)`` or ``(C,)``.
        target: Integer classes ``(N,)`` (``(N, d...)``), or probabilities shaped like
            ``input``.
        weight: One weight per class.
        ignore_index: A class label whose examples count for nothing.
        reduction: ``"mean"``, ``"sum"`` or ``"none"`` (the per-element losses).
        label_smoothing: The weight ``eps`` of the uniform distribution, in ``[0, 1]``.

    Returns:
        The loss: a scalar, or one per example with ``"none"``.

    Raises:
        ValueError: The shapes do not fit, a label is out of range, or ``reduction`` is
            unknown.

    >>> import tapegrad as tg
    >>> round(tg.nn.cross_entropy(tg.tensor([[0.0, 0.0]]), [1]).item(), 4)
    0.6931
    >>> round(tg.nn.cross_entropy(tg.tensor([[2.0, 0.0]]), [0], label_smoothing=0.2).item(), 4)
    0.3269
    """
    op = "cross_entropy"
    check_weight(weight, op)
    check_reduction(reduction, op)
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"{op}: label_smoothing must be in [0, 1], got {label_smoothing}")
    x = as_tensor(input)
    _check_input(x, op, target)
    num_classes = x.shape[min(1, x.ndim - 1)]
    _check_weight(weight, num_classes, op)
    class_axis = 0 if x.ndim == 1 else 1
    kind = np.dtype(target.dtype if hasattr(target, "dtype") else np.asarray(target).dtype).kind
    if kind == "f" and shape_of(target) == x.shape:
        log_probs = ops.log_softmax(x, axis=class_axis)
        return _soft_targets(log_probs, target, weight, reduction, label_smoothing, class_axis)
    labels = _labels(target, x, op, ignore_index)
    if weight is None and not label_smoothing and reduction != "none" and labels.any_kept:
        # The common case as one op (ops/nn.py): its forward and gradient are NumPy's few
        # passes, where the composition below records ten entries.
        flat = x if x.ndim == 2 else _classes_last(x)
        return ops.nn.softmax_cross_entropy(flat, labels.index, labels.kept, reduction == "mean")
    log_probs = ops.log_softmax(x, axis=class_axis)
    losses, weights = _picked_nll(log_probs, labels, weight)
    if label_smoothing:
        flat = _classes_last(log_probs)
        if weight is not None:
            flat = flat * _weight_tensor(weight, flat)
        smooth = -ops.sum(flat, axis=1) * _mask(labels, flat)
        eps = float(label_smoothing)
        losses = (1.0 - eps) * losses + (eps / num_classes) * smooth
    return _reduce_labelled(losses, weights, labels, reduction)


def _mask(labels: _Labels, like: Tensor) -> Tensor:
    """1 for each label kept, 0 for each ignored, in ``like``'s dtype."""
    if isinstance(labels.kept, Tensor):
        return ops.astype(labels.kept, like.dtype)
    return ops.asarray(labels.kept, dtype=like.dtype, like=like)


def _reduce_labelled(losses: Tensor, weights: Tensor, labels: _Labels, reduction: str) -> Tensor:
    """PyTorch's reductions: ``"mean"`` is the sum over the sum of the kept labels' weights."""
    if reduction == "none":
        return ops.reshape(losses, labels.shape)
    total = ops.sum(losses)
    if reduction == "sum":
        return total
    if not labels.any_kept:
        # A mean over no label is nan, as in PyTorch, with a zero gradient (0/0 would
        # make it nan too, and one such batch would ruin every weight).
        return total * 0.0 + math.nan
    return total / ops.sum(weights)


def _soft_targets(
    log_probs: Tensor, target: Any, weight: Any, reduction: str, eps: float, axis: int
) -> Tensor:
    """Cross-entropy against class probabilities: ``-sum_c weight_c t_c log p_c``."""
    if isinstance(target, Tensor):  # keeps its gradient, and a replay reads its values
        probabilities = ops.astype(target, log_probs.dtype)
    else:
        probabilities = ops.asarray(raw(target), dtype=log_probs.dtype, like=log_probs)
    num_classes = log_probs.shape[axis]
    if eps:
        probabilities = probabilities * (1.0 - eps) + eps / num_classes
    terms = log_probs * probabilities
    if weight is not None:
        shape = [1] * log_probs.ndim
        shape[axis] = num_classes
        terms = terms * ops.reshape(_weight_tensor(weight, log_probs), tuple(shape))
    return reduce(-ops.sum(terms, axis=axis), reduction)
