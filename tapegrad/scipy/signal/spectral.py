"""SciPy's detrending and spectral estimates with gradients: detrend periodogram welch
csd, and the framing they share with the short-time transform (short_time.py).

All compositions of tapegrad ops, so every order of derivative is available: ``detrend``
is a linear projection (each segment's least-squares line removed), and each segment's
FFT is framing (an index gather) + detrend + window + ``tg.fft.rfft``/``fft``, scaled as
SciPy scales it. Windows are SciPy's own (``get_window``): constants.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.signal as _scipy_signal
from scipy.signal._spectral_py import _median_bias

from tapegrad import fft, ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient

__all__ = [
    "csd", "detrend", "periodogram", "welch",
]  # fmt: skip

ArrayLike = Any


def _tensor(x: Any) -> Any:
    return x if isinstance(x, Tensor) else ops.asarray(x)


def _is_complex(x: Any) -> bool:
    return np.dtype(x.dtype).kind == "c"


@plain_calls_scipy("signal")
def detrend(
    data: ArrayLike, axis: int = -1, type: str = "linear", bp: Any = 0, overwrite_data: bool = False
) -> Tensor:
    """``data`` less its least-squares line along ``axis`` (one line per piece between
    the break points ``bp``), or less its mean for ``type='constant'``: a linear
    projection, differentiable in ``data``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import detrend
    >>> detrend(tg.tensor([1.0, 2.0, 4.0])).numpy().round(6)
    array([ 0.166667, -0.333333,  0.166667])
    """
    if type not in ("linear", "l", "constant", "c"):
        raise ValueError(f"detrend: trend type must be 'linear' or 'constant', got {type!r}")
    data = _tensor(data)
    if not _is_complex(data) and np.dtype(data.dtype).kind != "f":
        data = ops.astype(data, np.float64)
    shape = tuple(shape_of(data))
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"detrend: axis {axis} is out of range for data of shape {shape}")
    if type in ("constant", "c"):
        return data - ops.mean(data, axis=axis, keepdims=True)
    n = shape[axis]
    points = np.sort(np.unique(np.concatenate(np.atleast_1d(0, bp, n))))
    if np.any(points > n):
        raise ValueError(
            f"detrend: breakpoints must be less than the length of data along axis ({n}), "
            f"got bp={bp!r}"
        )
    # the projection onto each piece's residual of the fit [t / Npts, 1], SciPy's design
    dtype = np.float32 if np.dtype(data.dtype).char in "fF" else np.float64
    projection = np.zeros((n, n), dtype=dtype)
    for start, stop in zip(points[:-1], points[1:]):
        size = int(stop - start)
        design = np.ones((size, 2), dtype=dtype)
        design[:, 0] = np.arange(1, size + 1, dtype=dtype) / size
        projection[start:stop, start:stop] = np.eye(size) - design @ np.linalg.pinv(design)
    moved = ops.moveaxis(data, axis, -1)
    return ops.moveaxis(ops.matmul(moved, projection.T), -1, axis)


def _window(window: Any, nperseg: int | None, length: int) -> tuple[np.ndarray, int]:
    """SciPy's _triage_segments: the window array and the segment length."""
    if isinstance(window, (str, tuple)):
        nperseg = 256 if nperseg is None else int(nperseg)
        if nperseg < 1:
            raise ValueError(f"nperseg must be a positive integer, got {nperseg}")
        if nperseg > length:
            warnings.warn(
                f"nperseg = {nperseg:d} is greater than input length  = {length:d}, using "
                f"nperseg = {length:d}",
                stacklevel=4,
            )
            nperseg = length
        return _scipy_signal.get_window(window, nperseg), nperseg
    refuse_gradient("signal", "window", window, "windows are constants")
    win = np.asarray(window)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if nperseg is not None and int(nperseg) != win.shape[0]:
        raise ValueError(f"nperseg={nperseg} does not equal len(win)={win.shape[0]}")
    return win, win.shape[0]


def _frames(x: Any, nperseg: int, step: int, count: int) -> Any:
    """``x``'s ``count`` segments of ``nperseg`` samples, ``step`` apart, along a new
    second-last axis (``x``'s last axis is time)."""
    starts = np.arange(count) * step
    return ops.take(x, starts[:, None] + np.arange(nperseg), axis=-1)


