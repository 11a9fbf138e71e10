"""SciPy's integration with gradients: ``odeint`` (by the adjoint method) and the
quadratures of sampled functions (``trapezoid``, ``cumulative_trapezoid``, ``simpson``,
``cumulative_simpson``, ``romb``), composed from tapegrad ops, so differentiable in the
samples ``y``, the sample points ``x`` and the spacing ``dx`` to every order. Any other name
of ``scipy.integrate`` is SciPy's own object, for plain arrays.

>>> import tapegrad as tg
>>> from tapegrad.scipy import integrate
>>> x = tg.tensor([0.0, 0.5, 1.5, 2.0])
>>> with tg.GradientTape() as tape:
...     tape.watch(x)
...     area = integrate.trapezoid(x**2, x=x)
>>> round(area.item(), 6), tape.gradient(area, x).numpy().round(6)
(2.875, array([-0.125, -0.375,  0.375,  4.125]))
"""

import scipy.integrate as _scipy_integrate

from tapegrad.scipy.integrate import ivp, quadrature
from tapegrad.scipy.integrate import quad as _quad_module
from tapegrad.scipy.integrate.ivp import *  # noqa: F403
from tapegrad.scipy.integrate.odeint import odeint as odeint
from tapegrad.scipy.integrate.quad import *  # noqa: F403
from tapegrad.scipy.integrate.quadrature import *  # noqa: F403

__all__ = sorted(["odeint", *ivp.__all__, *_quad_module.__all__, *quadrature.__all__])


def __getattr__(name: str) -> object:
    """SciPy's own object for a name tapegrad does not define (it takes plain arrays)."""
    if name.startswith("__"):
        raise AttributeError(name)
    try:
        return getattr(_scipy_integrate, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
