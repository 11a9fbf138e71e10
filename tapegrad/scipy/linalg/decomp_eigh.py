"""The Hermitian eigenvalue problems: eigh eigvalsh (standard and generalized, subsets),
eigh_tridiagonal eigvalsh_tridiagonal.

Each is composed from tapegrad.linalg's eigendecompositions, SciPy's result fixing the
signs and the order (tapegrad.scipy.linalg._reference):

- ``eigh(a, b)``: with ``b = L Lᴴ`` (Cholesky), type 1 (``a v = λ b v``) is the standard
  problem of ``C = L⁻¹ a L⁻ᴴ`` with ``v = L⁻ᴴ u``; type 2 (``a b v = λ v``) and type 3
  (``b a v = λ v``) that of ``C = Lᴴ a L``, with ``v = L⁻ᴴ u`` and ``v = L u``: SciPy's
  B-orthonormal vectors (``vᴴ b v = I``; ``vᴴ b⁻¹ v = I`` for type 3). The gradient lands
  on the triangles of ``a`` and ``b`` that are read.
- Subsets (``subset_by_index``, ``subset_by_value``, ``select``) take the selected pairs of
  the whole decomposition: their gradient, exact.

The general (non-Hermitian) problem, ``eig``, is in decomp_eig.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg import _spectral
from tapegrad.linalg._matrix import (
    as_input,
    check_matrices,
    constant_like,
    diag_embed,
    is_complex,
    mH,
)
from tapegrad.linalg.solvers import solve_triangular
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg._reference import (
    _check_finite,
    _hermitian,
    _scipy,
    _select,
    align_columns,
    host,
)

__all__ = ["eigh", "eigh_tridiagonal", "eigvalsh", "eigvalsh_tridiagonal"]

ArrayLike = Any


# ---------------------------------------------------------------------------------------
# eigh eigvalsh


def _reduced(a: Any, b: Any, lower: bool, type: int) -> tuple[Any, Any]:  # noqa: A002
    """The standard Hermitian problem ``C`` of ``eigh(a, b, type)``, and ``L`` of ``b = L Lᴴ``."""
    full = _hermitian(a, lower)
    # L from the triangle of b that is read (the upper one: b = Uᴴ U, L = Uᴴ)
    chol = linalg.cholesky(b) if lower else mH(linalg.cholesky(b, upper=True))
    if type == 1:
        half = solve_triangular(chol, full, lower=True)  # L⁻¹ a
        c = solve_triangular(chol, mH(half), lower=True)  # L⁻¹ a L⁻ᴴ
    else:
        c = mH(chol) @ full @ chol
    return c, chol


def _eigh(
    op: str,
    a: Any,
    b: Any,
    lower: bool,
    eigvals_only: bool,
    type: int,  # noqa: A002 - SciPy's name
    check_finite: bool,
    subset_by_index: Any,
    subset_by_value: Any,
    driver: str | None,
) -> Any:
    a = as_input(a)
    check_matrices(op, a, square=True)
    if b is not None:
        b = as_input(b)
        check_matrices(op, b, square=True)
        if shape_of(b)[-1] != shape_of(a)[-1]:
            raise ValueError(
                f"{op}: a and b must have the same size, got shapes {tuple(shape_of(a))} "
                f"and {tuple(shape_of(b))}"
            )
    if type not in (1, 2, 3):
        raise ValueError(f"{op}: type must be 1, 2 or 3, got {type!r}")
    _check_finite(op, check_finite, a, b)
    reference = _scipy("eigh")(
        host(a), None if b is None else host(b), lower=lower, eigvals_only=eigvals_only,
        type=type, subset_by_index=subset_by_index, subset_by_value=subset_by_value,
        driver=driver,
    )  # fmt: skip
    uplo = "L" if lower else "U"
    if b is None:
        c, chol = a, None
    else:
        c, chol = _reduced(a, b, lower, type)
        uplo = "L"
    if eigvals_only:
        w = linalg.eigvalsh(c, UPLO=uplo)
        v = None
    else:
        w, u = linalg.eigh(c, UPLO=uplo)
        if chol is None:
            v = u
        elif type == 3:
            v = chol @ u
        else:
            v = solve_triangular(chol, u, lower=True, adjoint=True)  # L⁻ᴴ u
    n = shape_of(a)[-1]
    keep = _select(n, _spectral.host(w), subset_by_index, subset_by_value, op)
    if len(keep) != n:
        w = ops.take(w, keep, axis=-1)
        v = None if v is None else ops.take(v, keep, axis=-1)
    if v is None:
        return w
    v, _ = align_columns(v, reference[1])
    return w, v


@plain_calls_scipy("linalg")
def eigh(
    a: ArrayLike,
    b: ArrayLike | None = None,
    *,
    lower: bool = True,
    eigvals_only: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    type: int = 1,  # noqa: A002 - SciPy's name
    check_finite: bool = True,
    subset_by_index: Any = None,
    subset_by_value: Any = None,
    driver: str | None = None,
) -> Any:
    """Eigenvalues ``w`` (ascending) and eigenvectors ``v`` (columns) of a Hermitian (real
    symmetric) ``a``, reading its ``lower`` (or upper) triangle; ``w`` alone when
    ``eigvals_only``. With ``b`` (Hermitian positive definite, the same triangle read) the
    generalized problem of ``type`` 1 (``a v = w b v``), 2 (``a b v = w v``) or 3
    (``b a v = w v``), with SciPy's normalization of ``v`` (module docstring).
    ``subset_by_index`` ``[lo, hi]`` and ``subset_by_value`` ``(lo, hi]`` keep some
    eigenpairs (and their gradient). ``driver`` is passed to SciPy, whose result fixes each
    vector's sign; differentiable in ``a`` and ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eigh
    >>> eigh(tg.tensor([[2.0, 1.0], [1.0, 2.0]]), eigvals_only=True).numpy()
    array([1., 3.])
    >>> w, v = eigh(tg.tensor([[2.0, 0.0], [0.0, 6.0]]), tg.tensor([[1.0, 0.0], [0.0, 4.0]]))
    >>> w.numpy(), v.numpy()
    (array([1.5, 2. ]), array([[0. , 1. ],
           [0.5, 0. ]]))
    """
    return _eigh(
        "eigh", a, b, lower, eigvals_only, type, check_finite, subset_by_index,
        subset_by_value, driver,
    )  # fmt: skip


@plain_calls_scipy("linalg")
def eigvalsh(
    a: ArrayLike,
    b: ArrayLike | None = None,
    *,
    lower: bool = True,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    type: int = 1,  # noqa: A002 - SciPy's name
    check_finite: bool = True,
    subset_by_index: Any = None,
    subset_by_value: Any = None,
    driver: str | None = None,
) -> Tensor:
    """The eigenvalues of a Hermitian ``a`` (or of the generalized problem with ``b``),
    ascending: :func:`eigh` with ``eigvals_only``. Its gradient needs no eigenvalue gaps.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eigvalsh
    >>> eigvalsh(tg.tensor([[2.0, 0.0], [0.0, 1.0]])).numpy()
    array([1., 2.])
    """
    result: Tensor = _eigh(
        "eigvalsh", a, b, lower, True, type, check_finite, subset_by_index,
        subset_by_value, driver,
    )  # fmt: skip
    return result


# ---------------------------------------------------------------------------------------
# eigh_tridiagonal eigvalsh_tridiagonal


def _tridiagonal(d: Any, e: Any) -> Any:
    """The symmetric tridiagonal matrix of ``d`` (n,) and ``e`` (n - 1,)."""
    n = shape_of(d)[-1]
    upper = np.eye(n, n - 1)  # (i, i)
    lower = np.eye(n, n - 1, k=-1)  # (i + 1, i)
    off = constant_like(upper, e) @ diag_embed(e) @ constant_like(lower.T, e)
    return diag_embed(d) + off + mH(off)


def _eigh_tridiagonal(
    op: str,
    d: Any,
    e: Any,
    eigvals_only: bool,
    select: str,
    select_range: Any,
    check_finite: bool,
    tol: float,
    lapack_driver: str,
) -> Any:
    d, e = as_input(d), as_input(e)
    if len(shape_of(d)) != 1 or shape_of(e) != (max(shape_of(d)[0] - 1, 0),):
        raise ValueError(
            f"{op}: d must be (n,) and e (n - 1,), got shapes {tuple(shape_of(d))} and "
            f"{tuple(shape_of(e))}"
        )
    if is_complex(d) or is_complex(e):
        raise NotImplementedError(f"{op}: complex d or e (SciPy takes real ones)")
    _check_finite(op, check_finite, d, e)
    reference = _scipy("eigh_tridiagonal")(
        host(d), host(e), eigvals_only=eigvals_only, select=select, select_range=select_range,
        tol=tol, lapack_driver=lapack_driver,
    )  # fmt: skip
    t = _tridiagonal(d, e)
    by_index = by_value = None
    if select in ("v", 1):
        by_value = select_range
    elif select in ("i", 2):
        by_index = select_range
    if eigvals_only:
        w, v = linalg.eigvalsh(t), None
    else:
        w, v = linalg.eigh(t)
    keep = _select(shape_of(d)[0], _spectral.host(w), by_index, by_value, op)
    w = ops.take(w, keep, axis=-1)
    values = reference if eigvals_only else reference[0]
    if tol:  # SciPy's eigenvalues to its tolerance ``tol``; the gradient of the exact ones
        w = w + constant_like(values - _spectral.host(w), w)
    if v is None:
        return w
    v, _ = align_columns(ops.take(v, keep, axis=-1), reference[1])
    return w, v


@plain_calls_scipy("linalg")
def eigh_tridiagonal(
    d: ArrayLike,
    e: ArrayLike,
    eigvals_only: bool = False,
    select: str = "a",
    select_range: Any = None,
    check_finite: bool = True,
    tol: float = 0.0,
    lapack_driver: str = "auto",
) -> Any:
    """Eigenvalues (ascending) and eigenvectors of the real symmetric tridiagonal matrix
    with diagonal ``d`` and off-diagonal ``e``; ``select`` ``"a"`` (all), ``"v"`` (values in
    ``select_range`` ``(lo, hi]``) or ``"i"`` (indices ``[lo, hi]``). Differentiable in ``d``
    and ``e`` (the symmetric eigen-rule of the matrix, read on its diagonal and
    off-diagonals); SciPy's result fixes the signs, and with ``tol`` the values.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eigh_tridiagonal
    >>> eigh_tridiagonal(tg.tensor([2.0, 2.0]), tg.tensor([1.0]), eigvals_only=True).numpy()
    array([1., 3.])
    """
    return _eigh_tridiagonal(
        "eigh_tridiagonal", d, e, eigvals_only, select, select_range, check_finite, tol,
        lapack_driver,
    )  # fmt: skip


@plain_calls_scipy("linalg")
def eigvalsh_tridiagonal(
    d: ArrayLike,
    e: ArrayLike,
    select: str = "a",
    select_range: Any = None,
    check_finite: bool = True,
    tol: float = 0.0,
    lapack_driver: str = "auto",
) -> Tensor:
    """The eigenvalues of a real symmetric tridiagonal matrix: :func:`eigh_tridiagonal`
    with ``eigvals_only``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eigvalsh_tridiagonal
    >>> eigvalsh_tridiagonal(tg.tensor([2.0, 2.0]), tg.tensor([1.0])).numpy()
    array([1., 3.])
    """
    result: Tensor = _eigh_tridiagonal(
        "eigvalsh_tridiagonal", d, e, True, select, select_range, check_finite, tol,
        lapack_driver,
    )  # fmt: skip
    return result
