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

from tapegrad.scipy.linalg.basic import solve
from tapegrad.scipy.linalg.decomp import eigh, eigvalsh
from tapegrad.scipy.linalg.lu import lu_factor, lu_solve
from tapegrad.scipy.linalg.matfuncs import expm, solve_sylvester, sqrtm
from tapegrad.scipy.linalg.special_matrices import block_diag
from tapegrad.scipy.linalg.triangular import cho_factor, cho_solve, cholesky, solve_triangular

__all__ = [
    "block_diag", "cho_factor", "cho_solve", "cholesky", "eigh", "eigvalsh", "expm",
    "lu_factor", "lu_solve", "solve", "solve_sylvester", "solve_triangular", "sqrtm",
]  # fmt: skip
