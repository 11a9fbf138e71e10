"""tapegrad/nn/pooling.py: average pooling against direct loops over PyTorch's windows and
bins, with gradients by finite differences."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad import nn
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


def avg_pool_loops(x, kernel, stride, padding, count_include_pad):
    n, c, h, w = x.shape
    ho = (h + 2 * padding[0] - kernel[0]) // stride[0] + 1
    wo = (w + 2 * padding[1] - kernel[1]) // stride[1] + 1
    out = np.zeros((n, c, ho, wo))
    for y in range(ho):
        for z in range(wo):
            top, left = y * stride[0] - padding[0], z * stride[1] - padding[1]
            rows = slice(max(top, 0), min(top + kernel[0], h))
            cols = slice(max(left, 0), min(left + kernel[1], w))
            window = x[:, :, rows, cols]
            count = math.prod(kernel) if count_include_pad else window.shape[2] * window.shape[3]
            out[:, :, y, z] = window.sum(axis=(2, 3)) / count
    return out


@st.composite
def pool_geometries(draw):
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    stride = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    padding = tuple(draw(st.integers(0, k // 2)) for k in kernel)
    sides = [draw(st.integers(max(1, k - 2 * p), 5)) for k, p in zip(kernel, padding)]
    return (draw(st.integers(1, 2)), draw(st.integers(1, 2)), *sides), kernel, stride, padding


@given(geometry=pool_geometries(), count_include_pad=st.booleans(), data=st.data())
def test_avg_pool2d_value_and_gradient(backend, geometry, count_include_pad, data):
    shape, kernel, stride, padding = geometry
    x = backend.tensor(data.draw(tst.arrays(shape), label="x"))
    out = nn.avg_pool2d(x, kernel, stride, padding, count_include_pad=count_include_pad)
    expected = avg_pool_loops(x.numpy(), kernel, stride, padding, count_include_pad)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)
    layer = nn.AvgPool2d(kernel, stride, padding, count_include_pad=count_include_pad)
    gradcheck(layer, [x])


def test_avg_pool2d_defaults_and_divisor_override():
    x = tg.arange(36.0).reshape(1, 1, 6, 6)
    np.testing.assert_array_equal(nn.AvgPool2d(3)(x).numpy(), [[[[7.0, 10.0], [25.0, 28.0]]]])
    np.testing.assert_array_equal(
        nn.avg_pool2d(x, 3, divisor_override=1).numpy(), 9 * nn.avg_pool2d(x, 3).numpy()
    )
    gradgradcheck(lambda x: nn.avg_pool2d(x, 2, 1, 1) ** 2, [np.ones((1, 1, 2, 3))])
    assert repr(nn.AvgPool2d(2)) == "AvgPool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))"


def adaptive_loops(x, out_h, out_w):
    h, w = x.shape[-2:]
    out = np.zeros((*x.shape[:-2], out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            rows = slice(math.floor(i * h / out_h), math.ceil((i + 1) * h / out_h))
            cols = slice(math.floor(j * w / out_w), math.ceil((j + 1) * w / out_w))
            out[..., i, j] = x[..., rows, cols].mean(axis=(-2, -1))
    return out


@given(
    shape=st.tuples(st.integers(1, 2), st.integers(1, 2), st.integers(1, 6), st.integers(1, 6)),
    out=st.tuples(st.integers(1, 4), st.integers(1, 4)),
    data=st.data(),
)
def test_adaptive_avg_pool2d_value_and_gradient(backend, shape, out, data):
    x = backend.tensor(data.draw(tst.arrays(shape), label="x"))
    got = nn.adaptive_avg_pool2d(x, out)
    np.testing.assert_allclose(got.numpy(), adaptive_loops(x.numpy(), *out), rtol=1e-12)
    gradcheck(nn.AdaptiveAvgPool2d(out), [x])


def test_adaptive_avg_pool2d_global_unbatched_and_none():
    x = tg.random.normal((2, 3, 5, 4))
    np.testing.assert_allclose(
        nn.AdaptiveAvgPool2d(1)(x).numpy(), x.numpy().mean(axis=(2, 3), keepdims=True)
    )
    assert nn.adaptive_avg_pool2d(x[0], (None, 2)).shape == (3, 5, 2)
    with pytest.raises(ValueError, match=r"expected \(C, H, W\) or \(N, C, H, W\) input"):
        nn.adaptive_avg_pool2d(tg.ones((4, 4)), 2)


def test_pooling_errors():
    with pytest.raises(ValueError, match="padding .* must be at most half the kernel"):
        nn.avg_pool2d(tg.ones((1, 1, 4, 4)), 2, padding=2)
    with pytest.raises(ValueError, match="does not fit an input of shape"):
        nn.avg_pool2d(tg.ones((1, 1, 2, 2)), 3)
    with pytest.raises(NotImplementedError, match="ceil_mode"):
        nn.AvgPool2d(2, ceil_mode=True)
