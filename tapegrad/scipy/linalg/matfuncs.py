"""Matrix functions: expm sqrtm, and the Sylvester solver sqrtm's rule needs.

- ``expm``: the VJP is the Fréchet derivative at Aᴴ, L(Aᴴ, Ḡ), read off the upper-right
  block of ``expm([[Aᴴ, Ḡ], [0, Aᴴ]])`` (Mathias 1996): built from ``expm`` itself, so
  every order of derivative works (each order doubles the matrix).
- ``sqrtm``: X X = A gives X dX + dX X = dA, so Ā solves Xᴴ Ā + Ā Xᴴ = X̄ (a Sylvester
  equation).
- ``solve_sylvester``: Y with A Y + Y B = Q. Z = solve_sylvester(Aᴴ, Bᴴ, Ȳ) gives
  Q̄ = Z, Ā = -Z Yᴴ, B̄ = -Yᴴ Z.

The conjugate transposes (Aᵀ for real A) make the rules hold for complex matrices in
tapegrad's convention (docs/complex.md), and for a real matrix with a complex square root.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import mH
from tapegrad.ops.primitive import Primitive, shape_of, unbroadcast
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy

__all__ = ["expm", "solve_sylvester", "sqrtm"]

ArrayLike = Any


def _expm_vjp(g: Any, ans: Any, a: Any) -> Any:
    n = shape_of(a)[-1]
    at = mH(a)
    zeros = ops.zeros_like(at)
    block = ops.concatenate(
        [ops.concatenate([at, g], axis=-1), ops.concatenate([zeros, at], axis=-1)], axis=-2
    )
    return expm(block)[..., :n, n:]


_expm = Primitive("expm", lambda xp, a: kernel(xp, "linalg", "expm")(a), complex_rules=True).defvjp(
    _expm_vjp
)


@plain_calls_scipy("linalg")
def expm(A: ArrayLike) -> Tensor:  # noqa: N803 - SciPy's name
    """The matrix exponential (batched over leading axes).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import expm
    >>> expm(tg.tensor([[0.0, 1.0], [0.0, 0.0]])).numpy()
    array([[1., 1.],
           [0., 1.]])
    """
    return _expm._unary(A)


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


# Ā solves Xᴴ Ā + Ā Xᴴ = X̄
_sqrtm = Primitive(
    "sqrtm", lambda xp, a: kernel(xp, "linalg", "sqrtm")(a), complex_rules=True
).defvjp(lambda g, ans, a: solve_sylvester(mH(ans), mH(ans), g))


@plain_calls_scipy("linalg")
def sqrtm(A: ArrayLike) -> Tensor:  # noqa: N803 - SciPy's name
    """The principal square root ``X`` of ``A`` (``X @ X == A``). Real when ``A`` has no
    negative real eigenvalues; a complex root otherwise, differentiable as every complex
    value is (a real ``A`` gets the real part of its complex cotangent).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import sqrtm
    >>> sqrtm(tg.tensor([[4.0, 0.0], [0.0, 9.0]])).numpy()
    array([[2., 0.],
           [0., 3.]])
    """
    return _sqrtm._unary(A)
