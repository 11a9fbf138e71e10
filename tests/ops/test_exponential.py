"""Property-based gradient checks of tapegrad/ops/exponential.py."""

import numpy as np
import pytest
from helpers import assert_matches, value_and_gradients
from hypothesis import given

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

UNARY = [
    (tg.log2, np.log2, "positive"),
    (tg.log10, np.log10, "positive"),
    (tg.exp2, np.exp2, "real"),
    (tg.cbrt, np.cbrt, "nonzero"),
    (tg.reciprocal, np.reciprocal, "nonzero"),
]
IDS = [op.__name__ for op, *_ in UNARY]
BINARY = [
    (tg.logaddexp, np.logaddexp),
    (tg.logaddexp2, np.logaddexp2),
    (tg.float_power, np.float_power),
]


@pytest.mark.parametrize(("op", "reference", "domain"), UNARY, ids=IDS)
@given(data=tst.st.data())
def test_value_and_gradient(op, reference, domain, backend, data):
    x = backend.tensor(data.draw(tst.arrays(domain=domain), label="x"))
    assert_matches(op(x), reference(x.numpy()), rtol=1e-12)
    gradcheck(op, [x])


@pytest.mark.parametrize(("op", "reference", "domain"), UNARY, ids=IDS)
@given(data=tst.st.data())
def test_second_derivative(op, reference, domain, backend, data):
    shape = tst.shapes(max_dims=2, max_side=3)
    x = backend.tensor(data.draw(tst.arrays(shape, domain=domain), label="x"))
    gradgradcheck(op, [x])


@pytest.mark.parametrize(("op", "reference"), BINARY, ids=[op.__name__ for op, _ in BINARY])
@given(data=tst.st.data())
def test_binary_with_broadcasting(op, reference, backend, data):
    a, b = data.draw(tst.broadcastable_tensors(2, domain=("positive", "small")), label="inputs")
    a, b = backend.tensor(a), backend.tensor(b)
    assert_matches(op(a, b), reference(a.numpy(), b.numpy()), rtol=1e-12)
    gradcheck(op, [a, b])
    gradgradcheck(op, [a, b])


def test_logaddexp_of_minus_infinities_has_zero_gradient(backend):
    x = backend.tensor(np.array([-np.inf, -np.inf, 0.0]))
    y = backend.tensor(np.array([-np.inf, 1.0, -np.inf]))
    out, (gx, gy) = value_and_gradients(tg.logaddexp, x, y)
    assert_matches(out, np.logaddexp(x.numpy(), y.numpy()))
    np.testing.assert_array_equal(gx.numpy(), [0.0, 0.0, 1.0])
    np.testing.assert_array_equal(gy.numpy(), [0.0, 1.0, 0.0])


@given(data=tst.st.data())
def test_ldexp_and_frexp(backend, data):
    x = backend.tensor(data.draw(tst.arrays(domain="nonzero"), label="x"))
    mantissa, exponent = tg.frexp(x)
    expected = np.frexp(x.numpy())
    assert_matches(mantissa, expected[0])
    np.testing.assert_array_equal(exponent.numpy(), expected[1])
    assert_matches(tg.ldexp(x, 3), np.ldexp(x.numpy(), 3))
    gradcheck(lambda a: tg.ldexp(a, -2), [x])
    if np.all(np.abs(expected[0]) != 0.5):  # frexp jumps at powers of 2
        gradcheck(lambda a: tg.frexp(a)[0], [x])
    gradgradcheck(lambda a: tg.ldexp(a * a, 1), [x])


def test_float_power_computes_in_float64():
    out = tg.float_power(tg.tensor([2.0, 3.0], dtype=np.float32), 2)
    assert out.dtype == np.float64


@pytest.mark.parametrize("op", [op for op, *_ in UNARY], ids=IDS)
def test_float32_stays_float32(op):
    x = tg.tensor(np.linspace(0.3, 0.9, 4), dtype=np.float32)
    y, (g,) = value_and_gradients(op, x)
    assert y.dtype == np.float32 and g.dtype == np.float32
