"""Dense linear systems: solve inv det, SciPy's signatures over tapegrad.linalg's
differentiable ops (real and complex).

Each reads what SciPy reads: ``assume_a`` ``"diagonal"``, ``"tridiagonal"``, ``"upper
triangular"``, ``"lower triangular"`` read only those entries of ``a``, ``"sym"``, ``"her"``
and ``"pos"`` only the ``lower`` (else upper) triangle, the Hermitian ones with a real
diagonal.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import (
    as_input,
    constant_like,
    describe,
    eye_like,
    is_complex,
    mH,
    mT,
    triangle,
)
from tapegrad.linalg.solvers import solve_triangular as _solve_triangular
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = [
    "det", "inv", "solve",
]  # fmt: skip

ArrayLike = Any

# SciPy's names for the structure of ``a`` (solve's; inv takes the ones in _INV_ASSUMED).
_ASSUMED = {None, "gen", "general", "sym", "symmetric", "her", "hermitian", "pos",
            "positive definite", "diagonal", "tridiagonal", "banded", "upper triangular",
            "lower triangular"}  # fmt: skip
_INV_ASSUMED = {None, "gen", "general", "diagonal", "upper triangular", "lower triangular",
                "pos", "sym", "her"}  # fmt: skip
# the names that read one triangle -> whether the mirror is conjugated (diagonal real)
_ONE_TRIANGLE = {"sym": False, "symmetric": False, "her": True, "hermitian": True,
                 "pos": True, "positive definite": True}  # fmt: skip
_POSITIVE = {"pos", "positive definite"}


def _check_finite(name: str, *arrays: Any) -> None:
    for x in arrays:
        if not bool(ops.all(ops.isfinite(x))):
            raise ValueError(f"{name}: array must not contain infs or NaNs")


def _mask(x: Any, mask: np.ndarray) -> Any:
    return x * constant_like(mask.astype(float), x)


def _hermitian(strict: Any, diagonal: Any, conjugate: bool) -> Any:
    """The matrix with the strict triangle ``strict`` mirrored (conjugated when
    ``conjugate``, the diagonal then real) and ``diagonal`` (a diagonal matrix) on it."""
    if conjugate and is_complex(diagonal):
        return strict + mH(strict) + ops.astype(ops.real(diagonal), raw(strict).dtype)
    return strict + (mH(strict) if conjugate else mT(strict)) + diagonal


def _structured(a: Any, assume_a: str | None, lower: bool) -> Any:
    """The matrix SciPy's solver for ``assume_a`` reads from ``a``."""
    n = shape_of(a)[-1]
    if assume_a == "diagonal":
        return a * eye_like(a)
    if assume_a == "tridiagonal":
        return _mask(a, np.triu(np.tril(np.ones((n, n)), 1), -1))
    if assume_a in ("upper triangular", "lower triangular"):
        return triangle(a, assume_a == "lower triangular")
    if assume_a in _ONE_TRIANGLE:
        strict = triangle(a, lower, k=-1 if lower else 1)
        return _hermitian(strict, a * eye_like(a), _ONE_TRIANGLE[assume_a])
    return a  # general, banded (its band found from a's zeros) and None read all of a


def _positive_solve(h: Any, column: Any) -> Any:
    """``h⁻¹ column`` for Hermitian ``h`` by its Cholesky factor: LinAlgError, as SciPy,
    when ``h`` is not positive definite."""
    factor = linalg.cholesky(h)  # h = L Lᴴ
    inner = _solve_triangular(factor, column, True)
    return _solve_triangular(factor, inner, True, adjoint=True)


def _columns(name: str, n: int, b: Any) -> tuple[Any, bool]:
    """``b`` as a stack of columns ``(..., n, k)`` and whether it was a vector ``(n,)``."""
    shape = shape_of(b)
    vector = len(shape) == 1
    if (vector and shape[0] != n) or (not vector and (len(shape) < 2 or shape[-2] != n)):
        raise ValueError(
            f"{name}: b must be (n,) or (n, k) with n = {n} (a's size; or a stack "
            f"(..., n, k)), got {describe(b)}"
        )
    return (ops.expand_dims(b, -1) if vector else b), vector


