"""``tapegrad.numpy.fft``: NumPy's ``numpy.fft`` names.

Each name is NumPy's own function. On plain arrays it is NumPy; given Tensors it hands
them to ``tg.fft`` through ``__array_function__``, so every transform records on the tape
(docs/fft.md). ``fftfreq``/``rfftfreq`` take a length, not arrays (``tg.fft.fftfreq``
is differentiable in a Tensor spacing ``d``).
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
