"""The QR factorization: qr (pivoting too), SciPy's signs on tapegrad.linalg's qr
(tapegrad.scipy.linalg._reference); schur hessenberg rsf2csf qr_multiply on plain arrays
only.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.linalg import _spectral
from tapegrad.linalg._matrix import (
    as_input,
    check_matrices,
    constant_like,
    mH,
)
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg._reference import _check_finite, _scipy, align_columns, host, phases

__all__ = [
    "hessenberg", "qr", "qr_multiply", "rsf2csf", "schur",
]  # fmt: skip

ArrayLike = Any


# ---------------------------------------------------------------------------------------
# qr

_QR_MODES = ("full", "r", "economic", "raw")


@plain_calls_scipy("linalg")
def qr(
    a: ArrayLike,
    overwrite_a: bool = False,
    lwork: int | None = None,
    mode: str = "full",
    pivoting: bool = False,
    check_finite: bool = True,
) -> Any:
    """The QR factorization ``a = Q R`` (``a[:, P] = Q R`` with ``pivoting``): ``mode``
    ``"full"`` (Q square), ``"economic"`` (Q of shape (M, K)), ``"r"`` (``(R,)``) with
    SciPy's signs; ``(Q, R)``, ``(R,)``, and ``P`` (int32, no gradient) appended with
    ``pivoting``. Differentiable in ``a`` (of full column rank, the permutation held
    constant); ``"raw"`` has no gradient (NotImplementedError with a Tensor). ``lwork`` is
    LAPACK's workspace, passed to SciPy.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import qr
    >>> q, r = qr(tg.tensor([[3.0, 1.0], [4.0, 2.0]]))
    >>> r.numpy().round(6)
    array([[-5. , -2.2],
           [ 0. ,  0.4]])
    """
    if mode not in _QR_MODES:
        raise ValueError(f"qr: mode must be one of {_QR_MODES}, got {mode!r}")
    if mode == "raw":
        raise NotImplementedError(
            "qr: mode='raw' (LAPACK's Householder reflectors) has no gradient; use "
            "mode='full' or 'economic', or call it on a NumPy array"
        )
    a = as_input(a)
    check_matrices("qr", a)
    if len(shape_of(a)) != 2:
        raise NotImplementedError(f"qr: a stack of matrices (shape {tuple(shape_of(a))})")
    _check_finite("qr", check_finite, a)
    reference = _scipy("qr")(host(a), lwork=lwork, mode=mode, pivoting=pivoting)
    m, n = shape_of(a)
    k = min(m, n)
    if pivoting:
        perm = reference[-1]
        a = ops.take(a, perm.astype(np.int64), axis=-1)
    q, r = linalg.qr(a, mode="complete" if mode == "full" else "reduced")
    if mode == "r":
        r_ref = reference[0]
        row = phases(_spectral.host(mH(r)), mH(r_ref[:k]))  # R_ref = conj(p) R
        r = r * constant_like(row[:, None], r)
        if m > n:  # SciPy's R is (M, N): zero rows below
            r = ops.concatenate([r, constant_like(np.zeros((m - k, n)), r)], axis=0)
        out: list[Any] = [r]
    else:
        q, p = align_columns(q, reference[0], k)
        r_top = r[:k] * constant_like(np.conj(p)[:, None], r)
        r = ops.concatenate([r_top, r[k:]], axis=0) if shape_of(r)[0] > k else r_top
        out = [q, r]
    if pivoting:
        out.append(reference[-1])
    return tuple(out)


# ---------------------------------------------------------------------------------------
# On plain arrays only


def _plain_only(op: str, keywords: str) -> NotImplementedError:
    return NotImplementedError(
        f"{op}({keywords}): no gradient rule; call it on NumPy arrays (SciPy's own), or "
        "stop the gradient"
    )


@plain_calls_scipy("linalg")
def schur(
    a: ArrayLike,
    output: str = "real",
    lwork: int | None = None,
    overwrite_a: bool = False,
    sort: Any = None,
    check_finite: bool = True,
) -> Any:
    """The Schur decomposition, SciPy's own on plain arrays; a Tensor raises
    NotImplementedError (no rule yet, for any ``output``, ``lwork`` or ``sort``).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import schur
    >>> t, z = schur(np.array([[2.0, 0.0], [0.0, 3.0]]))
    >>> np.diag(t)
    array([2., 3.])
    """
    raise _plain_only("schur", "output, lwork, sort")


@plain_calls_scipy("linalg")
def hessenberg(
    a: ArrayLike, calc_q: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> Any:
    """The Hessenberg form, SciPy's own on plain arrays; a Tensor raises
    NotImplementedError (for any ``calc_q``).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import hessenberg
    >>> hessenberg(np.array([[2.0, 1.0], [1.0, 3.0]]))
    array([[2., 1.],
           [1., 3.]])
    """
    raise _plain_only("hessenberg", "calc_q")


@plain_calls_scipy("linalg")
def rsf2csf(T: ArrayLike, Z: ArrayLike, check_finite: bool = True) -> Any:  # noqa: N803
    """The complex Schur form of a real one, SciPy's own on plain arrays; a Tensor raises
    NotImplementedError.

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import rsf2csf
    >>> t, z = rsf2csf(np.array([[2.0, 1.0], [0.0, 3.0]]), np.eye(2))
    >>> t.real
    array([[2., 1.],
           [0., 3.]])
    """
    raise _plain_only("rsf2csf", "T, Z")


@plain_calls_scipy("linalg")
def qr_multiply(
    a: ArrayLike,
    c: ArrayLike,
    mode: str = "right",
    pivoting: bool = False,
    conjugate: bool = False,
    overwrite_a: bool = False,
    overwrite_c: bool = False,
) -> Any:
    """``Q @ c`` (or ``c @ Q``) from ``qr(a)``, SciPy's own on plain arrays; a Tensor raises
    NotImplementedError (for any ``mode``, ``pivoting`` or ``conjugate``): compose
    :func:`qr` and a product instead.

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import qr_multiply
    >>> qr_multiply(np.eye(2), np.ones((2, 2)))[0].shape
    (2, 2)
    """
    raise _plain_only("qr_multiply", "mode, pivoting, conjugate")
