"""scipy.sparse.linalg's ``eigsh`` with gradients: a simple eigenpair's ``Ā = λ̄ v vᴴ`` on
the pattern, and for the eigenvectors a minres solve projected off ``v`` (first order).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse.linalg as spla

from tapegrad import ops
from tapegrad.ops.primitive import Primitive, conjugated, raw
from tapegrad.scipy._dispatch import refuse_gradient
from tapegrad.scipy.sparse.linalg.solve_rule import (
    _first_order,
    _operand,
    _Operator,
    _plain_calls_scipy,
    _square,
)

__all__ = ["eigsh"]


class _Eigen:
    """One eigsh call: its eigenvalues and eigenvectors, computed once."""

    def __init__(self, run: Callable[[Any], tuple[Any, Any]]) -> None:
        self.run = run
        self.result: tuple[Any, Any] | None = None

    def __call__(self, matrix: Any) -> tuple[Any, Any]:
        if self.result is None:
            self.result = self.run(matrix)
        return self.result


def _eig_w(xp: Any, data: Any, *, structure: Any, eigen: _Eigen) -> Any:
    return np.asarray(eigen(structure.matrix(data))[0])


def _eig_v(xp: Any, data: Any, *, structure: Any, eigen: _Eigen) -> Any:
    return np.asarray(eigen(structure.matrix(data))[1])


def _eig_w_rule(g: Any, ans: Any, data: Any, *, structure: Any, eigen: _Eigen) -> Any:
    v = _eigvecs(data, structure=structure, eigen=eigen)
    rows = ops.take(v, structure.row, axis=0)
    cols = conjugated(ops.take(v, structure.col, axis=0))
    return ops.sum(rows * cols * g, axis=1)


def _eig_v_rule(g: Any, ans: Any, data: Any, *, structure: Any, eigen: _Eigen) -> Any:
    _first_order("eigsh (the eigenvectors)", g, ans, data)
    w, v = eigen(structure.matrix(data))
    a = structure.matrix(data)
    g = np.asarray(g)
    total = np.zeros(structure.row.shape, dtype=np.result_type(a.dtype, g.dtype))
    for i in range(v.shape[1]):
        vi = v[:, i]
        rhs = -(g[:, i] - vi * (vi.conj() @ g[:, i]))
        u, info = spla.minres(a, rhs, shift=float(np.real(w[i])), rtol=1e-12)
        u = u - vi * (vi.conj() @ u)
        total += u[structure.row] * np.conj(vi[structure.col])
    return total


_eigvals = Primitive("eigsh", _eig_w, complex_rules=False).defvjp(_eig_w_rule)
_eigvecs = Primitive("eigsh_vectors", _eig_v, complex_rules=False).defvjp(_eig_v_rule)


@_plain_calls_scipy
def eigsh(
    A: Any,  # noqa: N803
    k: int = 6,
    M: Any = None,  # noqa: N803
    sigma: Any = None,
    which: str = "LM",
    v0: Any = None,
    ncv: Any = None,
    maxiter: Any = None,
    tol: float = 0,
    return_eigenvectors: bool = True,
    Minv: Any = None,  # noqa: N803
    OPinv: Any = None,  # noqa: N803
    mode: str = "normal",
    rng: Any = None,
) -> Any:
    """``k`` eigenpairs of real symmetric ``A`` (a SparseTensor, or constant): ``w`` or
    ``(w, v)`` as SciPy. For simple eigenvalues: ``Ā = Σ λ̄_i v_i v_iᵀ`` on the pattern
    (every order through the eigenvectors' rule, which is first order); the eigenvectors'
    gradient by minres on ``A - λ_i I``. Shift-invert (``sigma``, with ``mode``) picks
    the eigenpairs of ``A`` near ``sigma``: the same rules (``sigma`` is a constant). The
    generalized problem (``M``, ``Minv``) and ``OPinv`` with Tensors raise
    NotImplementedError.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy import sparse
    >>> from tapegrad.scipy.sparse.linalg import eigsh
    >>> s = sparse.csr(tg.tensor([2.0, 1.0, 1.0, 2.0]), [0, 1, 0, 1], [0, 2, 4], (2, 2))
    >>> np.round(eigsh(s, k=1, return_eigenvectors=False).numpy(), 10).tolist()
    [3.0]
    """
    if M is not None or Minv is not None or OPinv is not None:
        raise NotImplementedError(
            "eigsh: M, Minv and OPinv (the generalized problem, a given inverse) are not "
            "implemented with Tensors"
        )
    refuse_gradient("eigsh", "sigma", sigma, "it only chooses which eigenpairs")
    data, structure = _operand("eigsh", A)
    if isinstance(structure, _Operator):
        raise TypeError("eigsh: with Tensors, A must be a sparse matrix or a SparseTensor")
    _square("eigsh", structure)
    start = None if v0 is None else np.asarray(raw(v0))
    keywords = {"k": k, "which": which, "v0": start, "ncv": ncv, "maxiter": maxiter,
                "tol": tol, "mode": mode, "rng": rng,
                "sigma": None if sigma is None else float(raw(sigma))}  # fmt: skip

    def run(matrix: Any) -> tuple[Any, Any]:
        w, v = spla.eigsh(matrix, return_eigenvectors=True, **keywords)
        if not return_eigenvectors:  # SciPy orders these differently for some ``which``
            alone = spla.eigsh(matrix, return_eigenvectors=False, **keywords)
            order = [int(np.argmin(np.abs(w - value))) for value in alone]
            w, v = alone, v[:, order]
        return w, v

    eigen = _Eigen(run)
    w = _eigvals(data, structure=structure, eigen=eigen)
    if not return_eigenvectors:
        return w
    return w, _eigvecs(data, structure=structure, eigen=eigen)