def _segment_detrend(frames: Any, detrend_: Any) -> Any:
    if detrend_ is False or detrend_ is None:
        return frames
    if callable(detrend_):
        return detrend_(frames)
    return detrend(frames, axis=-1, type=detrend_)


def _transform(frames: Any, win: np.ndarray, nfft: int, onesided: bool) -> Any:
    windowed = frames * win
    return fft.rfft(windowed, n=nfft) if onesided else fft.fft(windowed, n=nfft)


def _ends(op: str, x: Any, boundary: Any, half: int) -> Any:
    extensions = ("even", "odd", "constant", "zeros", None)
    if boundary not in extensions:
        raise ValueError(f"{op}: unknown boundary option {boundary!r}, must be one of {extensions}")
    if boundary is None or half == 0:
        return x
    n = shape_of(x)[-1]
    if boundary == "zeros":
        return ops.pad(x, [(0, 0)] * (len(shape_of(x)) - 1) + [(half, half)])
    if n < 2 and boundary in ("even", "odd"):
        raise ValueError(f"{op}: the {boundary} extension needs at least 2 samples")
    left = ops.take(x, np.arange(half, 0, -1), axis=-1)
    right = ops.take(x, np.arange(n - 2, n - 2 - half, -1), axis=-1)
    first, last = ops.take(x, [0], axis=-1), ops.take(x, [n - 1], axis=-1)
    if boundary == "odd":
        left, right = 2 * first - left, 2 * last - right
    elif boundary == "constant":
        left, right = first + 0 * left, last + 0 * right
    return ops.concatenate([left, x, right], axis=-1)


@plain_calls_scipy("signal")
def csd(
    x: ArrayLike,
    y: ArrayLike,
    fs: float = 1.0,
    window: Any = "hann_periodic",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: Any = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    average: str = "mean",
) -> tuple[np.ndarray, Tensor]:
    """The cross power spectral density of ``x`` and ``y`` by Welch's method: the mean
    (or bias-corrected median) over segments of ``conj(X) Y``, ``X`` the windowed FFT of
    a segment of ``x``. Returns ``(f, Pxy)``; differentiable in ``x`` and ``y``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import csd
    >>> f, p = csd(tg.tensor([1.0, 2.0, 0.0, 1.0]), tg.tensor([0.0, 1.0, 1.0, 2.0]), nperseg=4)
    >>> f
    array([0.  , 0.25, 0.5 ])
    >>> p.numpy().round(6)
    array([-0.166667-0.j      , -0.333333+0.666667j,  0.5     +0.j      ])
    """
    return _csd("csd", x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided,
                scaling, axis, average)  # fmt: skip


