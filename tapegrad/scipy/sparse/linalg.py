"""scipy.sparse.linalg's solvers with gradients in the right-hand side and the matrix's values.

``A`` is a SciPy sparse matrix (a constant), a dense array or LinearOperator (a constant),
or a :class:`~tapegrad.scipy.sparse.SparseTensor` (gradients in its values, on its pattern
only). For ``x = A⁻¹ b`` the adjoint system gives ``b̄ = A⁻ᴴ x̄``, solved by the same solver
(the same factor for ``splu``; for the iterative ones the same keywords, the tolerance
tightened to at most 1e-8, ``x0`` and ``callback`` dropped, ``M`` replaced by ``Mᴴ``),
and ``Ā_ij = -b̄_i conj(x_j)`` on the pattern. ``x0`` is a starting point: no gradient.

- ``spsolve``, ``splu(...).solve``, ``cg``, ``gmres``, ``minres``, ``bicgstab``: the solve
  and its rules are one primitive, so every order of derivative works.
- ``lsqr``: ``x = (AᴴA + d²I)⁻¹ Aᴴ b`` is the plain least-squares solution of
  ``[A; dI] x ≈ [b; 0]``; with ``z = (ÃᴴÃ)⁻¹ x̄`` (two lsqr solves, on Ãᴴ then Ã),
  ``b̄ = A z`` and ``Ā = r zᴴ - b̄ xᴴ`` (``r = b - A x``). First order.
- ``eigsh``: a simple eigenpair (λ, v): ``Ā = λ̄ v vᴴ`` on the pattern; for ``v̄``,
  ``u`` solves ``(A - λI) u = -(I - v vᴴ) v̄`` by minres, projected off ``v``, and
  ``Ā = u vᴴ``. First order for the eigenvectors.
- ``expm_multiply(A, B)``: ``B̄ = expm_multiply(Aᴴ, Ȳ)`` (every order), ``Ā`` the Fréchet
  derivative ``L(Aᴴ, Ȳ Bᴴ)`` on the pattern, the upper block of
  ``expm_multiply([[Aᴴ, Ȳ Bᴴ], [0, Aᴴ]], [0; I])`` (first order).
"""

from __future__ import annotations

import functools
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, conjugated, raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient, scipy_getattr
from tapegrad.scipy.sparse._tensor import SparseTensor, constant

__all__ = [
    "SuperLU", "bicgstab", "cg", "eigsh", "expm_multiply", "gmres", "lsqr", "minres",
    "splu", "spsolve",
]  # fmt: skip

ArrayLike = Any
_ADJOINT_RTOL = 1e-8
F = TypeVar("F", bound=Callable[..., Any])


def _plain_calls_scipy(f: F) -> F:
    """``plain_calls_scipy("sparse.linalg")``, a SparseTensor counting as a Tensor."""
    plain = plain_calls_scipy("sparse.linalg")(f)

    @functools.wraps(f)
    def call(*args: Any, **kwargs: Any) -> Any:
        if any(isinstance(a, SparseTensor) for a in (*args, *kwargs.values())):
            return f(*args, **kwargs)
        return plain(*args, **kwargs)

    return call  # type: ignore[return-value]


class _Operator:
    """A constant operator without a pattern (a dense array, a LinearOperator): what a
    Pattern is for the solvers, with no values to differentiate."""

    def __init__(self, a: Any, adjoint: Any = None) -> None:
        self.a = a
        self.shape = tuple(a.shape)
        self._adjoint = adjoint

    def matrix(self, data: Any) -> Any:
        return self.a

    @property
    def T(self) -> _Operator:  # noqa: N802 - the conjugate transpose, as Pattern.T with conj
        if self._adjoint is None:
            adj = self.a.H if isinstance(self.a, spla.LinearOperator) else self.a.conj().T
            self._adjoint = _Operator(adj, self)
        return self._adjoint


def _operand(name: str, a: Any) -> tuple[Any, Any]:
    """The values (None for an operator) and the Pattern or _Operator of ``A``."""
    if isinstance(a, SparseTensor):
        return a.data, a.pattern
    if sp.issparse(a):
        return constant(a)
    if isinstance(a, Tensor):
        raise TypeError(
            f"{name}: A is a dense Tensor; make it a SparseTensor (tapegrad.scipy.sparse.csr) "
            "or use tapegrad.scipy.linalg.solve"
        )
    if isinstance(a, spla.LinearOperator):
        return None, _Operator(a)
    return None, _Operator(np.asarray(a))


