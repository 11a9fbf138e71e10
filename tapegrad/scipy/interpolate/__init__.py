"""SciPy's interpolation with gradients, under SciPy's names and signatures:
:class:`RegularGridInterpolator` (:mod:`.rgi`), and the 1-d interpolants on the
piecewise-polynomial base of :mod:`.piecewise`: :class:`CubicSpline` (:mod:`.splines`),
:class:`CubicHermiteSpline`, :class:`PchipInterpolator`, :class:`Akima1DInterpolator`
(:mod:`.hermite`) and :class:`interp1d` (:mod:`.interp_1d`); the B-splines
:class:`BSpline` and :func:`make_interp_spline` (:mod:`.bsplines`); scattered data:
:class:`RBFInterpolator` (:mod:`.rbf`) and :func:`griddata` (:mod:`.scattered`). Every other name of
scipy.interpolate is SciPy's own object (docs/scipy-coverage.md says which).

>>> import tapegrad as tg
>>> from tapegrad.scipy import interpolate
>>> f = interpolate.RegularGridInterpolator(([0.0, 1.0],), tg.tensor([0.0, 10.0]))
>>> f(tg.tensor([[0.25]])).numpy()
array([2.5])
"""

from tapegrad.scipy._dispatch import scipy_getattr
from tapegrad.scipy.interpolate import bsplines, hermite, interp_1d, rbf, rgi, scattered, splines
from tapegrad.scipy.interpolate.bsplines import *  # noqa: F403
from tapegrad.scipy.interpolate.hermite import *  # noqa: F403
from tapegrad.scipy.interpolate.interp_1d import *  # noqa: F403
from tapegrad.scipy.interpolate.rbf import *  # noqa: F403
from tapegrad.scipy.interpolate.rgi import *  # noqa: F403
from tapegrad.scipy.interpolate.scattered import *  # noqa: F403
from tapegrad.scipy.interpolate.splines import *  # noqa: F403

__all__ = sorted(
    bsplines.__all__
    + rgi.__all__
    + splines.__all__
    + hermite.__all__
    + interp_1d.__all__
    + rbf.__all__
    + scattered.__all__
)

__getattr__ = scipy_getattr(__name__, "scipy.interpolate")
