"""SciPy's linear algebra with gradients, under SciPy's names and signatures.

Real inputs, batched over leading axes as SciPy (>= 1.15) batches them. Functions that
read one triangle of a symmetric matrix (``cholesky``, ``eigh``) give it the whole
gradient; ``expm``, ``sqrtm`` and ``solve_sylvester`` rules are built from the same
functions, so higher derivatives work.

>>> import tapegrad as tg
>>> from tapegrad.scipy import linalg
>>> a = tg.tensor([[2.0, 0.0], [0.0, 3.0]])
>>> with tg.GradientTape() as tape:
...     tape.watch(a)
...     y = tg.sum(linalg.expm(a))
>>> tape.gradient(y, a).numpy().round(6)  # e^2, e^3 and their divided difference
array([[ 7.389056, 12.696481],
       [12.696481, 20.085537]])
"""

# Each module lists its public names in its __all__; this namespace is their union, and
# any other name of scipy.linalg is SciPy's own object (docs/scipy-coverage.md says which).
from tapegrad.scipy._dispatch import scipy_getattr
from tapegrad.scipy.linalg import (
    banded,
    basic,
    constant_matrices,
    constructions,
    decomp,
    decomp_derived,
    decomp_eig,
    decomp_eigh,
    decomp_lu,
    decomp_svd,
    expm_conditioning,
    least_squares,
    matfuncs,
    matrix_equations,
    plain_only,
    riccati,
    special_matrices,
    structured_solvers,
    triangular,
)
from tapegrad.scipy.linalg.banded import *  # noqa: F403
from tapegrad.scipy.linalg.basic import *  # noqa: F403
from tapegrad.scipy.linalg.constant_matrices import *  # noqa: F403
from tapegrad.scipy.linalg.constructions import *  # noqa: F403
from tapegrad.scipy.linalg.decomp import *  # noqa: F403
from tapegrad.scipy.linalg.decomp_derived import *  # noqa: F403
from tapegrad.scipy.linalg.decomp_eig import *  # noqa: F403
from tapegrad.scipy.linalg.decomp_eigh import *  # noqa: F403
from tapegrad.scipy.linalg.decomp_lu import *  # noqa: F403
from tapegrad.scipy.linalg.decomp_svd import *  # noqa: F403
from tapegrad.scipy.linalg.expm_conditioning import *  # noqa: F403
from tapegrad.scipy.linalg.least_squares import *  # noqa: F403
from tapegrad.scipy.linalg.matfuncs import *  # noqa: F403
from tapegrad.scipy.linalg.matrix_equations import *  # noqa: F403
from tapegrad.scipy.linalg.plain_only import *  # noqa: F403
from tapegrad.scipy.linalg.riccati import *  # noqa: F403
from tapegrad.scipy.linalg.special_matrices import *  # noqa: F403
from tapegrad.scipy.linalg.structured_solvers import *  # noqa: F403
from tapegrad.scipy.linalg.triangular import *  # noqa: F403

_MODULES = (banded, basic, constant_matrices, constructions, decomp, decomp_derived, decomp_eig,
            decomp_eigh, decomp_lu, decomp_svd, expm_conditioning, least_squares, matfuncs,
            matrix_equations, plain_only, riccati, special_matrices, structured_solvers,
            triangular)  # fmt: skip
__all__ = sorted(name for module in _MODULES for name in module.__all__)


__getattr__ = scipy_getattr(__name__, "scipy.linalg")
