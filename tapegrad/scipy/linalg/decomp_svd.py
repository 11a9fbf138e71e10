"""The singular value decomposition and what SciPy builds on it: svd svdvals polar
null_space orth.

``svd`` is tapegrad.linalg's (its rule in tapegrad/linalg/singular.py) with SciPy's signs:
each pair ``u_i, v_i`` times one constant sign (phase), the extra columns of the complete
factors rotated onto SciPy's basis of the complement (see tapegrad.scipy.linalg.decomp).
``polar``, ``null_space`` and ``orth`` are SciPy's formulas over it, so they differentiate
where the rank they read is constant: ``null_space`` through the complement basis, whose
gradient exists when the loss does not depend on which basis it is (a null space of
dimension 1 has only a sign, held constant).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg import _spectral
from tapegrad.linalg._matrix import as_input, check_matrices, mH
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg._reference import _check_finite, _scipy, align_columns, host

__all__ = ["null_space", "orth", "polar", "svd", "svdvals"]

ArrayLike = Any


def _svd(op: str, a: Any, full_matrices: bool, check_finite: bool, driver: str) -> Any:
    a = as_input(a)
    check_matrices(op, a)
    if len(shape_of(a)) != 2:
        raise NotImplementedError(f"{op}: a stack of matrices (shape {tuple(shape_of(a))})")
    _check_finite(op, check_finite, a)
    u_ref, _, vh_ref = _scipy("svd")(host(a), full_matrices=full_matrices, lapack_driver=driver)
    u, s, vh = linalg.svd(a, full_matrices=full_matrices)
    k = shape_of(s)[-1]
    u, _ = align_columns(u, u_ref, k)
    v, _ = align_columns(mH(vh[:k]), mH(vh_ref[:k]))  # the same phases, up to rounding
    if shape_of(vh)[0] > k:
        v_full, _ = align_columns(mH(vh), mH(vh_ref), k)
        v = ops.concatenate([v, v_full[:, k:]], axis=-1)
    return u, s, mH(v)


@plain_calls_scipy("linalg")
def svd(
    a: ArrayLike,
    full_matrices: bool = True,
    compute_uv: bool = True,
    overwrite_a: bool = False,
    check_finite: bool = True,
    lapack_driver: str = "gesdd",
) -> Any:
    """``(U, s, Vh)`` with ``a = U @ diag(s) @ Vh`` (``s`` descending), SciPy's signs
    included; the complete factors with ``full_matrices`` (their extra columns differentiate
    under a loss that does not depend on their basis), ``s`` alone unless ``compute_uv``.
    Differentiable in ``a``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import svd
    >>> u, s, vh = svd(tg.tensor([[3.0, 0.0], [0.0, -4.0]]))
    >>> s.numpy(), u.numpy()
    (array([4., 3.]), array([[0., 1.],
           [1., 0.]]))
    """
    if lapack_driver not in ("gesdd", "gesvd"):
        raise ValueError(f"svd: lapack_driver must be 'gesdd' or 'gesvd', got {lapack_driver!r}")
    if not compute_uv:
        a = as_input(a)
        check_matrices("svd", a)
        _check_finite("svd", check_finite, a)
        return linalg.svdvals(a)
    return _svd("svd", a, bool(full_matrices), check_finite, lapack_driver)


@plain_calls_scipy("linalg")
def svdvals(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Tensor:
    """The singular values of ``a``, descending; the gradient ``U diag(s̄) Vh`` divides by no
    gap.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import svdvals
    >>> svdvals(tg.tensor([[3.0, 0.0], [0.0, -4.0]])).numpy()
    array([4., 3.])
    """
    a = as_input(a)
    check_matrices("svdvals", a)
    _check_finite("svdvals", check_finite, a)
    return linalg.svdvals(a)


@plain_calls_scipy("linalg")
def polar(a: ArrayLike, side: str = "right") -> tuple[Tensor, Tensor]:
    """The polar decomposition ``a = u p`` (``side="right"``) or ``a = p u`` (``"left"``),
    ``u`` with orthonormal columns (rows), ``p`` Hermitian positive semi-definite, from the
    thin SVD as SciPy builds it; differentiable in ``a`` (of full rank).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import polar
    >>> u, p = polar(tg.tensor([[0.0, 2.0], [3.0, 0.0]]))
    >>> u.numpy(), p.numpy()
    (array([[0., 1.],
           [1., 0.]]), array([[3., 0.],
           [0., 2.]]))
    """
    if side not in ("right", "left"):
        raise ValueError("polar: `side` must be either 'right' or 'left'")
    a = as_input(a)
    if len(shape_of(a)) != 2:
        raise ValueError(f"polar: `a` must be a 2-D array, got shape {tuple(shape_of(a))}")
    w, s, vh = _svd("polar", a, False, True, "gesdd")
    u = w @ vh
    if side == "right":
        p = (mH(vh) * ops.expand_dims(s, -2)) @ vh
    else:
        p = (w * ops.expand_dims(s, -2)) @ mH(w)
    return u, p


def _rank(s: Any, rcond: float | None, size: int) -> int:
    values = _spectral.host(s)
    if rcond is None:
        rcond = float(np.finfo(values.dtype).eps) * size
    tol = np.amax(values, initial=0.0) * rcond
    return int(np.sum(values > tol))


@plain_calls_scipy("linalg")
def null_space(
    A: ArrayLike,  # noqa: N803 - SciPy's name
    rcond: float | None = None,
    *,
    overwrite_a: bool = False,
    check_finite: bool = True,
    lapack_driver: str = "gesdd",
) -> Tensor:
    """An orthonormal basis (columns) of the null space of ``A``: the right singular
    vectors of the singular values ``<= rcond * max(s)`` (``rcond`` defaults to
    ``eps * max(M, N)``), SciPy's basis. Differentiable where the rank is constant, for
    losses that do not depend on the basis chosen (any loss, for a null space of dimension
    1: its sign is held).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import null_space
    >>> abs(null_space(tg.tensor([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])).numpy())
    array([[0.],
           [0.],
           [1.]])
    """
    _, s, vh = _svd("null_space", A, True, check_finite, lapack_driver)
    m, n = shape_of(A)[-2:] if not isinstance(A, list) else np.shape(A)
    num = _rank(s, rcond, max(m, n))
    return mH(vh[num:, :])


@plain_calls_scipy("linalg")
def orth(A: ArrayLike, rcond: float | None = None) -> Tensor:  # noqa: N803 - SciPy's name
    """An orthonormal basis (columns) of the range of ``A``: its left singular vectors of the
    singular values ``> rcond * max(s)``, SciPy's basis with its signs. Differentiable where
    the rank is constant.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import orth
    >>> abs(orth(tg.tensor([[2.0, 0.0], [0.0, 0.0]])).numpy())
    array([[1.],
           [0.]])
    """
    u, s, vh = _svd("orth", A, False, True, "gesdd")
    m, n = shape_of(u)[0], shape_of(vh)[1]
    num = _rank(s, rcond, max(m, n))
    return u[:, :num]
