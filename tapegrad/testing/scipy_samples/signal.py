"""scipy.signal: convolutions (``mode``, ``method``, ``axes``, ``boundary``,
``fillvalue``), filters (``axis``, ``zi``, ``padtype``, ``padlen``, ``method``), detrending
and spectral estimates (``window``, ``nperseg``, ``noverlap``, ``nfft``, ``detrend``,
``scaling``, ``average``, ``boundary``...). Filters get stable coefficients built from
``y`` (``a[0]`` and ``sos[:, 3]`` the constant 1); complex outputs are given as their
real part."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "signal.convolve",
    "signal.correlate",
    "signal.fftconvolve",
    "signal.oaconvolve",
    "signal.convolve2d",
    "signal.correlate2d",
    "signal.lfilter",
    "signal.lfilter_zi",
    "signal.sosfilt",
    "signal.sosfilt_zi",
    "signal.filtfilt",
    "signal.sosfiltfilt",
    "signal.detrend",
    "signal.periodogram",
    "signal.welch",
    "signal.csd",
    "signal.stft",
    "signal.istft",
]

_LEAD = np.array([1.0, 0.0, 0.0])  # a[0] = 1
_POLES = np.array([0.0, 0.5, 0.2])  # |a1| < 0.45, |a2| < 0.18: a stable denominator
# sos rows [b0 b1 b2 1 a1 a2]: b from y[:2, :3], a1 a2 from 0.4 y[:2, 2:] and 0.2 y[:2, 3]
_B_PLACES = np.eye(3, 6)
_A_PLACES = np.array([[0.0, 0, 0, 0, 0.4, 0], [0.0, 0, 0, 0, 0, 0.2]])
_SOS_ONES = np.array([[0.0, 0, 0, 1, 0, 0]] * 2)
_FIRST, _SECOND = np.eye(12, 24), np.eye(12, 24, 12)


def _a(y: Any) -> Any:
    """A stable denominator ``[1, a1, a2]`` from ``y[0, :3]``."""
    return y[0, :3] * _POLES + _LEAD


def _sos(y: Any) -> Any:
    return y[:2, :3] @ _B_PLACES + y[:2, 2:] @ _A_PLACES + _SOS_ONES


def _long(x: Any, y: Any) -> Any:
    """A signal of 24 samples: ``x`` then ``y``, flattened."""
    return x.reshape(-1) @ _FIRST + y.reshape(-1) @ _SECOND


def _real(v: Any) -> Any:
    return v.real


def _row(name: str, option: str, call: Callable[..., Any], twice: bool = True) -> Sample:
    return Sample(f"signal.{name}", option, call, twice)


_CONVOLUTIONS = [
    ("default", lambda f: lambda m, x, y: f(m)(x, y[:2, :3])),
    ("mode=valid", lambda f: lambda m, x, y: f(m)(x, y[:2, :3], mode="valid")),
    ("mode=same", lambda f: lambda m, x, y: f(m)(x, y[:2, :3], mode="same")),
]
_METHODS = [
    ("method=direct", lambda f: lambda m, x, y: f(m)(x, y[:2], method="direct")),
    ("method=fft", lambda f: lambda m, x, y: f(m)(x, y[:2], "same", method="fft")),
]
_AXES = [
    ("axes=1", lambda f: lambda m, x, y: f(m)(x, y[:1, :3], axes=1)),
    ("axes=[0], same", lambda f: lambda m, x, y: f(m)(x, y[:2], "same", axes=[0])),
]
_BOUNDARIES = [
    ("boundary=wrap", lambda f: lambda m, x, y: f(m)(x, y[:2, :3], boundary="wrap")),
    ("boundary=symm, same", lambda f: lambda m, x, y: f(m)(x, y[:2, :3], "same", "symm")),
    (
        "boundary=fill, fillvalue=0.5",
        lambda f: lambda m, x, y: f(m)(x, y[:2, :3], "same", boundary="fill", fillvalue=0.5),
    ),
]


def _getter(name: str) -> Callable[[Any], Any]:
    return lambda m: getattr(m.signal, name)


ROWS: list[Sample] = [
    *[
        _row(n, o, c(_getter(n)))
        for n in ("convolve", "correlate")
        for o, c in _CONVOLUTIONS + _METHODS
    ],
    *[
        _row(n, o, c(_getter(n)))
        for n in ("fftconvolve", "oaconvolve")
        for o, c in _CONVOLUTIONS + _AXES
    ],
    *[
        _row(n, o, c(_getter(n)))
        for n in ("convolve2d", "correlate2d")
        for o, c in _CONVOLUTIONS + _BOUNDARIES
    ],
    # lfilter: in b, a, x and zi
    _row("lfilter", "default", lambda m, x, y: m.signal.lfilter(y[1, :2], _a(y), x)),
    _row("lfilter", "FIR (a = [1])", lambda m, x, y: m.signal.lfilter(y[1], [1.0], x)),
    _row("lfilter", "axis=0", lambda m, x, y: m.signal.lfilter(y[1, :2], _a(y), x, axis=0)),
    _row("lfilter", "zi: y", lambda m, x, y: m.signal.lfilter(y[1, :2], _a(y), x, zi=y[:, 2:])[0]),
    _row("lfilter", "zi: zf", lambda m, x, y: m.signal.lfilter(y[1, :2], _a(y), x, zi=y[:, 2:])[1]),
    _row(
        "lfilter",
        "axis=0, zi: zf",
        lambda m, x, y: m.signal.lfilter(y[1, :3], _a(y), x, axis=0, zi=y[1:] * 0.5)[1],
    ),
    _row("lfilter_zi", "default", lambda m, x, y: m.signal.lfilter_zi(y[1], _a(x) * 2.0)),
    _row("sosfilt", "default", lambda m, x, y: m.signal.sosfilt(_sos(y), x)),
    _row("sosfilt", "axis=0", lambda m, x, y: m.signal.sosfilt(_sos(y), x, axis=0)),
    _row(
        "sosfilt",
        "zi: y",
        lambda m, x, y: m.signal.sosfilt(
            _sos(y), x, zi=(x[:2, :2] @ np.ones((2, 6))).reshape(2, 3, 2)
        )[0],
    ),
    _row(
        "sosfilt",
        "zi: zf",
        lambda m, x, y: m.signal.sosfilt(
            _sos(y), x, zi=(x[:2, :2] @ np.ones((2, 6))).reshape(2, 3, 2)
        )[1],
    ),
    _row("sosfilt_zi", "default", lambda m, x, y: m.signal.sosfilt_zi(_sos(y))),
    _row("filtfilt", "default", lambda m, x, y: m.signal.filtfilt(y[1, :3], _a(y), _long(x, y))),
    _row(
        "filtfilt",
        "method=pad, padtype=even, padlen=3",
        lambda m, x, y: m.signal.filtfilt(
            y[1, :2], _a(y), x, padtype="even", padlen=3, method="pad"
        ),
    ),
    _row(
        "filtfilt",
        "padtype=constant, padlen=2",
        lambda m, x, y: m.signal.filtfilt(y[1, :2], _a(y), x, padtype="constant", padlen=2),
    ),
    _row(
        "filtfilt", "padtype=None", lambda m, x, y: m.signal.filtfilt(y[1], _a(y), x, padtype=None)
    ),
    _row(
        "filtfilt",
        "axis=0, padlen=1",
        lambda m, x, y: m.signal.filtfilt(y[1, :2], _a(y), x, axis=0, padlen=1),
    ),
    _row("sosfiltfilt", "default", lambda m, x, y: m.signal.sosfiltfilt(_sos(y), _long(x, y))),
    _row(
        "sosfiltfilt",
        "padtype=even, padlen=3",
        lambda m, x, y: m.signal.sosfiltfilt(_sos(y), x, padtype="even", padlen=3),
    ),
    _row(
        "sosfiltfilt",
        "padtype=constant, axis=0, padlen=2",
        lambda m, x, y: m.signal.sosfiltfilt(_sos(y), x, axis=0, padtype="constant", padlen=2),
    ),
    _row(
        "sosfiltfilt",
        "padtype=None",
        lambda m, x, y: m.signal.sosfiltfilt(_sos(y), x, padtype=None),
    ),
    # detrend: a projection
    _row("detrend", "default", lambda m, x, y: m.signal.detrend(x)),
    _row("detrend", "axis=0", lambda m, x, y: m.signal.detrend(x, axis=0)),
    _row("detrend", "type=constant", lambda m, x, y: m.signal.detrend(x, type="constant")),
    _row("detrend", "bp=[5, 9]", lambda m, x, y: m.signal.detrend(_long(x, y), bp=[5, 9])),
    _row(
        "detrend",
        "overwrite_data (on a copy)",
        lambda m, x, y: m.signal.detrend(x + 0.0, overwrite_data=True),
    ),
    # spectral estimates of the 24-sample signal
    _row("periodogram", "default", lambda m, x, y: m.signal.periodogram(_long(x, y))[1]),
    _row(
        "periodogram",
        "fs=2, window=hann",
        lambda m, x, y: m.signal.periodogram(x, fs=2.0, window="hann")[1],
    ),
    _row(
        "periodogram",
        "nfft=7 (first 7 samples)",
        lambda m, x, y: m.signal.periodogram(_long(x, y), nfft=7)[1],
    ),
    _row(
        "periodogram",
        "nfft=30 (zero-padded)",
        lambda m, x, y: m.signal.periodogram(_long(x, y), nfft=30)[1],
    ),
    _row(
        "periodogram",
        "detrend=linear, scaling=spectrum",
        lambda m, x, y: m.signal.periodogram(x, detrend="linear", scaling="spectrum")[1],
    ),
    _row(
        "periodogram",
        "return_onesided=False, axis=0",
        lambda m, x, y: m.signal.periodogram(x, return_onesided=False, axis=0)[1],
    ),
]

_WELCH: list[tuple[str, dict[str, Any]]] = [
    ("nperseg=8", {"nperseg": 8}),
    ("fs=3, window=hamming, nperseg=6", {"fs": 3.0, "window": "hamming", "nperseg": 6}),
    ("nperseg=8, noverlap=2, nfft=11", {"nperseg": 8, "noverlap": 2, "nfft": 11}),
    ("detrend=linear", {"nperseg": 8, "detrend": "linear"}),
    ("detrend=False, scaling=spectrum", {"nperseg": 8, "detrend": False, "scaling": "spectrum"}),
    ("return_onesided=False", {"nperseg": 8, "return_onesided": False}),
    ("average=median", {"nperseg": 6, "average": "median"}),
    ("window=array", {"window": np.linspace(0.5, 1.0, 8)}),
]


def _welch(kw: dict[str, Any]) -> Callable[..., Any]:
    return lambda m, x, y: m.signal.welch(_long(x, y), **kw)[1]


def _csd(kw: dict[str, Any]) -> Callable[..., Any]:
    return lambda m, x, y: _real(m.signal.csd(_long(x, y), _long(y, x), **kw)[1])


ROWS += [_row("welch", o, _welch(kw)) for o, kw in _WELCH]
ROWS += [
    _row("welch", "axis=0, nperseg=2", lambda m, x, y: m.signal.welch(x, nperseg=2, axis=0)[1]),
    *[_row("csd", f"{o} (real part)", _csd(kw)) for o, kw in _WELCH],
    _row(
        "csd",
        "axis=0, nperseg=2 (imaginary part)",
        lambda m, x, y: m.signal.csd(x, y, nperseg=2, axis=0)[1].imag,
    ),
    _row(
        "csd",
        "y shorter (zero-padded)",
        lambda m, x, y: _real(m.signal.csd(_long(x, y), y.reshape(-1), nperseg=8)[1]),
    ),
]

_STFT: list[tuple[str, dict[str, Any]]] = [
    ("nperseg=8", {"nperseg": 8}),
    ("fs=2, window=hamming, nperseg=6", {"fs": 2.0, "window": "hamming", "nperseg": 6}),
    ("noverlap=6, nfft=10", {"nperseg": 8, "noverlap": 6, "nfft": 10}),
    ("detrend=linear", {"nperseg": 8, "detrend": "linear"}),
    ("return_onesided=False", {"nperseg": 8, "return_onesided": False}),
    ("boundary=None, padded=False", {"nperseg": 5, "boundary": None, "padded": False}),
    ("boundary=even", {"nperseg": 8, "boundary": "even"}),
    ("boundary=odd", {"nperseg": 8, "boundary": "odd"}),
    ("boundary=constant", {"nperseg": 8, "boundary": "constant"}),
    ("scaling=psd", {"nperseg": 8, "scaling": "psd"}),
]


def _stft(kw: dict[str, Any]) -> Callable[..., Any]:
    return lambda m, x, y: _real(m.signal.stft(_long(x, y), **kw)[2])


ROWS += [_row("stft", f"{o} (real part)", _stft(kw)) for o, kw in _STFT]
ROWS += [_row("stft", "axis=0, nperseg=2 (imaginary part)",
              lambda m, x, y: m.signal.stft(x, nperseg=2, axis=0)[2].imag)]  # fmt: skip

_ISTFT: list[tuple[str, dict[str, Any], dict[str, Any]]] = [
    ("nperseg=8", {"nperseg": 8}, {"nperseg": 8}),
    ("default (nperseg from Zxx)", {"nperseg": 8}, {}),
    (
        "fs=2, window=hamming, nperseg=6",
        {"fs": 2.0, "window": "hamming", "nperseg": 6},
        {"fs": 2.0, "window": "hamming", "nperseg": 6},
    ),
    (
        "noverlap=6, nfft=10",
        {"nperseg": 8, "noverlap": 6, "nfft": 10},
        {"nperseg": 8, "noverlap": 6, "nfft": 10},
    ),
    (
        "input_onesided=False",
        {"nperseg": 8, "return_onesided": False},
        {"nperseg": 8, "input_onesided": False},
    ),
    (
        "boundary=False (hamming: NOLA holds)",
        {"nperseg": 8, "boundary": None, "window": "hamming"},
        {"nperseg": 8, "boundary": False, "window": "hamming"},
    ),
    ("scaling=psd", {"nperseg": 8, "scaling": "psd"}, {"nperseg": 8, "scaling": "psd"}),
]


def _istft(forward: dict[str, Any], back: dict[str, Any]) -> Callable[..., Any]:
    return lambda m, x, y: m.signal.istft(m.signal.stft(_long(x, y), **forward)[2], **back)[1]


ROWS += [_row("istft", o, _istft(f, b)) for o, f, b in _ISTFT]
ROWS += [
    _row(
        "istft",
        "time_axis=-1, freq_axis=0",
        lambda m, x, y: m.signal.istft(
            m.signal.stft(x, nperseg=2, axis=0)[2], nperseg=2, time_axis=-1, freq_axis=0
        )[1],
    ),
    _row(
        "istft",
        "time_axis=0, freq_axis=1",
        lambda m, x, y: m.signal.istft(
            m.signal.stft(x, nperseg=2, axis=0)[2].T, nperseg=2, time_axis=0, freq_axis=1
        )[1],
    ),
]

REFUSALS: list[Refusal] = [
    Refusal(
        "signal.filtfilt",
        "method=gust",
        lambda m, x, y: m.signal.filtfilt(y[1, :2], _a(y), x, method="gust"),
        NotImplementedError,
    ),
    Refusal(
        "signal.filtfilt",
        "irlen=2 (method=gust)",
        lambda m, x, y: m.signal.filtfilt(y[1, :2], _a(y), x, method="gust", irlen=2),
        NotImplementedError,
    ),
]
