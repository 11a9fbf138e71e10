"""numpy.fft: n, s, axis, axes, norm."""

from __future__ import annotations

from typing import Any

from tapegrad.testing.numpy_samples.inputs import Sample

ROWS: list[Sample] = [
    Sample("fft.fft", "n, norm=ortho", lambda m, x, y: m.abs(m.fft.fft(x, n=6, norm="ortho")) ** 2),
    Sample("fft.rfft", "norm=forward", lambda m, x, y: m.real(m.fft.rfft(x, norm="forward"))),
    Sample("fft.irfft", "n, axis=0", lambda m, x, y: m.fft.irfft(x * y, n=5, axis=0)),
    Sample("fft.fft2", "s, axes", lambda m, x, y: m.imag(m.fft.fft2(x, s=(2, 5), axes=(0, 1)))),
    Sample("fft.ifftn", "norm=backward", lambda m, x, y: m.real(m.fft.ifftn(x * y))),
    Sample("fft.hfft", "n", lambda m, x, y: m.fft.hfft(x[0] * y[0], n=6)),
]


def _complex(x: Any, y: Any) -> Any:
    """A complex 3 x 4 input from the two real samples."""
    return x + 1j * y


ROWS += [
    # shifts
    Sample("fft.fftshift", "axes=0", lambda m, x, y: m.fft.fftshift(x * y, axes=0)),
    Sample("fft.fftshift", "axes=(-1,)", lambda m, x, y: m.fft.fftshift(x, axes=(-1,))),
    Sample("fft.fftshift", "axes=(0, 1)", lambda m, x, y: m.fft.fftshift(x - y, axes=(0, 1))),
    # complex to complex, one axis: n crops and pads, axis negative, every norm
    Sample("fft.fft", "axis=0", lambda m, x, y: m.real(m.fft.fft(x, axis=0))),
    Sample("fft.fft", "axis=-2, n=2 (crop)", lambda m, x, y: m.imag(m.fft.fft(x, n=2, axis=-2))),
    Sample(
        "fft.fft",
        "n=3 (crop), norm=forward",
        lambda m, x, y: m.real(m.fft.fft(_complex(x, y), n=3, norm="forward")),
    ),
    Sample(
        "fft.fft",
        "norm=backward",
        lambda m, x, y: m.imag(m.fft.fft(_complex(x, y), norm="backward")),
    ),
    Sample(
        "fft.ifft",
        "n=7 (pad), axis=-1, norm=ortho",
        lambda m, x, y: m.real(m.fft.ifft(_complex(x, y), n=7, axis=-1, norm="ortho")),
    ),
    Sample(
        "fft.ifft",
        "n=2 (crop), axis=0, norm=forward",
        lambda m, x, y: m.imag(m.fft.ifft(_complex(x, y), n=2, axis=0, norm="forward")),
    ),
    Sample(
        "fft.ifft",
        "norm=backward, axis=-2",
        lambda m, x, y: m.abs(m.fft.ifft(x * y, axis=-2, norm="backward")) ** 2,
    ),
    Sample("fft.ifft", "n=5 (pad)", lambda m, x, y: m.imag(m.fft.ifft(x, n=5))),
    # complex to complex, several axes
    Sample(
        "fft.fft2",
        "norm=forward",
        lambda m, x, y: m.real(m.fft.fft2(_complex(x, y), norm="forward")),
    ),
    Sample(
        "fft.fft2",
        "norm=ortho, axes=(1, 0)",
        lambda m, x, y: m.imag(m.fft.fft2(x, axes=(1, 0), norm="ortho")),
    ),
    Sample(
        "fft.ifft2",
        "s=(4, 3), axes=(1, 0), norm=ortho",
        lambda m, x, y: m.real(m.fft.ifft2(_complex(x, y), s=(4, 3), axes=(1, 0), norm="ortho")),
    ),
    Sample(
        "fft.ifft2",
        "s=(2, 6), norm=forward",
        lambda m, x, y: m.imag(m.fft.ifft2(x, s=(2, 6), norm="forward")),
    ),
    Sample(
        "fft.ifft2",
        "axes=(-1, -2), norm=backward",
        lambda m, x, y: m.abs(m.fft.ifft2(x * y, axes=(-1, -2), norm="backward")) ** 2,
    ),
    Sample(
        "fft.fftn",
        "s=(5,), axes=(0,), norm=forward",
        lambda m, x, y: m.real(m.fft.fftn(_complex(x, y), s=(5,), axes=(0,), norm="forward")),
    ),
    Sample(
        "fft.fftn",
        "s=(2, 6), axes=(-2, -1), norm=ortho",
        lambda m, x, y: m.imag(m.fft.fftn(x, s=(2, 6), axes=(-2, -1), norm="ortho")),
    ),
    Sample(
        "fft.fftn",
        "axes=(1,), norm=backward",
        lambda m, x, y: m.real(m.fft.fftn(x * y, axes=(1,), norm="backward")),
    ),
    Sample(
        "fft.fftn",
        "3-d, axes=(0, 2)",
        lambda m, x, y: m.imag(m.fft.fftn(x[None] * y[:, None], axes=(0, 2))),
    ),
    Sample(
        "fft.ifftn",
        "s=(3,), axes=(-1,) (crop)",
        lambda m, x, y: m.real(m.fft.ifftn(_complex(x, y), s=(3,), axes=(-1,))),
    ),
    Sample(
        "fft.ifftn",
        "s=(5, 2), axes=(0, 1), norm=ortho",
        lambda m, x, y: m.imag(m.fft.ifftn(x, s=(5, 2), axes=(0, 1), norm="ortho")),
    ),
    Sample(
        "fft.ifftn",
        "norm=forward",
        lambda m, x, y: m.imag(m.fft.ifftn(_complex(x, y), norm="forward")),
    ),
    # real to complex
    Sample("fft.rfft", "n=2 (crop), axis=0", lambda m, x, y: m.real(m.fft.rfft(x, n=2, axis=0))),
    Sample(
        "fft.rfft",
        "n=7 (pad), axis=-1, norm=ortho",
        lambda m, x, y: m.imag(m.fft.rfft(x * y, n=7, axis=-1, norm="ortho")),
    ),
    Sample(
        "fft.rfft",
        "axis=-2, norm=backward",
        lambda m, x, y: m.abs(m.fft.rfft(x, axis=-2, norm="backward")) ** 2,
    ),
    Sample("fft.rfft", "n=6 (pad, even)", lambda m, x, y: m.imag(m.fft.rfft(x - y, n=6))),
    Sample(
        "fft.rfft2",
        "s=(4, 6), axes=(1, 0), norm=ortho",
        lambda m, x, y: m.real(m.fft.rfft2(x, s=(4, 6), axes=(1, 0), norm="ortho")),
    ),
    Sample(
        "fft.rfft2",
        "s=(2, 3) (crop), norm=forward",
        lambda m, x, y: m.imag(m.fft.rfft2(x * y, s=(2, 3), norm="forward")),
    ),
    Sample(
        "fft.rfft2",
        "axes=(-1, -2), norm=backward",
        lambda m, x, y: m.abs(m.fft.rfft2(x, axes=(-1, -2), norm="backward")) ** 2,
    ),
    Sample(
        "fft.rfftn",
        "s=(5,), axes=(0,), norm=forward",
        lambda m, x, y: m.imag(m.fft.rfftn(x, s=(5,), axes=(0,), norm="forward")),
    ),
    Sample(
        "fft.rfftn",
        "s=(2, 7), axes=(-2, -1), norm=ortho",
        lambda m, x, y: m.real(m.fft.rfftn(x - y, s=(2, 7), axes=(-2, -1), norm="ortho")),
    ),
    Sample(
        "fft.rfftn",
        "3-d, axes=(2, 0), norm=backward",
        lambda m, x, y: m.imag(m.fft.rfftn(x[None] * y[:, None], axes=(2, 0), norm="backward")),
    ),
    # complex to real
    Sample("fft.irfft", "norm=ortho", lambda m, x, y: m.fft.irfft(_complex(x, y), norm="ortho")),
    Sample(
        "fft.irfft",
        "n=7 (odd), norm=forward",
        lambda m, x, y: m.fft.irfft(_complex(x, y), n=7, norm="forward"),
    ),
    Sample(
        "fft.irfft",
        "n=3 (crop), axis=-2, norm=backward",
        lambda m, x, y: m.fft.irfft(_complex(x, y), n=3, axis=-2, norm="backward"),
    ),
    Sample("fft.irfft", "n=10 (pad)", lambda m, x, y: m.fft.irfft(_complex(x, y), n=10)),
    Sample(
        "fft.irfft2",
        "s=(3, 5), axes=(-1, -2), norm=forward",
        lambda m, x, y: m.fft.irfft2(_complex(x, y), s=(3, 5), axes=(-1, -2), norm="forward"),
    ),
    Sample(
        "fft.irfft2",
        "s=(5, 8) (pad), norm=ortho",
        lambda m, x, y: m.fft.irfft2(_complex(x, y), s=(5, 8), norm="ortho"),
    ),
    Sample(
        "fft.irfft2",
        "axes=(1, 0), norm=backward",
        lambda m, x, y: m.fft.irfft2(_complex(x, y), axes=(1, 0), norm="backward"),
    ),
    Sample(
        "fft.irfftn",
        "s=(4,), axes=(0,), norm=ortho",
        lambda m, x, y: m.fft.irfftn(_complex(x, y), s=(4,), axes=(0,), norm="ortho"),
    ),
    Sample(
        "fft.irfftn",
        "s=(2, 5), axes=(-2, -1), norm=forward",
        lambda m, x, y: m.fft.irfftn(_complex(x, y), s=(2, 5), axes=(-2, -1), norm="forward"),
    ),
    Sample(
        "fft.irfftn", "norm=backward", lambda m, x, y: m.fft.irfftn(_complex(x, y), norm="backward")
    ),
    Sample(
        "fft.irfftn",
        "3-d, axes=(0, 2)",
        lambda m, x, y: m.fft.irfftn(x[None] + 1j * y[:, None], axes=(0, 2)),
    ),
    # Hermitian
    Sample(
        "fft.hfft",
        "axis=0, norm=ortho",
        lambda m, x, y: m.fft.hfft(_complex(x, y), axis=0, norm="ortho"),
    ),
    Sample(
        "fft.hfft",
        "n=5, axis=-1, norm=forward",
        lambda m, x, y: m.fft.hfft(_complex(x, y), n=5, axis=-1, norm="forward"),
    ),
    Sample(
        "fft.hfft",
        "n=3 (crop), axis=-2, norm=backward",
        lambda m, x, y: m.fft.hfft(_complex(x, y), n=3, axis=-2, norm="backward"),
    ),
    Sample(
        "fft.ihfft",
        "n=5 (pad), axis=0, norm=forward",
        lambda m, x, y: m.real(m.fft.ihfft(x, n=5, axis=0, norm="forward")),
    ),
    Sample(
        "fft.ihfft",
        "n=3 (crop), axis=-1, norm=ortho",
        lambda m, x, y: m.imag(m.fft.ihfft(x * y, n=3, axis=-1, norm="ortho")),
    ),
    Sample(
        "fft.ihfft",
        "axis=-2, norm=backward",
        lambda m, x, y: m.imag(m.fft.ihfft(x - y, axis=-2, norm="backward")),
    ),
]
