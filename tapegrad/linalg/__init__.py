"""``tg.linalg``: NumPy's linear algebra with gradients, under NumPy's names and signatures.

Every function takes a matrix or a stack of them (``(..., M, N)``), real or complex,
float32 or float64, Tensors or any backend's arrays, and computes in its input's array
namespace (``numpy.linalg``, CuPy's on the GPU, the array API's ``linalg`` extension).
Gradients are exact where peers' are not: ``det`` at a singular matrix (the adjugate),
eigenvalue-only functions (``eigvalsh``, ``svdvals``, the nuclear and spectral norms) at
repeated eigenvalues, norms at zero; where a gradient does not exist the result is a
documented NaN or an error, never a wrong number (docs/linalg.md).

Layer: built on ``tapegrad.core``, ``tapegrad.backends`` and ``tapegrad.ops``; a peer of
``tapegrad.fft``, which it does not import. (NumPy's polynomial functions, which need
``eigvals`` and ``lstsq``, are one layer up, in tapegrad/numpy/_polynomials.py.)

>>> import tapegrad as tg
>>> a = tg.tensor([[2.0, 1.0], [1.0, 2.0]])
>>> with tg.GradientTape() as tape:
...     tape.watch(a)
...     logdet = tg.linalg.slogdet(a).logabsdet
>>> tape.gradient(logdet, a).numpy().round(6)  # inv(a).T
array([[ 0.666667, -0.333333],
       [-0.333333,  0.666667]])
"""

from tapegrad.linalg._matrix import LinAlgError
from tapegrad.linalg.determinants import SlogdetResult, det, slogdet
from tapegrad.linalg.eigen import EighResult, EigResult, eig, eigh, eigvals, eigvalsh
from tapegrad.linalg.factorizations import QRResult, cholesky, qr
from tapegrad.linalg.least_squares import lstsq, pinv
from tapegrad.linalg.norms import cond, matrix_norm, matrix_rank, norm, vector_norm
from tapegrad.linalg.products import matrix_power, multi_dot
from tapegrad.linalg.singular import SVDResult, svd, svdvals
from tapegrad.linalg.solvers import inv, solve, tensorinv, tensorsolve

__all__ = [
    "EigResult", "EighResult", "LinAlgError", "QRResult", "SVDResult", "SlogdetResult",
    "cholesky", "cond", "det", "eig", "eigh", "eigvals", "eigvalsh", "inv", "lstsq",
    "matrix_norm", "matrix_power", "matrix_rank", "multi_dot", "norm", "pinv", "qr",
    "slogdet", "solve", "svd", "svdvals", "tensorinv", "tensorsolve", "vector_norm",
]  # fmt: skip
