"""The algebraic Riccati equations: solve_continuous_are, solve_discrete_are.

The forward is SciPy's solver; the gradient comes from differentiating the equation
``F(X, A, B, Q, R, E, S) = 0`` at the stabilizing solution. With the gain ``K`` and the
closed-loop matrix ``Acl = A - B K``, the linearized equation in ``dX`` is a Lyapunov
equation (``Ã = E⁻¹ Acl``, ``W = Eᵀ dX E``):

- continuous, ``Aᵀ X E + Eᵀ X A - (Eᵀ X B + S) R⁻¹ (Bᵀ X E + Sᵀ) + Q = 0``,
  ``K = R⁻¹ (Bᵀ X E + Sᵀ)``: ``Ãᵀ W + W Ã = -M``. The adjoint ``Z`` solves
  ``Ã Z + Z Ãᵀ = E⁻¹ X̄ E⁻ᵀ`` (solve_sylvester), and ``Q̄ = -Z``, ``Ā = -2 X E Z``,
  ``B̄ = 2 X E Z Kᵀ``, ``R̄ = -K Z Kᵀ``, ``Ē = -2 X Acl Z``, ``S̄ = 2 Z Kᵀ``;
- discrete, ``Aᵀ X A - Eᵀ X E - (Aᵀ X B + S)(R + Bᵀ X B)⁻¹(Bᵀ X A + Sᵀ) + Q = 0``,
  ``K = (R + Bᵀ X B)⁻¹ (Bᵀ X A + Sᵀ)``: ``W = Ãᵀ W Ã + M``. The adjoint ``Z = Ã Z Ãᵀ +
  E⁻¹ X̄ E⁻ᵀ`` (solve_discrete_lyapunov), and ``Q̄ = Z``, ``Ā = 2 X Acl Z``,
  ``B̄ = -2 X Acl Z Kᵀ``, ``R̄ = K Z Kᵀ``, ``Ē = -2 X E Z``, ``S̄ = -2 Z Kᵀ``.

``X`` is symmetric, so the cotangent ``X̄`` is symmetrized first (``Z`` is then symmetric);
``q`` and ``r`` must be symmetric (SciPy checks), and their gradients are. The rules are
built from solve_sylvester, solve_discrete_lyapunov and solves, which record: higher
derivatives work. Real matrices (complex Tensors raise NotImplementedError).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import as_input, is_complex, mT
from tapegrad.ops.primitive import Primitive, shape_of
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy
from tapegrad.scipy.linalg.matrix_equations import solve_discrete_lyapunov, solve_sylvester

__all__ = ["solve_continuous_are", "solve_discrete_are"]

ArrayLike = Any


def _forward(name: str) -> Any:
    def forward(
        xp: Any, a: Any, b: Any, q: Any, r: Any, e: Any, s: Any, *, given: tuple, balanced: bool
    ) -> Any:
        return kernel(xp, "linalg", name)(
            a, b, q, r, e=e if given[0] else None, s=s if given[1] else None, balanced=balanced
        )

    return forward


def _symmetric(g: Any) -> Any:
    return (g + mT(g)) * 0.5


def _care_adjoint(g: Any, x: Any, a: Any, b: Any, r: Any, e: Any, s: Any) -> tuple[Any, ...]:
    """``Z``, ``K`` and ``Acl`` of the continuous equation's rule (module docstring)."""
    k = linalg.solve(r, mT(b) @ x @ e + mT(s))
    closed = a - b @ k
    tilde = linalg.solve(e, closed)
    rhs = linalg.solve(e, mT(linalg.solve(e, _symmetric(g))))  # E⁻¹ X̄ E⁻ᵀ (X̄ symmetric)
    z = solve_sylvester(tilde, mT(tilde), rhs)
    return _symmetric(z), k, closed


def _dare_adjoint(g: Any, x: Any, a: Any, b: Any, r: Any, e: Any, s: Any) -> tuple[Any, ...]:
    """``Z``, ``K`` and ``Acl`` of the discrete equation's rule (module docstring)."""
    k = linalg.solve(r + mT(b) @ x @ b, mT(b) @ x @ a + mT(s))
    closed = a - b @ k
    tilde = linalg.solve(e, closed)
    rhs = linalg.solve(e, mT(linalg.solve(e, _symmetric(g))))
    z = solve_discrete_lyapunov(tilde, rhs)
    return _symmetric(z), k, closed


def _care_rules() -> tuple[Any, ...]:
    def z(g: Any, x: Any, a: Any, b: Any, q: Any, r: Any, e: Any, s: Any) -> tuple[Any, ...]:
        return _care_adjoint(g, x, a, b, r, e, s)

    return (
        lambda g, x, a, b, q, r, e, s, **p: (lambda zk: -2.0 * (x @ e @ zk[0]))(
            z(g, x, a, b, q, r, e, s)
        ),
        lambda g, x, a, b, q, r, e, s, **p: (lambda zk: 2.0 * (x @ e @ zk[0] @ mT(zk[1])))(
            z(g, x, a, b, q, r, e, s)
        ),
        lambda g, x, a, b, q, r, e, s, **p: -z(g, x, a, b, q, r, e, s)[0],
        lambda g, x, a, b, q, r, e, s, **p: (lambda zk: -(zk[1] @ zk[0] @ mT(zk[1])))(
            z(g, x, a, b, q, r, e, s)
        ),
        lambda g, x, a, b, q, r, e, s, **p: (lambda zk: -2.0 * (x @ zk[2] @ zk[0]))(
            z(g, x, a, b, q, r, e, s)
        ),
        lambda g, x, a, b, q, r, e, s, **p: (lambda zk: 2.0 * (zk[0] @ mT(zk[1])))(
            z(g, x, a, b, q, r, e, s)
        ),
    )


