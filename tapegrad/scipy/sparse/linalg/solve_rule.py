"""What the sparse solvers share: the operand (a SciPy sparse matrix, dense array or
LinearOperator as a constant, or a SparseTensor's values on its pattern) and right-hand-side
checks, and ``x = A⁻¹ b`` by any solver as one primitive: ``b̄ = A⁻ᴴ x̄`` by the same
solver and ``Ā_ij = -b̄_i conj(x_j)`` on the pattern.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, conjugated, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.sparse._tensor import SparseTensor, constant

__all__: list[str] = []


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


def _first_order(name: str, *values: Any) -> None:
    if any(isinstance(v, Tensor) for v in values):
        raise NotImplementedError(f"{name}: second derivatives are not implemented")
