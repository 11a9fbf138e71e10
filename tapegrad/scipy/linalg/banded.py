"""Hermitian banded matrices in SciPy's band storage: cholesky_banded cho_solve_banded
eig_banded eigvals_banded.

Each builds the dense Hermitian (or triangular) matrix from the band storage by a fixed
gather (structured_solvers.py's), factors or diagonalizes it, and reads the band back; the
unused corners of ``cholesky_banded``'s storage are the input's, as LAPACK leaves them.
SciPy's own result fixes the eigenvectors' signs (tapegrad.scipy.linalg._reference).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg import _spectral
from tapegrad.linalg._matrix import (
    as_input,
    constant_like,
    describe,
    mH,
)
from tapegrad.linalg.solvers import solve_triangular
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg._reference import _check_finite, _scipy, _select, align_columns, host
from tapegrad.scipy.linalg.basic import _hermitian
from tapegrad.scipy.linalg.structured_solvers import _band_matrix

__all__ = [
    "cho_solve_banded", "cholesky_banded", "eig_banded", "eigvals_banded",
]  # fmt: skip

ArrayLike = Any


# ---------------------------------------------------------------------------------------
# cholesky_banded cho_solve_banded eig_banded eigvals_banded


def _band_input(op: str, ab: Any, check_finite: bool) -> Any:
    ab = as_input(ab)
    if len(shape_of(ab)) != 2:
        raise ValueError(f"{op}: the band storage must be 2-d (u + 1, n), got {describe(ab)}")
    _check_finite(op, check_finite, ab)
    return ab


def _band_rows(depth: int, n: int, lower: bool) -> tuple[np.ndarray, np.ndarray]:
    """For the (n, n) matrix: the band row of each strict-triangle entry read and of the
    diagonal (-1 where none), in SciPy's lower or upper band storage."""
    i, j = np.indices((n, n))
    if lower:
        strict = np.where(i > j, i - j, -1)
        diagonal = np.where(i == j, 0, -1)
    else:
        strict = np.where(i < j, depth - 1 + i - j, -1)
        diagonal = np.where(i == j, depth - 1, -1)
    return strict, diagonal


def _dense_hermitian(ab: Any, lower: bool) -> Any:
    depth, n = shape_of(ab)
    strict, diagonal = _band_rows(depth, n, lower)
    return _hermitian(_band_matrix(ab, strict), _band_matrix(ab, diagonal), True)


def _to_band(dense: Any, ab: Any, lower: bool) -> Any:
    """The band storage of the triangular ``dense``, ``ab``'s own entries in the corners
    the storage does not use."""
    depth, n = shape_of(ab)
    d, j = np.indices((depth, n))
    i = j + d if lower else j - (depth - 1) + d  # the row of a[i, j] stored at ab[d, j]
    used = (i >= 0) & (i < n)
    flat = np.where(used, np.clip(i, 0, n - 1) * n + j, 0)
    read = ops.take(ops.reshape(dense, (-1,)), flat)
    keep = constant_like(used, read) != 0
    return ops.where(keep, read, ab)


@plain_calls_scipy("linalg")
def cholesky_banded(
    ab: ArrayLike, overwrite_ab: bool = False, lower: bool = False, check_finite: bool = True
) -> Tensor:
    """The Cholesky factor of a Hermitian positive definite banded matrix, in the band
    storage it was given in (``lower``: ``L`` with ``a = L Lᴴ``, ``ab[i - j, j] = a[i, j]``;
    upper: ``U`` with ``a = Uᴴ U``, ``ab[u + i - j, j] = a[i, j]``); the storage's unused
    corners are returned as given, as LAPACK leaves them. Differentiable in ``ab``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import cholesky_banded
    >>> cholesky_banded(tg.tensor([[0.0, 2.0], [4.0, 5.0]])).numpy()  # [[4, 2], [2, 5]]
    array([[0., 1.],
           [2., 2.]])
    """
    ab = _band_input("cholesky_banded", ab, check_finite)
    factor = linalg.cholesky(_dense_hermitian(ab, bool(lower)))  # L
    return _to_band(factor if lower else mH(factor), ab, bool(lower))