def _dare_rules() -> tuple[Any, ...]:
    def z(g: Any, x: Any, a: Any, b: Any, q: Any, r: Any, e: Any, s: Any) -> tuple[Any, ...]:
        return _dare_adjoint(g, x, a, b, r, e, s)

    return (
        lambda g, x, a, b, q, r, e, s, **p: (lambda zk: 2.0 * (x @ zk[2] @ zk[0]))(
            z(g, x, a, b, q, r, e, s)
        ),
        lambda g, x, a, b, q, r, e, s, **p: (lambda zk: -2.0 * (x @ zk[2] @ zk[0] @ mT(zk[1])))(
            z(g, x, a, b, q, r, e, s)
        ),
        lambda g, x, a, b, q, r, e, s, **p: z(g, x, a, b, q, r, e, s)[0],
        lambda g, x, a, b, q, r, e, s, **p: (lambda zk: zk[1] @ zk[0] @ mT(zk[1]))(
            z(g, x, a, b, q, r, e, s)
        ),
        lambda g, x, a, b, q, r, e, s, **p: (lambda zk: -2.0 * (x @ e @ zk[0]))(
            z(g, x, a, b, q, r, e, s)
        ),
        lambda g, x, a, b, q, r, e, s, **p: (lambda zk: -2.0 * (zk[0] @ mT(zk[1])))(
            z(g, x, a, b, q, r, e, s)
        ),
    )


_care = Primitive(
    "solve_continuous_are", _forward("solve_continuous_are"), complex_rules=False
).defvjp(*_care_rules())
_dare = Primitive("solve_discrete_are", _forward("solve_discrete_are"), complex_rules=False).defvjp(
    *_dare_rules()
)


def _inputs(op: str, a: Any, b: Any, q: Any, r: Any, e: Any, s: Any) -> list[Any]:
    """The six matrices (``e`` the identity, ``s`` zeros when not given), 2-d."""
    values = [as_input(v) for v in (a, b, q, r)]
    values = [ops.reshape(v, (1, 1)) if len(shape_of(v)) == 0 else v for v in values]
    a, b = values[0], values[1]
    if len(shape_of(a)) != 2 or len(shape_of(b)) != 2:
        raise ValueError(
            f"{op}: a and b must be 2-d, got shapes {tuple(shape_of(a))} and {tuple(shape_of(b))}"
        )
    n, m = shape_of(b)
    like = values[0]
    e = ops.eye(n, dtype=np.float64, like=like) if e is None else as_input(e)
    s = ops.zeros((n, m), dtype=np.float64, like=like) if s is None else as_input(s)
    values += [e, s]
    if any(is_complex(v) for v in values):
        raise NotImplementedError(
            f"{op}: complex matrices on Tensors (the rule is written for real ones); call it "
            "on NumPy arrays"
        )
    return [ops.astype(v, np.float64) for v in values]


@plain_calls_scipy("linalg")
def solve_continuous_are(
    a: ArrayLike,
    b: ArrayLike,
    q: ArrayLike,
    r: ArrayLike,
    e: ArrayLike | None = None,
    s: ArrayLike | None = None,
    balanced: bool = True,
) -> Tensor:
    """The stabilizing solution ``X`` of the continuous algebraic Riccati equation
    ``Aᵀ X E + Eᵀ X A - (Eᵀ X B + S) R⁻¹ (Bᵀ X E + Sᵀ) + Q = 0`` (``E = I``, ``S = 0``
    when not given), by SciPy's solver (``balanced``: its balancing of the pencil).
    Differentiable in all six (module docstring: a Lyapunov equation in the closed loop),
    to every order; real matrices.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve_continuous_are
    >>> one = tg.tensor([[1.0]])
    >>> x = solve_continuous_are(tg.tensor([[0.0]]), one, one, one)  # x**2 = 1
    >>> x.numpy().round(12)
    array([[1.]])
    """
    given = (e is not None, s is not None)
    values = _inputs("solve_continuous_are", a, b, q, r, e, s)
    return _care(*values, given=given, balanced=bool(balanced))


@plain_calls_scipy("linalg")
def solve_discrete_are(
    a: ArrayLike,
    b: ArrayLike,
    q: ArrayLike,
    r: ArrayLike,
    e: ArrayLike | None = None,
    s: ArrayLike | None = None,
    balanced: bool = True,
) -> Tensor:
    """The stabilizing solution ``X`` of the discrete algebraic Riccati equation
    ``Aᵀ X A - Eᵀ X E - (Aᵀ X B + S)(R + Bᵀ X B)⁻¹(Bᵀ X A + Sᵀ) + Q = 0`` (``E = I``,
    ``S = 0`` when not given), by SciPy's solver (``balanced``: its balancing).
    Differentiable in all six (module docstring), to every order; real matrices.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve_discrete_are
    >>> one = tg.tensor([[1.0]])
    >>> x = solve_discrete_are(tg.tensor([[0.0]]), one, one, one)  # -x + 1 = 0
    >>> x.numpy().round(12)
    array([[1.]])
    """
    given = (e is not None, s is not None)
    values = _inputs("solve_discrete_are", a, b, q, r, e, s)
    return _dare(*values, given=given, balanced=bool(balanced))
