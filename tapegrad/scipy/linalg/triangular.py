"""Triangular solves and the Cholesky factorization: solve_triangular cholesky cho_factor
cho_solve, SciPy's signatures over tapegrad.linalg's triangular solver and Cholesky
factorization (real and complex, batched over leading axes as SciPy >= 1.15 batches them).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import as_input, triangle
from tapegrad.linalg.solvers import solve_triangular as _solve_triangular
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = ["cho_factor", "cho_solve", "cholesky", "solve_triangular"]

ArrayLike = Any

_TRANS = {0: 0, "N": 0, 1: 1, "T": 1, 2: 2, "C": 2}


@plain_calls_scipy("linalg")
def solve_triangular(
    a: ArrayLike,
    b: ArrayLike,
    trans: int | str = 0,
    lower: bool = False,
    unit_diagonal: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Tensor:
    """Solve ``a x = b`` (``trans=0``), ``aᵀ x = b`` (``1``) or ``aᴴ x = b`` (``2``) for
    triangular ``a``, reading only its ``lower`` (or upper) triangle; ``b`` is a vector
    ``(n,)`` or a matrix ``(..., n, k)``. ``overwrite_b`` and ``check_finite`` are accepted
    and ignored.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve_triangular
    >>> solve_triangular(tg.tensor([[2.0, 0.0], [1.0, 1.0]]), [2.0, 3.0], lower=True).numpy()
    array([1., 2.])
    """
    if trans not in _TRANS:
        raise ValueError(f"solve_triangular: trans must be 0, 1, 2, 'N', 'T' or 'C', got {trans!r}")
    a, b = as_input(a), as_input(b)
    vector = len(shape_of(b)) == 1  # a vector: one column, as SciPy's core dimensions say
    column = ops.expand_dims(b, -1) if vector else b
    mode = _TRANS[trans]
    if mode == 1:  # aᵀ = conj(a)ᴴ
        a = ops.conj(a)
    x = _solve_triangular(a, column, lower, adjoint=mode != 0, unit_diagonal=unit_diagonal)
    return ops.squeeze(x, -1) if vector else x


@plain_calls_scipy("linalg")
def cholesky(
    a: ArrayLike, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> Tensor:
    """The Cholesky factor of a Hermitian positive definite ``a``: upper ``U`` with
    ``a = Uᴴ U`` by default, lower ``L`` with ``a = L Lᴴ`` when ``lower``. SciPy reads one
    triangle of ``a`` (the upper by default), and the gradient lands there.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import cholesky
    >>> cholesky(tg.tensor([[4.0, 2.0], [2.0, 5.0]]), lower=True).numpy()
    array([[2., 0.],
           [1., 2.]])
    """
    return linalg.cholesky(a, upper=not lower)


@plain_calls_scipy("linalg")
def cho_factor(
    a: ArrayLike, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Tensor, bool]:
    """``(c, lower)`` for :func:`cho_solve`: ``c`` holds the Cholesky factor in one triangle
    and, as in SciPy, ``a``'s own entries in the other.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import cho_factor
    >>> c, lower = cho_factor(tg.tensor([[4.0, 2.0], [2.0, 5.0]]))
    >>> c.numpy(), lower
    (array([[2., 1.],
           [2., 2.]]), False)
    """
    lower = bool(lower)
    factor = cholesky(a, lower=lower)
    return factor + triangle(a, not lower, k=-1 if not lower else 1), lower


@plain_calls_scipy("linalg")
def cho_solve(
    c_and_lower: tuple[ArrayLike, bool],
    b: ArrayLike,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Tensor:
    """Solve ``a x = b`` given ``cho_factor(a)``; differentiable in the factor and ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import cho_factor, cho_solve
    >>> cho_solve(cho_factor(tg.tensor([[4.0, 2.0], [2.0, 5.0]])), [6.0, 7.0]).numpy()
    array([1., 1.])
    """
    c, lower = c_and_lower[0], bool(np.all(c_and_lower[1]))  # batched SciPy: one per matrix
    factor = triangle(c, lower)
    vector = len(shape_of(b)) == 1
    column = ops.expand_dims(b, -1) if vector else b  # batches of vectors stay columns
    solve = _solve_triangular
    if lower:  # L Lᴴ x = b
        x = solve(factor, solve(factor, column, True), True, adjoint=True)
    else:  # Uᴴ U x = b
        x = solve(factor, solve(factor, column, False, adjoint=True), False)
    return ops.squeeze(x, -1) if vector else x
