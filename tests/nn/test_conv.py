"""tapegrad/nn/conv.py: im2col against the same gather built from ops, conv2d and max_pool2d
against direct loops, and their gradients by finite differences."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layercheck import check_variable_gradients

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


@st.composite
def geometries(draw, max_side=3):
    """(x shape, kernel, stride, padding, dilation) with at least one window position."""
    kernel = (draw(st.integers(1, 3)), draw(st.integers(1, 3)))
    stride = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    padding = (draw(st.integers(0, 1)), draw(st.integers(0, 1)))
    dilation = (draw(st.integers(1, 2)), draw(st.integers(1, 2)))
    sides = []
    for a in (0, 1):
        needed = max(1, dilation[a] * (kernel[a] - 1) + 1 - 2 * padding[a])
        sides.append(draw(st.integers(needed, needed + max_side)))
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 2)), *sides)
    return shape, kernel, stride, padding, dilation


def im2col_from_ops(x, kernel, stride, padding, dilation):
    """The same windows as tg.nn.im2col, gathered with pad, getitem and stack on the tape."""
    x = tg.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    n, c, h, w = x.shape
    ho = (h - dilation[0] * (kernel[0] - 1) - 1) // stride[0] + 1
    wo = (w - dilation[1] * (kernel[1] - 1) - 1) // stride[1] + 1
    windows = []
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            top, left = i * dilation[0], j * dilation[1]
            rows = slice(top, top + stride[0] * (ho - 1) + 1, stride[0])
            cols = slice(left, left + stride[1] * (wo - 1) + 1, stride[1])
            windows.append(x[:, :, rows, cols])
    return tg.reshape(tg.stack(windows, axis=2), (n, c, *kernel, ho, wo))


def conv2d_loops(x, w, b, stride, padding, dilation):
    """Cross-correlation written out element by element, in float64."""
    x = np.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    n, _, h, wd = x.shape
    o, _, kh, kw = w.shape
    ho = (h - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (wd - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    out = np.zeros((n, o, ho, wo))
    for y in range(ho):
        for z in range(wo):
            for i in range(kh):
                for j in range(kw):
                    row, col = y * stride[0] + i * dilation[0], z * stride[1] + j * dilation[1]
                    out[:, :, y, z] += x[:, :, row, col] @ w[:, :, i, j].T
    return out + (0 if b is None else b[None, :, None, None])


@given(geometry=geometries(), data=st.data())
def test_im2col_matches_the_gather_built_from_ops(backend, geometry, data):
    shape, kernel, stride, padding, dilation = geometry
    x = backend.tensor(data.draw(tst.arrays(shape), label="x"))
    fused = tg.nn.im2col(x, kernel, stride, padding, dilation)
    reference = im2col_from_ops(x, kernel, stride, padding, dilation)
    np.testing.assert_array_equal(fused.numpy(), reference.numpy())
    cotangent = backend.tensor(data.draw(tst.arrays(fused.shape), label="cotangent"))
    grads = []
    for gather in (tg.nn.im2col, im2col_from_ops):
        with tg.GradientTape() as tape:
            tape.watch(x)
            out = gather(x, kernel, stride, padding, dilation)
        grads.append(tape.gradient(out, x, output_gradients=cotangent).numpy())
    np.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, atol=1e-12)


@given(geometry=geometries(), data=st.data())
def test_im2col_gradient(backend, geometry, data):
    shape, kernel, stride, padding, dilation = geometry
    x = backend.tensor(data.draw(tst.arrays(shape), label="x"))
    gradcheck(lambda x: tg.nn.im2col(x, kernel, stride, padding, dilation), [x])


@settings(max_examples=5)
@given(geometry=geometries(max_side=1), data=st.data())
def test_im2col_second_derivative(geometry, data):
    shape, kernel, stride, padding, dilation = geometry
    x = tg.tensor(data.draw(tst.arrays(shape), label="x"))
    # im2col is linear: square it so the second derivative is not identically zero.
    gradgradcheck(lambda x: tg.nn.im2col(x, kernel, stride, padding, dilation) ** 2, [x])


@given(geometry=geometries(), out_channels=st.integers(1, 2), bias=st.booleans(), data=st.data())
def test_conv2d_value_and_gradient(backend, geometry, out_channels, bias, data):
    shape, kernel, stride, padding, dilation = geometry
    x = data.draw(tst.arrays(shape), label="x")
    w = data.draw(tst.arrays((out_channels, shape[1], *kernel)), label="w")
    b = data.draw(tst.arrays((out_channels,)), label="b") if bias else None
    inputs = [backend.tensor(a) for a in (x, w) + ((b,) if bias else ())]
    out = tg.nn.conv2d(*inputs[:2], inputs[2] if bias else None, stride, padding, dilation)
    expected = conv2d_loops(x, w, b, stride, padding, dilation)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)
    gradcheck(
        lambda x, w, *b: tg.nn.conv2d(x, w, b[0] if b else None, stride, padding, dilation), inputs
    )


@settings(max_examples=5)
@given(geometry=geometries(max_side=1), data=st.data())
def test_conv2d_second_derivative(geometry, data):
    shape, kernel, stride, padding, dilation = geometry
    x = tg.tensor(data.draw(tst.arrays(shape), label="x"))
    w = tg.tensor(data.draw(tst.arrays((1, shape[1], *kernel)), label="w"))
    gradgradcheck(lambda x, w: tg.nn.conv2d(x, w, None, stride, padding, dilation), [x, w])


def max_pool_loops(x, kernel, stride):
    n, c, h, w = x.shape
    ho, wo = (h - kernel[0]) // stride[0] + 1, (w - kernel[1]) // stride[1] + 1
    out = np.empty((n, c, ho, wo))
    for y in range(ho):
        for z in range(wo):
            window = x[:, :, y * stride[0] : y * stride[0] + kernel[0], z * stride[1] :]
            out[:, :, y, z] = window[:, :, :, : kernel[1]].max(axis=(2, 3))
    return out


@given(
    kernel=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    stride=st.none() | st.tuples(st.integers(1, 3), st.integers(1, 3)),
    extra=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    data=st.data(),
)
def test_max_pool2d_value_and_gradient(backend, kernel, stride, extra, data):
    shape = (2, 2, kernel[0] + extra[0], kernel[1] + extra[1])
    # Values at least 0.1 apart: away from ties the max is differentiable and finite
    # differences do not cross one.
    order = data.draw(st.permutations(range(int(np.prod(shape)))), label="order")
    x = backend.tensor(np.reshape(order, shape) * 0.1 - 1.0)
    out = tg.nn.max_pool2d(x, kernel, stride)
    expected = max_pool_loops(x.numpy(), kernel, kernel if stride is None else stride)
    np.testing.assert_array_equal(out.numpy(), expected)
    gradcheck(lambda x: tg.nn.max_pool2d(x, kernel, stride), [x])


def test_max_pool2d_splits_the_gradient_among_tied_maxima():
    x = tg.tensor(np.array([[[[1.0, 1.0], [0.0, 1.0]]]]))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.nn.max_pool2d(x, 2)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [[[[1 / 3, 1 / 3], [0.0, 1 / 3]]]])


def test_conv2d_layer_initialisation_and_forward():
    conv = tg.nn.Conv2d(3, 5, (2, 3), stride=2, padding=1, generator=tg.random.Generator(0))
    assert conv.weight.shape == (5, 3, 2, 3) and conv.weight.dtype == np.float32
    bound = 1 / np.sqrt(3 * 2 * 3)
    for v in (conv.weight, conv.bias):
        assert np.abs(v.numpy()).max() <= bound
    assert np.abs(conv.weight.numpy()).max() > 0.8 * bound  # uses the whole range
    x = tg.random.Generator(1).normal((2, 3, 7, 6), dtype=np.float32)
    out = conv(x)
    assert out.dtype == np.float32
    expected = conv2d_loops(
        x.numpy(), conv.weight.numpy(), conv.bias.numpy(), (2, 2), (1, 1), (1, 1)
    )
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-5)
    assert tg.nn.Conv2d(1, 1, 3, bias=False, dtype=np.float64).variables[0].dtype == np.float64


def test_conv2d_layer_gradients_reach_weight_and_bias():
    conv = tg.nn.Conv2d(2, 3, 3, stride=(1, 2), padding=1, dtype=np.float64)
    x = tg.random.normal((2, 2, 4, 5))
    check_variable_gradients(lambda: conv(x), conv.trainable_variables)
    gradcheck(conv, [x])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: tg.nn.conv2d(tg.ones((2, 3, 4)), tg.ones((1, 3, 2, 2))), r"NCHW .* \(2, 3, 4\)"),
        (lambda: tg.nn.conv2d(tg.ones((1, 3, 4, 4)), tg.ones((2, 2, 3, 3))), r"\(2, 2, 3, 3\)"),
        (lambda: tg.nn.conv2d(tg.ones((1, 1, 2, 2)), tg.ones((1, 1, 3, 3))), "does not fit"),
        (lambda: tg.nn.conv2d(tg.ones((1, 1, 4, 4)), tg.ones((2, 1, 3, 3)), tg.ones(3)), "bias"),
        (lambda: tg.nn.im2col(tg.ones((1, 1, 4, 4)), 2, stride=0), "stride"),
        (lambda: tg.nn.max_pool2d(tg.ones((1, 1, 2, 2)), 3), r"\(1, 1, 2, 2\)"),
        (lambda: tg.nn.Conv2d(1, 1, (2, 2, 2)), "kernel_size"),
    ],
)
def test_bad_geometry_raises(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@st.composite
def geometries_1d(draw):
    kernel, stride = draw(st.integers(1, 3)), draw(st.integers(1, 2))
    padding, dilation = draw(st.integers(0, 1)), draw(st.integers(1, 2))
    needed = max(1, dilation * (kernel - 1) + 1 - 2 * padding)
    length = draw(st.integers(needed, needed + 3))
    return (
        (draw(st.integers(1, 2)), draw(st.integers(1, 2)), length),
        kernel,
        stride,
        padding,
        dilation,
    )


@given(geometry=geometries_1d(), out_channels=st.integers(1, 2), data=st.data())
def test_conv1d_value_and_gradient(backend, geometry, out_channels, data):
    shape, kernel, stride, padding, dilation = geometry
    x = backend.tensor(data.draw(tst.arrays(shape), label="x"))
    w = backend.tensor(data.draw(tst.arrays((out_channels, shape[1], kernel)), label="w"))
    b = backend.tensor(data.draw(tst.arrays((out_channels,)), label="b"))
    out = tg.nn.conv1d(x, w, b, stride, padding, dilation)
    # A 1-D convolution is the 2-D loop on a height-1 image.
    expected = conv2d_loops(
        x.numpy()[:, :, None], w.numpy()[:, :, None], b.numpy(), (1, stride), (0, padding),
        (1, dilation),
    )[:, :, 0]  # fmt: skip
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-12, atol=1e-12)
    gradcheck(lambda x, w, b: tg.nn.conv1d(x, w, b, stride, padding, dilation), [x, w, b])


def test_conv1d_layer():
    conv = tg.nn.Conv1d(2, 3, 4, padding=1, dtype=np.float64)
    assert conv.weight.shape == (3, 2, 4) and conv.bias.shape == (3,)
    assert np.abs(conv.weight.numpy()).max() <= 1 / np.sqrt(2 * 4)
    x = tg.random.normal((2, 2, 6))
    assert conv(x).shape == (2, 3, 5)
    check_variable_gradients(lambda: conv(x), conv.trainable_variables)
    assert repr(conv) == "Conv1d(2, 3, kernel_size=4, stride=1, padding=1)  # 27 parameters"
    with pytest.raises(ValueError, match=r"conv1d: expected input of shape \(N, C, L\)"):
        conv(tg.ones((2, 6)))
    with pytest.raises(ValueError, match="stride must be an int >= 1"):
        tg.nn.Conv1d(2, 3, 4, stride=0)
