"""tapegrad/nn/conv_transpose.py: the transposed convolution against direct scatter loops,
as conv2d's adjoint, and its gradients by finite differences."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layercheck import check_variable_gradients

import tapegrad as tg
from tapegrad import nn
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


def conv_transpose_loops(x, w, b, stride, padding, output_padding, dilation):
    """Each input pixel scatters its weight patch into the output, then the crop."""
    n, c_in, h, wd = x.shape
    _, c_out, kh, kw = w.shape
    full = [(h - 1) * stride[0] + dilation[0] * (kh - 1) + 1 + output_padding[0],
            (wd - 1) * stride[1] + dilation[1] * (kw - 1) + 1 + output_padding[1]]  # fmt: skip
    out = np.zeros((n, c_out, *full))
    for y in range(h):
        for z in range(wd):
            for i in range(kh):
                for j in range(kw):
                    row, col = y * stride[0] + i * dilation[0], z * stride[1] + j * dilation[1]
                    out[:, :, row, col] += x[:, :, y, z] @ w[:, :, i, j]
    sizes = [full[a] - 2 * padding[a] for a in (0, 1)]
    out = out[:, :, padding[0] : padding[0] + sizes[0], padding[1] : padding[1] + sizes[1]]
    return out + (0 if b is None else b[None, :, None, None])


@st.composite
def transposed_geometries(draw):
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    stride = (draw(st.integers(1, 3)), draw(st.integers(1, 2)))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    output_padding = tuple(draw(st.integers(0, max(s, d) - 1)) for s, d in zip(stride, dilation))
    padding = tuple(draw(st.integers(0, (d * (k - 1)) // 2)) for k, d in zip(kernel, dilation))
    shape = (
        draw(st.integers(1, 2)),
        draw(st.integers(1, 2)),
        *(draw(st.integers(1, 3)) for _ in "hw"),
    )
    return shape, kernel, stride, padding, output_padding, dilation


@given(geometry=transposed_geometries(), out_channels=st.integers(1, 2), data=st.data())
def test_conv_transpose2d_value_and_gradient(backend, geometry, out_channels, data):
    shape, kernel, stride, padding, output_padding, dilation = geometry
    x = backend.tensor(data.draw(tst.arrays(shape), label="x"))
    w = backend.tensor(data.draw(tst.arrays((shape[1], out_channels, *kernel)), label="w"))
    b = backend.tensor(data.draw(tst.arrays((out_channels,)), label="b"))
    geometry = (stride, padding, output_padding, dilation)
    out = nn.conv_transpose2d(x, w, b, *geometry)
    expected = conv_transpose_loops(x.numpy(), w.numpy(), b.numpy(), *geometry)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)
    gradcheck(lambda x, w, b: nn.conv_transpose2d(x, w, b, *geometry), [x, w, b])


@settings(max_examples=10)
@given(geometry=transposed_geometries(), data=st.data())
def test_conv_transpose2d_is_the_adjoint_of_conv2d(geometry, data):
    shape, kernel, stride, padding, output_padding, dilation = geometry
    # conv2d of the output finds x's shape again when output_padding < stride.
    output_padding = tuple(min(o, s - 1) for o, s in zip(output_padding, stride))
    x = data.draw(tst.arrays(shape), label="x")
    w = data.draw(tst.arrays((shape[1], 2, *kernel)), label="w")
    out = nn.conv_transpose2d(x, w, None, stride, padding, output_padding, dilation)
    u = data.draw(tst.arrays(out.shape), label="u")
    # <convT(x), u> = <x, conv2d(u)>: conv2d with weight w maps 2 channels back to shape[1].
    back = nn.conv2d(u, w, None, stride, padding, dilation)
    assert back.shape == x.shape
    np.testing.assert_allclose(
        np.sum(out.numpy() * u), np.sum(x * back.numpy()), rtol=1e-10, atol=1e-10
    )


def test_conv_transpose2d_second_derivative():
    x, w = tg.random.normal((1, 2, 2, 2)), tg.random.normal((2, 1, 2, 2))
    gradgradcheck(lambda x, w: nn.conv_transpose2d(x, w, stride=2) ** 2, [x, w])


def test_conv_transpose2d_layer():
    up = nn.ConvTranspose2d(3, 2, 3, stride=2, padding=1, output_padding=1, dtype=np.float64)
    assert up.weight.shape == (3, 2, 3, 3)  # PyTorch's (in, out, kh, kw)
    bound = 1 / np.sqrt(2 * 9)  # PyTorch's fan-in of a transposed convolution: out * kh * kw
    assert np.abs(up.weight.numpy()).max() <= bound and np.abs(up.bias.numpy()).max() <= bound
    x = tg.random.normal((1, 3, 3, 3))
    assert up(x).shape == (1, 2, 6, 6)
    check_variable_gradients(lambda: up(x), up.trainable_variables)
    assert "output_padding=(1, 1)" in repr(up)


def test_conv_transpose2d_errors():
    with pytest.raises(ValueError, match=r"weight of shape \(2, 1, 3, 3\) does not fit input"):
        nn.conv_transpose2d(tg.ones((1, 3, 4, 4)), tg.ones((2, 1, 3, 3)))
    with pytest.raises(ValueError, match="output_padding .* must be smaller than"):
        nn.conv_transpose2d(tg.ones((1, 1, 4, 4)), tg.ones((1, 1, 3, 3)), output_padding=1)
    with pytest.raises(ValueError, match="leaves no output"):
        nn.conv_transpose2d(tg.ones((1, 1, 1, 1)), tg.ones((1, 1, 1, 1)), padding=1)
