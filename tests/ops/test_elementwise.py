"""Property-based gradient checks of tapegrad/ops/elementwise.py."""

import numpy as np
import pytest
from hypothesis import given

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

# op, NumPy reference, domain of the inputs
UNARY = [
    (tg.exp, np.exp, "real"),
    (tg.log, np.log, "positive"),
    (tg.log1p, np.log1p, "positive"),
    (tg.expm1, np.expm1, "real"),
    (tg.sqrt, np.sqrt, "positive"),
    (tg.square, np.square, "real"),
    (tg.sin, np.sin, "real"),
    (tg.cos, np.cos, "real"),
    (tg.tan, np.tan, "unit"),
    (tg.tanh, np.tanh, "real"),
    (tg.sinh, np.sinh, "real"),
    (tg.cosh, np.cosh, "real"),
    (tg.arctan, np.arctan, "real"),
    (tg.sigmoid, lambda x: 1 / (1 + np.exp(-x)), "real"),
    (tg.relu, lambda x: np.maximum(x, 0), "nonzero"),
    (tg.softplus, lambda x: np.log1p(np.exp(x)), "real"),
]
IDS = [op.__name__ for op, _, _ in UNARY]


@pytest.mark.parametrize(("op", "reference", "domain"), UNARY, ids=IDS)
@given(data=tst.st.data())
def test_value_and_gradient(op, reference, domain, backend, data):
    x = backend.tensor(data.draw(tst.arrays(domain=domain), label="x"))
    np.testing.assert_allclose(op(x).numpy(), reference(x.numpy()), rtol=1e-12, atol=1e-12)
    gradcheck(op, [x])


@pytest.mark.parametrize(("op", "reference", "domain"), UNARY, ids=IDS)
@given(data=tst.st.data())
def test_second_derivative(op, reference, domain, backend, data):
    shape = tst.shapes(max_dims=2, max_side=3)
    x = backend.tensor(data.draw(tst.arrays(shape, domain=domain), label="x"))
    gradgradcheck(op, [x])


@pytest.mark.parametrize(("op", "reference", "domain"), UNARY, ids=IDS)
def test_float32_stays_float32(op, reference, domain):
    x = tg.tensor(np.linspace(0.3, 0.9, 4), dtype=np.float32)
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = op(x)
    assert y.dtype == np.float32
    assert tape.gradient(y, x).dtype == np.float32


def test_sigmoid_and_softplus_are_stable_at_large_magnitudes():
    x = tg.tensor([-1000.0, -40.0, 0.0, 40.0, 1000.0])
    s = tg.sigmoid(x).numpy()
    assert np.all(np.isfinite(s)) and s[0] == 0.0 and s[-1] == 1.0
    assert s[1] == pytest.approx(4.248354255291589e-18, rel=1e-12)
    np.testing.assert_allclose(tg.softplus(x).numpy()[[0, 4]], [0.0, 1000.0])