def _rhs(name: str, b: ArrayLike, n: int, matrix_ok: bool) -> Tensor:
    b = b if isinstance(b, Tensor) else ops.asarray(b)
    shape = shape_of(b)
    if not shape or shape[0] != n or len(shape) > 2 or (not matrix_ok and len(shape) == 2
                                                         and shape[1] != 1):  # fmt: skip
        kind = "(n,) or (n, k)" if matrix_ok else "(n,) or (n, 1)"
        raise ValueError(f"{name}: b must be {kind} with n = {n} (A's rows), got shape {shape}")
    return b


def _square(name: str, structure: Any) -> int:
    m, n = structure.shape
    if m != n:
        raise ValueError(f"{name}: A must be square, got shape {(m, n)}")
    return int(n)


# --- x = A⁻¹ b by any solver ------------------------------------------------------------


class _Method:
    """One call's solver: ``solve(matrix, b) -> x`` (host arrays), and the same solver for
    the adjoint system (``adjoint``); ``info`` keeps what the forward reported."""

    def __init__(self, name: str, solve: Callable[[Any, Any], tuple[Any, Any]], adjoint: Any):
        self.name = name
        self._solve = solve
        self._adjoint = adjoint  # a _Method, or a callable making one
        self.info: Any = None
        self._cache: tuple[Any, Any, Any] | None = None

    def __call__(self, matrix: Any, b: Any) -> Any:
        x, self.info = self._solve(matrix, b)
        return np.asarray(x)

    @property
    def adjoint(self) -> _Method:
        if not isinstance(self._adjoint, _Method):
            self._adjoint = self._adjoint()
        return self._adjoint


def _solve_forward(xp: Any, data: Any, b: Any, *, structure: Any, method: _Method) -> Any:
    return method(structure.matrix(data), b)


def _adjoint_rhs(g: Any, data: Any, structure: Any, method: _Method) -> Any:
    """``b̄ = A⁻ᴴ g``, once for both rules."""
    cache = method._cache
    if cache is not None and cache[0] is g and cache[1] is data:
        return cache[2]
    bbar = _solve(conjugated(data) if data is not None else None, g,
                  structure=structure.T, method=method.adjoint)  # fmt: skip
    method._cache = (g, data, bbar)
    return bbar


def _solve_data(g: Any, ans: Any, data: Any, b: Any, *, structure: Any, method: _Method) -> Any:
    n = structure.shape[1]
    bbar = ops.reshape(_adjoint_rhs(g, data, structure, method), (structure.shape[0], -1))
    x = ops.reshape(ans, (n, -1))
    picked = ops.take(bbar, structure.row, axis=0) * conjugated(ops.take(x, structure.col, axis=0))
    return -ops.sum(picked, axis=1)


def _solve_b(g: Any, ans: Any, data: Any, b: Any, *, structure: Any, method: _Method) -> Any:
    return ops.reshape(_adjoint_rhs(g, data, structure, method), shape_of(b))


_solve = Primitive("sparse_solve", _solve_forward, complex_rules=True).defvjp(_solve_data, _solve_b)


def _solved(name: str, a: Any, b: ArrayLike, method: _Method, matrix_ok: bool = True) -> Tensor:
    data, structure = _operand(name, a)
    n = _square(name, structure)
    return _solve(data, _rhs(name, b, n, matrix_ok), structure=structure, method=method)


@_plain_calls_scipy
def spsolve(A: Any, b: ArrayLike, permc_spec: Any = None, use_umfpack: bool = True) -> Tensor:  # noqa: N803
    """Solve ``A x = b`` for sparse square ``A`` (b ``(n,)`` or ``(n, k)``; ``(n, 1)`` gives
    ``(n,)`` as SciPy). The adjoint is spsolve on ``Aᴴ`` with the same options.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import spsolve
    >>> a = sp.csc_array(np.array([[2.0, 0.0], [1.0, 4.0]]))
    >>> spsolve(a, tg.tensor([2.0, 9.0])).tolist()
    [1.0, 2.0]
    """
    if sp.issparse(b):
        raise TypeError("spsolve: a sparse b has no gradient; pass it dense")

    def run(matrix: Any, rhs: Any) -> tuple[Any, Any]:
        return spla.spsolve(matrix, rhs, permc_spec=permc_spec, use_umfpack=use_umfpack), 0

    method = _Method("spsolve", run, lambda: method)
    return _solved("spsolve", A, b, method)


