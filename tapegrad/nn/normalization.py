"""Batch normalisation: batch_norm, BatchNorm1d, BatchNorm2d (PyTorch's maths and buffers).

In training mode each channel is normalised with the batch's mean and biased variance,
and the running statistics move towards the batch's (the running variance takes the
unbiased variance, as PyTorch's does); in evaluation mode the running statistics are
used. The running statistics are non-trainable Variables, so they are in ``state_dict``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.nn.module import Module
from tapegrad.ops.primitive import shape_of
from tapegrad.transforms.checkpoint import recomputing

ArrayLike = Any


def batch_norm(
    x: ArrayLike,
    running_mean: Variable | None,
    running_var: Variable | None,
    weight: ArrayLike | None = None,
    bias: ArrayLike | None = None,
    training: bool = False,
    momentum: float = 0.1,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise each channel (axis 1) of ``x`` ``(N, C, ...)``, then scale and shift.

    With ``training`` (or no running statistics) the batch's statistics are used, and
    ``running_mean``/``running_var`` (when given) are assigned
    ``(1 - momentum) * running + momentum * batch``, the variance unbiased.

    Args:
        x: The input ``(N, C, ...)``.
        running_mean: The running means ``(C,)`` (a Variable), or None.
        running_var: The running variances ``(C,)`` (a Variable), or None.
        weight: The scale per channel, or None.
        bias: The shift per channel, or None.
        training: Whether to use (and update the running statistics with) the batch's
            statistics.
        momentum: The weight of this batch in the running statistics.
        eps: Added to the variance for stability.

    Returns:
        The normalised ``x``, of its shape.

    Raises:
        ValueError: The input has fewer than 2 axes, or the statistics do not fit.

    >>> import tapegrad as tg
    >>> mean, var = tg.Variable([0.0], trainable=False), tg.Variable([1.0], trainable=False)
    >>> y = tg.nn.batch_norm(tg.tensor([[1.0], [3.0]]), mean, var, training=True)
    >>> y.numpy().ravel().round(4), mean.numpy(), var.numpy()
    (array([-1.,  1.]), array([0.2]), array([1.1]))
    """
    shape = shape_of(x)
    if len(shape) < 2:
        raise ValueError(f"batch_norm: expected input of shape (N, C, ...), got {shape}")
    channels = shape[1]
    for name, value in (("running_mean", running_mean), ("running_var", running_var),
                        ("weight", weight), ("bias", bias)):  # fmt: skip
        if value is not None and shape_of(value) != (channels,):
            raise ValueError(
                f"batch_norm: {name} of shape {shape_of(value)} does not fit input of shape "
                f"{shape} ({channels} channels)"
            )
    axes = (0, *range(2, len(shape)))
    broadcast = (1, channels) + (1,) * (len(shape) - 2)
    if training or running_mean is None or running_var is None:
        count = math.prod(shape[a] for a in axes)
        if training and count <= 1:
            raise ValueError(
                f"batch_norm: expected more than 1 value per channel when training, "
                f"got input of shape {shape}"
            )
        mean = ops.mean(x, axis=axes, keepdims=True)
        centred = x - mean
        variance = ops.mean(centred * centred, axis=axes, keepdims=True)
        if training and running_mean is not None and running_var is not None:
            if not recomputing():  # tg.checkpoint's second forward must not count twice
                _update(running_mean, mean, momentum, 1.0)
                _update(running_var, variance, momentum, count / max(count - 1, 1))
        out = centred / ops.sqrt(variance + eps)
    else:
        mean = ops.reshape(running_mean, broadcast)
        variance = ops.reshape(running_var, broadcast)
        out = (x - mean) / ops.sqrt(variance + eps)
    if weight is not None:
        out = out * ops.reshape(weight, broadcast)
    if bias is not None:
        out = out + ops.reshape(bias, broadcast)
    return out


def _update(running: Variable, batch: Tensor, momentum: float, correction: float) -> None:
    """``running = (1 - momentum) * running + momentum * correction * batch``, off the tape."""
    statistic = batch._data.reshape(running.shape) * correction
    running.assign((1.0 - momentum) * running._data + momentum * statistic)


