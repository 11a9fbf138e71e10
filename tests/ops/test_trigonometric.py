"""Property-based gradient checks of tapegrad/ops/trigonometric.py."""

import numpy as np
import pytest
from helpers import assert_matches, value_and_gradients
from hypothesis import given

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

# op, NumPy reference, domain of the inputs, shift added to the drawn values
UNARY = [
    (tg.arcsin, np.arcsin, "unit", 0.0),
    (tg.arccos, np.arccos, "unit", 0.0),
    (tg.arcsinh, np.arcsinh, "real", 0.0),
    (tg.arccosh, np.arccosh, "positive", 1.2),
    (tg.arctanh, np.arctanh, "unit", 0.0),
    (tg.sinc, np.sinc, "real", 0.0),
    (tg.deg2rad, np.deg2rad, "real", 0.0),
    (tg.rad2deg, np.rad2deg, "real", 0.0),
]
IDS = [op.__name__ for op, *_ in UNARY]
BINARY = [(tg.arctan2, np.arctan2), (tg.hypot, np.hypot)]


@pytest.mark.parametrize(("op", "reference", "domain", "shift"), UNARY, ids=IDS)
@given(data=tst.st.data())
def test_value_and_gradient(op, reference, domain, shift, backend, data):
    x = backend.tensor(data.draw(tst.arrays(domain=domain), label="x") + shift)
    assert_matches(op(x), reference(x.numpy()), rtol=1e-12)
    gradcheck(op, [x])


@pytest.mark.parametrize(("op", "reference", "domain", "shift"), UNARY, ids=IDS)
@given(data=tst.st.data())
def test_second_derivative(op, reference, domain, shift, backend, data):
    shape = tst.shapes(max_dims=2, max_side=3)
    x = backend.tensor(data.draw(tst.arrays(shape, domain=domain), label="x") + shift)
    gradgradcheck(op, [x])


@pytest.mark.parametrize(("op", "reference"), BINARY, ids=["arctan2", "hypot"])
@given(data=tst.st.data())
def test_binary_with_broadcasting(op, reference, backend, data):
    a, b = data.draw(tst.broadcastable_tensors(2, domain="nonzero"), label="inputs")
    a, b = backend.tensor(a), backend.tensor(b)
    assert_matches(op(a, b), reference(a.numpy(), b.numpy()), rtol=1e-12)
    gradcheck(op, [a, b])
    gradgradcheck(op, [a, b])


@pytest.mark.parametrize("op", [tg.arctan2, tg.hypot], ids=["arctan2", "hypot"])
def test_gradient_at_the_origin_is_zero(op, backend):
    zero = backend.tensor(np.zeros(3))
    _, grads = value_and_gradients(op, zero, backend.tensor(np.zeros(3)))
    for g in grads:
        np.testing.assert_array_equal(g.numpy(), 0.0)


def test_sinc_derivatives_near_zero_follow_the_series():
    # d sinc(0) = 0, d2 sinc(0) = -pi**2 / 3; and no cancellation just off 0
    for point in (0.0, 1e-9, 3e-3, -0.02):
        gradgradcheck(tg.sinc, [np.array([point])], eps=1e-5, atol=1e-6)
    x = tg.tensor([0.0])
    with tg.GradientTape() as outer:
        outer.watch(x)
        with tg.GradientTape() as inner:
            inner.watch(x)
            y = tg.sinc(x)
        g = inner.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), 0.0, atol=1e-15)
    np.testing.assert_allclose(outer.gradient(g, x).numpy(), -(np.pi**2) / 3, rtol=1e-12)


@pytest.mark.parametrize("op", [op for op, *_ in UNARY], ids=IDS)
def test_float32_stays_float32(op):
    x = tg.tensor(np.linspace(0.3, 0.6, 4) + (1.2 if op is tg.arccosh else 0.0), dtype=np.float32)
    y, (g,) = value_and_gradients(op, x)
    assert y.dtype == np.float32 and g.dtype == np.float32