def _csd(
    op: str, x: Any, y: Any, fs: float, window: Any, nperseg: Any, noverlap: Any, nfft: Any,
    detrend_: Any, return_onesided: bool, scaling: str, axis: int, average: str,
) -> tuple[np.ndarray, Any]:  # fmt: skip
    same = y is None
    x = _tensor(x)
    y = x if same else _tensor(y)
    if scaling not in ("density", "spectrum"):
        raise ValueError(f"{op}: scaling={scaling!r} not in ('density', 'spectrum')")
    if average not in ("mean", "median"):
        raise ValueError(f"{op}: average={average!r} must be 'median' or 'mean'")
    xs, ys = tuple(shape_of(x)), tuple(shape_of(y))
    if not xs or not ys:
        raise ValueError(f"{op}: x and y must be at least 1-d, got shapes {xs} and {ys}")
    if 0 in xs or 0 in ys:
        raise NotImplementedError(f"{op}: empty inputs are SciPy's own (plain arrays)")
    x, y = ops.moveaxis(x, axis, -1), ops.moveaxis(y, axis, -1)
    n = max(shape_of(x)[-1], shape_of(y)[-1])
    x, y = (_zero_pad(v, n) for v in (x, y))
    win, nperseg = _window(window, nperseg, n)
    nfft = nperseg if nfft is None else int(nfft)
    if nfft < nperseg:
        raise ValueError(f"{op}: nfft={nfft} must be greater than or equal to nperseg={nperseg}")
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError(f"{op}: noverlap={noverlap} must be less than nperseg={nperseg}")
    onesided = return_onesided and not (_is_complex(x) or _is_complex(y))
    step = nperseg - noverlap
    count = (n - noverlap) // step
    if scaling == "density":
        scale = 1.0 / (fs * (win * win).sum())
    else:
        scale = 1.0 / win.sum() ** 2
    spectra = [
        _transform(_segment_detrend(_frames(v, nperseg, step, count), detrend_), win, nfft,
                   onesided)
        for v in ((x,) if same else (x, y))
    ]  # fmt: skip
    if same:
        power = ops.real(spectra[0] * ops.conj(spectra[0]))
    else:
        power = ops.conj(spectra[0]) * spectra[1]
    power = power * scale
    if onesided:
        doubled = np.ones(shape_of(power)[-1])
        doubled[1 : None if nfft % 2 else -1] = 2.0
        power = power * doubled
    if count > 1:
        if average == "median":
            if _is_complex(power):
                power = ops.median(ops.real(power), axis=-2) + 1j * ops.median(
                    ops.imag(power), axis=-2
                )
            else:
                power = ops.median(power, axis=-2)
            power = power / _median_bias(count)
        else:
            power = ops.mean(power, axis=-2)
    else:
        power = ops.squeeze(power, axis=-2)
    if not same and not _is_complex(power):
        power = ops.astype(power, np.complex128)
    freqs = np.fft.rfftfreq(nfft, 1 / fs) if onesided else np.fft.fftfreq(nfft, 1 / fs)
    return freqs, ops.moveaxis(power, -1, axis)


def _zero_pad(v: Any, n: int) -> Any:
    short = n - shape_of(v)[-1]
    return ops.pad(v, [(0, 0)] * (len(shape_of(v)) - 1) + [(0, short)]) if short else v


@plain_calls_scipy("signal")
def welch(
    x: ArrayLike,
    fs: float = 1.0,
    window: Any = "hann_periodic",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: Any = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
    average: str = "mean",
) -> tuple[np.ndarray, Tensor]:
    """The power spectral density of ``x`` by Welch's method (:func:`csd` of ``x`` with
    itself, real). Returns ``(f, Pxx)``; differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import welch
    >>> f, p = welch(tg.tensor([1.0, 2.0, 0.0, 1.0]), nperseg=4)
    >>> p.numpy().round(6)
    array([0.166667, 1.666667, 1.5     ])
    """
    return _csd("welch", x, None, fs, window, nperseg, noverlap, nfft, detrend,
                return_onesided, scaling, axis, average)  # fmt: skip


@plain_calls_scipy("signal")
def periodogram(
    x: ArrayLike,
    fs: float = 1.0,
    window: Any = "boxcar",
    nfft: int | None = None,
    detrend: Any = "constant",
    return_onesided: bool = True,
    scaling: str = "density",
    axis: int = -1,
) -> tuple[np.ndarray, Tensor]:
    """The power spectral density of ``x`` from one segment (the whole signal, or its
    first ``nfft`` samples). Returns ``(f, Pxx)``; differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import periodogram
    >>> f, p = periodogram(tg.tensor([1.0, 2.0, 0.0, 1.0]))
    >>> p.numpy().round(6)
    array([0., 1., 1.])
    """
    x = _tensor(x)
    if window is None:
        window = "boxcar"
    n = shape_of(x)[axis]
    if nfft is None or nfft == n:
        nperseg = n
    elif nfft > n:
        nperseg = n
    else:
        x = ops.take(x, np.arange(nfft), axis=axis)
        nperseg, nfft = nfft, None
    if hasattr(window, "size") and window.size != nperseg:
        raise ValueError(
            "periodogram: the size of the window must be the same size of the input on "
            "the specified axis"
        )
    return welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=0, nfft=nfft,
                 detrend=detrend, return_onesided=return_onesided, scaling=scaling,
                 axis=axis)  # fmt: skip
