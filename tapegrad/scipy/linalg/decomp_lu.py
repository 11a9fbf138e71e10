"""LU factorization with partial pivoting: lu, lu_factor, lu_solve.

``lu_factor`` returns SciPy's compact ``(lu, piv)``: ``L`` (unit diagonal) below the
diagonal of ``lu``, ``U`` on and above it, and LAPACK's row interchanges ``piv``, which
carry no gradient. Its rule: with ``A[perm] = L U`` and ``M = L^-1 dA[perm] U^-1``,
dL = L tril(M, -1) and dU = triu(M) U, so ``Ā[perm] = L^-T (tril(Lᵀ L̄, -1) + triu(Ū Uᵀ)) U^-T``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.record import is_recorded
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import eye_like, mT, triangle
from tapegrad.ops.primitive import Primitive, raw, shape_of
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy
from tapegrad.scipy.linalg.triangular import solve_triangular

__all__ = ["lu", "lu_factor", "lu_solve"]

ArrayLike = Any


def _lu_packed(xp: Any, a: Any) -> Any:
    """``lu`` with the pivots appended as one more row (as floats): one primitive output."""
    lu, piv = kernel(xp, "linalg", "lu_factor")(a)
    return xp.concat([lu, xp.astype(piv[..., None, :], lu.dtype)], axis=-2)


def _lu_vjp(g: Any, ans: Any, a: Any) -> Any:
    lu, perm = ans[..., :-1, :], _permutation(raw(ans)[..., -1, :])
    g = g[..., :-1, :]  # the pivots' row carries no gradient
    unit_lower = triangle(lu, True, k=-1) + eye_like(lu)
    upper = triangle(lu, False)
    middle = triangle(mT(unit_lower) @ triangle(g, True, k=-1), True, k=-1) + triangle(
        triangle(g, False) @ mT(upper), False
    )
    left = solve_triangular(unit_lower, middle, trans=1, lower=True, unit_diagonal=True)
    permuted = mT(solve_triangular(upper, mT(left), trans=0, lower=False))
    return _take_rows(permuted, _inverse(perm))


# Real matrices (its rule takes transposes, not conjugate transposes).
_lu = Primitive("lu_factor", _lu_packed, complex_rules=False).defvjp(_lu_vjp)


@plain_calls_scipy("linalg")
def lu_factor(
    a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Tensor, Any]:
    """``(lu, piv)``: the pivoted LU factorization of a square ``a`` (batched over leading
    axes); differentiable in ``a`` through ``lu``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import lu_factor
    >>> lu, piv = lu_factor(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> lu.numpy(), piv
    (array([[3.        , 4.        ],
           [0.33333333, 0.66666667]]), array([1, 1], dtype=int32))
    """
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        if is_recorded(a):
            raise NotImplementedError(
                f"lu_factor: gradients need a square matrix, got shape {tuple(shape)}"
            )
    packed = _lu(a)
    pivots = backend.to_host(raw(packed)[..., -1, :]).astype(np.int32)
    return packed[..., :-1, :], pivots


def _permutation(piv: Any) -> np.ndarray:
    """LAPACK's row interchanges (row i swapped with row piv[i], in order) as the row
    order ``perm`` with ``a[perm] = L U``."""
    piv = backend.to_host(piv).astype(np.int64)
    perm = np.broadcast_to(np.arange(piv.shape[-1]), piv.shape).copy()
    rows = np.arange(piv.size // max(piv.shape[-1], 1))
    flat_perm, flat_piv = perm.reshape(-1, piv.shape[-1]), piv.reshape(-1, piv.shape[-1])
    for i in range(piv.shape[-1]):
        j = flat_piv[:, i]
        flat_perm[rows, i], flat_perm[rows, j] = flat_perm[rows, j], flat_perm[rows, i].copy()
    return perm


def _inverse(perm: np.ndarray) -> np.ndarray:
    return np.argsort(perm, axis=-1)


def _take_rows(x: Any, rows: np.ndarray) -> Any:
    """``x[..., rows, :]`` with one row order per matrix of a batch."""
    shape = shape_of(x)
    index = np.broadcast_to(rows[..., :, None], shape[:-2] + (shape[-2], shape[-1]))
    return ops.take_along_axis(x, index, axis=-2)


@plain_calls_scipy("linalg")
def lu_solve(
    lu_and_piv: tuple[ArrayLike, Any],
    b: ArrayLike,
    trans: int = 0,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Tensor:
    """Solve ``a x = b`` (``trans=0``) or ``aᵀ x = b`` (``trans=1``) given ``lu_factor(a)``;
    differentiable in ``lu`` and ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import lu_factor, lu_solve
    >>> lu_solve(lu_factor(tg.tensor([[1.0, 2.0], [3.0, 4.0]])), [3.0, 7.0]).numpy()
    array([1., 1.])
    """
    lu, piv = lu_and_piv
    if trans not in (0, 1, 2, "N", "T", "C"):
        raise ValueError(f"lu_solve: trans must be 0, 1, 2, 'N', 'T' or 'C', got {trans!r}")
    perm = _permutation(np.asarray(piv))
    vector = len(shape_of(b)) == 1
    if vector:
        b = ops.expand_dims(b, -1)
    batch = np.broadcast_shapes(shape_of(b)[:-2], perm.shape[:-1])
    if shape_of(b)[:-2] != batch:  # one right-hand side per matrix, to permute its rows
        b = ops.broadcast_to(b, batch + shape_of(b)[-2:])
    perm = np.broadcast_to(perm, batch + perm.shape[-1:])
    unit_lower = triangle(lu, True, k=-1) + eye_like(lu)
    upper = triangle(lu, False)
    if trans in (0, "N"):  # L U x = b[perm]
        y = solve_triangular(unit_lower, _take_rows(b, perm), lower=True, unit_diagonal=True)
        x = solve_triangular(upper, y, lower=False)
    else:  # Uᵀ Lᵀ x[perm] = b
        y = solve_triangular(upper, b, trans=1, lower=False)
        z = solve_triangular(unit_lower, y, trans=1, lower=True, unit_diagonal=True)
        x = _take_rows(z, _inverse(perm))
    return ops.squeeze(x, -1) if vector else x


@plain_calls_scipy("linalg")
def lu(
    a: ArrayLike,
    permute_l: bool = False,
    overwrite_a: bool = False,
    check_finite: bool = True,
    p_indices: bool = False,
) -> tuple[Any, ...]:
    """``p, l, u`` with ``a = p @ l @ u`` for square ``a`` (batched), as SciPy: ``l``
    unit lower triangular, ``u`` upper, ``p`` a permutation matrix (row indices with
    ``p_indices``: ``a = l[p] @ u``), or ``(p @ l, u)`` with ``permute_l``. ``l`` and
    ``u`` are differentiable (through :func:`lu_factor`'s rule); the permutation is a
    constant.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import lu
    >>> p, l, u = lu(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    >>> p.numpy(), l.numpy().round(4)
    (array([[0., 1.],
           [1., 0.]]), array([[1.    , 0.    ],
           [0.3333, 1.    ]]))
    """
    a = ops.asarray(a)
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise NotImplementedError(
            f"lu: rectangular matrices are not supported on Tensors (got shape {shape}); "
            "lu_factor and lu take square ones"
        )
    if check_finite and not bool(ops.all(ops.isfinite(a))):
        raise ValueError("lu: array must not contain infs or NaNs")
    packed, piv = lu_factor(a)
    perm = _permutation(piv)  # a[perm] = L U
    unit_lower = triangle(packed, True, k=-1) + eye_like(packed)
    upper = triangle(packed, False)
    if permute_l:
        return _take_rows(unit_lower, _inverse(perm)), upper
    if p_indices:  # SciPy's p with a = l[p] @ u
        return ops.asarray(_inverse(perm).astype(np.int32), like=a), unit_lower, upper
    eye = np.eye(shape[-1], dtype=backend.to_host(raw(a)).dtype)
    p = np.take(eye, perm, axis=0)  # rows of the identity in perm order: p.T @ a = a[perm]
    return ops.asarray(np.swapaxes(p, -1, -2).copy(), like=a), unit_lower, upper