class _BatchNorm(Module):
    """The layer behind BatchNorm1d and BatchNorm2d; subclasses give the input's ranks."""

    ranks: tuple[int, ...] = ()
    layout = ""

    def __init__(
        self,
        num_features: int,
        eps: float = 1e-5,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        dtype: Any = np.float32,
        device: str | None = None,
    ) -> None:
        self.num_features = num_features
        self.eps = eps
        self.momentum = momentum
        self.affine = affine
        self.track_running_stats = track_running_stats
        shape = (num_features,)
        self.weight = self.bias = None
        if affine:
            self.weight = Variable(ops.ones(shape, dtype=dtype, device=device))
            self.bias = Variable(ops.zeros(shape, dtype=dtype, device=device))
        self.running_mean = self.running_var = self.num_batches_tracked = None
        if track_running_stats:
            self.running_mean = Variable(
                ops.zeros(shape, dtype=dtype, device=device), trainable=False
            )
            self.running_var = Variable(
                ops.ones(shape, dtype=dtype, device=device), trainable=False
            )
            self.num_batches_tracked = Variable(
                ops.zeros((), dtype=np.int64, device=device), trainable=False
            )

    def forward(self, x: ArrayLike) -> Tensor:
        """``x`` normalised per channel: by the batch's statistics in training mode, by the
        running ones in evaluation mode."""
        shape = shape_of(x)
        name = type(self).__name__
        if len(shape) not in self.ranks:
            raise ValueError(f"{name}: expected input of shape {self.layout}, got {shape}")
        if shape[1] != self.num_features:
            raise ValueError(
                f"{name}: input of shape {shape} has {shape[1]} channels (axis 1), "
                f"the layer {self.num_features}"
            )
        momentum = 0.0 if self.momentum is None else self.momentum
        if self.training and self.track_running_stats and not recomputing():
            assert self.num_batches_tracked is not None  # track_running_stats made it
            self.num_batches_tracked.assign(self.num_batches_tracked._data + 1)
            if self.momentum is None:  # a cumulative average of every batch seen
                momentum = 1.0 / float(self.num_batches_tracked._data)
        use_batch = self.training or not self.track_running_stats
        return batch_norm(
            x, self.running_mean, self.running_var, self.weight, self.bias,
            use_batch, momentum, self.eps,
        )  # fmt: skip

    def extra_repr(self) -> str:
        return (
            f"{self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"affine={self.affine}, track_running_stats={self.track_running_stats}"
        )


class BatchNorm1d(_BatchNorm):
    """Batch normalisation of ``(N, C)`` or ``(N, C, L)`` input over every axis but C.

    Parameters ``weight`` (ones) and ``bias`` (zeros); buffers ``running_mean`` (zeros),
    ``running_var`` (ones) and ``num_batches_tracked``, as PyTorch names them.

    Args:
        num_features: The number of channels (axis 1).
        eps: Added to the variance for stability.
        momentum: The weight of each batch in the running statistics; None for a
            cumulative average over every batch.
        affine: Whether to learn a scale and a shift per channel.
        track_running_stats: Whether to keep running statistics (used in evaluation mode).
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.

    Raises:
        ValueError: When called, the input's rank or channels do not fit.

    >>> import tapegrad as tg
    >>> bn = tg.nn.BatchNorm1d(3)
    >>> [name for name, _ in bn.named_variables()]
    ['weight', 'bias', 'running_mean', 'running_var', 'num_batches_tracked']
    """

    ranks = (2, 3)
    layout = "(N, C) or (N, C, L)"


class BatchNorm2d(_BatchNorm):
    """Batch normalisation of NCHW input over N, H and W, per channel.

    Args:
        num_features: The number of channels (axis 1).
        eps: Added to the variance for stability.
        momentum: The weight of each batch in the running statistics; None for a
            cumulative average over every batch.
        affine: Whether to learn a scale and a shift per channel.
        track_running_stats: Whether to keep running statistics (used in evaluation mode).
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.

    Raises:
        ValueError: When called, the input's rank or channels do not fit.

    >>> import tapegrad as tg
    >>> bn = tg.nn.BatchNorm2d(2)
    >>> y = bn(tg.random.normal((4, 2, 3, 3), dtype="float32"))
    >>> y.shape, int(bn.num_batches_tracked.item())
    ((4, 2, 3, 3), 1)
    """

    ranks = (4,)
    layout = "(N, C, H, W)"
