"""Average pooling on NCHW input: avg_pool2d, adaptive_avg_pool2d, AvgPool2d,
AdaptiveAvgPool2d (PyTorch's window arithmetic).

``avg_pool2d`` is the mean over im2col's window axes; ``adaptive_avg_pool2d`` is two
products with constant averaging matrices, one per spatial axis (PyTorch's bins
``[floor(i*H/out), ceil((i+1)*H/out))`` are rectangles, so the average separates).
Both are compositions of differentiable ops.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.nn.conv import Pair, _check_nchw, _pair, im2col, output_size
from tapegrad.nn.module import Module
from tapegrad.ops.primitive import shape_of

ArrayLike = Any


def avg_pool2d(
    x: ArrayLike,
    kernel_size: int | Pair,
    stride: int | Pair | None = None,
    padding: int | Pair = 0,
    ceil_mode: bool = False,
    count_include_pad: bool = True,
    divisor_override: int | None = None,
) -> Tensor:
    """The mean of each ``kernel_size`` window of NCHW ``x``, windows ``stride`` apart
    (``kernel_size`` apart when None), over ``x`` zero-padded by ``padding``.

    With ``count_include_pad=False`` a window is divided by the number of its elements
    inside ``x``; ``divisor_override`` divides every window by that number instead.

    Args:
        x: The input ``(N, C, H, W)``.
        kernel_size: The window's size (an int or an ``(h, w)`` pair).
        stride: The step between windows; ``kernel_size`` when None.
        padding: Zeros added on each side, at most half the kernel.
        ceil_mode: Whether a last, partial window along each axis counts.
        count_include_pad: Whether the padding counts in each window's divisor.
        divisor_override: A divisor for every window instead.

    Returns:
        ``(N, C, H_out, W_out)``.

    Raises:
        ValueError: The input is not 4-d, or ``padding`` is over half the kernel.

    >>> import tapegrad as tg
    >>> x = tg.arange(16.0).reshape(1, 1, 4, 4)
    >>> tg.nn.avg_pool2d(x, 2).numpy()
    array([[[[ 2.5,  4.5],
             [10.5, 12.5]]]])
    """
    shape = _check_nchw(x, "avg_pool2d")
    kernel = _pair(kernel_size, "kernel_size", "avg_pool2d", 1)
    stride = kernel if stride is None else _pair(stride, "stride", "avg_pool2d", 1)
    padding = _pair(padding, "padding", "avg_pool2d", 0)
    if ceil_mode:
        raise NotImplementedError("avg_pool2d: ceil_mode=True is not supported")
    if any(2 * p > k for p, k in zip(padding, kernel)):
        raise ValueError(f"avg_pool2d: padding {padding} must be at most half the kernel {kernel}")
    if any(output_size(shape[2 + a], kernel[a], stride[a], padding[a], 1) < 1 for a in (0, 1)):
        raise ValueError(
            f"avg_pool2d: a {kernel} window does not fit an input of shape {shape} "
            f"with padding {padding}"
        )
    sums = ops.sum(im2col(x, kernel, stride, padding), axis=(2, 3))
    if divisor_override is not None:
        return sums / float(divisor_override)
    if count_include_pad or padding == (0, 0):
        return sums / float(math.prod(kernel))
    counts = np.outer(*(_inside(shape[2 + a], kernel[a], stride[a], padding[a]) for a in (0, 1)))
    return sums / ops.asarray(counts, dtype=sums.dtype, like=sums)


def _inside(size: int, kernel: int, stride: int, padding: int) -> np.ndarray:
    """How many elements of each window along one axis lie inside the unpadded input."""
    starts = np.arange(output_size(size, kernel, stride, padding, 1)) * stride - padding
    return np.minimum(starts + kernel, size) - np.maximum(starts, 0)


class AvgPool2d(Module):
    """:func:`avg_pool2d` as a layer (no parameters).

    Args:
        kernel_size: The window's size (an int or an ``(h, w)`` pair).
        stride: The step between windows; ``kernel_size`` when None.
        padding: Zeros added on each side, at most half the kernel.
        ceil_mode: Whether a last, partial window along each axis counts.
        count_include_pad: Whether the padding counts in each window's divisor.
        divisor_override: A divisor for every window instead.

    Raises:
        ValueError: When called, the input is not NCHW, or ``padding`` is over half the
            kernel.

    >>> import tapegrad as tg
    >>> tg.nn.AvgPool2d(2)(tg.reshape(tg.arange(16.0), (1, 1, 4, 4)))
    tensor([[[[ 2.5,  4.5],
              [10.5, 12.5]]]], dtype=float64)
    """

    def __init__(
        self,
        kernel_size: int | Pair,
        stride: int | Pair | None = None,
        padding: int | Pair = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> None:
        self.kernel_size = _pair(kernel_size, "kernel_size", "AvgPool2d", 1)
        self.stride = (
            self.kernel_size if stride is None else _pair(stride, "stride", "AvgPool2d", 1)
        )
        self.padding = _pair(padding, "padding", "AvgPool2d", 0)
        if ceil_mode:
            raise NotImplementedError("AvgPool2d: ceil_mode=True is not supported")
        self.count_include_pad = count_include_pad
        self.divisor_override = divisor_override

    def forward(self, x: ArrayLike) -> Tensor:
        """The pooled NCHW ``x``: ``(N, C, H_out, W_out)``."""
        return avg_pool2d(
            x, self.kernel_size, self.stride, self.padding, False, self.count_include_pad,
            self.divisor_override,
        )  # fmt: skip

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


def _averaging_matrix(size: int, out: int) -> np.ndarray:
    """``(out, size)``: row i averages PyTorch's bin i of an axis of length ``size``."""
    matrix = np.zeros((out, size))
    for i in range(out):
        start, stop = (i * size) // out, -((-(i + 1) * size) // out)
        matrix[i, start:stop] = 1.0 / (stop - start)
    return matrix


