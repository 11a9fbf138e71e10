"""Convolution and max pooling: im2col, conv2d, max_pool2d, conv1d, Conv2d, MaxPool2d, Conv1d.

A convolution is a matrix product with the image's patches (im2col). The patch
gather is one primitive, ``im2col``, instead of ``kh * kw`` slices stacked on the
tape: its adjoint, ``col2im``, adds the patches back into one buffer rather than
into ``kh * kw`` zero-filled copies of the image, and each is the other's VJP,
so convolutions stay differentiable to any order. tests/nn/test_conv.py checks
both against the same gather built from ``getitem`` and ``stack``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np

from tapegrad import ops, random
from tapegrad.core.tensor import Tensor
from tapegrad.nn import init
from tapegrad.nn.module import Module
from tapegrad.ops.primitive import Primitive, shape_of

ArrayLike = Any
Pair = tuple[int, int]


def _pair(value: int | tuple[int, int], name: str, op: str, minimum: int) -> Pair:
    pair = (value, value) if isinstance(value, (int, np.integer)) else tuple(value)
    if len(pair) != 2 or any(int(v) < minimum for v in pair):
        raise ValueError(f"{op}: {name} must be an int or a pair of ints >= {minimum}, got {value}")
    return int(pair[0]), int(pair[1])


def output_size(size: int, kernel: int, stride: int, padding: int, dilation: int) -> int:
    """The number of window positions along one axis (PyTorch's floor formula)."""
    return (size + 2 * padding - dilation * (kernel - 1) - 1) // stride + 1


def _windows(
    padded_shape: tuple[int, ...], kernel: Pair, stride: Pair, dilation: Pair
) -> Iterator[tuple[int, int, tuple[slice, ...]]]:
    """(i, j, index into the padded image) for each kernel offset."""
    _, _, h, w = padded_shape
    ho = output_size(h, kernel[0], stride[0], 0, dilation[0])
    wo = output_size(w, kernel[1], stride[1], 0, dilation[1])
    for i in range(kernel[0]):
        top = i * dilation[0]
        for j in range(kernel[1]):
            left = j * dilation[1]
            rows = slice(top, top + stride[0] * (ho - 1) + 1, stride[0])
            cols = slice(left, left + stride[1] * (wo - 1) + 1, stride[1])
            yield i, j, (slice(None), slice(None), rows, cols)


def _padded_shape(shape: tuple[int, ...], padding: Pair) -> tuple[int, ...]:
    n, c, h, w = shape
    return (n, c, h + 2 * padding[0], w + 2 * padding[1])


def _im2col_forward(
    xp: Any, x: Any, kernel: Pair, stride: Pair, padding: Pair, dilation: Pair
) -> Any:
    if padding != (0, 0):
        padded = ops.zeros(_padded_shape(x.shape, padding), dtype=x.dtype, like=x)._data
        _, _, h, w = x.shape
        padded[:, :, padding[0] : padding[0] + h, padding[1] : padding[1] + w] = x
        x = padded
    patches = [x[index] for _, _, index in _windows(x.shape, kernel, stride, dilation)]
    n, c, ho, wo = patches[0].shape
    return xp.reshape(xp.stack(patches, axis=2), (n, c, *kernel, ho, wo))


def _col2im_forward(
    xp: Any,
    cols: Any,
    shape: tuple[int, ...],
    kernel: Pair,
    stride: Pair,
    padding: Pair,
    dilation: Pair,
) -> Any:
    padded_shape = _padded_shape(shape, padding)
    out = ops.zeros(padded_shape, dtype=cols.dtype, like=cols)._data
    for i, j, index in _windows(padded_shape, kernel, stride, dilation):
        out[index] += cols[:, :, i, j, ...]
    _, _, h, w = shape
    return out[:, :, padding[0] : padding[0] + h, padding[1] : padding[1] + w]


# im2col is linear, so each of the pair is the other's adjoint.
_im2col = Primitive("im2col", _im2col_forward, complex_rules=True).defvjp(
    lambda g, ans, x, **geometry: _col2im(g, shape=shape_of(x), **geometry)
)
_col2im = Primitive("col2im", _col2im_forward, complex_rules=True).defvjp(
    lambda g, ans, cols, shape, **geometry: _im2col(g, **geometry)
)


def _check_nchw(x: Any, op: str) -> tuple[int, ...]:
    shape = shape_of(x)
    if len(shape) != 4:
        raise ValueError(f"{op}: expected NCHW input with 4 dimensions, got shape {shape}")
    return shape


def im2col(
    x: ArrayLike,
    kernel_size: int | Pair,
    stride: int | Pair = 1,
    padding: int | Pair = 0,
    dilation: int | Pair = 1,
) -> Tensor:
    """The sliding windows of an NCHW image: shape ``(N, C, kh, kw, H_out, W_out)``.

    ``out[n, c, i, j, y, x]`` is the zero-padded input at row
    ``y * stride + i * dilation`` and column ``x * stride + j * dilation``.

    Args:
        x: The input ``(N, C, H, W)``.
        kernel_size: The window's size (an int or an ``(h, w)`` pair).
        stride: The step between windows (an int or an ``(h, w)`` pair).
        padding: Zeros added on each side (an int or an ``(h, w)`` pair).
        dilation: The spacing between kernel elements (an int or an ``(h, w)`` pair).

    Returns:
        ``(N, C, kh, kw, H_out, W_out)``.

    Raises:
        ValueError: The input is not 4-d or is smaller than the kernel.

    >>> import tapegrad as tg
    >>> tg.nn.im2col(tg.ones((2, 3, 5, 5)), 3, padding=1).shape
    (2, 3, 3, 3, 5, 5)
    """
    shape = _check_nchw(x, "im2col")
    kernel = _pair(kernel_size, "kernel_size", "im2col", 1)
    stride = _pair(stride, "stride", "im2col", 1)
    padding = _pair(padding, "padding", "im2col", 0)
    dilation = _pair(dilation, "dilation", "im2col", 1)
    for a in (0, 1):
        if output_size(shape[2 + a], kernel[a], stride[a], padding[a], dilation[a]) < 1:
            raise ValueError(
                f"im2col: a {kernel} kernel does not fit an input of shape {shape} "
                f"with padding {padding} and dilation {dilation}"
            )
    geometry = {"kernel": kernel, "stride": stride, "padding": padding, "dilation": dilation}
    return _im2col(x, **geometry)


def conv2d(
    x: ArrayLike,
    weight: ArrayLike,
    bias: ArrayLike | None = None,
    stride: int | Pair = 1,
    padding: int | Pair = 0,
    dilation: int | Pair = 1,
) -> Tensor:
    """2-D cross-correlation (PyTorch's conv2d) of NCHW ``x`` with ``weight`` of shape
    ``(out_channels, in_channels, kh, kw)``, plus ``bias`` per output channel.

    Args:
        x: The input ``(N, C, H, W)``.
        weight: ``(out_channels, C, kh, kw)``.
        bias: ``(out_channels,)``, or None.
        stride: The step between windows (an int or an ``(h, w)`` pair).
        padding: Zeros added on each side (an int or an ``(h, w)`` pair).
        dilation: The spacing between kernel elements (an int or an ``(h, w)`` pair).

    Returns:
        ``(N, out_channels, H_out, W_out)``.

    Raises:
        ValueError: The shapes do not fit.

    >>> import tapegrad as tg
    >>> tg.nn.conv2d(tg.ones((1, 2, 4, 4)), tg.ones((3, 2, 3, 3)), padding=1).shape
    (1, 3, 4, 4)
    """
    n, c, _, _ = _check_nchw(x, "conv2d")
    w_shape = shape_of(weight)
    if len(w_shape) != 4 or w_shape[1] != c:
        raise ValueError(
            f"conv2d: weight of shape {w_shape} does not fit input of shape {shape_of(x)} "
            f"(expected (out_channels, {c}, kh, kw))"
        )
    out_channels = w_shape[0]
    if bias is not None and shape_of(bias) != (out_channels,):
        raise ValueError(f"conv2d: bias of shape {shape_of(bias)}, expected ({out_channels},)")
    cols = im2col(x, w_shape[2:], stride, padding, dilation)
    _, _, _, _, ho, wo = cols.shape
    # (O, C*kh*kw) @ (N, C*kh*kw, L): one matrix product per image, already in NCHW order.
    flat = ops.matmul(
        ops.reshape(weight, (out_channels, -1)),
        ops.reshape(cols, (n, c * math.prod(w_shape[2:]), -1)),
    )
    out = ops.reshape(flat, (n, out_channels, ho, wo))
    return out if bias is None else out + ops.reshape(bias, (out_channels, 1, 1))


class Conv2d(Module):
    """A 2-D convolution layer on NCHW input; weight ``(out, in, kh, kw)`` and bias
    Kaiming-uniform initialised like PyTorch's (bound ``1/sqrt(in * kh * kw)``).

    Args:
        in_channels: The input's channels (axis 1).
        out_channels: The output's channels.
        kernel_size: The kernel's size (an int or an ``(h, w)`` pair).
        stride: The step between windows (an int or an ``(h, w)`` pair).
        padding: Zeros added on each side (an int or an ``(h, w)`` pair).
        dilation: The spacing between kernel elements (an int or an ``(h, w)`` pair).
        bias: Whether to add a learnable bias per output channel.
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.
        generator: The random stream of the initial values; the default ``tg.random``
            stream when None.

    Raises:
        ValueError: A size is not positive; when called, the input is not NCHW with
            ``in_channels`` channels, or is smaller than the kernel.

    >>> import tapegrad as tg
    >>> conv = tg.nn.Conv2d(1, 8, 3, padding=1)
    >>> conv(tg.ones((2, 1, 8, 8), dtype="float32")).shape
    (2, 8, 8, 8)
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Pair,
        stride: int | Pair = 1,
        padding: int | Pair = 0,
        dilation: int | Pair = 1,
        bias: bool = True,
        dtype: Any = np.float32,
        device: str | None = None,
        generator: random.Generator | None = None,
    ) -> None:
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _pair(kernel_size, "kernel_size", "Conv2d", 1)
        self.stride = _pair(stride, "stride", "Conv2d", 1)
        self.padding = _pair(padding, "padding", "Conv2d", 0)
        self.dilation = _pair(dilation, "dilation", "Conv2d", 1)
        fan_in = in_channels * math.prod(self.kernel_size)
        shape = (out_channels, in_channels, *self.kernel_size)
        self.weight, self.bias = init.layer_parameters(
            shape, fan_in, out_channels if bias else None, dtype, device, generator
        )

    def forward(self, x: ArrayLike) -> Tensor:
        """The convolution of NCHW ``x``: ``(N, out_channels, H_out, W_out)``."""
        return conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation)

    def extra_repr(self) -> str:
        return (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, padding={self.padding}"
            + (f", dilation={self.dilation}" if self.dilation != (1, 1) else "")
            + (", bias=False" if self.bias is None else "")
        )


def max_pool2d(x: ArrayLike, kernel_size: int | Pair, stride: int | Pair | None = None) -> Tensor:
    """The maximum of each ``kernel_size`` window of NCHW ``x``, windows ``stride`` apart
    (``kernel_size`` apart when None); rows and columns that do not fill a window are dropped.
    Tied maxima share the gradient evenly.

    Args:
        x: The input ``(N, C, H, W)``.
        kernel_size: The window's size (an int or an ``(h, w)`` pair).
        stride: The step between windows; ``kernel_size`` when None.

    Returns:
        ``(N, C, H_out, W_out)``.

    Raises:
        ValueError: The input is not 4-d or is smaller than a window.

    >>> import tapegrad as tg
    >>> tg.nn.max_pool2d(tg.ones((1, 1, 5, 4)), 2).shape
    (1, 1, 2, 2)
    """
    n, c, h, w = _check_nchw(x, "max_pool2d")
    kernel = _pair(kernel_size, "kernel_size", "max_pool2d", 1)
    stride = kernel if stride is None else _pair(stride, "stride", "max_pool2d", 1)
    if kernel[0] > h or kernel[1] > w:
        raise ValueError(
            f"max_pool2d: a {kernel} window does not fit an input of shape {(n, c, h, w)}"
        )
    # Reducing the window axes of im2col's (N, C, kh, kw, H_out, W_out) is reducing over
    # outer axes, which NumPy does as fast elementwise maxima (a reshape into
    # (..., H_out, kh, W_out, kw) blocks reduces over short inner axes, 10x slower).
    return ops.max(im2col(x, kernel, stride), axis=(2, 3))


class MaxPool2d(Module):
    """Max pooling over ``kernel_size`` windows, ``stride`` apart (default: ``kernel_size``).

    Args:
        kernel_size: The window's size (an int or an ``(h, w)`` pair).
        stride: The step between windows; ``kernel_size`` when None.

    Raises:
        ValueError: When called, the input is not NCHW or is smaller than a window.

    >>> import tapegrad as tg
    >>> tg.nn.MaxPool2d(2)(tg.reshape(tg.arange(16.0), (1, 1, 4, 4)))
    tensor([[[[ 5.,  7.],
              [13., 15.]]]], dtype=float64)
    """

    def __init__(self, kernel_size: int | Pair, stride: int | Pair | None = None) -> None:
        self.kernel_size = _pair(kernel_size, "kernel_size", "MaxPool2d", 1)
        self.stride = (
            self.kernel_size if stride is None else _pair(stride, "stride", "MaxPool2d", 1)
        )

    def forward(self, x: ArrayLike) -> Tensor:
        """The pooled NCHW ``x``: ``(N, C, H_out, W_out)``."""
        return max_pool2d(x, self.kernel_size, self.stride)

    def extra_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}"


def _single(value: int | tuple[int], name: str, op: str, minimum: int) -> int:
    single = value[0] if isinstance(value, (tuple, list)) and len(value) == 1 else value
    if not isinstance(single, (int, np.integer)) or single < minimum:
        raise ValueError(f"{op}: {name} must be an int >= {minimum}, got {value}")
    return int(single)


def conv1d(
    x: ArrayLike,
    weight: ArrayLike,
    bias: ArrayLike | None = None,
    stride: int = 1,
    padding: int = 0,
    dilation: int = 1,
) -> Tensor:
    """1-D cross-correlation (PyTorch's conv1d) of ``x`` ``(N, C, L)`` with ``weight``
    ``(out_channels, C, k)``: conv2d on a height-1 image.

    Args:
        x: The input ``(N, C, L)``.
        weight: ``(out_channels, C, k)``.
        bias: ``(out_channels,)``, or None.
        stride: The step between windows.
        padding: Zeros added at each end.
        dilation: The spacing between kernel elements.

    Returns:
        ``(N, out_channels, L_out)``.

    Raises:
        ValueError: The shapes do not fit.

    >>> import tapegrad as tg
    >>> tg.nn.conv1d(tg.ones((2, 3, 10)), tg.ones((4, 3, 3)), stride=2).shape
    (2, 4, 4)
    """
    shape, w_shape = shape_of(x), shape_of(weight)
    if len(shape) != 3:
        raise ValueError(f"conv1d: expected input of shape (N, C, L), got {shape}")
    if len(w_shape) != 3 or w_shape[1] != shape[1]:
        raise ValueError(
            f"conv1d: weight of shape {w_shape} does not fit input of shape {shape} "
            f"(expected (out_channels, {shape[1]}, k))"
        )
    stride = _single(stride, "stride", "conv1d", 1)
    padding = _single(padding, "padding", "conv1d", 0)
    dilation = _single(dilation, "dilation", "conv1d", 1)
    n, c, length = shape
    out = conv2d(
        ops.reshape(x, (n, c, 1, length)),
        ops.reshape(weight, (w_shape[0], c, 1, w_shape[2])),
        bias,
        (1, stride),
        (0, padding),
        (1, dilation),
    )
    return ops.reshape(out, (n, w_shape[0], out.shape[3]))


class Conv1d(Module):
    """A 1-D convolution layer on ``(N, C, L)`` input; weight ``(out, in, k)`` and bias
    Kaiming-uniform initialised like PyTorch's (bound ``1/sqrt(in * k)``).

    Args:
        in_channels: The input's channels (axis 1).
        out_channels: The output's channels.
        kernel_size: The kernel's length.
        stride: The step between windows.
        padding: Zeros added at each end.
        dilation: The spacing between kernel elements.
        bias: Whether to add a learnable bias per output channel.
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.
        generator: The random stream of the initial values; the default ``tg.random``
            stream when None.

    Raises:
        ValueError: A size is not positive; when called, the input is not ``(N, C, L)`` with
            ``in_channels`` channels, or is shorter than the kernel.

    >>> import tapegrad as tg
    >>> tg.nn.Conv1d(2, 5, 3, padding=1)(tg.ones((4, 2, 7), dtype="float32")).shape
    (4, 5, 7)
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int,
        stride: int = 1,
        padding: int = 0,
        dilation: int = 1,
        bias: bool = True,
        dtype: Any = np.float32,
        device: str | None = None,
        generator: random.Generator | None = None,
    ) -> None:
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _single(kernel_size, "kernel_size", "Conv1d", 1)
        self.stride = _single(stride, "stride", "Conv1d", 1)
        self.padding = _single(padding, "padding", "Conv1d", 0)
        self.dilation = _single(dilation, "dilation", "Conv1d", 1)
        fan_in = in_channels * self.kernel_size
        shape = (out_channels, in_channels, self.kernel_size)
        self.weight, self.bias = init.layer_parameters(
            shape, fan_in, out_channels if bias else None, dtype, device, generator
        )

    def forward(self, x: ArrayLike) -> Tensor:
        """The convolution of ``x`` ``(N, C, L)``: ``(N, out_channels, L_out)``."""
        return conv1d(x, self.weight, self.bias, self.stride, self.padding, self.dilation)

    def extra_repr(self) -> str:
        return (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, padding={self.padding}"
            + (f", dilation={self.dilation}" if self.dilation != 1 else "")
            + (", bias=False" if self.bias is None else "")
        )
