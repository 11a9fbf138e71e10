"""The singular value decomposition: svd svdvals.

With the thin A = U S Vᴴ (k = min(m, n) columns), J = Uᴴ Ū, K = Vᴴ V̄ and
F_ij = 1 / (s_j² - s_i²), first-order perturbation theory gives

    Ā = U Γ Vᴴ + (I - U Uᴴ) Ū S⁻¹ Vᴴ + U S⁻¹ V̄ᴴ (I - V Vᴴ),
    Γ = diag(s̄) + F ∘ ((J - Jᴴ) S + S (K - Kᴴ)) + i Im diag(J - K) / 2S,

the last term for complex matrices only (each pair u_i, v_i is defined up to a common
phase, so the loss must not depend on it: checked). ``full_matrices=True`` adds columns
U₂ (or rows of Vᴴ) that are any orthonormal basis of the complement: a loss invariant to
that basis (U₂ᴴ Ū₂ Hermitian, checked) sends Ū₁ - U₂ Ū₂ᴴ U₁ to the thin rule.
``svdvals`` has the first term only, U diag(s̄) Vᴴ. Repeated and zero singular values follow
tapegrad.linalg._spectral's conventions; a zero singular value's cotangent is dropped (the
smallest subgradient, as ``abs`` at 0), see docs/linalg.md.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg import _spectral
from tapegrad.linalg._matrix import (
    as_input,
    check_matrices,
    diag_embed,
    diagonal,
    is_complex,
    mH,
    pack,
    unpack,
)
from tapegrad.ops.primitive import Primitive, shape_of

ArrayLike = Any


class SVDResult(NamedTuple):
    """``svd``'s result: ``U``, the descending singular values ``S`` and ``Vh``.

    >>> import tapegrad as tg
    >>> u, s, vh = tg.linalg.svd(tg.tensor([[3.0, 0.0], [0.0, 4.0]]))
    >>> s
    tensor([4., 3.], dtype=float64)
    """

    U: Tensor
    S: Tensor
    Vh: Tensor


def _cores(shape: tuple[int, ...], full: bool) -> tuple[tuple[int, ...], ...]:
    m, n = shape[-2:]
    k = min(m, n)
    return ((m, m if full else k), (k,), (n if full else k, n))


def _zeros(s: Any) -> np.ndarray:
    """The distance below which a singular value counts as 0, per matrix: the one below
    which two count as one (tapegrad.linalg._spectral)."""
    values = _spectral.host(s)
    return _spectral.tolerance(values, float(np.finfo(values.dtype).eps))


def _value_cotangent(gs: Any, s: Any) -> tuple[Any, np.ndarray]:
    """s̄ shared among repeated singular values, 0 at zero ones; and the groups."""
    zero = _zeros(s)
    same = _spectral.clusters(s, zero=zero)
    nonzero = (_spectral.host(s) > zero[..., None]).astype(np.float64)
    return _spectral.cluster_mean(gs, same) * ops.asarray(nonzero, dtype=gs.dtype, like=gs), same


def _svd_forward(xp: Any, a: Any, full_matrices: bool) -> Any:
    u, s, vh = xp.linalg.svd(a, full_matrices=full_matrices)
    return pack(xp, tuple(a.shape[:-2]), u, s, vh)


def _svd_vjp(g: Any, ans: Any, a: Any, full_matrices: bool) -> Any:
    cores = _cores(shape_of(a), full_matrices)
    m, n = shape_of(a)[-2:]
    k = min(m, n)
    u, s, vh = unpack(ans, *cores)
    gu, gs, gvh = unpack(g, *cores)
    s = ops.real(s)
    v, gv = mH(vh), mH(gvh)
    u, gu = _spectral.fold_complement(u, gu, k, "svd")
    v, gv = _spectral.fold_complement(v, gv, k, "svd")
    gs, same = _value_cotangent(ops.real(gs), s)
    j, kk = mH(u) @ gu, mH(v) @ gv
    scale = ops.abs(j) + ops.abs(kk)
    if is_complex(u):
        _spectral.check_phase_invariant(
            "svd", "singular vector pairs", ops.imag(diagonal(j + kk)), scale
        )
    # F ∘ ((J - Jᴴ) S + S (K - Kᴴ)) split as (A + B) / 2(s_j - s_i) + (A - B) / 2(s_j + s_i),
    # A = J - Jᴴ, B = K - Kᴴ: a loss invariant to rotating a repeated pair's vectors
    # together has A + B = 0 there, and the second term stays (its diagonal is the phase
    # term of complex matrices); both divide by zero for two zero singular values.
    plus, minus = (j - mH(j)) + (kk - mH(kk)), (j - mH(j)) - (kk - mH(kk))
    small = _spectral.host(s) <= _zeros(s)[..., None]
    both_zero = small[..., :, None] & small[..., None, :]
    sums = ops.expand_dims(s, -2) + ops.expand_dims(s, -1)
    gamma = (
        diag_embed(gs)
        + _spectral.inverse_gaps(s, same) * plus / 2
        + _spectral.reciprocal(sums, both_zero) * minus / 2
        + _spectral.undefined_where(plus, _spectral.repeated_pairs(same), scale)
        + _spectral.undefined_where(minus, both_zero, scale)
    )
    grad = u @ gamma @ mH(v)
    if m > k:  # (I - U Uᴴ) Ū S⁻¹ Vᴴ
        grad = grad + _over_s(gu - u @ (mH(u) @ gu), s, small, scale) @ mH(v)
    if n > k:  # U S⁻¹ V̄ᴴ (I - V Vᴴ)
        grad = grad + u @ mH(_over_s(gv - v @ (mH(v) @ gv), s, small, scale))
    return grad


def _over_s(numerator: Any, s: Any, small: np.ndarray, scale: Any) -> Any:
    """``numerator / s`` by columns, one per singular value. A zero singular value's
    vectors are not defined: there 0 where the numerator is rounding noise next to
    ``scale``, NaN where it is not."""
    inverse = ops.expand_dims(_spectral.reciprocal(s, small), -2)
    mask = np.broadcast_to(small[..., None, :], shape_of(numerator))
    return numerator * inverse + _spectral.undefined_where(numerator, mask, scale)


_svd = Primitive("svd", _svd_forward, complex_rules=True).defvjp(_svd_vjp)


def _svdvals_vjp(g: Any, ans: Any, a: Any) -> Any:
    u, _, vh = svd(a, full_matrices=False)  # recorded when an outer tape watches a
    gs, _ = _value_cotangent(g, ans)
    return (u * ops.expand_dims(gs, -2)) @ vh


_svdvals = Primitive(
    "svdvals", lambda xp, a: xp.linalg.svdvals(a), numpy=np.linalg.svdvals, complex_rules=True
).defvjp(_svdvals_vjp)


def svdvals(x: ArrayLike) -> Tensor:
    """The singular values of a matrix (or of each in a stack), descending, as
    ``np.linalg.svdvals``. The gradient U diag(s̄) Vᴴ divides by no gap: exact for repeated
    singular values too (the nuclear and spectral norms are built on it).

    >>> import tapegrad as tg
    >>> tg.linalg.svdvals(tg.tensor([[3.0, 0.0], [0.0, -4.0]])).numpy()
    array([4., 3.])
    """
    x = as_input(x)
    check_matrices("svdvals", x)
    return _svdvals._unary(x)


def svd(
    a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False
) -> Any:
    """``(U, S, Vh)`` with ``a = U @ diag(S) @ Vh``, as ``np.linalg.svd``; ``S`` alone when
    not ``compute_uv``; ``hermitian`` computes it from ``eigh`` (as NumPy does). Gradients
    of the complete factors (``full_matrices`` on a non-square matrix) need a loss that does
    not depend on which basis of the complement their extra columns hold.

    >>> import tapegrad as tg
    >>> u, s, vh = tg.linalg.svd(tg.tensor([[3.0, 0.0], [0.0, -4.0]]))
    >>> s.numpy()
    array([4., 3.])
    """
    a = as_input(a)
    check_matrices("svd", a)
    if hermitian:
        return _hermitian_svd(a, compute_uv)
    if not compute_uv:
        return svdvals(a)
    cores = _cores(shape_of(a), bool(full_matrices))
    u, s, vh = unpack(_svd(a, full_matrices=bool(full_matrices)), *cores)
    return SVDResult(u, ops.real(s), vh)


# The order of |w| from the largest, as NumPy's hermitian svd sorts (a recorded integer
# result, so tg.compile replays it rather than keep the recording's order).
_descending = Primitive(
    "argsort",
    lambda xp, x: xp.flip(xp.argsort(x, axis=-1), axis=-1),
    numpy=lambda x: np.argsort(x, axis=-1)[..., ::-1],
    differentiable=False,
)


def _hermitian_svd(a: Any, compute_uv: bool) -> Any:
    """NumPy's route for Hermitian ``a``: S = |w| descending, U the eigenvectors in that
    order, Vh = (U sign(w))ᴴ."""
    from tapegrad.linalg.eigen import eigh, eigvalsh

    if not compute_uv:
        s = ops.abs(eigvalsh(a))
        return ops.take_along_axis(s, _descending(s), axis=-1)
    w, v = eigh(a)
    order = _descending(ops.abs(w))
    s = ops.take_along_axis(ops.abs(w), order, axis=-1)
    columns = ops.broadcast_to(ops.expand_dims(order, -2), shape_of(v))
    u = ops.take_along_axis(v, columns, axis=-1)
    signs = ops.take_along_axis(ops.sign(w), order, axis=-1)
    return SVDResult(u, s, mH(u * ops.expand_dims(signs, -2)))
