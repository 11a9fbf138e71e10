"""Layers built from tapegrad ops: Linear, Flatten, Dropout, Embedding, LayerNorm, and the
functions behind them (activations: activations.py; containers: containers.py).

Every layer's forward is a composition of differentiable ops, so its gradient
(of any order) comes from the tape; there are no hand-written rules here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops, random
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import tracing
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.nn import init
from tapegrad.nn.module import Module
from tapegrad.ops.linalg import matmul_add
from tapegrad.ops.primitive import normalize_axis, raw, shape_of

ArrayLike = Any


def linear(x: ArrayLike, weight: ArrayLike, bias: ArrayLike | None = None) -> Tensor:
    """``x @ weight + bias`` with ``weight`` of shape ``(in_features, out_features)``.

    Args:
        x: The input ``(..., in_features)``.
        weight: ``(in_features, out_features)``.
        bias: ``(out_features,)``, or None.

    Returns:
        ``(..., out_features)``.

    Raises:
        ValueError: The input's last axis does not fit the weight.

    >>> import tapegrad as tg
    >>> tg.nn.linear(tg.ones((2, 3)), tg.ones((3, 4)), tg.zeros(4)).shape
    (2, 4)
    """
    x_shape, w_shape = shape_of(x), shape_of(weight)
    if len(x_shape) < 1 or len(w_shape) != 2 or x_shape[-1] != w_shape[0]:
        raise ValueError(
            f"linear: input of shape {x_shape} does not fit a weight of shape {w_shape} "
            f"(the input's last dimension must be in_features = {w_shape[0] if w_shape else '?'})"
        )
    return ops.matmul(x, weight) if bias is None else matmul_add(x, weight, bias)


class Linear(Module):
    """``x @ weight + bias``; weight ``(in_features, out_features)``, Kaiming-uniform
    initialised like PyTorch's (bound ``1/sqrt(in_features)`` for weight and bias).

    Args:
        in_features: The size of the input's last axis.
        out_features: The size of the output's last axis.
        bias: Whether to add a learnable bias.
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.
        generator: The random stream of the initial values; the default ``tg.random``
            stream when None.

    Raises:
        ValueError: A size is not positive; when called, the input's last axis is not
            ``in_features``.

    >>> import tapegrad as tg
    >>> layer = tg.nn.Linear(3, 2)
    >>> layer(tg.ones((5, 3), dtype="float32")).shape, layer.weight.dtype
    ((5, 2), dtype('float32'))
    """

    def __init__(
        self,
        in_features: int,
        out_features: int,
        bias: bool = True,
        dtype: Any = np.float32,
        device: str | None = None,
        generator: random.Generator | None = None,
    ) -> None:
        self.in_features = in_features
        self.out_features = out_features
        shape = (in_features, out_features)
        self.weight, self.bias = init.layer_parameters(
            shape, in_features, out_features if bias else None, dtype, device, generator
        )

    def forward(self, x: ArrayLike) -> Tensor:
        """``x @ weight + bias`` for ``x`` of shape ``(..., in_features)``."""
        return linear(x, self.weight, self.bias)

    def extra_repr(self) -> str:
        return (
            f"in_features={self.in_features}, out_features={self.out_features}, "
            f"bias={self.bias is not None}"
        )


class Flatten(Module):
    """Merge the axes from ``start_dim`` on into one: ``(N, C, H, W) -> (N, C*H*W)``.

    Args:
        start_dim: The first axis to merge.

    Raises:
        ValueError: When called, ``start_dim`` is out of range for the input.

    >>> import tapegrad as tg
    >>> tg.nn.Flatten()(tg.ones((2, 3, 4, 5))).shape
    (2, 60)
    """

    def __init__(self, start_dim: int = 1) -> None:
        self.start_dim = start_dim

    def forward(self, x: ArrayLike) -> Tensor:
        """``x`` with the axes from ``start_dim`` on merged into one."""
        shape = shape_of(x)
        (start,) = normalize_axis(self.start_dim, len(shape), "Flatten")
        return ops.reshape(x, shape[:start] + (-1,))

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}"


def dropout(
    x: ArrayLike, p: float, training: bool = True, generator: random.Generator | None = None
) -> Tensor:
    """Zero each element with probability ``p`` and scale the rest by ``1/(1-p)``
    (only when ``training``; otherwise ``x`` is returned unchanged).

    Args:
        x: The input.
        p: The probability of zeroing an element, in ``[0, 1]``.
        training: Whether to drop (otherwise ``x`` is returned).
        generator: The random stream of the mask; the default ``tg.random`` stream when
            None.

    Returns:
        A Tensor of ``x``'s shape.

    Raises:
        ValueError: ``p`` is outside ``[0, 1]``.

    >>> import tapegrad as tg
    >>> y = tg.nn.dropout(tg.ones(1000), 0.5, generator=tg.random.Generator(0))
    >>> sorted(set(y.numpy().tolist()))
    [0.0, 2.0]
    """
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout: p must be in [0, 1], got {p}")
    x = x if isinstance(x, Tensor) else ops.asarray(x)
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return x * 0.0
    source = random if generator is None else generator
    keep = source.uniform(x.shape, dtype=np.float64, like=x) >= p  # a constant: no gradient
    scale = ops.astype(keep, x.dtype) / (1.0 - p)
    return x * scale


class Dropout(Module):
    """Dropout with probability ``p``, active only in training mode (``model.train()``).

    Masks come from ``generator`` (the default ``tg.random`` stream when None, so
    ``tg.random.seed(n)`` makes them reproducible).

    Args:
        p: The probability of zeroing an element, in ``[0, 1]``.
        generator: The random stream of the masks.

    Raises:
        ValueError: ``p`` is outside ``[0, 1]``.

    >>> import tapegrad as tg
    >>> layer = tg.nn.Dropout(0.5)
    >>> layer.eval()(tg.ones(4))  # the identity outside training
    tensor([1., 1., 1., 1.], dtype=float64)
    """

    def __init__(self, p: float = 0.5, generator: random.Generator | None = None) -> None:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"Dropout: p must be in [0, 1], got {p}")
        self.p = p
        self.generator = generator

    def forward(self, x: ArrayLike) -> Tensor:
        """``x`` with elements dropped (training mode) or unchanged (evaluation mode)."""
        return dropout(x, self.p, self.training, self.generator)

    def extra_repr(self) -> str:
        return f"p={self.p}"


def embedding(indices: Any, weight: ArrayLike) -> Tensor:
    """Rows of ``weight`` at integer ``indices``: shape ``indices.shape + (dim,)``.

    Args:
        indices: Integer row numbers, in ``[0, weight.shape[0])``.
        weight: The table ``(num_embeddings, dim)``.

    Returns:
        ``indices.shape + (dim,)``.

    Raises:
        ValueError: The indices are not integers, or are out of range.

    >>> import tapegrad as tg
    >>> tg.nn.embedding([[0, 2]], tg.eye(3)).shape
    (1, 2, 3)
    """
    index = raw(indices)
    if not hasattr(index, "dtype"):
        index = np.asarray(index)
    num = shape_of(weight)[0]
    dtype = index.dtype
    if backend.is_floating(dtype) or "bool" in str(dtype):
        raise ValueError(
            f"embedding: indices must be integers, got {dtype} of shape {tuple(index.shape)}"
        )
    if isinstance(indices, Tensor) and tracing():  # a guard, checked again by a replay
        if bool(ops.all(ops.logical_and(indices >= 0, indices < num))):
            return ops.take(weight, index, axis=0)
    host = backend.to_host(index)
    if host.size and (host.min() < 0 or host.max() >= num):
        raise ValueError(
            f"embedding: indices of shape {host.shape} range over [{host.min()}, {host.max()}], "
            f"outside [0, {num}) for a table of shape {shape_of(weight)}"
        )
    return ops.take(weight, index, axis=0)


class Embedding(Module):
    """A lookup table of ``num_embeddings`` vectors of size ``embedding_dim``,
    initialised N(0, 1) like PyTorch's.

    Args:
        num_embeddings: The number of rows.
        embedding_dim: The size of each row.
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.
        generator: The random stream of the initial values; the default ``tg.random``
            stream when None.

    Raises:
        ValueError: When called, the indices are not integers in ``[0, num_embeddings)``.

    >>> import tapegrad as tg
    >>> tg.nn.Embedding(10, 4)(tg.tensor([[1, 2, 3]])).shape
    (1, 3, 4)
    """

    def __init__(
        self,
        num_embeddings: int,
        embedding_dim: int,
        dtype: Any = np.float32,
        device: str | None = None,
        generator: random.Generator | None = None,
    ) -> None:
        self.num_embeddings = num_embeddings
        self.embedding_dim = embedding_dim
        shape = (num_embeddings, embedding_dim)
        self.weight = Variable(init.normal(shape, 1.0, dtype, device, generator))

    def forward(self, indices: Any) -> Tensor:
        """The rows at integer ``indices``: ``indices.shape + (embedding_dim,)``."""
        return embedding(indices, self.weight)

    def extra_repr(self) -> str:
        return f"{self.num_embeddings}, {self.embedding_dim}"


def layer_norm(
    x: ArrayLike,
    normalized_shape: int | tuple[int, ...],
    weight: ArrayLike | None = None,
    bias: ArrayLike | None = None,
    eps: float = 1e-5,
) -> Tensor:
    """Normalise over the trailing ``normalized_shape`` axes to zero mean and unit (biased)
    variance, then scale by ``weight`` and shift by ``bias``.

    Args:
        x: The input.
        normalized_shape: The trailing axes to normalise over (an int for one).
        weight: The scale, of ``normalized_shape``, or None.
        bias: The shift, of ``normalized_shape``, or None.
        eps: Added to the variance for stability.

    Returns:
        The normalised ``x``, of its shape.

    Raises:
        ValueError: The input does not end in ``normalized_shape``.

    >>> import tapegrad as tg
    >>> y = tg.nn.layer_norm(tg.tensor([[1.0, 2.0, 3.0]]), 3)
    >>> round(float(y.mean().item()), 6), round(float(y.var().item()), 3)
    (0.0, 1.0)
    """
    shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
    x_shape = shape_of(x)
    if len(shape) == 0 or x_shape[len(x_shape) - len(shape) :] != shape:
        raise ValueError(
            f"layer_norm: input of shape {x_shape} does not end in normalized_shape {shape}"
        )
    axes = tuple(range(len(x_shape) - len(shape), len(x_shape)))
    centred = x - ops.mean(x, axis=axes, keepdims=True)
    variance = ops.mean(centred * centred, axis=axes, keepdims=True)
    out = centred / ops.sqrt(variance + eps)
    if weight is not None:
        out = out * weight
    if bias is not None:
        out = out + bias
    return out


class LayerNorm(Module):
    """Layer normalisation over the trailing ``normalized_shape`` axes, with a learnable
    elementwise scale (ones) and shift (zeros).

    Args:
        normalized_shape: The trailing axes to normalise over (an int for one).
        eps: Added to the variance for stability.
        elementwise_affine: Whether to learn a scale and a shift per element.
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.

    Raises:
        ValueError: When called, the input does not end in ``normalized_shape``.

    >>> import tapegrad as tg
    >>> tg.nn.LayerNorm(4)(tg.ones((2, 4), dtype="float32")).shape
    (2, 4)
    """

    def __init__(
        self,
        normalized_shape: int | tuple[int, ...],
        eps: float = 1e-5,
        elementwise_affine: bool = True,
        dtype: Any = np.float32,
        device: str | None = None,
    ) -> None:
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else normalized_shape
        self.normalized_shape = tuple(shape)
        self.eps = eps
        self.weight = self.bias = None
        if elementwise_affine:
            self.weight = Variable(ops.ones(self.normalized_shape, dtype=dtype, device=device))
            self.bias = Variable(ops.zeros(self.normalized_shape, dtype=dtype, device=device))

    def forward(self, x: ArrayLike) -> Tensor:
        """``x`` normalised over its trailing ``normalized_shape`` axes."""
        return layer_norm(x, self.normalized_shape, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}"
