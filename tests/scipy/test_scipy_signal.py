"""tapegrad/scipy/signal: values against scipy.signal, gradients against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.signal", reason="the scipy extra is not installed")

import scipy.signal as ss  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy_checks import require_scipy_kernel  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import signal  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402


@st.composite
def pairs(draw, max_dims=3, valid=False):
    """Two arrays with the same number of dimensions (for 'valid', one at least as large
    as the other along every axis)."""
    ndim = draw(st.integers(1, max_dims), label="ndim")
    first = draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim), label="in1 shape")
    if valid:
        second = [draw(st.integers(1, n)) for n in first]
        if draw(st.booleans(), label="swap"):
            first, second = second, first
    else:
        second = draw(st.lists(st.integers(1, 4), min_size=ndim, max_size=ndim), label="in2")
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1), label="seed"))
    return rng.standard_normal(first), rng.standard_normal(second)


@pytest.mark.parametrize("function", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "valid", "same"])
@settings(max_examples=15)
@given(data=st.data())
def test_values_and_gradients(function, mode, backend, data):
    require_scipy_kernel(backend, function)
    a, b = data.draw(pairs(valid=mode == "valid"))
    ours, theirs = getattr(signal, function), getattr(ss, function)
    got = ours(backend.tensor(a), backend.tensor(b), mode)
    np.testing.assert_allclose(got.numpy(), theirs(a, b, mode), rtol=1e-10, atol=1e-12)
    gradcheck(lambda a, b: ours(a, b, mode), [backend.tensor(a), backend.tensor(b)])


@pytest.mark.parametrize("mode", ["full", "same"])
@settings(max_examples=5)
@given(data=st.data())
def test_second_derivative(mode, data):
    a, b = data.draw(pairs(max_dims=2))
    gradgradcheck(lambda a, b: signal.convolve(a, b, mode), [a, b])


@pytest.mark.parametrize("method", ["direct", "fft"])
def test_methods_agree(method):
    rng = np.random.default_rng(0)
    a, b = rng.standard_normal((5, 4)), rng.standard_normal((3, 2))
    np.testing.assert_allclose(
        np.asarray(signal.convolve(tg.tensor(a), b, "same", method=method)),
        ss.convolve(a, b, "same"),
        atol=1e-12,
    )
    got = np.asarray(signal.fftconvolve(tg.tensor(a), b))
    np.testing.assert_allclose(got, ss.fftconvolve(a, b), atol=1e-12)
    gradcheck(lambda a, b: signal.convolve(a, b, method=method), [a, b])


@pytest.mark.parametrize("mode", ["full", "valid", "same"])
def test_2d_functions_match_scipy(mode):
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((4, 5)), rng.standard_normal((2, 3))
    for ours, theirs in ((signal.convolve2d, ss.convolve2d), (signal.correlate2d, ss.correlate2d)):
        got = np.asarray(ours(tg.tensor(a), b, mode))
        np.testing.assert_allclose(got, theirs(a, b, mode), atol=1e-12)
        for boundary, fillvalue in (("wrap", 0), ("symm", 0), ("fill", 1.5)):
            got = np.asarray(ours(tg.tensor(a), b, mode, boundary, fillvalue))
            np.testing.assert_allclose(got, theirs(a, b, mode, boundary, fillvalue), atol=1e-12)
    with pytest.raises(ValueError, match="boundary must be"):
        signal.convolve2d(tg.tensor(a), b, boundary="reflect")


def test_zero_dimensional_inputs_multiply():
    assert signal.convolve(tg.tensor(2.0), tg.tensor(3.0)).item() == ss.convolve(2.0, 3.0)
    gradcheck(signal.correlate, [2.0, 3.0])


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="convolve: in1 and in2 should have the same dim"):
        signal.convolve(tg.ones(3), np.ones((2, 2)))
    with pytest.raises(ValueError, match="one input must be at least as large"):
        signal.convolve(tg.ones((4, 2)), np.ones((2, 3)), "valid")
    with pytest.raises(ValueError, match="mode must be one of"):
        signal.correlate(tg.ones(3), np.ones(2), "circular")


@pytest.mark.parametrize("mode", ["full", "valid", "same"])
@pytest.mark.parametrize(
    "function", [signal.convolve, signal.correlate], ids=["convolve", "correlate"]
)
def test_complex_signals(function, mode):
    # the rule's correlation conjugates the other input (docs/complex.md)
    rng = np.random.default_rng(0)
    x = rng.standard_normal(5) + 1j * rng.standard_normal(5)
    y = rng.standard_normal(3) + 1j * rng.standard_normal(3)
    reference = getattr(ss, function.__name__)(x, y, mode=mode)
    np.testing.assert_allclose(function(tg.tensor(x), tg.tensor(y), mode=mode).numpy(), reference)
    gradcheck(lambda a, b: function(a, b, mode=mode), [tg.tensor(x), tg.tensor(y)])
    gradgradcheck(lambda a, b: function(a, b, mode=mode), [tg.tensor(x), tg.tensor(y)])
    # a real signal through a complex filter gets a real gradient
    gradcheck(lambda a: tg.real(function(a, tg.tensor(y), mode=mode)), [tg.tensor(x.real)])


def test_complex_2d_correlation_conjugates_the_kernel_as_scipy():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4))
    y = rng.standard_normal((2, 2)) + 1j * rng.standard_normal((2, 2))
    for mode in ("full", "valid", "same"):
        got = signal.correlate2d(tg.tensor(x), tg.tensor(y), mode=mode).numpy()
        np.testing.assert_allclose(got, ss.correlate2d(x, y, mode=mode))
        got = signal.convolve2d(tg.tensor(x), tg.tensor(y), mode=mode).numpy()
        np.testing.assert_allclose(got, ss.convolve2d(x, y, mode=mode))
    gradcheck(lambda a, b: signal.correlate2d(a, b, mode="same"), [tg.tensor(x), tg.tensor(y)])
