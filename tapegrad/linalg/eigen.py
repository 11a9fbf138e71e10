"""Eigendecompositions: eigh eigvalsh (Hermitian) and eig eigvals (general).

- ``eigh``: with A = V diag(w) Vᴴ, M = Vᴴ V̄ and F_ij = 1 / (w_j - w_i), a Hermitian
  perturbation moves dw = diag(Vᴴ dA V) and dV = V (F ∘ (Vᴴ dA V)), so the gradient is
  V (diag(w̄) + F ∘ (M - Mᴴ) / 2) Vᴴ, landing on the lower triangle that NumPy reads.
- ``eigvalsh`` has the eigenvalue term only, V diag(w̄) Vᴴ: no gap is divided by, so
  repeated eigenvalues are fine.
- ``eig``: A V = V diag(w), C = V⁻¹ dA V: dw = diag(C), dV = V (F ∘ C + diag(α)), where α
  keeps NumPy's normalisation (unit columns whose largest entry is real); the gradient is
  V⁻ᴴ (diag(w̄) + conj(F) ∘ (Vᴴ V̄')) Vᴴ with V̄' the cotangent after α's correction.

Repeated values follow tapegrad.linalg._spectral's conventions (docs/linalg.md).
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
    constant_like,
    diag_embed,
    diagonal,
    hermitian_from_lower,
    hermitian_read,
    is_complex,
    kernel,
    mH,
    pack,
    unpack,
)
from tapegrad.linalg.solvers import solve
from tapegrad.ops.primitive import Primitive, shape_of

ArrayLike = Any


class EighResult(NamedTuple):
    """``eigh``'s result: ascending real ``eigenvalues`` and the ``eigenvectors`` columns.

    >>> import tapegrad as tg
    >>> result = tg.linalg.eigh(tg.tensor([[2.0, 1.0], [1.0, 2.0]]))
    >>> result.eigenvalues
    tensor([1., 3.], dtype=float64)
    """

    eigenvalues: Tensor
    eigenvectors: Tensor


class EigResult(NamedTuple):
    """``eig``'s result: ``eigenvalues`` and the unit ``eigenvectors`` columns.

    >>> import tapegrad as tg
    >>> w, v = tg.linalg.eig(tg.tensor([[2.0, 0.0], [0.0, 3.0]]))
    >>> w
    tensor([2., 3.], dtype=float64)
    """

    eigenvalues: Tensor
    eigenvectors: Tensor


def _hermitian(xp: Any, a: Any, upper: bool) -> Any:
    """The Hermitian matrix of ``a``'s lower (``upper``: upper) triangle, for kernels of
    backends other than NumPy (NumPy's own reads the triangle itself)."""
    return hermitian_from_lower(xp, xp.conj(xp.matrix_transpose(a)) if upper else a)


def _eigh_forward(xp: Any, a: Any, upper: bool = False) -> Any:
    if xp is np:  # NumPy's own call on the triangle it reads: its values, signs included
        w, v = np.linalg.eigh(a, UPLO="U" if upper else "L")
    else:
        w, v = xp.linalg.eigh(_hermitian(xp, a, upper))
    return pack(xp, tuple(a.shape[:-2]), w, v)


def _eigh_vjp(g: Any, ans: Any, a: Any, upper: bool = False) -> Any:
    n = shape_of(a)[-1]
    w, v = unpack(ans, (n,), (n, n))
    w = ops.real(w)
    gw, gv = unpack(g, (n,), (n, n))
    same = _spectral.clusters(w)
    m = mH(v) @ gv
    if is_complex(v):
        _spectral.check_phase_invariant("eigh", "eigenvectors", ops.imag(diagonal(m)), ops.abs(m))
    skew = (m - mH(m)) / 2
    inner = diag_embed(_spectral.cluster_mean(ops.real(gw), same)) + (
        _spectral.inverse_gaps(w, same) * skew
        + _spectral.undefined_where(skew, _spectral.repeated_pairs(same), ops.abs(m))
    )
    return hermitian_read(v @ inner @ mH(v), lower=not upper)


_eigh = Primitive("eigh", _eigh_forward, complex_rules=True).defvjp(_eigh_vjp)


def _check_uplo(op: str, uplo: str) -> None:
    if uplo not in ("L", "U"):
        raise ValueError(f"{op}: UPLO must be 'L' or 'U', got {uplo!r}")


def eigh(a: ArrayLike, UPLO: str = "L") -> EighResult:  # noqa: N803 - NumPy's name
    """Eigenvalues (ascending) and eigenvectors (columns) of a Hermitian (real symmetric)
    matrix, as ``np.linalg.eigh``, reading its lower triangle (the upper when ``UPLO="U"``).

    >>> import tapegrad as tg
    >>> w, v = tg.linalg.eigh(tg.tensor([[2.0, 1.0], [1.0, 2.0]]))
    >>> w.numpy()
    array([1., 3.])
    """
    a = as_input(a)
    check_matrices("eigh", a, square=True)
    _check_uplo("eigh", UPLO)
    n = shape_of(a)[-1]
    packed = _eigh(a, upper=True) if UPLO == "U" else _eigh._unary(a)
    w, v = unpack(packed, (n,), (n, n))
    return EighResult(ops.real(w), v)


def _eigvalsh_forward(xp: Any, a: Any, upper: bool = False) -> Any:
    if xp is np:
        return np.linalg.eigvalsh(a, UPLO="U" if upper else "L")
    return xp.linalg.eigvalsh(_hermitian(xp, a, upper))


def _eigvalsh_vjp(g: Any, ans: Any, a: Any, upper: bool = False) -> Any:
    # eigh recorded when an outer tape watches a: the second derivative
    _, v = eigh(a, UPLO="U" if upper else "L")
    mean = _spectral.cluster_mean(g, _spectral.clusters(ans))
    return hermitian_read((v * ops.expand_dims(mean, -2)) @ mH(v), lower=not upper)


_eigvalsh = Primitive("eigvalsh", _eigvalsh_forward, complex_rules=True).defvjp(_eigvalsh_vjp)


def eigvalsh(a: ArrayLike, UPLO: str = "L") -> Tensor:  # noqa: N803 - NumPy's name
    """The eigenvalues (ascending) of a Hermitian matrix, as ``np.linalg.eigvalsh``. The
    gradient needs no eigenvalue gaps: it is exact for repeated eigenvalues too.

    >>> import tapegrad as tg
    >>> tg.linalg.eigvalsh(tg.tensor([[2.0, 0.0], [0.0, 1.0]])).numpy()
    array([1., 2.])
    """
    a = as_input(a)
    check_matrices("eigvalsh", a, square=True)
    _check_uplo("eigvalsh", UPLO)
    return _eigvalsh(a, upper=True) if UPLO == "U" else _eigvalsh._unary(a)


def _eig_kernel(xp: Any, a: Any) -> tuple[Any, Any]:
    """``eig`` with NumPy's normalisation made sure of: unit columns whose entry of largest
    magnitude is real (LAPACK's; other libraries may pick another phase)."""
    w, v = kernel(xp, "linalg", "eig")(a)
    if xp.isdtype(v.dtype, "complex floating"):
        largest = xp.argmax(xp.abs(v), axis=-2, keepdims=True)
        peak = xp.take_along_axis(v, largest, axis=-2)
        real = xp.real(peak)
        sign = 1.0 - 2.0 * xp.astype(real < 0, real.dtype)  # keep NumPy's sign
        v = v * xp.astype(sign / xp.abs(peak), v.dtype) * xp.conj(peak)
    return w, v


def _eig_forward(xp: Any, a: Any) -> Any:
    w, v = _eig_kernel(xp, a)
    return pack(xp, tuple(a.shape[:-2]), w, v)


def _eig_vjp(g: Any, ans: Any, a: Any) -> Any:
    n = shape_of(a)[-1]
    w, v = unpack(ans, (n,), (n, n))
    gw, gv = unpack(g, (n,), (n, n))
    same = _spectral.clusters(w)
    # dv_i = V (F ∘ C)_i + α_i v_i with Re(v_iᴴ dv_i) = 0 (unit norm) and, for complex
    # vectors, Im(dv_ki) = 0 at the largest entry k: folded into the cotangent V̄'.
    m = diagonal(mH(v) @ gv)
    gv = gv - v * ops.expand_dims(ops.real(m), -2)
    if is_complex(v):
        largest = np.argmax(np.abs(_spectral.host(v)), axis=-2)[..., None, :]
        unit = constant_like((np.arange(n)[:, None] == largest).astype(np.float64), v)
        peak = ops.sum(v * unit, axis=-2, keepdims=True)
        gv = gv - 1j * unit * ops.expand_dims(ops.imag(m), -2) / peak
    inner = mH(v) @ gv
    gaps = ops.conj(_spectral.inverse_gaps(w, same))
    z = diag_embed(_spectral.cluster_mean(gw, same)) + (
        gaps * inner
        + _spectral.undefined_where(inner, _spectral.repeated_pairs(same), ops.abs(inner))
    )
    return solve(mH(v), z @ mH(v))


_eig = Primitive("eig", _eig_forward, complex_rules=True).defvjp(_eig_vjp)


def eig(a: ArrayLike) -> EigResult:
    """Eigenvalues and right eigenvectors (columns) of a square matrix, as
    ``np.linalg.eig``: real when every eigenvalue of a real ``a`` is, complex otherwise;
    each eigenvector has unit norm and its largest entry real (the gradient follows that
    normalisation, see docs/linalg.md).

    >>> import tapegrad as tg
    >>> w, v = tg.linalg.eig(tg.tensor([[2.0, 1.0], [0.0, 3.0]]))
    >>> w.numpy()
    array([2., 3.])
    """
    a = as_input(a)
    check_matrices("eig", a, square=True)
    n = shape_of(a)[-1]
    w, v = unpack(_eig._unary(a), (n,), (n, n))
    return EigResult(w, v)


def _eigvals_vjp(g: Any, ans: Any, a: Any) -> Any:
    _, v = eig(a)  # the same kernel call as the forward's: the same order of eigenvalues
    mean = _spectral.cluster_mean(g, _spectral.clusters(ans))
    return solve(mH(v), ops.expand_dims(mean, -1) * mH(v))


_eigvals = Primitive("eigvals", lambda xp, a: _eig_kernel(xp, a)[0], complex_rules=True).defvjp(
    _eigvals_vjp
)


def eigvals(a: ArrayLike) -> Tensor:
    """The eigenvalues of a square matrix, as ``np.linalg.eigvals`` (in ``eig``'s order).
    The gradient takes no eigenvector term: V⁻ᴴ diag(w̄) Vᴴ.

    >>> import tapegrad as tg
    >>> tg.linalg.eigvals(tg.tensor([[2.0, 1.0], [0.0, 3.0]])).numpy()
    array([2., 3.])
    """
    a = as_input(a)
    check_matrices("eigvals", a, square=True)
    return _eigvals._unary(a)
