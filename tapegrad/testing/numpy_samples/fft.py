"""numpy.fft: n, s, axis, axes, norm."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Sample

ROWS: list[Sample] = [
    Sample("fft.fft", "n, norm=ortho", lambda m, x, y: m.abs(m.fft.fft(x, n=6, norm="ortho")) ** 2),
    Sample("fft.rfft", "norm=forward", lambda m, x, y: m.real(m.fft.rfft(x, norm="forward"))),
    Sample("fft.irfft", "n, axis=0", lambda m, x, y: m.fft.irfft(x * y, n=5, axis=0)),
    Sample("fft.fft2", "s, axes", lambda m, x, y: m.imag(m.fft.fft2(x, s=(2, 5), axes=(0, 1)))),
    Sample("fft.ifftn", "norm=backward", lambda m, x, y: m.real(m.fft.ifftn(x * y))),
    Sample("fft.hfft", "n", lambda m, x, y: m.fft.hfft(x[0] * y[0], n=6)),
]
