"""SciPy's multidimensional image processing with gradients, under SciPy's names and
signatures: interpolation (:mod:`.interpolation`: map_coordinates, shift, zoom,
affine_transform, rotate at orders 0 to 5), the B-spline prefilter (:mod:`.splines`:
spline_filter, spline_filter1d) and linear filters (:mod:`.filters`,
:mod:`.smoothing`, :mod:`.derivatives`).
Every other name of scipy.ndimage is SciPy's own object (docs/scipy-coverage.md says
which).

>>> import tapegrad as tg
>>> from tapegrad.scipy import ndimage
>>> ndimage.map_coordinates(tg.tensor([0.0, 10.0]), tg.tensor([[0.25]]), order=1).numpy()
array([2.5])
"""

from tapegrad.scipy._dispatch import scipy_getattr
from tapegrad.scipy.ndimage import derivatives, filters, interpolation, smoothing, splines
from tapegrad.scipy.ndimage.derivatives import *  # noqa: F403
from tapegrad.scipy.ndimage.filters import *  # noqa: F403
from tapegrad.scipy.ndimage.interpolation import *  # noqa: F403
from tapegrad.scipy.ndimage.smoothing import *  # noqa: F403
from tapegrad.scipy.ndimage.splines import *  # noqa: F403

_MODULES = (filters, smoothing, derivatives, interpolation, splines)
__all__ = sorted(name for module in _MODULES for name in module.__all__)

__getattr__ = scipy_getattr(__name__, "scipy.ndimage")
