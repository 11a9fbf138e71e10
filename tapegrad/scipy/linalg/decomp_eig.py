"""The general eigenvalue problem: eig eigvals (standard and generalized, left and right
vectors).

Each is composed from tapegrad.linalg's eigendecomposition, SciPy's result fixing the
order and the phases (tapegrad.scipy.linalg._reference):

- ``eig(a, b)``: the eigenpairs of ``solve(b, a)`` (``b`` invertible), unit vectors as
  SciPy normalizes them; left vectors are the right ones of ``aᴴ`` (``(a b⁻¹)ᴴ``). A
  complex eigenvector is defined up to its phase: losses must not depend on it.

The Hermitian problems (``eigh``, ``eigh_tridiagonal``) are in decomp_eigh.py.
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
    is_complex,
    mH,
)
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg._reference import (
    _check_finite,
    _scipy,
    align_columns,
    host,
)

__all__ = ["eig", "eigvals"]

ArrayLike = Any


# ---------------------------------------------------------------------------------------
# eig eigvals


def _order(ours: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """``perm`` with ``ours[perm]`` closest to ``reference`` (one matrix's eigenvalues),
    matched greedily from the nearest pair."""
    distance = np.abs(reference[:, None] - ours[None, :])
    perm = np.empty(len(reference), dtype=np.int64)
    for _ in range(len(reference)):
        i, j = np.unravel_index(np.argmin(distance), distance.shape)
        perm[i] = j
        distance[i, :] = np.inf
        distance[:, j] = np.inf
    return perm


def _eigenpairs(m: Any, w_ref: np.ndarray, v_ref: np.ndarray | None) -> tuple[Any, Any]:
    """``eig(m)`` in the order of ``w_ref`` with the phases of ``v_ref``; SciPy's dtypes."""
    w, v = linalg.eig(m)
    if len(shape_of(m)) != 2:
        raise NotImplementedError("eig: a stack of matrices (with a Tensor)")
    perm = _order(_spectral.host(w), w_ref)
    w = ops.take(w, perm, axis=-1)
    if not is_complex(w):
        w = ops.astype(w, np.complex128 if w_ref.dtype == np.complex128 else w_ref.dtype)
    if v_ref is None:
        return w, None
    v = ops.take(v, perm, axis=-1)
    if is_complex(v) and not np.iscomplexobj(v_ref):
        v = ops.real(v)
    v, _ = align_columns(v, v_ref)
    return w, v


def _eig(
    op: str,
    a: Any,
    b: Any,
    left: bool,
    right: bool,
    check_finite: bool,
    homogeneous_eigvals: bool,
) -> Any:
    a = as_input(a)
    check_matrices(op, a, square=True)
    if b is not None:
        b = as_input(b)
        check_matrices(op, b, square=True)
        if shape_of(b) != shape_of(a):
            raise ValueError(
                f"{op}: a and b must have the same shape, got {tuple(shape_of(a))} and "
                f"{tuple(shape_of(b))}"
            )
        if homogeneous_eigvals:
            raise NotImplementedError(
                f"{op}: homogeneous_eigvals with b (LAPACK's (alpha, beta) are defined up to "
                "a common scale); take the eigenvalues alpha / beta"
            )
    _check_finite(op, check_finite, a, b)
    reference = _scipy("eig")(host(a), None if b is None else host(b), left=left, right=right)
    if not isinstance(reference, tuple):
        reference = (reference,)
    w_ref = reference[0]
    m = a if b is None else linalg.solve(b, a)
    w, vr = _eigenpairs(m, w_ref, reference[-1] if right else None)
    out: list[Any] = [w]
    if left:  # the right eigenvectors of aᴴ, (a b⁻¹)ᴴ for the generalized problem
        mh = mH(a) if b is None else linalg.solve(mH(b), mH(a))
        _, vl = _eigenpairs(mh, np.conj(w_ref), reference[1])
        out.append(vl)
    if right:
        out.append(vr)
    if homogeneous_eigvals:
        out[0] = ops.stack([w, ops.ones_like(w)], axis=0)
    return out[0] if len(out) == 1 else tuple(out)


@plain_calls_scipy("linalg")
def eig(
    a: ArrayLike,
    b: ArrayLike | None = None,
    left: bool = False,
    right: bool = True,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
    homogeneous_eigvals: bool = False,
) -> Any:
    """Eigenvalues ``w`` (complex, as SciPy gives them) and the ``left`` and ``right``
    eigenvectors (columns, unit norm; real when every eigenvalue is) of a square ``a``, or
    of the generalized problem ``a v = w b v`` with an invertible ``b``; ``(w, vl, vr)``,
    ``(w, vr)``, ``(w, vl)`` or ``w`` as SciPy. ``homogeneous_eigvals`` gives ``w`` as
    ``(w, 1)`` rows (for ``b`` None). Differentiable in ``a`` and ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eig
    >>> w, v = eig(tg.tensor([[2.0, 1.0], [0.0, 3.0]]))
    >>> w.numpy()
    array([2.+0.j, 3.+0.j])
    """
    return _eig("eig", a, b, left, right, check_finite, homogeneous_eigvals)


@plain_calls_scipy("linalg")
def eigvals(
    a: ArrayLike,
    b: ArrayLike | None = None,
    overwrite_a: bool = False,
    check_finite: bool = True,
    homogeneous_eigvals: bool = False,
) -> Tensor:
    """The eigenvalues of ``a`` (or of ``a v = w b v``), in SciPy's order: :func:`eig`
    without eigenvectors.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eigvals
    >>> eigvals(tg.tensor([[2.0, 1.0], [0.0, 3.0]])).numpy()
    array([2.+0.j, 3.+0.j])
    """
    result: Tensor = _eig("eigvals", a, b, False, False, check_finite, homogeneous_eigvals)
    return result
