"""``tapegrad.numpy.fft``: NumPy's ``numpy.fft`` names.

On Tensors ``fftshift`` and ``ifftshift`` (rolls) are differentiable; the transforms
have no gradient yet and raise a TypeError naming the function, never converting a
Tensor to an array. ``fftfreq``/``rfftfreq`` take no arrays. On plain arrays every
function is NumPy's own.
"""

from numpy.fft import (  # the namespace
    fft,
    fft2,
    fftfreq,
    fftn,
    fftshift,
    hfft,
    ifft,
    ifft2,
    ifftn,
    ifftshift,
    ihfft,
    irfft,
    irfft2,
    irfftn,
    rfft,
    rfft2,
    rfftfreq,
    rfftn,
)
