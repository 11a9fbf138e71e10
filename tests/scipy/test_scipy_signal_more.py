"""tapegrad/scipy/signal's filters and spectral estimates beyond the sample table
(tapegrad/testing/scipy_samples/signal.py): n-d axes, complex filters (the all-pole
primitive "lfilter" declares complex_rules), the adjoint identities, and clear errors."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.signal", reason="the scipy extra is not installed")

import scipy.signal as ss  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import signal  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

RNG = np.random.default_rng(7)
B, A = np.array([0.4, -0.2, 0.1]), np.array([1.2, 0.3, -0.1, 0.05])


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("n", [2, 6])  # shorter and longer than the state
def test_lfilter_with_state_matches_scipy_along_every_axis(axis, n):
    shape = [2, 3, 4]
    shape[axis] = n
    x = RNG.standard_normal(shape)
    state = list(shape)
    state[axis] = 3
    zi = RNG.standard_normal(state)
    y, zf = ss.lfilter(B, A, x, axis=axis, zi=zi)
    ours = signal.lfilter(tg.tensor(B), tg.tensor(A), tg.tensor(x), axis=axis, zi=tg.tensor(zi))
    np.testing.assert_allclose(ours[0].numpy(), y, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(ours[1].numpy(), zf, rtol=1e-10, atol=1e-13)
    gradcheck(lambda b, a, x, zi: signal.lfilter(b, a, x, axis=axis, zi=zi), [B, A, x, zi])


def test_lfilter_second_derivatives_in_every_argument():
    x, zi = RNG.standard_normal(5), RNG.standard_normal(3)
    gradgradcheck(lambda b, a, x, zi: signal.lfilter(b, a, x, zi=zi), [B, A, x, zi])


def test_lfilter_zi_broadcasts_as_scipy():
    x, zi = RNG.standard_normal((3, 5)), RNG.standard_normal((1, 3))
    y, zf = ss.lfilter(B, A, x, zi=zi)
    ours = signal.lfilter(B, A, tg.tensor(x), zi=tg.tensor(zi))
    np.testing.assert_allclose(ours[0].numpy(), y, rtol=1e-10)
    np.testing.assert_allclose(ours[1].numpy(), zf, rtol=1e-10)


def test_the_gradient_in_x_is_the_filter_run_backwards():
    x, g = RNG.standard_normal(7), RNG.standard_normal(7)
    grad = tg.grad(lambda x: tg.sum(signal.lfilter(B, A, x) * g))(tg.tensor(x)).numpy()
    np.testing.assert_allclose(grad, ss.lfilter(B, A, g[::-1])[::-1], rtol=1e-10)


def test_complex_filters():
    x = RNG.standard_normal(6) + 1j * RNG.standard_normal(6)
    a = np.array([1.0, 0.3 + 0.2j, -0.1j])
    b = np.array([0.5 - 0.1j, 0.2])
    zi = np.array([0.1 + 0.2j, -0.3])
    y, zf = ss.lfilter(b, a, x, zi=zi)
    ours = signal.lfilter(tg.tensor(b), tg.tensor(a), tg.tensor(x), zi=tg.tensor(zi))
    np.testing.assert_allclose(ours[0].numpy(), y, rtol=1e-10)
    np.testing.assert_allclose(ours[1].numpy(), zf, rtol=1e-10)
    inputs = [tg.tensor(v) for v in (b, a, x, zi)]
    gradcheck(lambda b, a, x, zi: signal.lfilter(b, a, x, zi=zi), inputs)
    gradgradcheck(lambda b, a, x: signal.lfilter(b, a, x), inputs[:3])


def test_filtfilt_and_sosfiltfilt_match_scipy_on_a_real_design():
    x = RNG.standard_normal((2, 40))
    b, a = ss.butter(3, 0.3)
    sos = ss.butter(4, 0.2, output="sos")
    for padtype in ("odd", "even", "constant", None):
        np.testing.assert_allclose(
            signal.filtfilt(tg.tensor(b), a, tg.tensor(x), padtype=padtype).numpy(),
            ss.filtfilt(b, a, x, padtype=padtype),
            rtol=1e-10,
            atol=1e-13,
        )
        np.testing.assert_allclose(
            signal.sosfiltfilt(tg.tensor(sos), tg.tensor(x), padtype=padtype).numpy(),
            ss.sosfiltfilt(sos, x, padtype=padtype),
            rtol=1e-9,
            atol=1e-12,
        )
    np.testing.assert_allclose(signal.sosfilt_zi(tg.tensor(sos)).numpy(), ss.sosfilt_zi(sos))
    gradcheck(lambda b, a, x: signal.filtfilt(b, a, x), [b, a, x[0]])


def test_sosfilt_is_a_cascade_with_states():
    sos = ss.butter(4, 0.3, output="sos")
    x, zi = RNG.standard_normal((3, 9)), RNG.standard_normal((2, 3, 2))
    y, zf = ss.sosfilt(sos, x, zi=zi)
    ours = signal.sosfilt(tg.tensor(sos), tg.tensor(x), zi=tg.tensor(zi))
    np.testing.assert_allclose(ours[0].numpy(), y, rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(ours[1].numpy(), zf, rtol=1e-10, atol=1e-13)
    gradcheck(lambda x, zi: signal.sosfilt(sos, x, zi=zi), [x, zi])


def test_filter_errors_name_the_function_and_the_argument():
    x = tg.tensor(RNG.standard_normal(8))
    with pytest.raises(ValueError, match="lfilter: a\\[0\\] == 0"):
        signal.lfilter([1.0], [0.0, 1.0], x)
    with pytest.raises(ValueError, match="lfilter: zi must have shape"):
        signal.lfilter(B, A, x, zi=np.zeros(2))
    with pytest.raises(ValueError, match="sosfilt: sos\\[:, 3\\] should be all ones"):
        signal.sosfilt(np.ones((1, 6)) * 2, x)
    with pytest.raises(ValueError, match="filtfilt: the length of the input vector"):
        signal.filtfilt(B, A, x)
    with pytest.raises(ValueError, match="filtfilt: unknown padtype"):
        signal.filtfilt(B, A, x, padtype="wrap", padlen=1)
    with pytest.raises(NotImplementedError, match="filtfilt: method='gust'"):
        signal.filtfilt(B, A, x, method="gust")


@pytest.mark.parametrize(
    "options",
    [
        {"nperseg": 8},
        {"nperseg": 8, "average": "median"},
        {"nperseg": 5, "detrend": "linear"},
        {"nperseg": 3, "axis": 0},
        {"nperseg": 8, "return_onesided": False},
    ],
)
def test_spectral_estimates_match_scipy(options):
    x, y = RNG.standard_normal((3, 20)), RNG.standard_normal((3, 20))
    for name, args in (("welch", (x,)), ("csd", (x, y))):
        f, p = getattr(ss, name)(*args, **options)
        ours = getattr(signal, name)(*map(tg.tensor, args), **options)
        np.testing.assert_array_equal(ours[0], f)
        np.testing.assert_allclose(ours[1].numpy(), p, rtol=1e-10, atol=1e-13)
        assert ours[1].dtype == p.dtype
    gradcheck(lambda x, y: tg.real(signal.csd(x, y, **options)[1]), [x, y])


def test_stft_round_trip_and_gradient():
    x = RNG.standard_normal((2, 17))
    f, t, z = ss.stft(x, nperseg=6)
    ours = signal.stft(tg.tensor(x), nperseg=6)
    np.testing.assert_array_equal(ours[1], t)
    np.testing.assert_allclose(ours[2].numpy(), z, rtol=1e-10, atol=1e-13)
    back = signal.istft(ours[2], nperseg=6)[1].numpy()
    np.testing.assert_allclose(back, ss.istft(z, nperseg=6)[1], rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(back[:, :17], x, atol=1e-12)
    gradgradcheck(lambda x: signal.istft(signal.stft(x, nperseg=6)[2], nperseg=6)[1], [x[0]])


def test_detrend_is_a_projection():
    x = RNG.standard_normal((4, 10))
    for options in ({}, {"bp": [3, 7]}, {"type": "constant", "axis": 0}):
        once = signal.detrend(tg.tensor(x), **options)
        np.testing.assert_allclose(once.numpy(), ss.detrend(x, **options), rtol=1e-10, atol=1e-13)
        np.testing.assert_allclose(
            signal.detrend(once, **options).numpy(), once.numpy(), atol=1e-12
        )
    with pytest.raises(ValueError, match="detrend: breakpoints"):
        signal.detrend(tg.tensor(x), bp=[20])


def test_other_names_are_scipys_own():
    assert signal.get_window is ss.get_window
    assert signal.butter is ss.butter
    with pytest.raises(AttributeError):
        signal.no_such_function  # noqa: B018
