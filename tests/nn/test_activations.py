"""tapegrad/nn/activations.py: each activation against its formula in NumPy (PyTorch's
definitions), its gradient by finite differences, its second derivative where smooth, and
the derivatives PyTorch gives at the kinks."""

import math
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad import nn
from tapegrad.nn.activations import _erf
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

erf = np.vectorize(math.erf)


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


# (layer, NumPy reference, domain of the gradient check: kinks excluded, twice differentiable)
ACTIVATIONS = [
    (nn.ReLU(), lambda x: np.maximum(x, 0), "nonzero", False),
    (nn.Tanh(), np.tanh, "real", True),
    (nn.Sigmoid(), sigmoid, "real", True),
    (nn.GELU(), lambda x: 0.5 * x * (1 + erf(x / math.sqrt(2))), "real", True),
    (
        nn.GELU("tanh"),
        lambda x: 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))),
        "real",
        True,
    ),
    (nn.LeakyReLU(), lambda x: np.where(x > 0, x, 0.01 * x), "nonzero", False),
    (nn.LeakyReLU(0.3), lambda x: np.where(x > 0, x, 0.3 * x), "nonzero", False),
    (nn.ELU(), lambda x: np.where(x > 0, x, np.expm1(x)), "nonzero", False),
    (nn.ELU(0.5), lambda x: np.where(x > 0, x, 0.5 * np.expm1(x)), "nonzero", False),
    (nn.SiLU(), lambda x: x * sigmoid(x), "real", True),
    (nn.Softplus(), lambda x: np.where(x > 20, x, np.log1p(np.exp(x))), "real", True),
    (
        nn.Softplus(2.0, 1.0),
        lambda x: np.where(2 * x > 1, x, np.log1p(np.exp(2 * x)) / 2),
        "small",
        False,
    ),
    (nn.Identity(), lambda x: x, "real", True),
]  # fmt: skip
IDS = [repr(layer) for layer, *_ in ACTIVATIONS]


@pytest.mark.parametrize(("layer", "reference", "domain", "smooth"), ACTIVATIONS, ids=IDS)
@given(data=st.data())
def test_activation_value_and_gradient(backend, layer, reference, domain, smooth, data):
    x = backend.tensor(data.draw(tst.arrays(domain=domain), label="x"))
    np.testing.assert_allclose(
        np.asarray(layer(x)), reference(np.asarray(x)), rtol=1e-12, atol=1e-300
    )
    if domain == "small":  # keep finite differences off Softplus's threshold at beta*x = 1
        x = backend.tensor(np.where(np.abs(2 * np.asarray(x) - 1) < 1e-3, 0.0, np.asarray(x)))
    gradcheck(layer, [x])


@pytest.mark.parametrize(
    ("layer", "reference", "domain", "smooth"),
    [a for a in ACTIVATIONS if a[3]],
    ids=[repr(layer) for layer, *_, smooth in ACTIVATIONS if smooth],
)
@settings(max_examples=5)
@given(data=st.data())
def test_activation_second_derivative(layer, reference, domain, smooth, data):
    x = tg.tensor(data.draw(tst.arrays(tst.shapes(max_dims=1), domain=domain), label="x"))
    gradgradcheck(layer, [x])


def test_erf_and_its_derivative():
    x = np.linspace(-6, 6, 241)
    np.testing.assert_allclose(np.asarray(_erf(x)), erf(x), rtol=1e-15, atol=1e-16)
    # d erf = 2/sqrt(pi) exp(-x^2), and its derivative -2x times that.
    first = np.asarray(tg.grad(lambda x: tg.sum(_erf(x)))(x))
    np.testing.assert_allclose(first, 2 / math.sqrt(math.pi) * np.exp(-(x**2)), rtol=1e-14)
    second = np.asarray(tg.grad(lambda x: tg.sum(tg.grad(lambda y: tg.sum(_erf(y)))(x)))(x))
    np.testing.assert_allclose(second, -2 * x * first, rtol=1e-13, atol=1e-300)
    gradgradcheck(_erf, [np.array([-1.5, 0.0, 0.3, 2.0])])


