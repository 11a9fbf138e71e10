"""Triangular solves and the Cholesky factorization: solve_triangular cholesky cho_factor
cho_solve.

Real inputs, batched over leading axes as SciPy (>= 1.15) batches them. Cholesky's rule is
the standard one (Murray, "Differentiation of the Cholesky decomposition", 2016) with the
gradient landing on the triangle SciPy reads (see ``triangle_read``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.ops.primitive import Primitive, shape_of, unbroadcast
from tapegrad.scipy._dispatch import kernel
from tapegrad.scipy.linalg._matrix import mT, triangle, triangle_read
from tapegrad.tensor import Tensor

ArrayLike = Any

_TRANS = {0: 0, "N": 0, 1: 1, "T": 1, 2: 1, "C": 1}  # real inputs: "C" is "T"


def _solve_triangular_forward(
    xp: Any, a: Any, b: Any, trans: int, lower: bool, unit_diagonal: bool
) -> Any:
    solve = kernel(xp, "linalg", "solve_triangular")
    return solve(a, b, trans=trans, lower=lower, unit_diagonal=unit_diagonal)


def _solve_triangular_da(
    g: Any, ans: Any, a: Any, b: Any, trans: int, lower: bool, unit_diagonal: bool
) -> Any:
    # x = A^-1 b: b̄ = A^-T ḡ, Ā = -b̄ xᵀ; x = A^-T b: b̄ = A^-1 ḡ, Ā = -x b̄ᵀ; either on
    # the triangle that is read (the strict one with a unit diagonal)
    gb = _solve(a, g, 1 - trans, lower, unit_diagonal)
    ga = -(gb @ mT(ans)) if trans == 0 else -(ans @ mT(gb))
    ga = triangle(ga, lower, k=(-1 if lower else 1) if unit_diagonal else 0)
    return unbroadcast(ga, shape_of(a))


def _solve_triangular_db(
    g: Any, ans: Any, a: Any, b: Any, trans: int, lower: bool, unit_diagonal: bool
) -> Any:
    return unbroadcast(_solve(a, g, 1 - trans, lower, unit_diagonal), shape_of(b))


_solve_triangular = Primitive("solve_triangular", _solve_triangular_forward).defvjp(
    _solve_triangular_da, _solve_triangular_db
)


def _solve(a: Any, b: Any, trans: int, lower: bool, unit_diagonal: bool) -> Tensor:
    return _solve_triangular(a, b, trans=trans, lower=lower, unit_diagonal=unit_diagonal)


def solve_triangular(
    a: ArrayLike,
    b: ArrayLike,
    trans: int | str = 0,
    lower: bool = False,
    unit_diagonal: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Tensor:
    """Solve ``a x = b`` (``trans=0``) or ``aᵀ x = b`` (``trans=1``) for triangular ``a``,
    reading only its ``lower`` (or upper) triangle; ``b`` is a vector ``(n,)`` or a matrix
    ``(..., n, k)``. ``overwrite_b`` and ``check_finite`` are accepted and ignored.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve_triangular
    >>> solve_triangular(tg.tensor([[2.0, 0.0], [1.0, 1.0]]), [2.0, 3.0], lower=True).numpy()
    array([1., 2.])
    """
    if trans not in _TRANS:
        raise ValueError(f"solve_triangular: trans must be 0, 1, 2, 'N', 'T' or 'C', got {trans!r}")
    if len(shape_of(b)) == 1:  # a vector: one column, as SciPy's core dimensions say
        return ops.squeeze(
            solve_triangular(a, ops.expand_dims(b, -1), trans, lower, unit_diagonal), -1
        )
    return _solve(a, b, _TRANS[trans], bool(lower), bool(unit_diagonal))


def _cholesky_vjp(g: Any, ans: Any, a: Any, lower: bool) -> Any:
    # A = L Lᵀ: with P = Φ(Lᵀ L̄) (lower triangle, halved diagonal), the gradient for a
    # symmetric perturbation is G = L^-T P L^-1; SciPy reads one triangle of A.
    factor, g = (ans, g) if lower else (mT(ans), mT(g))
    p = triangle(mT(factor) @ g, True, diagonal=0.5)
    y = _solve(factor, p, 1, True, False)  # L^-T P
    grad = mT(_solve(factor, mT(y), 1, True, False))  # (L^-T (L^-T P)ᵀ)ᵀ = L^-T P L^-1
    return triangle_read(grad, lower)


_cholesky = Primitive(
    "cholesky", lambda xp, a, lower: kernel(xp, "linalg", "cholesky")(a, lower=lower)
).defvjp(_cholesky_vjp)


def cholesky(
    a: ArrayLike, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> Tensor:
    """The Cholesky factor of a symmetric positive definite ``a``: upper ``U`` with
    ``a = Uᵀ U`` by default, lower ``L`` with ``a = L Lᵀ`` when ``lower``. SciPy reads one
    triangle of ``a`` (the upper by default), and the gradient lands there.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import cholesky
    >>> cholesky(tg.tensor([[4.0, 2.0], [2.0, 5.0]]), lower=True).numpy()
    array([[2., 0.],
           [1., 2.]])
    """
    return _cholesky(a, lower=bool(lower))


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
    if lower:  # L Lᵀ x = b
        x = _solve(factor, _solve(factor, column, 0, True, False), 1, True, False)
    else:  # Uᵀ U x = b
        x = _solve(factor, _solve(factor, column, 1, False, False), 0, False, False)
    return ops.squeeze(x, -1) if vector else x
