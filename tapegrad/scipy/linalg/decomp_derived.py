"""Decompositions derived from QR, the SVD and eig: rq, orthogonal_procrustes,
subspace_angles, cdf2rdf.

Each is composed from differentiable pieces, SciPy's own result on the same input fixing
what a factorization leaves free (tapegrad.scipy.linalg._reference):

- ``rq(a)``: the QR factorization of ``(J a)ᴴ`` (``J`` the row reversal), ``(J a)ᴴ = Q' R'``,
  gives ``a = (J R'ᴴ J)(J Q'ᴴ)``; each row of ``Q`` (column of ``R``) then takes SciPy's sign.
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
)
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg._reference import _check_finite, _scipy, align_columns, host
from tapegrad.scipy.linalg.decomp_svd import orth, svdvals

__all__ = [
    "cdf2rdf", "orthogonal_procrustes", "rq", "subspace_angles",
]  # fmt: skip

ArrayLike = Any


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