def test_derivatives_at_the_kinks_are_pytorchs():
    at_zero = tg.tensor([0.0])
    slopes = {
        "relu": (nn.ReLU(), 0.0),
        "leaky_relu": (nn.LeakyReLU(0.2), 0.2),  # x > 0 ? x : slope * x
        "elu": (nn.ELU(0.7), 0.7),  # alpha * exp(0)
        "softplus at its threshold": (nn.Softplus(1.0, 0.0), 0.5),  # beta*x > threshold: no
    }
    for name, (layer, slope) in slopes.items():
        assert tg.grad(lambda x, layer=layer: tg.sum(layer(x)))(at_zero).item() == slope, name


def test_elu_and_softplus_do_not_overflow_into_nan_gradients():
    x = tg.tensor([-800.0, -1.0, 1.0, 800.0])
    for layer in (nn.ELU(), nn.Softplus(), nn.GELU(), nn.SiLU()):
        grad = np.asarray(tg.grad(lambda x, layer=layer: tg.sum(layer(x)))(x))
        assert np.isfinite(grad).all(), layer


def test_float32_stays_float32():
    x = tg.ones(3, dtype="float32")
    for layer, *_ in ACTIVATIONS:
        assert layer(x).dtype == np.float32, layer


def test_softmax_layers_need_a_dim_and_match_the_functions():
    x = tg.random.normal((2, 3, 4))
    for dim in (0, 1, -1):
        np.testing.assert_allclose(
            np.asarray(nn.Softmax(dim)(x)), np.asarray(tg.softmax(x, axis=dim))
        )
        np.testing.assert_allclose(
            np.asarray(nn.LogSoftmax(dim=dim)(x)), np.asarray(tg.log_softmax(x, axis=dim))
        )
    gradcheck(nn.LogSoftmax(dim=1), [x])
    gradcheck(nn.Softmax(dim=-1), [x])
    with pytest.raises(
        ValueError, match=r"pass the axis to normalise over, e.g. Softmax\(dim=-1\)"
    ):
        nn.Softmax()
    assert repr(nn.LogSoftmax(dim=1)) == "LogSoftmax(dim=1)"


def test_bad_settings_are_named():
    with pytest.raises(ValueError, match="GELU: approximate must be 'none' or 'tanh'"):
        nn.GELU("erf")
    with pytest.raises(ValueError, match="gelu: approximate"):
        nn.gelu(tg.ones(2), approximate="fast")


def test_erf_without_scipy_uses_the_c_library(monkeypatch):
    monkeypatch.setitem(sys.modules, "scipy.special", None)  # the import now fails
    x = np.linspace(-3, 3, 13)
    np.testing.assert_array_equal(np.asarray(_erf(x)), erf(x))
    assert _erf(x.astype(np.float32)).dtype == np.float32 and _erf(0.5).shape == ()


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: nn.LeakyReLU("a"), TypeError, "LeakyReLU: negative_slope must be a number"),
        (lambda: nn.ELU(None), TypeError, "ELU: alpha must be a number"),
        (lambda: nn.Softplus(beta=0), ValueError, "Softplus: beta must be nonzero"),
        (lambda: nn.softplus(tg.tensor(1.0), beta=0), ValueError, "softplus: beta must be"),
        (lambda: nn.leaky_relu(tg.tensor(1.0), "x"), TypeError, "leaky_relu: negative_slope"),
        (lambda: nn.init.uniform((2,), -1.0), ValueError, "uniform: bound must be >= 0"),
    ],
)
def test_bad_settings_are_refused_by_name(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_a_tensor_slope_is_a_setting_too():
    slope = tg.tensor(0.2)
    assert np.asarray(nn.leaky_relu(tg.tensor([-1.0, 2.0]), slope)).tolist() == [-0.2, 2.0]