class SuperLU:
    """tapegrad's ``splu(A)``: SciPy's SuperLU factor (``L``, ``U``, ``perm_r``, ``perm_c``,
    ``shape``, ``nnz`` are its own), whose ``solve`` records for Tensor right-hand sides
    (and, for a SparseTensor ``A``, differentiates in ``A``'s values). The adjoint system
    is solved with the same factor (``trans="H"``).

    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import splu
    >>> splu(sp.csc_array(np.diag([2.0, 4.0]))).solve(tg.tensor([2.0, 2.0])).numpy()
    array([1. , 0.5])
    """

    def __init__(self, factor: Any, data: Any, structure: Any) -> None:
        self._factor = factor
        self._data = data
        self._structure = structure

    def __getattr__(self, name: str) -> Any:
        return getattr(self._factor, name)

    def solve(self, rhs: ArrayLike, trans: str = "N") -> Any:
        """``A x = rhs`` (``trans="T"``: ``Aᵀ x``, ``"H"``: ``Aᴴ x``).

        >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
        >>> from tapegrad.scipy.sparse.linalg import splu
        >>> lu = splu(sp.csc_array(np.array([[2.0, 0.0], [1.0, 4.0]])))
        >>> lu.solve(tg.tensor([2.0, 9.0])).tolist()
        [1.0, 2.0]
        """
        if trans not in ("N", "T", "H"):
            raise ValueError(f"SuperLU.solve: trans must be 'N', 'T' or 'H', got {trans!r}")
        if not isinstance(rhs, Tensor) and not isinstance(self._data, Tensor):
            return self._factor.solve(rhs, trans=trans)
        data, structure = self._data, self._structure
        if trans != "N":  # Aᵀ: the transposed pattern; Aᴴ: conjugated values too
            structure = structure.T
            data = ops.conj(data) if trans == "H" and data is not None else data
        factor = self._factor
        back = {"N": "H", "T": "C", "H": "N"}[trans]

        def method_for(t: str) -> _Method:
            def run(matrix: Any, b: Any) -> tuple[Any, Any]:
                if t == "C":  # conj(A)⁻¹ b = conj(A⁻¹ conj(b))
                    return np.conj(factor.solve(np.conj(b))), 0
                return factor.solve(np.ascontiguousarray(b), trans=t), 0

            return _Method("splu.solve", run, lambda: method_for({"N": "H", "H": "N", "T": "C",
                                                                  "C": "T"}[t]))  # fmt: skip

        method = method_for(trans)
        method._adjoint = method_for(back)
        n = int(structure.shape[0])
        b = _rhs("SuperLU.solve", rhs, n, True)
        return _solve(data, b, structure=structure, method=method)


def splu(
    A: Any,  # noqa: N803
    permc_spec: Any = None,
    diag_pivot_thresh: Any = None,
    relax: Any = None,
    panel_size: Any = None,
    options: Any = None,
) -> SuperLU:
    """SciPy's sparse LU factorization of ``A`` (a SparseTensor: of its current values),
    wrapped so that ``.solve`` records (:class:`SuperLU`).

    >>> import numpy as np, scipy.sparse as sp
    >>> from tapegrad.scipy.sparse.linalg import splu
    >>> splu(sp.csc_array(np.array([[2.0, 0.0], [1.0, 4.0]]))).solve(np.array([2.0, 9.0]))
    array([1., 2.])
    """
    data, structure = _operand("splu", A)
    if isinstance(structure, _Operator):
        raise TypeError("splu: A must be a sparse matrix or a SparseTensor")
    _square("splu", structure)
    matrix = sp.csc_array(structure.matrix(raw(data)))
    factor = spla.splu(matrix, permc_spec=permc_spec, diag_pivot_thresh=diag_pivot_thresh,
                       relax=relax, panel_size=panel_size, options=options)  # fmt: skip
    return SuperLU(factor, data, structure)


# --- Krylov solvers ----------------------------------------------------------------------


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


# --- lsqr ----------------------------------------------------------------------------


def _first_order(name: str, *values: Any) -> None:
    if any(isinstance(v, Tensor) for v in values):
        raise NotImplementedError(f"{name}: second derivatives are not implemented")


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


