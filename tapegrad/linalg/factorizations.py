"""Factorizations: cholesky qr.

``cholesky``: A = L Lᴴ with L lower triangular, real positive diagonal. L⁻¹ dA L⁻ᴴ = X + Xᴴ with
X = L⁻¹ dL lower triangular (real diagonal), so dL = L Φ(L⁻¹ dA L⁻ᴴ), Φ taking the lower
triangle and half the diagonal. Its adjoint gives G = L⁻ᴴ Φ(Lᴴ L̄) L⁻¹ for a Hermitian
perturbation (Murray, "Differentiation of the Cholesky decomposition", 2016, for real
matrices), landing on the triangle NumPy reads.

``qr``: for A = Q R with m >= n (Q with orthonormal columns, R upper triangular with the real
diagonal LAPACK gives it), C = Qᴴ dA R⁻¹ = Ω + dR R⁻¹ with Ω = Qᴴ dQ anti-Hermitian, so
the strictly lower part of C fixes Ω and the rest dR. The adjoint is

    Ā = (Q Γ + Q̄ - Q Qᴴ Q̄) R⁻ᴴ,  Γ = R̄ Rᴴ + tril(N - Nᴴ, -1) + i Im diag(N),
    N = Qᴴ Q̄ - R̄ Rᴴ

(for real matrices the familiar (Q̄ + Q copyltu(M)) R⁻ᵀ, M = R R̄ᵀ - Q̄ᵀ Q). A wide A = [X Y]
(m < n) has Q R₁ = X and R₂ = Qᴴ Y: Ȳ = Q R̄₂, and X takes the rule above with
Q̄ + Y R̄₂ᴴ. ``mode="complete"`` adds columns Q₂ spanning the complement in a basis that is
not defined: see tapegrad.linalg._spectral.fold_complement. R must be invertible (A of full
column rank).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.record import is_recorded
from tapegrad.core.tensor import Tensor
from tapegrad.linalg import _spectral
from tapegrad.linalg._matrix import (
    as_input,
    check_matrices,
    diag_embed,
    diagonal,
    hermitian_from_lower,
    hermitian_read,
    is_complex,
    kernel,
    mH,
    pack,
    triangle,
    unpack,
)
from tapegrad.linalg.solvers import (
    solve_triangular,
    solve_triangular_numpy,
    triangular_product_numpy,
)
from tapegrad.ops.primitive import Primitive, shape_of

ArrayLike = Any


def _cholesky_vjp(g: Any, ans: Any, a: Any) -> Any:
    if type(g) is np.ndarray and type(ans) is np.ndarray:  # the sweep's raw mode
        return _cholesky_vjp_numpy(g, ans)
    p = triangle(mH(ans) @ g, True, diagonal=0.5)
    left = solve_triangular(ans, p, lower=True, adjoint=True)  # L⁻ᴴ P
    grad = mH(solve_triangular(ans, mH(left), lower=True, adjoint=True))  # L⁻ᴴ P L⁻¹
    return hermitian_read(grad)


def _cholesky_vjp_numpy(g: np.ndarray, low: np.ndarray) -> np.ndarray:
    """The rule above on NumPy arrays: the triangles cut by ``np.tril`` rather than a mask's
    product (two n x n arrays fewer each), Lᴴ Ḡ by BLAS's triangular product."""
    p = np.tril(triangular_product_numpy(low, g, lower=True, adjoint=True))
    _scale_diagonal(p, 0.5)
    left = solve_triangular_numpy(low, p, lower=True, adjoint=True)  # L⁻ᴴ P
    grad = _mh(solve_triangular_numpy(low, _mh(left), lower=True, adjoint=True))  # L⁻ᴴ P L⁻¹
    grad = np.tril(grad + _mh(grad))  # hermitian_read
    _scale_diagonal(grad, 0.5)
    return grad


def _mh(x: np.ndarray) -> np.ndarray:
    return x.conj().swapaxes(-1, -2)


def _scale_diagonal(x: np.ndarray, factor: float) -> None:
    steps = np.arange(min(x.shape[-2:]))
    x[..., steps, steps] *= factor


def _cholesky_forward(xp: Any, a: Any) -> Any:
    # NumPy's cholesky (LAPACK's potrf) reads only the lower triangle and the real part of
    # the diagonal, so the Hermitian matrix is made explicit for the other namespaces alone.
    if xp is np:
        return np.linalg.cholesky(a)
    return xp.linalg.cholesky(hermitian_from_lower(xp, a))


_cholesky = Primitive("cholesky", _cholesky_forward, complex_rules=True).defvjp(_cholesky_vjp)


