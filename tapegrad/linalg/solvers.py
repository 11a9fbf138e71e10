"""Inverses and linear solves: inv solve tensorinv tensorsolve, and the triangular solve
the factorizations' rules use.

With X = A⁻¹, dX = -X dA X, so Ā = -Xᴴ X̄ Xᴴ; with x = A⁻¹ b, b̄ = A⁻ᴴ x̄ and Ā = -b̄ xᴴ
(for complex values the conjugate transposes of docs/complex.md's convention).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import LinAlgError, as_input, check_matrices, describe, mH, triangle
from tapegrad.ops.primitive import Primitive, shape_of, unbroadcast

ArrayLike = Any

_inv = Primitive(
    "inv", lambda xp, a: xp.linalg.inv(a), numpy=np.linalg.inv, complex_rules=True
).defvjp(lambda g, ans, a: -(mH(ans) @ g @ mH(ans)))


def inv(a: ArrayLike) -> Tensor:
    """The inverse of a square matrix (or of each in a stack), as ``np.linalg.inv``.

    >>> import tapegrad as tg
    >>> tg.linalg.inv(tg.tensor([[2.0, 0.0], [0.0, 4.0]])).numpy()
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    a = as_input(a)
    check_matrices("inv", a, square=True)
    return _inv._unary(a)


def _solve_a(g: Any, ans: Any, a: Any, b: Any) -> Any:
    return unbroadcast(-(_solve(mH(a), g) @ mH(ans)), shape_of(a))


_solve = Primitive(
    "solve", lambda xp, a, b: xp.linalg.solve(a, b), numpy=np.linalg.solve, complex_rules=True
).defvjp(_solve_a, lambda g, ans, a, b: unbroadcast(_solve(mH(a), g), shape_of(b)))


def solve(a: ArrayLike, b: ArrayLike) -> Tensor:
    """``x`` with ``a @ x = b``, as ``np.linalg.solve``: ``b`` is a vector ``(M,)`` or a
    stack of matrices ``(..., M, K)``; batch axes broadcast.

    >>> import tapegrad as tg
    >>> tg.linalg.solve(tg.tensor([[2.0, 1.0], [1.0, 3.0]]), [3.0, 5.0]).numpy()
    array([0.8, 1.4])
    """
    a, b = as_input(a), as_input(b)
    check_matrices("solve", a, square=True)
    vector = len(shape_of(b)) == 1
    column = ops.expand_dims(b, -1) if vector else b
    n, bs = shape_of(a)[-1], shape_of(column)
    if len(bs) < 2 or bs[-2] != n:
        raise LinAlgError(f"solve: b of {describe(b)} does not fit a of {describe(a)}")
    try:
        np.broadcast_shapes(shape_of(a)[:-2], bs[:-2])
    except ValueError:
        raise LinAlgError(
            f"solve: the batch axes of a ({describe(a)}) and b ({describe(b)}) do not broadcast"
        ) from None
    x = _solve(a, column)
    return ops.squeeze(x, -1) if vector else x


_LAPACK_TYPES = frozenset(np.dtype(t) for t in ("float32", "float64", "complex64", "complex128"))


def _scipy_triangular_solver() -> Any:
    """SciPy's ``solve_triangular`` (LAPACK's trtrs: O(n^2) a column), or None without SciPy."""
    global _scipy_solve_triangular
    if _scipy_solve_triangular is False:
        try:
            from scipy.linalg import solve_triangular as found
        except ImportError:
            found = None
        _scipy_solve_triangular = found
    return _scipy_solve_triangular


_scipy_solve_triangular: Any = False  # not looked for yet


def solve_triangular_numpy(
    a: np.ndarray, b: np.ndarray, lower: bool, adjoint: bool = False, unit_diagonal: bool = False
) -> np.ndarray:
    """:func:`solve_triangular`'s forward on NumPy arrays (for rules in the sweep's raw mode)."""
    return _triangular_forward(np, a, b, lower, adjoint, unit_diagonal)


def triangular_product_numpy(
    t: np.ndarray, b: np.ndarray, lower: bool, adjoint: bool
) -> np.ndarray:
    """``t @ b`` (``tᴴ @ b`` with ``adjoint``) for a ``t`` with zeros off its ``lower`` (or
    upper) triangle: BLAS's triangular product (trmm: half gemm's work) for one matrix of a
    LAPACK type, when SciPy is there; else matmul."""
    if t.ndim == 2 and b.ndim == 2 and t.dtype == b.dtype in _LAPACK_TYPES:
        trmm = _scipy_trmm(t)
        if trmm is not None:
            return trmm(1.0, t, b, lower=int(lower), trans_a=2 if adjoint else 0)
    return (t.conj().swapaxes(-1, -2) if adjoint else t) @ b


def _scipy_trmm(t: np.ndarray) -> Any:
    try:
        from scipy.linalg.blas import get_blas_funcs
    except ImportError:
        return None
    return get_blas_funcs("trmm", (t,))


