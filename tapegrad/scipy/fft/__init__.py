"""SciPy's discrete Fourier, cosine and sine transforms with gradients, under
``scipy.fft``'s names and signatures.

The cosine and sine transforms (``dct``, ``dst``, their inverses and n-d forms) run SciPy's
own kernels and differentiate by their adjoints, again cosine and sine transforms (to every
order); the Fourier transforms are :mod:`tapegrad.fft`'s with SciPy's extra keywords. Any
other name of ``scipy.fft`` (``next_fast_len``, ``fht``, ``set_workers``, ...) is SciPy's
own object, for plain arrays.

>>> import tapegrad as tg
>>> from tapegrad.scipy import fft
>>> x = tg.tensor([1.0, 2.0, 3.0])
>>> with tg.GradientTape() as tape:
...     tape.watch(x)
...     y = tg.sum(fft.dct(x, norm="ortho") ** 2)  # orthogonal: the sum of squares
>>> tape.gradient(y, x).numpy().round(12)
array([2., 4., 6.])
"""

import scipy.fft as _scipy_fft

from tapegrad.scipy.fft import _basic, _helpers, _realtransforms
from tapegrad.scipy.fft._basic import *  # noqa: F403
from tapegrad.scipy.fft._helpers import *  # noqa: F403
from tapegrad.scipy.fft._realtransforms import *  # noqa: F403

__all__ = sorted([*_basic.__all__, *_helpers.__all__, *_realtransforms.__all__])


def __getattr__(name: str) -> object:
    """SciPy's own object for a name tapegrad does not define (it takes plain arrays)."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return getattr(_scipy_fft, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
