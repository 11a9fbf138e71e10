"""Initial values for layer weights, with PyTorch's default formulas.

Each function returns a new Tensor drawn from ``generator`` (the default
``tg.random`` stream when None, so ``tg.random.seed`` makes it reproducible).
The fan-in is passed explicitly because layers store their weights in
different layouts (Linear as ``(in, out)``, Conv2d as ``(out, in, kh, kw)``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import random
from tapegrad.core.tensor import Tensor, Variable

Shape = tuple[int, ...]


def _source(generator: random.Generator | None) -> Any:
    """``generator``, or the ``tg.random`` module (its default stream) when None."""
    return random if generator is None else generator


def uniform(
    shape: Shape,
    bound: float,
    dtype: Any = np.float32,
    device: str | None = None,
    generator: random.Generator | None = None,
) -> Tensor:
    """Samples of U(-bound, bound).

    Args:
        shape: The result's shape.
        bound: The half-width of the interval, non-negative.
        dtype: A floating dtype.
        device: The device; the default device when None.
        generator: The random stream; the default ``tg.random`` stream when None.

    Returns:
        A new Tensor of ``shape`` (no tape records it).

    Raises:
        ValueError: ``bound`` is negative.
        TypeError: ``dtype`` is not floating-point.

    >>> import tapegrad as tg
    >>> w = tg.nn.init.uniform((3, 2), bound=0.5)
    >>> w.dtype, bool((abs(w) <= 0.5).numpy().all())
    (dtype('float32'), True)
    """
    if not bound >= 0:
        raise ValueError(f"uniform: bound must be >= 0, got {bound} for shape {shape}")
    return _source(generator).uniform(shape, -bound, bound, dtype=dtype, device=device)


def kaiming_uniform(
    shape: Shape,
    fan_in: int,
    a: float = math.sqrt(5),
    dtype: Any = np.float32,
    device: str | None = None,
    generator: random.Generator | None = None,
) -> Tensor:
    """He-uniform samples for a leaky-ReLU slope ``a``: bound ``sqrt(6 / ((1 + a**2) fan_in))``.

    With the default ``a = sqrt(5)`` the bound is ``1 / sqrt(fan_in)``, PyTorch's
    default for Linear and Conv2d weights.

    Args:
        shape: The result's shape.
        fan_in: The number of inputs of each output unit, positive.
        a: The negative slope of the leaky ReLU that follows.
        dtype: A floating dtype.
        device: The device; the default device when None.
        generator: The random stream; the default ``tg.random`` stream when None.

    Returns:
        A new Tensor of ``shape`` (no tape records it).

    Raises:
        ValueError: ``fan_in`` is not positive.

    >>> import tapegrad as tg
    >>> w = tg.nn.init.kaiming_uniform((100, 10), fan_in=100)
    >>> float(abs(w).max().item()) <= 0.1
    True
    """
    if fan_in <= 0:
        raise ValueError(f"kaiming_uniform: fan_in must be positive, got {fan_in} for {shape}")
    bound = math.sqrt(6.0 / ((1.0 + a * a) * fan_in))
    return uniform(shape, bound, dtype, device, generator)


def xavier_uniform(
    shape: Shape,
    fan_in: int,
    fan_out: int,
    gain: float = 1.0,
    dtype: Any = np.float32,
    device: str | None = None,
    generator: random.Generator | None = None,
) -> Tensor:
    """Glorot-uniform samples: bound ``gain * sqrt(6 / (fan_in + fan_out))``.

    Args:
        shape: The result's shape.
        fan_in: The number of inputs of each output unit, positive.
        fan_out: The number of outputs of each input unit, positive.
        gain: The scale of the bound.
        dtype: A floating dtype.
        device: The device; the default device when None.
        generator: The random stream; the default ``tg.random`` stream when None.

    Returns:
        A new Tensor of ``shape`` (no tape records it).

    Raises:
        ValueError: A fan is not positive.

    >>> import tapegrad as tg
    >>> tg.nn.init.xavier_uniform((4, 4), fan_in=4, fan_out=4).shape
    (4, 4)
    """
    if fan_in + fan_out <= 0:
        raise ValueError(f"xavier_uniform: fans must be positive, got {fan_in} and {fan_out}")
    return uniform(shape, gain * math.sqrt(6.0 / (fan_in + fan_out)), dtype, device, generator)


def normal(
    shape: Shape,
    std: float = 1.0,
    dtype: Any = np.float32,
    device: str | None = None,
    generator: random.Generator | None = None,
) -> Tensor:
    """Samples of N(0, std**2) (PyTorch's default for Embedding with ``std=1``).

    Args:
        shape: The result's shape.
        std: The standard deviation, non-negative.
        dtype: A floating dtype.
        device: The device; the default device when None.
        generator: The random stream; the default ``tg.random`` stream when None.

    Returns:
        A new Tensor of ``shape`` (no tape records it).

    Raises:
        ValueError: ``std`` is negative.
        TypeError: ``dtype`` is not floating-point.

    >>> import tapegrad as tg
    >>> tg.nn.init.normal((2, 3)).dtype
    dtype('float32')
    """
    return _source(generator).normal(shape, 0.0, std, dtype=dtype, device=device)


def layer_parameters(
    shape: Shape,
    fan_in: int,
    outputs: int | None,
    dtype: Any = np.float32,
    device: str | None = None,
    generator: random.Generator | None = None,
) -> tuple[Variable, Variable | None]:
    """A Linear or convolution layer's weight and bias, with PyTorch's defaults.

    The weight is ``kaiming_uniform(shape, fan_in)``; the bias, one value per output,
    is U(-1/sqrt(fan_in), 1/sqrt(fan_in)), drawn after the weight.

    Args:
        shape: the weight's shape (Linear's ``(in, out)``, Conv2d's ``(out, in, kh, kw)``).
        fan_in: the number of inputs each output sums over.
        outputs: the bias's length, or None for a layer without a bias.
        dtype: the dtype of both.
        device: where both live (None: the default device).
        generator: the random stream (None: the default ``tg.random`` stream).

    Returns:
        ``(weight, bias)`` as Variables; ``bias`` is None when ``outputs`` is None.

    >>> import tapegrad as tg
    >>> weight, bias = tg.nn.init.layer_parameters((8, 3, 2, 2), fan_in=12, outputs=8)
    >>> weight.shape, bias.shape
    ((8, 3, 2, 2), (8,))
    """
    weight = Variable(
        kaiming_uniform(shape, fan_in, dtype=dtype, device=device, generator=generator)
    )
    if outputs is None:
        return weight, None
    bound = 1.0 / math.sqrt(fan_in)
    return weight, Variable(uniform((outputs,), bound, dtype, device, generator))
