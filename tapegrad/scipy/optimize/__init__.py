"""SciPy's optimizers and root finders with gradients, by implicit differentiation.

SciPy's solvers do the solving on plain arrays; the solution they return (``x`` of an
``OptimizeResult``, the root of ``brentq``...) is a Tensor that records ONE entry, whose
gradient rule solves the linearised optimality condition at the solution (``J dx =
-∂F/∂θ`` for a root, ``H dx = -∂(∇f)/∂θ`` for a minimum, the KKT system with the active
bounds and constraints), in the Tensor ``args`` and the Tensors and trainable Variables the
user's functions read from outside. Nothing is unrolled; second derivatives are exact.
docs/solvers.md has the assumptions and the maths. Any other name of ``scipy.optimize`` is
SciPy's own object, for plain arrays; called with no Tensor and no tape, each function here
is SciPy's own too.

>>> import tapegrad as tg
>>> from tapegrad.scipy import optimize
>>> c = tg.tensor(9.0)
>>> with tg.GradientTape() as tape:
...     tape.watch(c)
...     x = optimize.brentq(lambda x, c: x * x - c, 0.0, 5.0, args=(c,))
>>> round(x.item(), 12), round(tape.gradient(x, c).item(), 12)  # d sqrt(c)/dc = 1/6
(3.0, 0.166666666667)
"""

from tapegrad.scipy._dispatch import scipy_getattr
from tapegrad.scipy.optimize import bracketing, roots, scalar_roots
from tapegrad.scipy.optimize import least_squares as _least_squares_module
from tapegrad.scipy.optimize import minimize as _minimize_module
from tapegrad.scipy.optimize.bracketing import *  # noqa: F403
from tapegrad.scipy.optimize.least_squares import *  # noqa: F403
from tapegrad.scipy.optimize.minimize import *  # noqa: F403
from tapegrad.scipy.optimize.roots import *  # noqa: F403
from tapegrad.scipy.optimize.scalar_roots import *  # noqa: F403

__all__ = sorted([
    *roots.__all__, *bracketing.__all__, *scalar_roots.__all__, *_minimize_module.__all__,
    *_least_squares_module.__all__,
])  # fmt: skip

__getattr__ = scipy_getattr(__name__, "scipy.optimize")
