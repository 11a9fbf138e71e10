"""``tapegrad.numpy.linalg``: NumPy's ``numpy.linalg`` names.

Each name is NumPy's own function. On plain arrays it is NumPy; given Tensors it hands
them to ``tg.linalg`` through ``__array_function__``, so every factorization, solve and
norm records on the tape (docs/linalg.md); ``matrix_rank`` has no gradient.
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
