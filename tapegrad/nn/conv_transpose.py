"""Transposed convolution: conv_transpose2d and ConvTranspose2d (PyTorch's maths).

A transposed convolution is the adjoint of conv2d with respect to its input: each
input pixel scatters ``weight[c_in]`` (a ``(C_out, kh, kw)`` patch) into the output.
Here that is one matrix product giving every pixel's patch, then ``col2im`` adding the
patches into the image (im2col's adjoint, the same primitive conv2d's gradient uses),
then the crop of ``padding`` and the extra ``output_padding`` rows and columns.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops, random
from tapegrad.core.tensor import Tensor
from tapegrad.nn import init
from tapegrad.nn.conv import Pair, _check_nchw, _col2im, _pair
from tapegrad.nn.module import Module
from tapegrad.ops.primitive import shape_of

ArrayLike = Any


def conv_transpose2d(
    x: ArrayLike,
    weight: ArrayLike,
    bias: ArrayLike | None = None,
    stride: int | Pair = 1,
    padding: int | Pair = 0,
    output_padding: int | Pair = 0,
    dilation: int | Pair = 1,
) -> Tensor:
    """The transposed 2-D convolution of NCHW ``x`` with ``weight`` ``(C_in, C_out, kh, kw)``
    (PyTorch's layout), plus ``bias`` per output channel. The output's height is
    ``(H - 1) * stride - 2 * padding + dilation * (kh - 1) + output_padding + 1``.

    Args:
        x: The input ``(N, C_in, H, W)``.
        weight: ``(C_in, C_out, kh, kw)``.
        bias: ``(C_out,)``, or None.
        stride: The step between the input's positions in the output (an int or a pair).
        padding: Rows and columns removed from each side of the output (an int or a pair).
        output_padding: Rows and columns added to one side of the output (an int or a pair).
        dilation: The spacing between kernel elements (an int or an ``(h, w)`` pair).

    Returns:
        ``(N, C_out, H_out, W_out)``.

    Raises:
        ValueError: The shapes do not fit.

    >>> import tapegrad as tg
    >>> tg.nn.conv_transpose2d(tg.ones((1, 2, 3, 3)), tg.ones((2, 4, 3, 3)), stride=2).shape
    (1, 4, 7, 7)
    """
    n, c, height, width = _check_nchw(x, "conv_transpose2d")
    w_shape = shape_of(weight)
    if len(w_shape) != 4 or w_shape[0] != c:
        raise ValueError(
            f"conv_transpose2d: weight of shape {w_shape} does not fit input of shape "
            f"{shape_of(x)} (expected ({c}, out_channels, kh, kw))"
        )
    out_channels, kernel = w_shape[1], w_shape[2:]
    stride = _pair(stride, "stride", "conv_transpose2d", 1)
    padding = _pair(padding, "padding", "conv_transpose2d", 0)
    output_padding = _pair(output_padding, "output_padding", "conv_transpose2d", 0)
    dilation = _pair(dilation, "dilation", "conv_transpose2d", 1)
    for a in (0, 1):
        if output_padding[a] >= max(stride[a], dilation[a]):
            raise ValueError(
                f"conv_transpose2d: output_padding {output_padding} must be smaller than "
                f"the stride {stride} or the dilation {dilation}"
            )
    if bias is not None and shape_of(bias) != (out_channels,):
        raise ValueError(
            f"conv_transpose2d: bias of shape {shape_of(bias)}, expected ({out_channels},)"
        )
    # Every input pixel's patch: (C_out*kh*kw, C_in) @ (N, C_in, H*W).
    patches = ops.matmul(
        ops.transpose(ops.reshape(weight, (c, -1))), ops.reshape(x, (n, c, height * width))
    )
    patches = ops.reshape(patches, (n, out_channels, *kernel, height, width))
    # The whole image the patches cover, before cropping: exactly H x W windows fit it.
    full = tuple(
        (size - 1) * s + d * (k - 1) + 1
        for size, s, d, k in zip((height, width), stride, dilation, kernel)
    )
    image = _col2im(
        patches, shape=(n, out_channels, *full), kernel=tuple(kernel), stride=stride,
        padding=(0, 0), dilation=dilation,
    )  # fmt: skip
    sizes = [full[a] - 2 * padding[a] + output_padding[a] for a in (0, 1)]
    if sizes[0] < 1 or sizes[1] < 1:
        raise ValueError(
            f"conv_transpose2d: padding {padding} leaves no output for input of shape "
            f"{(n, c, height, width)} and a {tuple(kernel)} kernel"
        )
    # output_padding rows past the covered image (when it exceeds padding) are zeros.
    extra = [max(0, padding[a] + sizes[a] - full[a]) for a in (0, 1)]
    if extra != [0, 0]:
        image = ops.pad(image, ((0, 0), (0, 0), (0, extra[0]), (0, extra[1])))
    out = image[:, :, padding[0] : padding[0] + sizes[0], padding[1] : padding[1] + sizes[1]]
    return out if bias is None else out + ops.reshape(bias, (out_channels, 1, 1))


class ConvTranspose2d(Module):
    """A transposed 2-D convolution layer; weight ``(in, out, kh, kw)`` as PyTorch's, and
    weight and bias drawn from U(+-1/sqrt(out * kh * kw)) as PyTorch's defaults.

    Args:
        in_channels: The input's channels (axis 1).
        out_channels: The output's channels.
        kernel_size: The kernel's size (an int or an ``(h, w)`` pair).
        stride: The step between the input's positions in the output (an int or a pair).
        padding: Rows and columns removed from each side of the output (an int or a pair).
        output_padding: Rows and columns added to one side of the output (an int or a pair).
        bias: Whether to add a learnable bias per output channel.
        dilation: The spacing between kernel elements (an int or an ``(h, w)`` pair).
        dtype: The parameters' dtype.
        device: The parameters' device; the default device when None.
        generator: The random stream of the initial values; the default ``tg.random``
            stream when None.

    Raises:
        ValueError: A size is out of range; when called, the input is not NCHW with
            ``in_channels`` channels.

    >>> import tapegrad as tg
    >>> up = tg.nn.ConvTranspose2d(8, 4, 2, stride=2)
    >>> up(tg.ones((1, 8, 5, 5), dtype="float32")).shape
    (1, 4, 10, 10)
    """

    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: int | Pair,
        stride: int | Pair = 1,
        padding: int | Pair = 0,
        output_padding: int | Pair = 0,
        bias: bool = True,
        dilation: int | Pair = 1,
        dtype: Any = np.float32,
        device: str | None = None,
        generator: random.Generator | None = None,
    ) -> None:
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = _pair(kernel_size, "kernel_size", "ConvTranspose2d", 1)
        self.stride = _pair(stride, "stride", "ConvTranspose2d", 1)
        self.padding = _pair(padding, "padding", "ConvTranspose2d", 0)
        self.output_padding = _pair(output_padding, "output_padding", "ConvTranspose2d", 0)
        self.dilation = _pair(dilation, "dilation", "ConvTranspose2d", 1)
        # PyTorch computes the fan-in from the weight's second axis: out * kh * kw.
        fan_in = out_channels * math.prod(self.kernel_size)
        shape = (in_channels, out_channels, *self.kernel_size)
        self.weight, self.bias = init.layer_parameters(
            shape, fan_in, out_channels if bias else None, dtype, device, generator
        )

    def forward(self, x: ArrayLike) -> Tensor:
        """The transposed convolution of NCHW ``x``: ``(N, out_channels, H_out, W_out)``."""
        return conv_transpose2d(
            x, self.weight, self.bias, self.stride, self.padding, self.output_padding,
            self.dilation,
        )  # fmt: skip

    def extra_repr(self) -> str:
        return (
            f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, "
            f"stride={self.stride}, padding={self.padding}"
            + (f", output_padding={self.output_padding}" if self.output_padding != (0, 0) else "")
            + (f", dilation={self.dilation}" if self.dilation != (1, 1) else "")
            + (", bias=False" if self.bias is None else "")
        )