def _triangular_forward(
    xp: Any, a: Any, b: Any, lower: bool, adjoint: bool, unit_diagonal: bool
) -> Any:
    # One matrix on the CPU: LAPACK's triangular solve, when SciPy is there. Otherwise
    # (NumPy has no triangular solver, and tapegrad.linalg does not need SciPy) the
    # general solver on the triangle read gives the same solution (backward stable, O(n^3)).
    if xp is np and a.ndim == 2 and b.ndim == 2 and a.dtype == b.dtype in _LAPACK_TYPES:
        solver = _scipy_triangular_solver()
        if solver is not None:
            return solver(
                a, b, lower=lower, trans="C" if adjoint else "N",
                unit_diagonal=unit_diagonal, check_finite=False,
            )  # fmt: skip
    if unit_diagonal:
        strict = xp.tril(a, k=-1) if lower else xp.triu(a, k=1)
        n = a.shape[-1]
        eye = xp.eye(n, dtype=a.dtype) if xp is np else xp.eye(n, dtype=a.dtype, device=a.device)
        t = strict + eye
    else:
        t = xp.tril(a) if lower else xp.triu(a)
    if adjoint:
        t = xp.conj(xp.matrix_transpose(t))
    return xp.linalg.solve(t, b)


def _triangular_a(
    g: Any, ans: Any, a: Any, b: Any, lower: bool, adjoint: bool, unit_diagonal: bool
) -> Any:
    # T x = b: Ā = -b̄ xᴴ; Tᴴ x = b: Ā = -x b̄ᴴ; on the triangle read (strict when the
    # diagonal is taken as ones)
    k = (-1 if lower else 1) if unit_diagonal else 0
    if type(g) is np.ndarray and type(ans) is np.ndarray and type(a) is np.ndarray:
        # the sweep's raw mode: the triangle cut by np.tril, not a mask's product
        gb = solve_triangular_numpy(a, g, lower, not adjoint, unit_diagonal)
        ga = -(ans @ gb.conj().swapaxes(-1, -2)) if adjoint else -(gb @ ans.conj().swapaxes(-1, -2))
        return unbroadcast(np.tril(ga, k) if lower else np.triu(ga, k), shape_of(a))
    gb = solve_triangular(a, g, lower, not adjoint, unit_diagonal)
    ga = -(ans @ mH(gb)) if adjoint else -(gb @ mH(ans))
    return unbroadcast(triangle(ga, lower, k=k), shape_of(a))


def _triangular_b(
    g: Any, ans: Any, a: Any, b: Any, lower: bool, adjoint: bool, unit_diagonal: bool
) -> Any:
    return unbroadcast(solve_triangular(a, g, lower, not adjoint, unit_diagonal), shape_of(b))


_solve_triangular = Primitive("solve_triangular", _triangular_forward, complex_rules=True).defvjp(
    _triangular_a, _triangular_b
)


def solve_triangular(
    a: ArrayLike,
    b: ArrayLike,
    lower: bool,
    adjoint: bool = False,
    unit_diagonal: bool = False,
) -> Tensor:
    """``x`` with ``T x = b`` (``Tᴴ x = b`` when ``adjoint``), where ``T`` is the ``lower``
    (or upper) triangle of ``a``, with ones on the diagonal when ``unit_diagonal``; ``b`` is
    a stack of matrices ``(..., N, K)``. The solver behind tapegrad.scipy.linalg's
    ``solve_triangular`` and the factorizations' rules.

    >>> import tapegrad as tg
    >>> from tapegrad.linalg.solvers import solve_triangular
    >>> solve_triangular(tg.tensor([[2.0, 9.0], [1.0, 1.0]]), [[2.0], [3.0]], lower=True).numpy()
    array([[1.],
           [2.]])
    """
    return _solve_triangular(
        as_input(a), as_input(b), lower=bool(lower), adjoint=bool(adjoint),
        unit_diagonal=bool(unit_diagonal),
    )  # fmt: skip


def tensorinv(a: ArrayLike, ind: int = 2) -> Tensor:
    """The inverse of ``a`` for :func:`numpy.tensordot` over its first ``ind`` axes, as
    ``np.linalg.tensorinv``.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> tg.linalg.tensorinv(tg.tensor(np.eye(4).reshape(4, 2, 2)), ind=1).shape
    (2, 2, 4)
    """
    a = as_input(a)
    shape = shape_of(a)
    if ind <= 0:
        raise ValueError(f"tensorinv: ind must be a positive integer, got {ind}")
    rows, cols = math.prod(shape[:ind]), math.prod(shape[ind:])
    if rows != cols:
        raise LinAlgError(
            f"tensorinv: the first {ind} axes of {describe(a)} hold {rows} elements and the "
            f"others {cols}; they must be equal"
        )
    return ops.reshape(inv(ops.reshape(a, (rows, cols))), shape[ind:] + shape[:ind])


def tensorsolve(a: ArrayLike, b: ArrayLike, axes: Any = None) -> Tensor:
    """``x`` with ``tensordot(a, x, axes=x.ndim) = b``, as ``np.linalg.tensorsolve``; the
    ``axes`` of ``a`` are moved to the end first.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> tg.linalg.tensorsolve(tg.tensor(np.eye(4).reshape(2, 2, 4)), np.ones((2, 2))).shape
    (4,)
    """
    a, b = as_input(a), as_input(b)
    ndim = len(shape_of(a))
    if axes is not None:
        order = [k for k in range(ndim) if k not in [ax % ndim for ax in axes]]
        a = ops.transpose(a, tuple(order + [ax % ndim for ax in axes]))
    shape, b_shape = shape_of(a), shape_of(b)
    solution = shape[len(b_shape) :]
    rows, cols = math.prod(b_shape), math.prod(solution)
    if shape[: len(b_shape)] != tuple(b_shape) or rows != cols:
        raise LinAlgError(
            f"tensorsolve: a of {describe(a)} (axes moved) does not fit b of {describe(b)}: "
            "a's leading axes must be b's shape and hold as many elements as the rest"
        )
    x = solve(ops.reshape(a, (rows, cols)), ops.reshape(b, (rows,)))
    return ops.reshape(x, solution)
