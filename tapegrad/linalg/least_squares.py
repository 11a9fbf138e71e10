"""The pseudo-inverse and least squares: pinv lstsq.

With X = A⁺, the derivative along perturbations that keep the rank (Golub and Pereyra,
1973) is dX = -X dA X + X Xᴴ dAᴴ (I - A X) + (I - X A) dAᴴ Xᴴ X, whose adjoint is

    Ā = -Xᴴ X̄ Xᴴ + (I - A X) X̄ᴴ X Xᴴ + Xᴴ X X̄ᴴ (I - X A).

It is exact at full rank. At a rank-deficient matrix A⁺ jumps under perturbations that
raise the rank, so no gradient exists in the usual sense; this one is that of the
constant-rank pseudo-inverse (PyTorch's and JAX's choice too). A cutoff (``rcond``,
``rtol``) that drops singular values that are not 0 makes A⁺ the inverse of a truncation
of A, not of A: the gradient then goes through svd's rule (the gaps between kept and
dropped singular values). ``lstsq``'s solution is A⁺ b with lstsq's cutoff: b̄ = Xᴴ x̄,
and A takes pinv's rule with X̄ = x̄ bᴴ.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.linalg import _spectral
from tapegrad.linalg._matrix import (
    LinAlgError,
    as_input,
    check_matrices,
    describe,
    diagonal,
    eps,
    eye_like,
    hermitian_from_lower,
    hermitian_read,
    mH,
    real_dtype,
    triangle,
    unpack,
)
from tapegrad.linalg.norms import matrix_rank
from tapegrad.linalg.singular import _cores as _svd_cores
from tapegrad.linalg.singular import _svd, _svd_vjp, svdvals
from tapegrad.ops.primitive import Primitive, raw, shape_of, unbroadcast

ArrayLike = Any
_NOT_GIVEN = object()


def _pinv_forward(xp: Any, a: Any, rcond: float, hermitian: bool) -> Any:
    if xp is np:
        return np.linalg.pinv(a, rcond=rcond, hermitian=hermitian)
    if hermitian:  # NumPy's hermitian route reads the lower triangle only (eigh)
        a = hermitian_from_lower(xp, a)
    return xp.linalg.pinv(a, rtol=rcond)


def _pinv_adjoint(g: Any, x: Any, a: Any) -> Any:
    """Ā for X = A⁺ and the cotangent X̄ = g (see the module's docstring)."""
    xh, gh = mH(x), mH(g)
    ax, xa = a @ x, x @ a
    left, right = eye_like(ax) - ax, eye_like(xa) - xa  # I - A X (m, m), I - X A (n, n)
    return -(xh @ g @ xh) + left @ gh @ (x @ xh) + (xh @ x) @ gh @ right


def _kept(a: Any, rcond: Any) -> tuple[np.ndarray, bool]:
    """The singular values of ``a`` that the cutoff keeps (a host mask, ..., k), and
    whether it drops one that is not 0 to rounding."""
    s = np.linalg.svd(_spectral.host(a), compute_uv=False)
    cutoff = np.asarray(rcond)[..., None] * np.max(s, axis=-1, keepdims=True, initial=0.0)
    kept = s > cutoff
    zero = _spectral.tolerance(s, float(np.finfo(s.dtype).eps))[..., None]
    return kept, bool(np.any(~kept & (s > zero)))


def _truncated_adjoint(g: Any, a: Any, kept: np.ndarray) -> Any:
    """Ā for X = V diag(d) Uᴴ, d = 1/s on the kept singular values and 0 on the others:
    the pseudo-inverse whose cutoff drops singular values that are not 0. The
    constant-rank rule does not hold there (A is not the rank-k matrix X inverts), so the
    cotangents of U, S and Vh go through svd's rule (which divides by the gaps between
    kept and dropped singular values)."""
    m, n = shape_of(a)[-2:]
    cores = _svd_cores(shape_of(a), False)
    packed = _svd(a, full_matrices=False)
    u, s, vh = unpack(packed, *cores)
    v, d = mH(vh), _spectral.reciprocal(ops.real(s), ~kept)
    gu = mH(g) @ (v * ops.expand_dims(d, -2))  # X = V D Uᴴ: Ū = X̄ᴴ V D, V̄ = X̄ U D
    gv = g @ (u * ops.expand_dims(d, -2))
    gd = ops.real(diagonal(mH(v) @ g @ u))
    gs = -gd * d * d  # d = 1/s
    batch = tuple(shape_of(a)[:-2])
    k = min(m, n)
    dtype = backend.dtype_name(raw(packed).dtype)
    flat = [
        ops.reshape(ops.astype(part, dtype), (*batch, size))
        for part, size in ((gu, m * k), (gs, k), (mH(gv), k * n))
    ]
    return _svd_vjp(ops.concatenate(flat, axis=-1), packed, a, False)


def _pinv_vjp(g: Any, ans: Any, a: Any, rcond: float, hermitian: bool) -> Any:
    matrix = a
    if hermitian:
        # ``hermitian`` reads the lower triangle of a only: ans is the pseudo-inverse of
        # the Hermitian matrix L + Lᴴ (L the lower triangle, its diagonal halved), and the
        # gradient lands on that triangle
        lower = triangle(a, True, diagonal=0.5)
        matrix = lower + mH(lower)
    kept, truncated = _kept(matrix, rcond)
    if truncated:
        grad = _truncated_adjoint(g, matrix, kept)
    else:
        grad = _pinv_adjoint(g, ans, matrix)
    return hermitian_read(grad) if hermitian else grad


_pinv = Primitive("pinv", _pinv_forward, complex_rules=True).defvjp(_pinv_vjp)


def pinv(
    a: ArrayLike, rcond: Any = None, hermitian: bool = False, *, rtol: Any = _NOT_GIVEN
) -> Tensor:
    """The Moore-Penrose pseudo-inverse, as ``np.linalg.pinv``: singular values below
    ``rcond`` (or ``rtol``) times the largest count as zero (default 1e-15; ``rtol=None``:
    ``max(M, N) eps``). Its gradient is exact at full rank and, at lower rank, that of the
    pseudo-inverse of constant rank (docs/linalg.md).

    >>> import tapegrad as tg
    >>> tg.linalg.pinv(tg.tensor([[2.0, 0.0], [0.0, 0.0]])).numpy()
    array([[0.5, 0. ],
           [0. , 0. ]])
    """
    a = as_input(a)
    check_matrices("pinv", a)
    if rcond is None:
        if rtol is _NOT_GIVEN:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(shape_of(a)[-2:]) * eps(a)
        else:
            rcond = rtol
    elif rtol is not _NOT_GIVEN:
        raise ValueError("pinv: rtol and rcond cannot both be set")
    rcond = float(rcond) if np.ndim(raw(rcond)) == 0 else rcond
    return _pinv(a, rcond=rcond, hermitian=bool(hermitian))


def _lstsq_forward(xp: Any, a: Any, b: Any, rcond: float) -> Any:
    solver = getattr(xp.linalg, "lstsq", None)
    if solver is None:  # the array API standard has no lstsq: the same solution, A⁺ b
        return xp.linalg.pinv(a, rtol=rcond) @ b
    return solver(a, b, rcond=rcond)[0]


def _lstsq_a(g: Any, ans: Any, a: Any, b: Any, rcond: float) -> Any:
    # pinv's rule, the truncated one too when rcond drops singular values that are not 0
    return _pinv_vjp(g @ mH(b), _pinv(a, rcond=rcond, hermitian=False), a, rcond, False)


def _lstsq_b(g: Any, ans: Any, a: Any, b: Any, rcond: float) -> Any:
    return unbroadcast(mH(_pinv(a, rcond=rcond, hermitian=False)) @ g, shape_of(b))


_lstsq = Primitive("lstsq", _lstsq_forward, complex_rules=True).defvjp(_lstsq_a, _lstsq_b)


def lstsq(a: ArrayLike, b: ArrayLike, rcond: float | None = None) -> tuple[Any, Any, int, Any]:
    """``(x, residuals, rank, s)``: the least-squares solution of ``a @ x = b`` (the
    minimum-norm one when ``a`` is rank-deficient), as ``np.linalg.lstsq`` (2-d ``a``,
    ``b`` of shape (M,) or (M, K)). ``x``, ``residuals`` (the squared residual norms when
    ``rank == N < M``, else empty) and the singular values ``s`` are differentiable.

    >>> import tapegrad as tg
    >>> a = tg.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> x, residuals, rank, s = tg.linalg.lstsq(a, [1.0, 1.0, 3.0])
    >>> x.numpy().round(6), residuals.numpy().round(6), int(rank)
    (array([1.333333, 1.333333]), array([0.333333]), 2)
    """
    a, b = as_input(a), as_input(b)
    check_matrices("lstsq", a)
    vector = len(shape_of(b)) == 1
    column = ops.expand_dims(b, -1) if vector else b
    if len(shape_of(a)) != 2 or len(shape_of(column)) != 2 or shape_of(column)[0] != shape_of(a)[0]:
        raise LinAlgError(
            f"lstsq: a must be 2-d and b of shape (M,) or (M, K) with a's M rows; got a of "
            f"{describe(a)} and b of {describe(b)}"
        )
    m, n = shape_of(a)
    dtype = np.result_type(real_dtype(a), real_dtype(b))
    if rcond is None:
        rcond = float(np.finfo(dtype).eps) * max(m, n)
    x = _lstsq(a, column, rcond=float(rcond))
    rank = int(matrix_rank(a, rtol=rcond))  # gelsd's: singular values <= rcond s_max are 0
    if rank == n and m > n:
        residuals = ops.sum(ops.abs(column - a @ x) ** 2, axis=0)
    else:
        residuals = ops.zeros((0,), dtype=dtype, like=a)
    return (ops.squeeze(x, -1) if vector else x), residuals, rank, svdvals(a)