@plain_calls_scipy("linalg")
def solve(
    a: ArrayLike,
    b: ArrayLike,
    lower: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
    assume_a: str | None = None,
    transposed: bool = False,
) -> Tensor:
    """Solve ``a x = b`` (``aᵀ x = b`` with ``transposed``) for square ``a`` (or a stack
    ``(..., n, n)``); ``b`` is a vector ``(n,)`` or a stack of matrices ``(..., n, k)``.
    ``assume_a`` reads what SciPy reads (module docstring): ``"sym"``, ``"her"`` and
    ``"pos"`` only the ``lower`` (else upper) triangle, ``"diagonal"``, ``"tridiagonal"``
    and the triangular ones only those entries, and the whole gradient goes to the entries
    read. ``"pos"`` factors by Cholesky (LinAlgError when not positive definite).
    ``check_finite`` raises ValueError on NaN or inf, as SciPy; ``overwrite_*`` are
    accepted and ignored; ``transposed`` with complex ``a`` raises NotImplementedError, as
    SciPy. The gradient is ``-aᵀ⁻¹ g xᵀ`` for ``a`` and ``aᵀ⁻¹ g`` for ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve
    >>> a = tg.tensor([[3.0, 1.0], [1.0, 2.0]])
    >>> solve(a, tg.tensor([9.0, 8.0])).tolist()
    [2.0, 3.0]
    >>> g = tg.grad(lambda b: tg.sum(solve(a, b, assume_a="pos")))(tg.tensor([9.0, 8.0]))
    >>> g.numpy().round(12).tolist()  # a⁻ᵀ 1
    [0.2, 0.4]
    """
    if assume_a not in _ASSUMED:
        raise ValueError(f"solve: assume_a must be one of SciPy's names, got {assume_a!r}")
    a, b = as_input(a), as_input(b)
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"solve: a must be a square matrix (..., n, n), got shape {shape}")
    column, vector = _columns("solve", shape[-1], b)
    if check_finite:
        _check_finite("solve", a, b)
    if transposed and is_complex(a):
        raise NotImplementedError(
            "solve: transposed=True is not implemented for complex a (SciPy's too)"
        )
    a = _structured(a, assume_a, lower)
    if transposed:
        a = mT(a)
    try:
        np.broadcast_shapes(tuple(shape_of(a)[:-2]), tuple(shape_of(column)[:-2]))
    except ValueError:
        raise ValueError(
            f"solve: the batch axes of a ({describe(a)}) and b ({describe(b)}) do not broadcast"
        ) from None
    if assume_a in _POSITIVE:
        x = _positive_solve(a, column)
    else:
        x = linalg.solve(a, column)
    return ops.squeeze(x, -1) if vector else x


@plain_calls_scipy("linalg")
def inv(
    a: ArrayLike,
    overwrite_a: bool = False,
    check_finite: bool = True,
    *,
    assume_a: str | None = None,
    lower: bool = False,
) -> Tensor:
    """The inverse of a square matrix (or of each in a stack ``(..., n, n)``), reading what
    SciPy reads for ``assume_a``: ``"diagonal"`` the diagonal (the inverse is diagonal),
    ``"upper triangular"``/``"lower triangular"`` that triangle, ``"sym"``, ``"her"``,
    ``"pos"`` the ``lower`` (else upper) triangle. The gradient ``-Xᴴ g Xᴴ`` goes to the
    entries read.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import inv
    >>> inv(tg.tensor([[2.0, 9.0], [0.0, 4.0]]), assume_a="diagonal").numpy()
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    if assume_a not in _INV_ASSUMED:
        raise ValueError(f"inv: assume_a must be one of SciPy's names, got {assume_a!r}")
    a = as_input(a)
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"inv: a must be a square matrix (..., n, n), got shape {shape}")
    if check_finite:
        _check_finite("inv", a)
    a = _structured(a, assume_a, lower)
    if assume_a in _POSITIVE:
        return _positive_solve(a, eye_like(a))
    return linalg.inv(a)


@plain_calls_scipy("linalg")
def det(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Tensor:
    """The determinant of a square matrix (or of each in a stack); its gradient is the
    adjugate's transpose (exact at singular matrices too).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import det
    >>> round(det(tg.tensor([[2.0, 1.0], [1.0, 3.0]])).item(), 12)
    5.0
    """
    a = as_input(a)
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"det: a must be a square matrix (..., n, n), got shape {shape}")
    if check_finite:
        _check_finite("det", a)
    return linalg.det(a)