@plain_calls_scipy("linalg")
def cho_solve_banded(
    cb_and_lower: tuple[ArrayLike, bool],
    b: ArrayLike,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Tensor:
    """Solve ``a x = b`` given ``(cb, lower)`` from :func:`cholesky_banded`; ``b`` ``(n,)``
    or ``(n, k)``. Two triangular solves with the factor read from the band (its unused
    corners get no gradient); differentiable in ``cb`` and ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import cho_solve_banded
    >>> cb = tg.tensor([[0.0, 1.0], [2.0, 2.0]])  # U of [[4, 2], [2, 5]]
    >>> cho_solve_banded((cb, False), [6.0, 7.0]).numpy()
    array([1., 1.])
    """
    cb, lower = cb_and_lower
    cb, b = _band_input("cho_solve_banded", cb, check_finite), as_input(b)
    depth, n = shape_of(cb)
    if len(shape_of(b)) not in (1, 2) or shape_of(b)[0] != n:
        raise ValueError(
            f"cho_solve_banded: shapes of cb {tuple(shape_of(cb))} and b {tuple(shape_of(b))}"
            " are not compatible (b must be (n,) or (n, k))"
        )
    _check_finite("cho_solve_banded", check_finite, b)
    strict, diagonal = _band_rows(depth, n, bool(lower))
    factor = _band_matrix(cb, np.where(diagonal >= 0, diagonal, strict))
    vector = len(shape_of(b)) == 1
    column = ops.expand_dims(b, -1) if vector else b
    if lower:  # L Lᴴ x = b
        x = solve_triangular(factor, solve_triangular(factor, column, True), True, adjoint=True)
    else:  # Uᴴ U x = b
        inner = solve_triangular(factor, column, False, adjoint=True)
        x = solve_triangular(factor, inner, False)
    return ops.squeeze(x, -1) if vector else x


def _eig_banded(
    op: str,
    a_band: Any,
    lower: bool,
    eigvals_only: bool,
    select: Any,
    select_range: Any,
    max_ev: int,
    check_finite: bool,
) -> Any:
    if select not in ("a", "v", "i", 0, 1, 2):
        raise ValueError(f"{op}: invalid argument for select {select!r}")
    ab = _band_input(op, a_band, check_finite)
    reference = _scipy("eig_banded")(
        host(ab), lower=lower, eigvals_only=eigvals_only, select=select,
        select_range=select_range, max_ev=max_ev,
    )  # fmt: skip
    dense = _dense_hermitian(ab, bool(lower))
    by_index = select_range if select in ("i", 2) else None
    by_value = select_range if select in ("v", 1) else None
    if eigvals_only:
        w, v = linalg.eigvalsh(dense), None
    else:
        w, v = linalg.eigh(dense)
    keep = _select(shape_of(ab)[-1], _spectral.host(w), by_index, by_value, op)
    w = ops.take(w, keep, axis=-1)
    if v is None:
        return w
    v, _ = align_columns(ops.take(v, keep, axis=-1), reference[1])
    return w, v


@plain_calls_scipy("linalg")
def eig_banded(
    a_band: ArrayLike,
    lower: bool = False,
    eigvals_only: bool = False,
    overwrite_a_band: bool = False,
    select: str = "a",
    select_range: Any = None,
    max_ev: int = 0,
    check_finite: bool = True,
) -> Any:
    """Eigenvalues (ascending) and eigenvectors of a Hermitian banded matrix in SciPy's
    ``lower`` (or upper) band storage; ``select`` ``"a"`` (all), ``"v"`` (values in
    ``select_range`` ``(lo, hi]``) or ``"i"`` (indices ``[lo, hi]``); ``max_ev`` is SciPy's
    workspace hint for ``"v"``. The dense matrix from the band, diagonalized: differentiable
    in ``a_band`` (distinct eigenvalues for the vectors), SciPy's signs.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eig_banded
    >>> eig_banded(tg.tensor([[0.0, 1.0], [2.0, 2.0]]), eigvals_only=True).numpy()
    array([1., 3.])
    """
    return _eig_banded(
        "eig_banded", a_band, lower, eigvals_only, select, select_range, max_ev, check_finite
    )


@plain_calls_scipy("linalg")
def eigvals_banded(
    a_band: ArrayLike,
    lower: bool = False,
    overwrite_a_band: bool = False,
    select: str = "a",
    select_range: Any = None,
    check_finite: bool = True,
) -> Tensor:
    """The eigenvalues of a Hermitian banded matrix: :func:`eig_banded` with
    ``eigvals_only``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eigvals_banded
    >>> eigvals_banded(tg.tensor([[2.0, 2.0], [1.0, 0.0]]), lower=True).numpy()
    array([1., 3.])
    """
    result: Tensor = _eig_banded(
        "eigvals_banded", a_band, lower, True, select, select_range, 0, check_finite
    )
    return result
