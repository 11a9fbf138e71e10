"""SciPy's signal processing with gradients, under SciPy's names and signatures:
convolutions (:mod:`.convolution`), linear filters (:mod:`.filters`), spectral estimates
(:mod:`.spectral`) and the short-time Fourier transform (:mod:`.short_time`). Windows
(``get_window``, ``windows.*``) and every other name of scipy.signal are SciPy's own objects
(docs/scipy-coverage.md says which).

>>> import tapegrad as tg
>>> from tapegrad.scipy import signal
>>> x = tg.tensor([1.0, 0.0, 0.0])
>>> signal.lfilter([1.0], [1.0, -0.5], x).numpy()  # the impulse response of 1 / (1 - z⁻¹/2)
array([1.  , 0.5 , 0.25])
"""

import scipy.signal as _scipy_signal

from tapegrad.scipy.signal import convolution, filters, short_time, spectral
from tapegrad.scipy.signal.convolution import *  # noqa: F403
from tapegrad.scipy.signal.filters import *  # noqa: F403
from tapegrad.scipy.signal.short_time import *  # noqa: F403
from tapegrad.scipy.signal.spectral import *  # noqa: F403

_MODULES = (convolution, filters, short_time, spectral)
__all__ = sorted(name for module in _MODULES for name in module.__all__)


def __getattr__(name: str) -> object:
    """SciPy's own object for a name tapegrad does not define (it takes plain arrays)."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return getattr(_scipy_signal, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