def adaptive_avg_pool2d(x: ArrayLike, output_size: int | tuple[int | None, int | None]) -> Tensor:
    """Average ``x`` ``(..., H, W)`` into ``output_size`` bins per spatial axis (None keeps
    that axis), with PyTorch's bins ``[floor(i*H/out), ceil((i+1)*H/out))``.

    Args:
        x: The input ``(..., H, W)``.
        output_size: The output's ``(H, W)``, an int for both, or None for an axis to keep.

    Returns:
        ``(..., H_out, W_out)``.

    Raises:
        ValueError: ``output_size`` is not positive.

    >>> import tapegrad as tg
    >>> tg.nn.adaptive_avg_pool2d(tg.arange(16.0).reshape(1, 1, 4, 4), 1).numpy()
    array([[[[7.5]]]])
    """
    shape = shape_of(x)
    if len(shape) not in (3, 4):
        raise ValueError(
            f"adaptive_avg_pool2d: expected (C, H, W) or (N, C, H, W) input, got shape {shape}"
        )
    pair = (output_size, output_size) if not isinstance(output_size, (tuple, list)) else output_size
    if len(pair) != 2:
        raise ValueError(f"adaptive_avg_pool2d: output_size must be an int or a pair, got {pair}")
    height, width = shape[-2:]
    out_h = height if pair[0] is None else int(pair[0])
    out_w = width if pair[1] is None else int(pair[1])
    if out_h < 1 or out_w < 1:
        raise ValueError(f"adaptive_avg_pool2d: output_size must be positive, got {output_size}")
    x = x if isinstance(x, Tensor) else ops.asarray(x)
    rows = ops.asarray(_averaging_matrix(height, out_h), dtype=x.dtype, like=x)
    cols = ops.asarray(_averaging_matrix(width, out_w).T, dtype=x.dtype, like=x)
    return ops.matmul(ops.matmul(rows, x), cols)


class AdaptiveAvgPool2d(Module):
    """:func:`adaptive_avg_pool2d` to a fixed ``output_size`` (``1`` gives global pooling).

    Args:
        output_size: The output's ``(H, W)``, an int for both, or None for an axis to keep.

    Raises:
        ValueError: When called, ``output_size`` is not positive.

    >>> import tapegrad as tg
    >>> tg.nn.AdaptiveAvgPool2d((2, None))(tg.ones((1, 3, 5, 7))).shape
    (1, 3, 2, 7)
    """

    def __init__(self, output_size: int | tuple[int | None, int | None]) -> None:
        self.output_size = output_size

    def forward(self, x: ArrayLike) -> Tensor:
        """``x`` ``(..., H, W)`` averaged into ``output_size`` bins."""
        return adaptive_avg_pool2d(x, self.output_size)

    def extra_repr(self) -> str:
        return f"output_size={self.output_size}"
