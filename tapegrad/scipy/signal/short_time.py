"""SciPy's short-time Fourier transform with gradients: stft istft.

Compositions of tapegrad ops, so every order of derivative is available: ``stft`` is
framing (an index gather) + detrend + window + ``tg.fft.rfft``/``fft``, scaled as SciPy
scales it (spectral.py's pieces); ``istft`` is ``irfft`` + window + overlap-add (a constant
0/1 matrix) divided by the summed squared window. Windows are SciPy's own
(``get_window``): constants.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.signal as _scipy_signal

from tapegrad import fft, ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.signal.spectral import (
    _ends,
    _frames,
    _is_complex,
    _segment_detrend,
    _tensor,
    _transform,
    _window,
    _zero_pad,
)

__all__ = [
    "istft", "stft",
]  # fmt: skip

ArrayLike = Any


@plain_calls_scipy("signal")
def stft(
    x: ArrayLike,
    fs: float = 1.0,
    window: Any = "hann_periodic",
    nperseg: int = 256,
    noverlap: int | None = None,
    nfft: int | None = None,
    detrend: Any = False,
    return_onesided: bool = True,
    boundary: str | None = "zeros",
    padded: bool = True,
    axis: int = -1,
    scaling: str = "spectrum",
) -> tuple[np.ndarray, np.ndarray, Tensor]:
    """The short-time Fourier transform of ``x`` along ``axis``: ``x`` extended by
    ``boundary`` (half a segment each end), zero-padded to whole segments, framed,
    detrended, windowed and transformed. Returns ``(f, t, Zxx)`` (frequency, then time, in
    place of ``axis``); differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import stft
    >>> f, t, z = stft(tg.tensor([1.0, 2.0, 0.0, 1.0]), nperseg=2)
    >>> t, abs(z.numpy()).round(6)
    (array([0., 1., 2., 3., 4.]), array([[1., 2., 0., 1., 0.],
           [1., 2., 0., 1., 0.]]))
    """
    if scaling == "psd":
        scaling = "density"
    elif scaling != "spectrum":
        raise ValueError(f"stft: scaling={scaling!r} not in ['spectrum', 'psd']")
    x = _tensor(x)
    if not shape_of(x):
        raise ValueError("stft: x must be at least 1-d")
    ndim = len(shape_of(x))
    if not -ndim <= axis < ndim:
        raise ValueError(f"stft: axis {axis} is out of range for x of shape {shape_of(x)}")
    x = ops.moveaxis(x, axis, -1)
    nperseg = int(nperseg)
    if nperseg < 1:
        raise ValueError("stft: nperseg must be a positive integer")
    win, nperseg = _window(window, nperseg, shape_of(x)[-1])
    nfft = nperseg if nfft is None else int(nfft)
    if nfft < nperseg:
        raise ValueError("stft: nfft must be greater than or equal to nperseg")
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("stft: noverlap must be less than nperseg")
    step = nperseg - noverlap
    x = _ends("stft", x, boundary, nperseg // 2)
    if padded:
        x = _zero_pad(x, shape_of(x)[-1] + (-(shape_of(x)[-1] - nperseg) % step) % nperseg)
    length = shape_of(x)[-1]
    count = (length - noverlap) // step if nperseg > 1 or noverlap else length
    if scaling == "density":
        scale = np.sqrt(1.0 / (fs * (win * win).sum()))
    else:
        scale = np.sqrt(1.0 / win.sum() ** 2)
    onesided = return_onesided and not _is_complex(x)
    if return_onesided and not onesided:
        warnings.warn("Input data is complex, switching to return_onesided=False", stacklevel=3)
    frames = _segment_detrend(_frames(x, nperseg, step, count), detrend)
    result = _transform(frames, win, nfft, onesided) * scale
    freqs = np.fft.rfftfreq(nfft, 1 / fs) if onesided else np.fft.fftfreq(nfft, 1 / fs)
    time = np.arange(nperseg / 2, length - nperseg / 2 + 1, step) / float(fs)
    if boundary is not None:
        time -= (nperseg / 2) / fs
    out_axis = axis - 1 if axis < 0 else axis
    return freqs, time, ops.moveaxis(result, -1, out_axis)


@plain_calls_scipy("signal")
def istft(
    Zxx: ArrayLike,
    fs: float = 1.0,
    window: Any = "hann_periodic",
    nperseg: int | None = None,
    noverlap: int | None = None,
    nfft: int | None = None,
    input_onesided: bool = True,
    boundary: bool = True,
    time_axis: int = -1,
    freq_axis: int = -2,
    scaling: str = "spectrum",
) -> tuple[np.ndarray, Tensor]:
    """The inverse short-time Fourier transform: each segment's inverse FFT, windowed,
    overlap-added and divided by the summed squared window. Returns ``(t, x)``;
    differentiable in ``Zxx``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import istft, stft
    >>> t, x = istft(stft(tg.tensor([1.0, 2.0, 0.0, 1.0]), nperseg=2)[2], nperseg=2)
    >>> x.numpy().round(12)
    array([1., 2., 0., 1.])
    """
    z = _tensor(Zxx)
    ndim = len(shape_of(z))
    if ndim < 2:
        raise ValueError("istft: input stft must be at least 2d")
    freq_axis, time_axis = int(freq_axis) % ndim, int(time_axis) % ndim
    if freq_axis == time_axis:
        raise ValueError("istft: must specify differing time and frequency axes")
    count = shape_of(z)[time_axis]
    n_default = 2 * (shape_of(z)[freq_axis] - 1) if input_onesided else shape_of(z)[freq_axis]
    nperseg = n_default if nperseg is None else int(nperseg)
    if nperseg < 1:
        raise ValueError("istft: nperseg must be a positive integer")
    if nfft is None:
        nfft = nperseg if input_onesided and nperseg == n_default + 1 else n_default
    elif nfft < nperseg:
        raise ValueError("istft: nfft must be greater than or equal to nperseg")
    nfft = int(nfft)
    noverlap = nperseg // 2 if noverlap is None else int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("istft: noverlap must be less than nperseg")
    step = nperseg - noverlap
    outer = [k for k in range(ndim) if k not in (freq_axis, time_axis)]
    z = ops.transpose(z, (*outer, freq_axis, time_axis))
    if isinstance(window, (str, tuple)):
        win = _scipy_signal.get_window(window, nperseg)
    else:
        win = _window(window, None, nperseg)[0]
        if win.shape[0] != nperseg:
            raise ValueError(f"istft: window must have length of {nperseg}")
    if not _is_complex(z):
        z = ops.astype(z, np.complex128)
    inverse = fft.irfft if input_onesided else fft.ifft
    pieces = inverse(z, n=nfft, axis=-2)[..., :nperseg, :]
    if scaling == "spectrum":
        pieces = pieces * win.sum()
    elif scaling == "psd":
        pieces = pieces * np.sqrt(fs * sum(win**2))
    else:
        raise ValueError(f"istft: scaling={scaling!r} not in ['spectrum', 'psd']")
    length = nperseg + (count - 1) * step
    # overlap-add: segment s, sample j lands at s * step + j
    adder = np.zeros((count * nperseg, length))
    places = (np.arange(count)[:, None] * step + np.arange(nperseg)).ravel()
    adder[np.arange(count * nperseg), places] = 1.0
    windowed = ops.swapaxes(pieces * win[:, None], -1, -2)
    lead = tuple(shape_of(windowed)[:-2])
    x = ops.matmul(ops.reshape(windowed, (*lead, count * nperseg)), adder)
    norm = np.tile(win**2, count) @ adder
    if boundary:
        x, norm = x[..., nperseg // 2 : -(nperseg // 2)], norm[nperseg // 2 : -(nperseg // 2)]
    if np.sum(norm > 1e-10) != len(norm):
        warnings.warn(
            "NOLA condition failed, STFT may not be invertible."
            + (" Possibly due to missing boundary" if not boundary else ""),
            stacklevel=3,
        )
    x = x / np.where(norm > 1e-10, norm, 1.0)
    if input_onesided:
        x = ops.real(x)
    if len(shape_of(x)) > 1 and time_axis != ndim - 1:
        x = ops.moveaxis(x, -1, time_axis - 1 if freq_axis < time_axis else time_axis)
    time = np.arange(shape_of(x)[0]) / float(fs)
    return time, x
