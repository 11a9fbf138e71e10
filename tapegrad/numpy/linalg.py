"""``tapegrad.numpy.linalg``: NumPy's ``numpy.linalg`` names.

On Tensors, the functions tapegrad differentiates record on the tape (``matmul``,
``outer``, ``vecdot``, ``tensordot``, ``trace``, ``diagonal``, ``matrix_transpose``,
``cross``, ``multi_dot``); the factorizations and solvers (``inv``, ``solve``, ``det``,
``cholesky``, ``eigh``, ``svd``, ``norm`` ...) have no gradient yet and raise a TypeError
naming the function, never converting a Tensor to an array. On plain arrays every
function is NumPy's own.
"""

from numpy.linalg import (  # the namespace
    LinAlgError,
    cholesky,
    cond,
    cross,
    det,
    diagonal,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    inv,
    lstsq,
    matmul,
    matrix_norm,
    matrix_power,
    matrix_rank,
    matrix_transpose,
    multi_dot,
    norm,
    outer,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
    tensordot,
    tensorinv,
    tensorsolve,
    trace,
    vecdot,
    vector_norm,
)
