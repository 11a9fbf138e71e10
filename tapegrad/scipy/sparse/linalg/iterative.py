"""scipy.sparse.linalg's iterative solvers with gradients: the Krylov ones (``cg``,
``gmres``, ``minres``, ``bicgstab``; the adjoint solve by the same solver, the tolerance
tightened, ``M`` replaced by ``Mᴴ``) and ``lsqr`` (first order, by two lsqr solves).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, raw, shape_of
from tapegrad.scipy._dispatch import refuse_gradient
from tapegrad.scipy.sparse._tensor import constant
from tapegrad.scipy.sparse.linalg.solve_rule import (
    _ADJOINT_RTOL,
    ArrayLike,
    _first_order,
    _Method,
    _operand,
    _Operator,
    _plain_calls_scipy,
    _rhs,
    _solved,
)

__all__ = ["bicgstab", "cg", "gmres", "lsqr", "minres"]


def _preconditioner_adjoint(m: Any) -> Any:
    if m is None:
        return None
    if isinstance(m, spla.LinearOperator):
        return m.H
    return m.conj().T


def _krylov(
    name: str,
    solver: Any,
    A: Any,  # noqa: N803
    b: ArrayLike,
    x0: Any,
    M: Any,  # noqa: N803
    callback: Any,
    keywords: dict[str, Any],
    forward_only: dict[str, Any],
) -> tuple[Tensor, int]:
    refuse_gradient(name, "x0", x0, "the solution does not depend on the starting point")
    refuse_gradient(name, "M", M, "a preconditioner does not change the solution")
    start = None if x0 is None else np.asarray(raw(x0))

    def forward(matrix: Any, rhs: Any) -> tuple[Any, Any]:
        return solver(matrix, rhs, x0=start, M=M, callback=callback, **keywords, **forward_only)

    def adjoint() -> _Method:
        tight = dict(keywords)
        tight["rtol"] = min(tight["rtol"], _ADJOINT_RTOL)
        m_adjoint = _preconditioner_adjoint(M)

        def run(matrix: Any, rhs: Any) -> tuple[Any, Any]:
            x, info = solver(matrix, rhs, M=m_adjoint, **tight)
            if info != 0:
                warnings.warn(
                    f"{name}: the adjoint solve did not converge (info={info}); the gradient "
                    "is inexact", RuntimeWarning, stacklevel=2)  # fmt: skip
            return x, info

        back = _Method(name, run, lambda: back)
        return back

    method = _Method(name, forward, adjoint)
    x = _solved(name, A, b, method, matrix_ok=False)
    if len(shape_of(x)) != 1:
        x = ops.reshape(x, (-1,))
    return x, method.info


@_plain_calls_scipy
def cg(
    A: Any,  # noqa: N803
    b: ArrayLike,
    x0: Any = None,
    *,
    rtol: float = 1e-05,
    atol: float = 0.0,
    maxiter: Any = None,
    M: Any = None,  # noqa: N803
    callback: Any = None,
) -> tuple[Tensor, int]:
    """Conjugate gradients for Hermitian positive definite ``A``: ``(x, info)`` as SciPy.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import cg
    >>> a = sp.csr_array(np.array([[4.0, 1.0], [1.0, 3.0]]))
    >>> x, info = cg(a, tg.tensor([1.0, 2.0]), rtol=1e-12)
    >>> np.round(x.numpy(), 10).tolist(), info
    ([0.0909090909, 0.6363636364], 0)
    """
    return _krylov("cg", spla.cg, A, b, x0, M, callback,
                   {"rtol": rtol, "atol": atol, "maxiter": maxiter}, {})  # fmt: skip


@_plain_calls_scipy
def bicgstab(
    A: Any,  # noqa: N803
    b: ArrayLike,
    x0: Any = None,
    *,
    rtol: float = 1e-05,
    atol: float = 0.0,
    maxiter: Any = None,
    M: Any = None,  # noqa: N803
    callback: Any = None,
) -> tuple[Tensor, int]:
    """BiCGSTAB for general square ``A``: ``(x, info)`` as SciPy.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import bicgstab
    >>> a = sp.csr_array(np.array([[4.0, 1.0], [0.0, 3.0]]))
    >>> x, info = bicgstab(a, tg.tensor([5.0, 3.0]), rtol=1e-12)
    >>> np.round(x.numpy(), 10).tolist(), info
    ([1.0, 1.0], 0)
    """
    return _krylov("bicgstab", spla.bicgstab, A, b, x0, M, callback,
                   {"rtol": rtol, "atol": atol, "maxiter": maxiter}, {})  # fmt: skip


@_plain_calls_scipy
def gmres(
    A: Any,  # noqa: N803
    b: ArrayLike,
    x0: Any = None,
    *,
    rtol: float = 1e-05,
    atol: float = 0.0,
    restart: Any = None,
    maxiter: Any = None,
    M: Any = None,  # noqa: N803
    callback: Any = None,
    callback_type: Any = None,
) -> tuple[Tensor, int]:
    """GMRES for general square ``A``: ``(x, info)`` as SciPy.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import gmres
    >>> a = sp.csr_array(np.array([[4.0, 1.0], [0.0, 3.0]]))
    >>> x, info = gmres(a, tg.tensor([5.0, 3.0]), rtol=1e-12)
    >>> np.round(x.numpy(), 10).tolist(), info
    ([1.0, 1.0], 0)
    """
    return _krylov("gmres", spla.gmres, A, b, x0, M, callback,
                   {"rtol": rtol, "atol": atol, "restart": restart, "maxiter": maxiter},
                   {"callback_type": callback_type})  # fmt: skip


@_plain_calls_scipy
def minres(
    A: Any,  # noqa: N803
    b: ArrayLike,
    x0: Any = None,
    *,
    rtol: float = 1e-05,
    shift: float = 0.0,
    maxiter: Any = None,
    M: Any = None,  # noqa: N803
    callback: Any = None,
    show: bool = False,
    check: bool = False,
) -> tuple[Tensor, int]:
    """MINRES for symmetric ``A`` (``(A - shift I) x = b``): ``(x, info)`` as SciPy. The
    gradient of ``A``'s values is ``-b̄ xᵀ`` on the pattern; ``shift`` is a constant.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import minres
    >>> a = sp.csr_array(np.array([[4.0, 1.0], [1.0, -3.0]]))
    >>> x, info = minres(a, tg.tensor([5.0, -2.0]), rtol=1e-12)
    >>> np.round(x.numpy(), 10).tolist(), info
    ([1.0, 1.0], 0)
    """
    refuse_gradient("minres", "shift", shift, "differentiate through A's diagonal instead")
    return _krylov("minres", spla.minres, A, b, x0, M, callback,
                   {"rtol": rtol, "shift": shift, "maxiter": maxiter},
                   {"show": show, "check": check})  # fmt: skip


def _lsqr_forward(xp: Any, data: Any, b: Any, *, structure: Any, keywords: dict[str, Any],
                  out: list[Any]) -> Any:  # fmt: skip
    result = spla.lsqr(structure.matrix(data), b, **keywords)
    out[:] = [result]
    return np.asarray(result[0])


def _lsqr_adjoint(g: Any, ans: Any, data: Any, b: Any, *, structure: Any,
                  keywords: dict[str, Any], out: list[Any]) -> tuple[Any, Any]:  # fmt: skip
    """``b̄ = A z`` and ``z = (ÃᴴÃ)⁻¹ x̄`` for ``Ã = [A; dI]`` (see the module docstring)."""
    _first_order("lsqr", g, ans, data, b)
    a = structure.matrix(data)
    n = a.shape[1]
    damp = keywords["damp"]
    tol = {
        "atol": min(keywords["atol"], _ADJOINT_RTOL),
        "btol": min(keywords["btol"], _ADJOINT_RTOL),
        "conlim": keywords["conlim"],
        "iter_lim": keywords["iter_lim"],
    }
    op = spla.aslinearoperator(a)
    if damp:
        op = spla.LinearOperator(
            (a.shape[0] + n, n), matvec=lambda v: np.concatenate([a @ v, damp * v]),
            rmatvec=lambda w: a.conj().T @ w[: a.shape[0]] + damp * w[a.shape[0]:],
            dtype=np.result_type(a.dtype, float))  # fmt: skip
    big_bbar = spla.lsqr(op.H, np.asarray(g), **tol)[0]  # min-norm: Ã z
    z = spla.lsqr(op, big_bbar, **tol)[0]
    return big_bbar[: a.shape[0]], z


def _lsqr_b(g: Any, ans: Any, data: Any, b: Any, **params: Any) -> Any:
    return np.reshape(_lsqr_adjoint(g, ans, data, b, **params)[0], shape_of(b))


def _lsqr_data(g: Any, ans: Any, data: Any, b: Any, **params: Any) -> Any:
    bbar, z = _lsqr_adjoint(g, ans, data, b, **params)
    structure = params["structure"]
    a = structure.matrix(data)
    x = np.asarray(ans)
    r = np.ravel(b) - a @ x
    row, col = structure.row, structure.col
    return r[row] * np.conj(z[col]) - bbar[row] * np.conj(x[col])


_lsqr = Primitive("lsqr", _lsqr_forward, complex_rules=False).defvjp(_lsqr_data, _lsqr_b)


@_plain_calls_scipy
def lsqr(
    A: Any,  # noqa: N803
    b: ArrayLike,
    damp: float = 0.0,
    atol: float = 1e-06,
    btol: float = 1e-06,
    conlim: float = 100000000.0,
    iter_lim: Any = None,
    show: bool = False,
    calc_var: bool = False,
    x0: Any = None,
) -> tuple[Any, ...]:
    """The damped least-squares solution of ``A x ≈ b`` (real): SciPy's tuple
    ``(x, istop, itn, r1norm, r2norm, anorm, acond, arnorm, xnorm, var)``, ``x`` a Tensor
    (differentiable in ``b`` and ``A``'s values, first order), the rest plain.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import lsqr
    >>> a = sp.csr_array(np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]]))
    >>> x = lsqr(a, tg.tensor([1.0, 2.0, 2.0]), atol=1e-12, btol=1e-12)[0]
    >>> np.round(x.numpy(), 10).tolist()
    [1.0, 1.0]
    """
    refuse_gradient("lsqr", "damp", damp, "it is a constant of the problem")
    refuse_gradient("lsqr", "x0", x0, "the solution does not depend on the starting point")
    data, structure = _operand("lsqr", A)
    if isinstance(structure, _Operator) and isinstance(structure.a, spla.LinearOperator):
        raise NotImplementedError("lsqr: A as a LinearOperator is not implemented with Tensors")
    if isinstance(structure, _Operator):
        data, structure = constant(sp.csr_array(structure.a))
    rhs = _rhs("lsqr", b, structure.shape[0], False)
    keywords = {"damp": float(damp), "atol": atol, "btol": btol, "conlim": conlim,
                "iter_lim": iter_lim, "show": show, "calc_var": calc_var,
                "x0": None if x0 is None else np.asarray(raw(x0))}  # fmt: skip
    out: list[Any] = []
    x = _lsqr(data, rhs, structure=structure, keywords=keywords, out=out)
    return (x, *out[0][1:])
