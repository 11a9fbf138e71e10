"""scipy.linalg's remaining factorizations and helpers: rq, orthogonal_procrustes,
subspace_angles, diagsvd, matmul_toeplitz, cholesky_banded, cho_solve_banded, eig_banded,
eigvals_banded, cdf2rdf, clarkson_woodruff_transform, expm_cond, solve_lyapunov; ldl, qz,
ordqz, cossin, qr_update, qr_insert and qr_delete on plain arrays only.

Each is composed from differentiable pieces, SciPy's own result on the same input fixing
what a factorization leaves free (as tapegrad.scipy.linalg.decomp does):

- ``rq(a)``: the QR factorization of ``(J a)ᴴ`` (``J`` the row reversal), ``(J a)ᴴ = Q' R'``,
  gives ``a = (J R'ᴴ J)(J Q'ᴴ)``; each row of ``Q`` (column of ``R``) then takes SciPy's sign.
- The banded functions build the dense Hermitian (or triangular) matrix from the band
  storage by a fixed gather (basic.py's), factor or diagonalize it, and read the band back;
  the unused corners of ``cholesky_banded``'s storage are the input's, as LAPACK leaves them.
- ``clarkson_woodruff_transform`` is linear in the matrix: its sketch is SciPy's (drawn
  once from ``rng``, as SciPy draws it), applied as a dense product.
- ``expm_cond`` builds SciPy's Kronecker form of the Fréchet derivative from one batched
  ``expm`` of the block matrices ``[[A, E_ij], [0, A]]``.
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
    diag_embed,
    is_complex,
    mH,
    mT,
)
from tapegrad.linalg.solvers import solve_triangular
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg.basic import _band_matrix, _hermitian
from tapegrad.scipy.linalg.decomp import _check_finite, _scipy, _select, align_columns, host
from tapegrad.scipy.linalg.decomp_svd import orth, svdvals
from tapegrad.scipy.linalg.matfuncs import expm, solve_continuous_lyapunov
from tapegrad.scipy.linalg.special_matrices import toeplitz

__all__ = [
    "cdf2rdf", "cho_solve_banded", "cholesky_banded", "clarkson_woodruff_transform",
    "cossin", "diagsvd", "eig_banded", "eigvals_banded", "expm_cond", "ldl",
    "matmul_toeplitz", "ordqz", "orthogonal_procrustes", "qr_delete", "qr_insert",
    "qr_update", "qz", "rq", "solve_lyapunov", "subspace_angles",
]  # fmt: skip

ArrayLike = Any

# SciPy's alias: the same function.
solve_lyapunov = solve_continuous_lyapunov


# ---------------------------------------------------------------------------------------
# rq


@plain_calls_scipy("linalg")
def rq(
    a: ArrayLike,
    overwrite_a: bool = False,
    lwork: int | None = None,
    mode: str = "full",
    check_finite: bool = True,
) -> Any:
    """The RQ factorization ``a = R Q`` of an (M, N) matrix: ``R`` upper trapezoidal
    (``triu(R, N - M)``), ``Q`` orthogonal (unitary); ``mode`` ``"full"`` (``R`` (M, N),
    ``Q`` (N, N)), ``"economic"`` (``R`` (M, K), ``Q`` (K, N)), ``"r"`` (``R`` alone, not
    a tuple, as SciPy). SciPy's signs; differentiable in ``a`` (of full row or column rank;
    the complement rows of a full ``Q`` differentiate for losses that do not depend on
    their basis). ``lwork`` is LAPACK's workspace, passed to SciPy.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import rq
    >>> r, q = rq(tg.tensor([[3.0, 4.0], [0.0, 5.0]]))
    >>> (r @ q).numpy().round(12)
    array([[3., 4.],
           [0., 5.]])
    """
    if mode not in ("full", "r", "economic"):
        raise ValueError("rq: Mode argument should be one of ['full', 'r', 'economic']")
    a = as_input(a)
    if len(shape_of(a)) != 2:
        raise NotImplementedError(
            f"rq: a must be one matrix (M, N) on Tensors, got {describe(a)} (SciPy batches "
            "plain arrays)"
        )
    _check_finite("rq", check_finite, a)
    reference = _scipy("rq")(host(a), lwork=lwork, mode=mode)
    m, n = shape_of(a)
    k = min(m, n)
    flipped = mH(ops.flip(a, axis=0))  # (N, M) = Q' R'
    if mode == "r":
        _, rf = linalg.qr(flipped, mode="reduced")  # (K, M)
        r = mH(ops.flip(rf, axis=(0, 1)))  # (M, K): the last K columns of R
        if n > k:
            r = ops.concatenate([constant_like(np.zeros((m, n - k)), r), r], axis=1)
        column = _phases_of_columns(_spectral.host(r), reference)
        return r * constant_like(column[None, :], r)
    full = mode == "full" or n < m
    qf, rf = linalg.qr(flipped, mode="complete" if full else "reduced")
    q_ref = reference[1]  # rows: reversed columns of Q'ᴴ
    qf, p = align_columns(qf, mH(np.flip(q_ref, axis=0)), k)
    rf_top = rf[:k] * constant_like(np.conj(p)[:, None], rf)
    rf = ops.concatenate([rf_top, rf[k:]], axis=0) if shape_of(rf)[0] > k else rf_top
    r = mH(ops.flip(rf, axis=(0, 1)))
    if not full:  # economic with M <= N: R (M, M), Q (M, N)
        r = r[:, -m:]
    q = ops.flip(mH(qf), axis=0)
    return r, q


def _phases_of_columns(ours: np.ndarray, reference: np.ndarray) -> np.ndarray:
    inner = np.sum(np.conj(ours) * reference, axis=0)
    if not np.iscomplexobj(inner):
        return np.where(inner < 0, -1.0, 1.0)
    size = np.abs(inner)
    return np.where(size > 0, inner / np.where(size > 0, size, 1.0), 1.0)


# ---------------------------------------------------------------------------------------
# orthogonal_procrustes subspace_angles diagsvd matmul_toeplitz


@plain_calls_scipy("linalg")
def orthogonal_procrustes(
    A: ArrayLike,  # noqa: N803 - SciPy's names
    B: ArrayLike,  # noqa: N803
    check_finite: bool = True,
) -> tuple[Tensor, Tensor]:
    """``(R, scale)``: the orthogonal (unitary) ``R`` minimizing ``||A R - B||_F``, SciPy's
    ``U Vᴴ`` of the SVD ``Aᴴ B = U Σ Vᴴ``, and ``scale = sum(Σ)``. ``U Vᴴ`` does not depend
    on the singular vectors' signs: differentiable in ``A`` and ``B`` where ``Aᴴ B`` has
    full rank and distinct singular values.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import orthogonal_procrustes
    >>> r, scale = orthogonal_procrustes(tg.tensor([[1.0, 0.0], [0.0, 1.0]]),
    ...                                  tg.tensor([[0.0, 2.0], [-1.0, 0.0]]))
    >>> r.numpy().round(12), scale.item()
    (array([[ 0.,  1.],
           [-1.,  0.]]), 3.0)
    """
    a, b = as_input(A), as_input(B)
    if len(shape_of(a)) != 2:
        raise ValueError(f"orthogonal_procrustes: expected ndim to be 2, got {describe(a)}")
    if shape_of(a) != shape_of(b):
        raise ValueError(
            f"orthogonal_procrustes: the shapes of A and B differ ({tuple(shape_of(a))} vs "
            f"{tuple(shape_of(b))})"
        )
    _check_finite("orthogonal_procrustes", check_finite, a, b)
    u, s, vh = linalg.svd(mH(a) @ b, full_matrices=False)
    return u @ vh, ops.sum(s)


@plain_calls_scipy("linalg")
def subspace_angles(A: ArrayLike, B: ArrayLike) -> Tensor:  # noqa: N803 - SciPy's names
    """The principal angles between the column spaces of ``A`` and ``B`` (radians,
    descending), by SciPy's algorithm (Knyazev and Argentati): cosines from the singular
    values of ``orth(A)ᴴ orth(B)``, sines (for the angles below 45°) from those of the
    residual. Differentiable in ``A`` and ``B`` away from repeated and zero angles (where
    the ranks are constant).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import subspace_angles
    >>> a = tg.tensor([[1.0], [0.0]])
    >>> subspace_angles(a, tg.tensor([[1.0], [1.0]])).numpy().round(6)  # pi / 4
    array([0.785398])
    """
    a, b = as_input(A), as_input(B)
    for name, x in (("A", a), ("B", b)):
        if len(shape_of(x)) != 2:
            raise ValueError(f"subspace_angles: expected 2D array, got {name} of {describe(x)}")
    if shape_of(a)[0] != shape_of(b)[0]:
        raise ValueError(
            "subspace_angles: A and B must have the same number of rows, got "
            f"{shape_of(a)[0]} and {shape_of(b)[0]}"
        )
    _check_finite("subspace_angles", True, a, b)
    qa, qb = orth(a), orth(b)
    cross = mH(qa) @ qb
    sigma = svdvals(cross)
    if shape_of(qa)[1] >= shape_of(qb)[1]:
        residual = qb - qa @ cross
    else:
        residual = qa - qb @ mH(cross)
    values = _spectral.host(sigma)
    mask = values**2 >= 0.5
    cosines = ops.arccos(ops.clip(ops.flip(sigma, axis=0), -1.0, 1.0))
    if not mask.any():
        return cosines
    sines = ops.arcsin(ops.clip(svdvals(residual), -1.0, 1.0))
    return ops.where(constant_like(mask, sigma) != 0, sines, cosines)


@plain_calls_scipy("linalg")
def diagsvd(s: ArrayLike, M: int, N: int) -> Tensor:  # noqa: N803 - SciPy's names
    """The (M, N) matrix with ``s`` on its diagonal (``len(s)`` must be M or N), the ``Σ``
    of an SVD; batched over ``s``'s leading axes. Differentiable in ``s``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import diagsvd
    >>> diagsvd(tg.tensor([1.0, 2.0]), 2, 3).numpy()
    array([[1., 0., 0.],
           [0., 2., 0.]])
    """
    s = as_input(s)
    if len(shape_of(s)) == 0:
        raise ValueError(f"diagsvd: s must have at least one axis, got {describe(s)}")
    k = shape_of(s)[-1]
    part = diag_embed(s)
    batch = [(0, 0)] * (len(shape_of(s)) - 1)
    if k == M:
        return ops.pad(part, [*batch, (0, 0), (0, N - M)])
    if k == N:
        return ops.pad(part, [*batch, (0, M - N), (0, 0)])
    raise ValueError("Length of s must be M or N.")


@plain_calls_scipy("linalg")
def matmul_toeplitz(
    c_or_cr: Any, x: ArrayLike, check_finite: bool = False, workers: int | None = None
) -> Tensor:
    """``toeplitz(c, r) @ x`` (``c_or_cr`` is ``c`` or ``(c, r)``; ``r`` defaults to
    ``conj(c)``), ``x`` ``(m,)`` or ``(m, k)``: SciPy's FFT product, here the dense
    Toeplitz matrix (a fixed gather) times ``x``, the same values to rounding.
    Differentiable in ``c``, ``r`` and ``x``; ``workers`` (SciPy's FFT threads) changes
    nothing.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import matmul_toeplitz
    >>> matmul_toeplitz(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 1.0])).numpy()
    array([3., 3.])
    """
    if isinstance(c_or_cr, tuple):
        c, r = as_input(c_or_cr[0]), as_input(c_or_cr[1])
    else:
        c = as_input(c_or_cr)
        r = ops.conj(c)
    x = as_input(x)
    if check_finite:
        _check_finite("matmul_toeplitz", True, c, r, x)
    c, r = ops.ravel(c), ops.ravel(r)
    m = shape_of(r)[0]
    if len(shape_of(x)) not in (1, 2) or shape_of(x)[0] != m:
        raise ValueError(
            f"matmul_toeplitz: x must be (m,) or (m, k) with r's length m = {m}, got {describe(x)}"
        )
    dtype = np.result_type(*(host(v).dtype for v in (c, r, x)), np.float64)
    c, r, x = (ops.astype(v, dtype) for v in (c, r, x))
    return toeplitz(c, r) @ x


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


# ---------------------------------------------------------------------------------------
# cdf2rdf clarkson_woodruff_transform expm_cond


@plain_calls_scipy("linalg")
def cdf2rdf(w: ArrayLike, v: ArrayLike) -> tuple[Tensor, Tensor]:
    """The real block-diagonal form ``wr`` of eigenvalues ``w`` (complex-conjugate pairs
    adjacent, as ``eig`` gives them) and the real eigenvectors ``vr = Re(v U)``, as SciPy;
    batched. Differentiable in ``w`` and ``v`` (which entries are complex is read from the
    values).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import cdf2rdf
    >>> wr, vr = cdf2rdf(tg.tensor([1 + 2j, 1 - 2j]), tg.tensor([[1 + 0j, 1], [1j, -1j]]))
    >>> wr.numpy()
    array([[ 1.,  2.],
           [-2.,  1.]])
    """
    w, v = as_input(w), as_input(v)
    sw, sv = tuple(shape_of(w)), tuple(shape_of(v))
    if len(sw) < 1 or len(sv) != len(sw) + 1 or sv[-1] != sv[-2] or sv[-1] != sw[-1]:
        raise ValueError(
            f"cdf2rdf: expected w (..., n) and v (..., n, n), got shapes {sw} and {sv}"
        )
    _check_finite("cdf2rdf", True, w, v)
    values = host(w)
    complex_mask = np.iscomplex(values)
    if not (complex_mask.sum(axis=-1) % 2 == 0).all():
        raise ValueError("cdf2rdf: expected complex-conjugate pairs of eigenvalues")
    n = sw[-1]
    idx = np.nonzero(complex_mask)
    stack, elem = idx[:-1], idx[-1]
    j, k = elem[0::2], elem[1::2]
    stack_ind = tuple(i[0::2] for i in stack)
    # wr: Re(w) on the diagonal, Im(w_j) at (j, k), Im(w_k) at (k, j); a fixed gather
    real, imag = ops.real(w), ops.imag(w) if is_complex(w) else ops.zeros_like(w)
    diagonal = diag_embed(real)
    pick_jk = np.zeros(sw[:-1] + (n, n, n))
    pick_jk[stack_ind + (j, k, j)] = 1.0
    pick_jk[stack_ind + (k, j, k)] = 1.0
    wr = diagonal + ops.sum(constant_like(pick_jk, real) * ops.expand_dims(imag, (-3, -2)), -1)
    u = np.zeros(sw[:-1] + (n, n), dtype=np.complex128)
    u[..., range(n), range(n)] = 1.0
    u[stack_ind + (j, j)] = 0.5j
    u[stack_ind + (j, k)] = 0.5
    u[stack_ind + (k, j)] = -0.5j
    u[stack_ind + (k, k)] = 0.5
    vr = ops.real(ops.astype(v, np.complex128) @ constant_like(u, v))
    return wr, vr


@plain_calls_scipy("linalg")
def clarkson_woodruff_transform(
    input_matrix: ArrayLike, sketch_size: int, rng: Any = None, *, seed: Any = None
) -> Tensor:
    """The Clarkson-Woodruff sketch ``S @ input_matrix``, ``S`` (``sketch_size``, n)
    SciPy's sparse sign matrix drawn from ``rng`` (or the legacy ``seed``), drawn once, as
    SciPy draws it, and applied densely: linear, so differentiable in the matrix.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import clarkson_woodruff_transform
    >>> clarkson_woodruff_transform(tg.ones((4, 2)), 2, rng=0).shape
    (2, 2)
    """
    a = as_input(input_matrix)
    if len(shape_of(a)) != 2:
        raise ValueError(
            f"clarkson_woodruff_transform: input_matrix must be 2-d on Tensors, got {describe(a)}"
        )
    n = shape_of(a)[0]
    dtype = host(a).dtype
    keywords = {"rng": rng} if seed is None else {"seed": seed}
    sketch = _scipy("clarkson_woodruff_transform")(np.eye(n, dtype=dtype), sketch_size, **keywords)
    return constant_like(np.asarray(sketch), a) @ a


@plain_calls_scipy("linalg")
def expm_cond(A: ArrayLike, check_finite: bool = True) -> Tensor:  # noqa: N803 - SciPy's name
    """The relative condition number of the matrix exponential in the Frobenius norm,
    ``||K||_2 ||A||_F / ||expm(A)||_F`` with ``K`` the Kronecker form of its Fréchet
    derivative (SciPy's definition): ``K`` from one batched ``expm`` of the blocks
    ``[[A, E_ij], [0, A]]``. Differentiable in ``A`` where ``K``'s largest singular value
    is simple.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import expm_cond
    >>> round(expm_cond(tg.tensor([[1.0, 0.0], [0.0, 1.0]])).item(), 12)
    1.0
    """
    a = as_input(A)
    shape = tuple(shape_of(a))
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"expm_cond: expected a square matrix, got {describe(a)}")
    _check_finite("expm_cond", check_finite, a)
    n = shape[0]
    basis = np.eye(n * n).reshape(n * n, n, n)  # E_ij = outer(e_i, e_j), row-major order
    stacked = ops.broadcast_to(a, (n * n, n, n))
    zeros = ops.zeros_like(stacked)
    top = ops.concatenate([stacked, constant_like(basis, a)], axis=-1)
    block = ops.concatenate([top, ops.concatenate([zeros, stacked], axis=-1)], axis=-2)
    frechet = expm(block)[:, :n, n:]  # L(A, E_ij)
    columns = ops.reshape(mT(frechet), (n * n, n * n))  # row (ij): vec(L(A, E_ij)), by column
    k_norm = linalg.matrix_norm(columns, ord=2)
    return k_norm * linalg.norm(a) / linalg.norm(expm(a))


# ---------------------------------------------------------------------------------------
# On plain arrays only


def _plain_only(op: str, why: str) -> NotImplementedError:
    return NotImplementedError(
        f"{op}: no gradient on Tensors ({why}); call it on NumPy arrays (SciPy's own), or "
        "stop the gradient"
    )


@plain_calls_scipy("linalg")
def ldl(
    A: ArrayLike,  # noqa: N803 - SciPy's name
    lower: bool = True,
    hermitian: bool = True,
    overwrite_a: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's Bunch-Kaufman ``LDLᵀ`` on plain arrays; a Tensor raises NotImplementedError
    (its 1x1/2x2 pivot blocks have no rule yet, for any ``lower`` or ``hermitian``).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import ldl
    >>> ldl(np.array([[2.0, 1.0], [1.0, 2.0]]))[1]
    array([[2. , 0. ],
           [0. , 1.5]])
    """
    raise _plain_only("ldl", "Bunch-Kaufman pivot blocks; lower, hermitian")


@plain_calls_scipy("linalg")
def qz(
    A: ArrayLike,  # noqa: N803 - SciPy's names
    B: ArrayLike,  # noqa: N803
    output: str = "real",
    lwork: int | None = None,
    sort: Any = None,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's generalized Schur (QZ) decomposition on plain arrays; a Tensor raises
    NotImplementedError (for any ``output``, ``lwork`` or ``sort``).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import qz
    >>> len(qz(np.eye(2), np.eye(2)))
    4
    """
    raise _plain_only("qz", "no rule for the generalized Schur form yet")


@plain_calls_scipy("linalg")
def ordqz(
    A: ArrayLike,  # noqa: N803 - SciPy's names
    B: ArrayLike,  # noqa: N803
    sort: Any = "lhp",
    output: str = "real",
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's reordered QZ decomposition on plain arrays; a Tensor raises
    NotImplementedError.

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import ordqz
    >>> len(ordqz(np.eye(2), np.eye(2)))
    6
    """
    raise _plain_only("ordqz", "no rule for the generalized Schur form yet")


@plain_calls_scipy("linalg")
def cossin(
    X: ArrayLike,  # noqa: N803 - SciPy's name
    p: int | None = None,
    q: int | None = None,
    separate: bool = False,
    swap_sign: bool = False,
    compute_u: bool = True,
    compute_vh: bool = True,
) -> Any:
    """SciPy's cosine-sine decomposition of a unitary matrix on plain arrays; a Tensor
    raises NotImplementedError.

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import cossin
    >>> len(cossin(np.eye(2), p=1, q=1))
    3
    """
    raise _plain_only("cossin", "no rule for the CS decomposition yet")


@plain_calls_scipy("linalg")
def qr_update(
    Q: ArrayLike,  # noqa: N803 - SciPy's names
    R: ArrayLike,  # noqa: N803
    u: ArrayLike,
    v: ArrayLike,
    overwrite_qruv: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's rank-k QR update on plain arrays; a Tensor raises NotImplementedError
    (differentiate :func:`qr` of the updated matrix instead).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import qr_update
    >>> q, r = qr_update(np.eye(2), np.eye(2), np.ones(2), np.zeros(2))
    >>> r.round(12)
    array([[ 1., -0.],
           [ 0.,  1.]])
    """
    raise _plain_only("qr_update", "differentiate qr of the updated matrix")


@plain_calls_scipy("linalg")
def qr_insert(
    Q: ArrayLike,  # noqa: N803 - SciPy's names
    R: ArrayLike,  # noqa: N803
    u: ArrayLike,
    k: int,
    which: str = "row",
    rcond: float | None = None,
    overwrite_qru: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's QR row/column insertion on plain arrays; a Tensor raises
    NotImplementedError (differentiate :func:`qr` of the new matrix instead).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import qr_insert
    >>> qr_insert(np.eye(2), np.eye(2), np.ones(2), 0)[0].shape
    (3, 3)
    """
    raise _plain_only("qr_insert", "differentiate qr of the new matrix")


@plain_calls_scipy("linalg")
def qr_delete(
    Q: ArrayLike,  # noqa: N803 - SciPy's names
    R: ArrayLike,  # noqa: N803
    k: int,
    p: int = 1,
    which: str = "row",
    overwrite_qr: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's QR row/column deletion on plain arrays; a Tensor raises
    NotImplementedError (differentiate :func:`qr` of the new matrix instead).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import qr_delete
    >>> qr_delete(np.eye(3), np.eye(3), 0)[0].shape
    (2, 2)
    """
    raise _plain_only("qr_delete", "differentiate qr of the new matrix")
