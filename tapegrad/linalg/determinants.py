"""Determinants: det slogdet, and the adjugate their rules use.

- ``det``: d det(A) = tr(adj(A) dA), so Ā = ḡ · adj(A)ᴴ. The adjugate is computed from the
  SVD A = U S Vᴴ as adj(A) = det(U) det(Vᴴ) V diag(c) Uᴴ with c_i = prod_{j != i} s_j: no
  division by det(A), so a singular matrix gets its true gradient (at rank n-1 a nonzero
  rank-one matrix, at lower rank zero), not the zero or the error of rules through A⁻¹.
- ``adj``'s own derivative (det's second): d adj = (tr(adj dA) adj - adj dA adj) / det, so
  Ā = (conj(tr(Ḡᴴ adj)) adjᴴ - adjᴴ Ḡ adjᴴ) / conj(det): it needs an invertible matrix.
- ``slogdet``: d log|det A| = Re tr(A⁻¹ dA) and, for complex A, the phase moves by
  d arg det A = Im tr(A⁻¹ dA); so Ā = (l̄ + i Im(s̄ conj(sign))) A⁻ᴴ. A real sign is
  piecewise constant: its gradient is 0. At a singular matrix log|det| has no derivative
  (it is -inf there): LinAlgError.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import (
    LinAlgError,
    as_input,
    check_matrices,
    describe,
    is_complex,
    mH,
    pack,
    unpack,
)
from tapegrad.linalg._spectral import host
from tapegrad.linalg.solvers import inv
from tapegrad.ops.primitive import Primitive, shape_of

ArrayLike = Any


def _adjugate_forward(xp: Any, a: Any) -> Any:
    u, s, vh = xp.linalg.svd(a, full_matrices=False)
    n = s.shape[-1]
    eye = xp.eye(n, dtype=xp.bool) if xp is np else xp.eye(n, dtype=xp.bool, device=a.device)
    others = xp.prod(xp.where(eye, xp.ones_like(s)[..., None, :], s[..., None, :]), axis=-1)
    phase = xp.linalg.det(u) * xp.linalg.det(vh)
    v = xp.conj(xp.matrix_transpose(vh))
    return (
        phase[..., None, None]
        * (v * xp.astype(others, v.dtype)[..., None, :])
        @ xp.conj(xp.matrix_transpose(u))
    )


def _adjugate_vjp(g: Any, ans: Any, a: Any) -> Any:
    if shape_of(a)[-1] == 1:  # adj of a 1x1 matrix is 1: no need to divide by det
        return ops.zeros_like(g)
    d = ops.conj(ops.expand_dims(ops.expand_dims(det(a), -1), -1))
    trace = ops.conj(ops.sum(ops.conj(g) * ans, axis=(-2, -1), keepdims=True))
    adj_h = mH(ans)
    return (trace * adj_h - adj_h @ g @ adj_h) / d


_adjugate = Primitive("adjugate", _adjugate_forward, complex_rules=True).defvjp(_adjugate_vjp)


def adjugate(a: ArrayLike) -> Tensor:
    """The adjugate (classical adjoint) ``det(a) inv(a)`` of a square matrix, also where
    ``a`` is singular.

    >>> import tapegrad as tg
    >>> from tapegrad.linalg.determinants import adjugate
    >>> adjugate(tg.tensor([[1.0, 2.0], [2.0, 4.0]])).numpy().round(12)
    array([[ 4., -2.],
           [-2.,  1.]])
    """
    a = as_input(a)
    check_matrices("adjugate", a, square=True)
    return _adjugate._unary(a)


def _det_vjp(g: Any, ans: Any, a: Any) -> Any:
    return ops.expand_dims(ops.expand_dims(g, -1), -1) * mH(adjugate(a))


_det = Primitive(
    "det", lambda xp, a: xp.linalg.det(a), numpy=np.linalg.det, complex_rules=True
).defvjp(_det_vjp)


def det(a: ArrayLike) -> Tensor:
    """The determinant of a square matrix (or of each in a stack), as ``np.linalg.det``.
    Its gradient is the adjugate's conjugate transpose, right also at singular matrices.

    >>> import tapegrad as tg
    >>> a = tg.tensor([[1.0, 2.0], [2.0, 4.0]])  # singular
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(a)
    ...     d = tg.linalg.det(a)
    >>> tape.gradient(d, a).numpy().round(12)
    array([[ 4., -2.],
           [-2.,  1.]])
    """
    a = as_input(a)
    check_matrices("det", a, square=True)
    return _det._unary(a)


class SlogdetResult(NamedTuple):
    """``slogdet``'s result: ``sign`` (of a's dtype) and ``logabsdet`` (real).

    >>> import tapegrad as tg
    >>> sign, logabsdet = tg.linalg.slogdet(tg.tensor([[-2.0, 0.0], [0.0, 1.0]]))
    >>> sign, logabsdet
    (tensor(-1., dtype=float64), tensor(0.69314718, dtype=float64))
    """

    sign: Tensor
    logabsdet: Tensor


def _slogdet_forward(xp: Any, a: Any) -> Any:
    sign, logabsdet = xp.linalg.slogdet(a)
    return pack(xp, tuple(a.shape[:-2]), sign[..., None], logabsdet[..., None])


def _slogdet_vjp(g: Any, ans: Any, a: Any) -> Any:
    sign, _ = unpack(ans, (), ())
    if np.any(host(sign) == 0):
        raise LinAlgError(
            f"slogdet: log|det| of a singular matrix ({describe(a)}) is -inf and has no "
            "gradient (its derivative diverges there)"
        )
    g_sign, g_log = unpack(g, (), ())
    weight = ops.real(g_log)
    if is_complex(ans):  # the phase of det: Im(s̄ conj(sign)) along i tr(A⁻¹ dA)
        weight = weight + 1j * ops.imag(g_sign * ops.conj(sign))
    return ops.expand_dims(ops.expand_dims(weight, -1), -1) * mH(inv(a))


_slogdet = Primitive("slogdet", _slogdet_forward, complex_rules=True).defvjp(_slogdet_vjp)


def slogdet(a: ArrayLike) -> SlogdetResult:
    """``(sign, logabsdet)`` with ``det(a) = sign * exp(logabsdet)``, as
    ``np.linalg.slogdet``: ``sign`` is +-1 (a unit complex number for complex ``a``, which
    has a gradient: the phase of the determinant), or 0 for a singular matrix.

    >>> import tapegrad as tg
    >>> sign, logabsdet = tg.linalg.slogdet(tg.tensor([[0.0, 2.0], [3.0, 0.0]]))
    >>> sign.item(), round(logabsdet.item(), 6)
    (-1.0, 1.791759)
    """
    a = as_input(a)
    check_matrices("slogdet", a, square=True)
    sign, logabsdet = unpack(_slogdet._unary(a), (), ())
    return SlogdetResult(sign, ops.real(logabsdet))