# --- expm_multiply ---------------------------------------------------------------------


def _expm_forward(xp: Any, data: Any, b: Any, *, structure: Any, trace: Any) -> Any:
    return np.asarray(spla.expm_multiply(structure.matrix(data), b, traceA=trace))


def _expm_b(g: Any, ans: Any, data: Any, b: Any, *, structure: Any, trace: Any) -> Any:
    back = None if trace is None else np.conj(trace)
    return _expm(conjugated(data), g, structure=structure.T, trace=back)


def _expm_data(g: Any, ans: Any, data: Any, b: Any, *, structure: Any, trace: Any) -> Any:
    _first_order("expm_multiply (in A)", g, ans, data, b)
    ah = structure.T.matrix(np.conj(data))
    n = ah.shape[0]
    gb = np.reshape(g, (n, -1)) @ np.reshape(b, (n, -1)).conj().T  # Ȳ Bᴴ
    block = sp.block_array([[ah, sp.csr_array(gb)], [None, ah]], format="csr")
    stacked = np.vstack([np.zeros((n, n)), np.eye(n)])
    frechet = spla.expm_multiply(block, stacked)[:n]
    return frechet[structure.row, structure.col]


_expm = Primitive("expm_multiply", _expm_forward, complex_rules=True).defvjp(_expm_data, _expm_b)


@_plain_calls_scipy
def expm_multiply(
    A: Any,  # noqa: N803
    B: ArrayLike,  # noqa: N803
    start: Any = None,
    stop: Any = None,
    num: Any = None,
    endpoint: Any = None,
    traceA: Any = None,  # noqa: N803
) -> Tensor:
    """``expm(A) @ B`` without forming ``expm(A)``. Gradients in ``B`` (every order) and in
    ``A``'s values (first order). The time grid (``start``, ``stop``, ``num``,
    ``endpoint``) with Tensors raises NotImplementedError.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import expm_multiply
    >>> a = sp.csr_array(np.array([[0.0, 1.0], [0.0, 0.0]]))
    >>> expm_multiply(a, tg.tensor([1.0, 1.0])).tolist()
    [2.0, 1.0]
    """
    if any(v is not None for v in (start, stop, num, endpoint)):
        raise NotImplementedError(
            "expm_multiply: start, stop, num and endpoint (a time grid) are not implemented "
            "with Tensors; call it once per time t on t * A"
        )
    refuse_gradient("expm_multiply", "traceA", traceA, "it is only a hint to the algorithm")
    data, structure = _operand("expm_multiply", A)
    if isinstance(structure, _Operator):
        if isinstance(structure.a, spla.LinearOperator):
            raise NotImplementedError("expm_multiply: A as a LinearOperator with Tensors")
        data, structure = constant(sp.csr_array(structure.a))
    n = _square("expm_multiply", structure)
    rhs = _rhs("expm_multiply", B, n, True)
    trace = None if traceA is None else raw(traceA)
    return _expm(data, rhs, structure=structure, trace=trace)


# --- eigsh -----------------------------------------------------------------------------


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
    gradient by minres on ``A - λ_i I``. The generalized problem (``M``) and shift-invert
    (``sigma``) with Tensors raise NotImplementedError.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy import sparse
    >>> from tapegrad.scipy.sparse.linalg import eigsh
    >>> s = sparse.csr(tg.tensor([2.0, 1.0, 1.0, 2.0]), [0, 1, 0, 1], [0, 2, 4], (2, 2))
    >>> np.round(eigsh(s, k=1, return_eigenvectors=False).numpy(), 10).tolist()
    [3.0]
    """
    if M is not None or sigma is not None or Minv is not None or OPinv is not None:
        raise NotImplementedError(
            "eigsh: M, sigma, Minv and OPinv (generalized and shift-invert modes) are not "
            "implemented with Tensors"
        )
    data, structure = _operand("eigsh", A)
    if isinstance(structure, _Operator):
        raise TypeError("eigsh: with Tensors, A must be a sparse matrix or a SparseTensor")
    _square("eigsh", structure)
    start = None if v0 is None else np.asarray(raw(v0))
    keywords = {"k": k, "which": which, "v0": start, "ncv": ncv, "maxiter": maxiter,
                "tol": tol, "mode": mode, "rng": rng}  # fmt: skip

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


__getattr__ = scipy_getattr(__name__, "scipy.sparse.linalg")
