"""``tg.fft``: NumPy's discrete Fourier transforms with gradients, under NumPy's names and
signatures (``n``/``s``, ``axis``/``axes``, ``norm="backward" | "ortho" | "forward"``), for
real and complex inputs, computed in the input's array namespace.

Layer: built on ``tapegrad.core``, ``tapegrad.backends`` and ``tapegrad.ops``; a peer of
``tapegrad.linalg``, which it does not import.

>>> import tapegrad as tg
>>> x = tg.tensor([1.0, 2.0, 3.0, 4.0])
>>> with tg.GradientTape() as tape:
...     tape.watch(x)
...     power = tg.sum(tg.abs(tg.fft.rfft(x)) ** 2)
>>> tape.gradient(power, x).numpy()  # 2 Re(F^H W F x), W: the bins rfft keeps
array([12., 20., 20., 28.])
"""

from tapegrad.fft.helper import fftfreq, fftshift, ifftshift, rfftfreq
from tapegrad.fft.transforms import (
    fft,
    fft2,
    fftn,
    hfft,
    ifft,
    ifft2,
    ifftn,
    ihfft,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftn,
)

__all__ = [
    "fft", "fft2", "fftfreq", "fftn", "fftshift", "hfft", "ifft", "ifft2", "ifftn",
    "ifftshift", "ihfft", "irfft", "irfft2", "irfftn", "rfft", "rfft2", "rfftfreq", "rfftn",
]  # fmt: skip
