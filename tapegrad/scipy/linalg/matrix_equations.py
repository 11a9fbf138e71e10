"""The linear matrix equations: solve_sylvester, solve_continuous_lyapunov (and SciPy's
alias solve_lyapunov), solve_discrete_lyapunov; SciPy's solvers forward.

- ``solve_sylvester``: Y with A Y + Y B = Q. Z = solve_sylvester(Aᴴ, Bᴴ, Ȳ) gives
  Q̄ = Z, Ā = -Z Yᴴ, B̄ = -Yᴴ Z.
- ``solve_continuous_lyapunov``: solve_sylvester with B = Aᴴ, as SciPy solves it.
- ``solve_discrete_lyapunov``: X = A X Aᴴ + Q. Z = solve_discrete_lyapunov(Aᴴ, Ḡ)
  (Z = Aᴴ Z A + Ḡ) gives Q̄ = Z, Ā = Z A Xᴴ + Zᴴ A X.

The rules are built from the solvers themselves, so higher derivatives work; the conjugate
transposes make them hold for complex matrices (docs/complex.md).
"""

from __future__ import annotations

from typing import Any

from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import as_input, mH
from tapegrad.ops.primitive import Primitive, shape_of, unbroadcast
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy

__all__ = [
    "solve_continuous_lyapunov", "solve_discrete_lyapunov", "solve_lyapunov", "solve_sylvester",
]  # fmt: skip

ArrayLike = Any


def _sylvester_forward(xp: Any, a: Any, b: Any, q: Any) -> Any:
    return kernel(xp, "linalg", "solve_sylvester")(a, b, q)


def _sylvester_adjoint(g: Any, a: Any, b: Any) -> Any:
    """Z with Aᴴ Z + Z Bᴴ = Ḡ: the cotangent of Q, and the start of A's and B's."""
    return solve_sylvester(mH(a), mH(b), g)


_solve_sylvester = Primitive("solve_sylvester", _sylvester_forward, complex_rules=True).defvjp(
    lambda g, ans, a, b, q: unbroadcast(-_sylvester_adjoint(g, a, b) @ mH(ans), shape_of(a)),
    lambda g, ans, a, b, q: unbroadcast(-mH(ans) @ _sylvester_adjoint(g, a, b), shape_of(b)),
    lambda g, ans, a, b, q: unbroadcast(_sylvester_adjoint(g, a, b), shape_of(q)),
)


@plain_calls_scipy("linalg")
def solve_sylvester(a: ArrayLike, b: ArrayLike, q: ArrayLike) -> Tensor:
    """``x`` with ``a x + x b = q``; differentiable in all three.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve_sylvester
    >>> solve_sylvester(tg.tensor([[1.0]]), [[2.0]], [[6.0]]).numpy()
    array([[2.]])
    """
    return _solve_sylvester(a, b, q)


def _square(name: str, a: Any) -> Any:
    a = as_input(a)
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(
            f"{name}: expected a square matrix (or a stack of them), got shape {shape}"
        )
    return a


@plain_calls_scipy("linalg")
def solve_continuous_lyapunov(a: ArrayLike, q: ArrayLike) -> Tensor:
    """``x`` with ``a x + x aᴴ = q``: :func:`solve_sylvester` with ``b = aᴴ``, as SciPy
    solves it; differentiable in ``a`` and ``q``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve_continuous_lyapunov
    >>> solve_continuous_lyapunov(tg.tensor([[2.0]]), tg.tensor([[8.0]])).numpy()
    array([[2.]])
    """
    a = _square("solve_continuous_lyapunov", a)
    return solve_sylvester(a, mH(a), q)


# SciPy's alias: the same function.
solve_lyapunov = solve_continuous_lyapunov


def _lyapunov_forward(xp: Any, a: Any, q: Any, method: str | None) -> Any:
    return kernel(xp, "linalg", "solve_discrete_lyapunov")(a, q, method=method)


def _lyapunov_adjoint(g: Any, a: Any, method: str | None) -> Any:
    """Z with Z = Aᴴ Z A + Ḡ."""
    return solve_discrete_lyapunov(mH(a), g, method=method)


_solve_discrete_lyapunov = Primitive(
    "solve_discrete_lyapunov", _lyapunov_forward, complex_rules=True
).defvjp(
    lambda g, ans, a, q, method: (lambda z: z @ a @ mH(ans) + mH(z) @ a @ ans)(
        _lyapunov_adjoint(g, a, method)
    ),
    lambda g, ans, a, q, method: _lyapunov_adjoint(g, a, method),
)


@plain_calls_scipy("linalg")
def solve_discrete_lyapunov(a: ArrayLike, q: ArrayLike, method: str | None = None) -> Tensor:
    """``x`` with ``a x aᴴ - x + q = 0``; differentiable in ``a`` and ``q`` (``method``:
    SciPy's 'direct' or 'bilinear', the same solution to rounding).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve_discrete_lyapunov
    >>> solve_discrete_lyapunov(tg.tensor([[0.5]]), tg.tensor([[3.0]])).numpy()
    array([[4.]])
    """
    if method not in (None, "direct", "bilinear"):
        raise ValueError(
            f"solve_discrete_lyapunov: unknown method {method!r} (SciPy's: 'direct', 'bilinear')"
        )
    a = _square("solve_discrete_lyapunov", a)
    return _solve_discrete_lyapunov(a, q, method=method)
