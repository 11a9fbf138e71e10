"""The symmetric eigendecomposition: eigh eigvalsh.

With A = V diag(w) Vᵀ and F_ij = 1 / (w_j - w_i) off the diagonal (0 on it), a symmetric
perturbation moves dw = diag(Vᵀ dA V) and dV = V (F ∘ (Vᵀ dA V)), so the gradient is
G = V (diag(w̄) + F ∘ (Vᵀ V̄)) Vᵀ, landing on the triangle SciPy reads. It assumes
distinct eigenvalues (as every eigenvector gradient must: with a repeated eigenvalue
the eigenvectors are not unique).
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.ops.primitive import Primitive
from tapegrad.scipy._dispatch import kernel
from tapegrad.scipy.linalg._matrix import eye_like, mT, triangle_read
from tapegrad.tensor import Tensor

ArrayLike = Any


def _eigh_packed(xp: Any, a: Any, lower: bool) -> Any:
    """The eigenvalues as a first row above the eigenvectors: one primitive output."""
    w, v = kernel(xp, "linalg", "eigh")(a, lower=lower)
    return xp.concat([w[..., None, :], v], axis=-2)


def _eigh_vjp(g: Any, ans: Any, a: Any, lower: bool) -> Any:
    w, v = ans[..., 0, :], ans[..., 1:, :]
    gw, gv = g[..., 0, :], g[..., 1:, :]
    eye = eye_like(v)
    gaps = ops.expand_dims(w, -2) - ops.expand_dims(w, -1)  # w_j - w_i
    inverse_gaps = (1.0 - eye) / (gaps + eye)  # 0 on the diagonal
    inner = ops.expand_dims(gw, -2) * eye + inverse_gaps * (mT(v) @ gv)
    return triangle_read(v @ inner @ mT(v), lower)


_eigh = Primitive("eigh", _eigh_packed).defvjp(_eigh_vjp)


def eigh(
    a: ArrayLike,
    b: ArrayLike | None = None,
    *,
    lower: bool = True,
    eigvals_only: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    type: int = 1,  # noqa: A002 - SciPy's name
    check_finite: bool = True,
    subset_by_index: Any = None,
    subset_by_value: Any = None,
    driver: str | None = None,
) -> Any:
    """Eigenvalues ``w`` (ascending) and eigenvectors ``v`` (columns) of a real symmetric
    ``a``, reading its ``lower`` (or upper) triangle; ``w`` alone when ``eigvals_only``.
    The generalized problem (``b``) and subsets are not supported.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eigh
    >>> eigh(tg.tensor([[2.0, 1.0], [1.0, 2.0]]), eigvals_only=True).numpy()
    array([1., 3.])
    """
    if b is not None or subset_by_index is not None or subset_by_value is not None:
        raise NotImplementedError(
            "eigh: the generalized problem (b) and eigenvalue subsets are not supported"
        )
    packed = _eigh(a, lower=bool(lower))
    w = packed[..., 0, :]
    return w if eigvals_only else (w, packed[..., 1:, :])


def eigvalsh(a: ArrayLike, lower: bool = True) -> Tensor:
    """The eigenvalues of a real symmetric ``a``, ascending.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eigvalsh
    >>> eigvalsh(tg.tensor([[2.0, 0.0], [0.0, 1.0]])).numpy()
    array([1., 2.])
    """
    return eigh(a, lower=lower, eigvals_only=True)