def cholesky(a: ArrayLike, /, *, upper: bool = False) -> Tensor:
    """The Cholesky factor of a Hermitian (real symmetric) positive definite matrix, as
    ``np.linalg.cholesky``: lower ``L`` with ``a = L @ L^H``, reading ``a``'s lower
    triangle; with ``upper``, ``U = L^H`` with ``a = U^H @ U``, reading the upper triangle.
    The gradient lands on the triangle read.

    >>> import tapegrad as tg
    >>> tg.linalg.cholesky(tg.tensor([[4.0, 2.0], [2.0, 5.0]])).numpy()
    array([[2., 0.],
           [1., 2.]])
    """
    a = as_input(a)
    check_matrices("cholesky", a, square=True)
    if upper:  # the upper triangle of a is the lower one of a^H
        return mH(_cholesky._unary(mH(a)))
    return _cholesky._unary(a)


class QRResult(NamedTuple):
    """``qr``'s result: ``Q`` and ``R``.

    >>> import tapegrad as tg
    >>> q, r = tg.linalg.qr(tg.tensor([[3.0, 0.0], [4.0, 5.0]]))
    >>> q.shape, r.shape
    ((2, 2), (2, 2))
    """

    Q: Tensor
    R: Tensor


def _cores(shape: tuple[int, ...], complete: bool) -> tuple[tuple[int, int], ...]:
    m, n = shape[-2:]
    k = m if complete else min(m, n)
    return ((m, k), (k, n))


def _qr_forward(xp: Any, a: Any, complete: bool) -> Any:
    q, r = xp.linalg.qr(a, mode="complete" if complete else "reduced")
    return pack(xp, tuple(a.shape[:-2]), q, r)


def _tall(q: Any, r: Any, gq: Any, gr: Any) -> Any:
    """Ā for A = Q R with R square (m >= n)."""
    projected = mH(q) @ gq
    rr = gr @ mH(r)
    nn = projected - rr
    gamma = rr + triangle(nn - mH(nn), True, k=-1)
    if is_complex(q):
        gamma = gamma + 1j * diag_embed(ops.imag(diagonal(nn)))
    left = q @ gamma + gq - q @ projected
    return mH(solve_triangular(r, mH(left), lower=False))  # left R⁻ᴴ = (R⁻¹ leftᴴ)ᴴ


def _qr_vjp(g: Any, ans: Any, a: Any, complete: bool) -> Any:
    m, n = shape_of(a)[-2:]
    q, r = unpack(ans, *_cores(shape_of(a), complete))
    gq, gr = unpack(g, *_cores(shape_of(a), complete))
    if m < n:  # a = [x y]
        y, gr_y = a[..., :, m:], gr[..., :, m:]
        grad_x = _tall(q, r[..., :, :m], gq + y @ mH(gr_y), gr[..., :, :m])
        return ops.concatenate([grad_x, q @ gr_y], axis=-1)
    if complete and m > n:  # R's rows n: are zeros: no gradient
        q, gq = _spectral.fold_complement(q, gq, n, "qr")
        r, gr = r[..., :n, :], gr[..., :n, :]
    return _tall(q, r, gq, gr)


_qr = Primitive("qr", _qr_forward, complex_rules=True).defvjp(_qr_vjp)

_MODES = ("reduced", "complete", "r", "raw")


def qr(a: ArrayLike, mode: str = "reduced") -> Any:
    """The QR factorization ``a = Q @ R`` (batched), as ``np.linalg.qr``: ``mode`` is
    ``"reduced"`` (Q of shape (M, K), K = min(M, N)), ``"complete"`` (Q square), ``"r"`` (R
    alone) or ``"raw"`` (LAPACK's Householder reflectors, NumPy arrays only, no gradient).

    >>> import tapegrad as tg
    >>> q, r = tg.linalg.qr(tg.tensor([[3.0, 1.0], [4.0, 2.0]]))
    >>> abs(r.numpy()).round(6), (q @ r).numpy().round(12)
    (array([[5. , 2.2],
           [0. , 0.4]]), array([[3., 1.],
           [4., 2.]]))
    """
    a = as_input(a)
    check_matrices("qr", a)
    if mode not in _MODES:
        raise ValueError(f"qr: mode must be one of {_MODES}, got {mode!r}")
    if mode == "raw":
        if is_recorded(a):
            raise NotImplementedError(
                "qr: mode='raw' (Householder reflectors) has no gradient; use 'reduced'"
            )
        data = a._data if isinstance(a, Tensor) else a
        h, tau = kernel(backend.namespace(data), "linalg", "qr")(data, mode="raw")
        return Tensor(h), Tensor(tau)
    complete = mode == "complete"
    q, r = unpack(_qr(a, complete=complete), *_cores(shape_of(a), complete))
    return r if mode == "r" else QRResult(q, r)
