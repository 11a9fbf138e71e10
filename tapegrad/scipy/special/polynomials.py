"""Orthogonal polynomials eval_jacobi eval_legendre eval_gegenbauer eval_chebyt eval_chebyu
eval_chebyc eval_chebys eval_sh_legendre eval_sh_chebyt eval_sh_chebyu eval_hermite
eval_hermitenorm eval_laguerre eval_genlaguerre, and the spherical harmonics sph_harm_y.

Differentiable in ``x`` through the classical relations (DLMF 18.9.15-18.9.23), which
hold for SciPy's non-integer degrees too (its hypergeometric definitions):
``P_n^{(α,β)}' = (n+α+β+1)/2 P_{n-1}^{(α+1,β+1)}``, ``C_n^{(α)}' = 2α C_{n-1}^{(α+1)}``,
``T_n' = n U_{n-1}``, ``U_n' = 2 C_{n-1}^{(2)}``, ``H_n' = 2n H_{n-1}``, ``He_n' = n He_{n-1}``,
``L_n^{(α)}' = -L_{n-1}^{(α+1)}`` (Legendre is Jacobi's α = β = 0), each in the polynomials
themselves, so every order is available; complex ``x`` too (they are holomorphic). The
degree and the parameters α, β have no gradient (LookupError).

``sph_harm_y``'s derivatives in θ and φ are SciPy's own (``diff_n=1, 2``): its first and
second derivatives are available, a third raises LookupError.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like

ArrayLike = Any


def _fixed(name: str, *arguments: tuple[str, Any]) -> None:
    for label, value in arguments:
        refuse_gradient(name, label, value, "it is a degree or parameter of the polynomial")


def _lower(n: Any) -> tuple[Any, Any]:
    """``(n == 0, n - 1)`` with degree 0 moved to 1 (its derivative is masked to 0)."""
    zero = ops.equal(n, 0)
    return zero, ops.subtract(ops.where(zero, 1, n), 1)


def _masked(zero: Any, value: Any) -> Any:
    return ops.where(zero, 0.0, value)


def _rule_x(derivative: Any) -> Any:
    """The rule of the last input ``x`` from ``derivative(*inputs)``."""

    def rule(g: Any, ans: Any, *inputs: Any) -> Any:
        return unbroadcast_like(g * ops.conj(derivative(*inputs)), inputs[-1])

    return rule


def _polynomial(name: str, arity: int, derivative: Any) -> Primitive:
    return special_primitive(name, *([None] * (arity - 1)), _rule_x(derivative), complex_rules=True)


def _jacobi_dx(n: Any, alpha: Any, beta: Any, x: Any) -> Any:
    zero, lower = _lower(n)
    scale = (ops.add(ops.add(n, alpha), beta) + 1.0) * 0.5
    return _masked(zero, scale * _jacobi(lower, ops.add(alpha, 1.0), ops.add(beta, 1.0), x))


_jacobi = _polynomial("eval_jacobi", 4, _jacobi_dx)


@plain_calls_scipy("special")
def eval_jacobi(n: ArrayLike, alpha: ArrayLike, beta: ArrayLike, x: ArrayLike) -> Tensor:
    """The Jacobi polynomial ``P_n^{(α,β)}(x)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_jacobi
    >>> eval_jacobi(1, 0.0, 0.0, tg.tensor(0.5)).item()  # P_1 = x
    0.5
    """
    _fixed("eval_jacobi", ("the degree n", n), ("alpha", alpha), ("beta", beta))
    return _jacobi(n, alpha, beta, x)


def _legendre_dx(n: Any, x: Any) -> Any:
    zero, lower = _lower(n)
    return _masked(zero, (ops.add(n, 1.0) * 0.5) * _jacobi(lower, 1.0, 1.0, x))


_legendre = _polynomial("eval_legendre", 2, _legendre_dx)


@plain_calls_scipy("special")
def eval_legendre(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The Legendre polynomial ``P_n(x)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_legendre
    >>> eval_legendre(2, tg.tensor(1.0)).item()
    1.0
    """
    _fixed("eval_legendre", ("the degree n", n))
    return _legendre._binary(n, x)


def _gegenbauer_dx(n: Any, alpha: Any, x: Any) -> Any:
    zero, lower = _lower(n)
    return _masked(zero, ops.multiply(alpha, 2.0) * _gegenbauer(lower, ops.add(alpha, 1.0), x))


_gegenbauer = _polynomial("eval_gegenbauer", 3, _gegenbauer_dx)


@plain_calls_scipy("special")
def eval_gegenbauer(n: ArrayLike, alpha: ArrayLike, x: ArrayLike) -> Tensor:
    """The Gegenbauer polynomial ``C_n^{(α)}(x)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_gegenbauer
    >>> eval_gegenbauer(1, 1.0, tg.tensor(0.5)).item()  # 2 α x
    1.0
    """
    _fixed("eval_gegenbauer", ("the degree n", n), ("alpha", alpha))
    return _gegenbauer(n, alpha, x)


def _chebyt_dx(n: Any, x: Any) -> Any:
    zero, lower = _lower(n)
    return _masked(zero, n * _chebyu(lower, x))


def _chebyu_dx(n: Any, x: Any) -> Any:
    zero, lower = _lower(n)
    return _masked(zero, 2.0 * _gegenbauer(lower, 2.0, x))


_chebyt = _polynomial("eval_chebyt", 2, _chebyt_dx)
_chebyu = _polynomial("eval_chebyu", 2, _chebyu_dx)


@plain_calls_scipy("special")
def eval_chebyt(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The Chebyshev polynomial of the first kind ``T_n(x)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_chebyt
    >>> eval_chebyt(2, tg.tensor(0.5)).item()  # 2x² - 1
    -0.5
    """
    _fixed("eval_chebyt", ("the degree n", n))
    return _chebyt._binary(n, x)


@plain_calls_scipy("special")
def eval_chebyu(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The Chebyshev polynomial of the second kind ``U_n(x)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_chebyu
    >>> eval_chebyu(2, tg.tensor(0.5)).item()  # 4x² - 1
    0.0
    """
    _fixed("eval_chebyu", ("the degree n", n))
    return _chebyu._binary(n, x)


# chebyc(n, x) = 2 T_n(x/2), chebys(n, x) = U_n(x/2); the shifted ones are of 2x - 1
_chebyc = _polynomial("eval_chebyc", 2, lambda n, x: _chebyt_dx(n, x * 0.5))
_chebys = _polynomial("eval_chebys", 2, lambda n, x: 0.5 * _chebyu_dx(n, x * 0.5))
_sh_chebyt = _polynomial("eval_sh_chebyt", 2, lambda n, x: 2.0 * _chebyt_dx(n, 2.0 * x - 1.0))
_sh_chebyu = _polynomial("eval_sh_chebyu", 2, lambda n, x: 2.0 * _chebyu_dx(n, 2.0 * x - 1.0))
_sh_legendre = _polynomial("eval_sh_legendre", 2, lambda n, x: 2.0 * _legendre_dx(n, 2.0 * x - 1.0))


@plain_calls_scipy("special")
def eval_chebyc(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The Chebyshev polynomial ``C_n(x) = 2 T_n(x/2)`` on [-2, 2], differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_chebyc
    >>> eval_chebyc(1, tg.tensor(1.5)).item()
    1.5
    """
    _fixed("eval_chebyc", ("the degree n", n))
    return _chebyc._binary(n, x)


@plain_calls_scipy("special")
def eval_chebys(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The Chebyshev polynomial ``S_n(x) = U_n(x/2)`` on [-2, 2], differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_chebys
    >>> eval_chebys(1, tg.tensor(1.5)).item()
    1.5
    """
    _fixed("eval_chebys", ("the degree n", n))
    return _chebys._binary(n, x)


@plain_calls_scipy("special")
def eval_sh_chebyt(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The shifted Chebyshev polynomial ``T_n(2x - 1)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_sh_chebyt
    >>> eval_sh_chebyt(1, tg.tensor(0.75)).item()
    0.5
    """
    _fixed("eval_sh_chebyt", ("the degree n", n))
    return _sh_chebyt._binary(n, x)


@plain_calls_scipy("special")
def eval_sh_chebyu(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The shifted Chebyshev polynomial ``U_n(2x - 1)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_sh_chebyu
    >>> eval_sh_chebyu(1, tg.tensor(0.75)).item()
    1.0
    """
    _fixed("eval_sh_chebyu", ("the degree n", n))
    return _sh_chebyu._binary(n, x)


@plain_calls_scipy("special")
def eval_sh_legendre(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The shifted Legendre polynomial ``P_n(2x - 1)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_sh_legendre
    >>> eval_sh_legendre(1, tg.tensor(0.75)).item()
    0.5
    """
    _fixed("eval_sh_legendre", ("the degree n", n))
    return _sh_legendre._binary(n, x)


def _hermite_dx(n: Any, x: Any) -> Any:
    zero, lower = _lower(n)
    return _masked(zero, ops.multiply(n, 2.0) * _hermite(lower, x))


def _hermitenorm_dx(n: Any, x: Any) -> Any:
    zero, lower = _lower(n)
    return _masked(zero, n * _hermitenorm(lower, x))


_hermite = _polynomial("eval_hermite", 2, _hermite_dx)
_hermitenorm = _polynomial("eval_hermitenorm", 2, _hermitenorm_dx)


@plain_calls_scipy("special")
def eval_hermite(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The physicists' Hermite polynomial ``H_n(x)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_hermite
    >>> round(eval_hermite(2, tg.tensor(1.0)).item(), 12)  # 4x² - 2
    2.0
    """
    _fixed("eval_hermite", ("the degree n", n))
    return _hermite._binary(n, x)


@plain_calls_scipy("special")
def eval_hermitenorm(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The probabilists' Hermite polynomial ``He_n(x)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_hermitenorm
    >>> eval_hermitenorm(2, tg.tensor(2.0)).item()  # x² - 1
    3.0
    """
    _fixed("eval_hermitenorm", ("the degree n", n))
    return _hermitenorm._binary(n, x)


def _genlaguerre_dx(n: Any, alpha: Any, x: Any) -> Any:
    zero, lower = _lower(n)
    return _masked(zero, -_genlaguerre(lower, ops.add(alpha, 1.0), x))


_genlaguerre = _polynomial("eval_genlaguerre", 3, _genlaguerre_dx)
_laguerre = _polynomial("eval_laguerre", 2, lambda n, x: _genlaguerre_dx(n, 0.0, x))


@plain_calls_scipy("special")
def eval_genlaguerre(n: ArrayLike, alpha: ArrayLike, x: ArrayLike) -> Tensor:
    """The generalized Laguerre polynomial ``L_n^{(α)}(x)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_genlaguerre
    >>> eval_genlaguerre(1, 1.0, tg.tensor(0.5)).item()  # 1 + α - x
    1.5
    """
    _fixed("eval_genlaguerre", ("the degree n", n), ("alpha", alpha))
    return _genlaguerre(n, alpha, x)


@plain_calls_scipy("special")
def eval_laguerre(n: ArrayLike, x: ArrayLike) -> Tensor:
    """The Laguerre polynomial ``L_n(x)``, differentiable in ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import eval_laguerre
    >>> eval_laguerre(1, tg.tensor(0.25)).item()  # 1 - x
    0.75
    """
    _fixed("eval_laguerre", ("the degree n", n))
    return _laguerre._binary(n, x)


# --- spherical harmonics -----------------------------------------------------------------


def _sph_harm_forward(xp: Any, n: Any, m: Any, theta: Any, phi: Any, *, level: int) -> Any:
    found = kernel(xp, "special", "sph_harm_y")
    if level == 0:
        return found(n, m, theta, phi)
    return found(n, m, theta, phi, diff_n=level)[level]


def _sph_harm_rule(k: int) -> Any:
    def rule(g: Any, ans: Any, n: Any, m: Any, theta: Any, phi: Any, *, level: int) -> Any:
        if level >= 2:
            raise LookupError(
                "sph_harm_y: no third derivative in theta or phi (SciPy's diff_n stops at 2)"
            )
        higher = _sph_harm_y[level + 1](n, m, theta, phi, level=level + 1)
        term = g * ops.conj(higher[..., k])
        if level:
            term = ops.sum(term, axis=tuple(range(-level, 0)))
        return unbroadcast_like(term, (theta, phi)[k])

    return rule


# the function (level 0), its gradient in (θ, φ) (level 1, a last axis of 2), its Hessian
_sph_harm_y = [
    Primitive(f"sph_harm_y[{level}]", _sph_harm_forward, complex_rules=True).defvjp(
        None, None, _sph_harm_rule(0), _sph_harm_rule(1)
    )
    for level in range(3)
]


@plain_calls_scipy("special")
def sph_harm_y(
    n: ArrayLike, m: ArrayLike, theta: ArrayLike, phi: ArrayLike, *, diff_n: int = 0
) -> Any:
    """The spherical harmonic ``Y_n^m(θ, φ)`` (θ polar, φ azimuthal), complex; with
    ``diff_n`` = 1 or 2 also its derivatives, as SciPy returns them (a tuple: the value, the
    gradient in (θ, φ) on a last axis of 2, the Hessian on two). Differentiable in θ and φ
    to second order; the integers ``n`` and ``m`` have no gradient.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import sph_harm_y
    >>> round(sph_harm_y(0, 0, tg.tensor(0.3), 0.0).item().real, 12)  # 1 / (2 √π)
    0.282094791774
    """
    refuse_gradient("sph_harm_y", "the degree n", n, "it is an integer")
    refuse_gradient("sph_harm_y", "the order m", m, "it is an integer")
    if diff_n not in (0, 1, 2):
        raise ValueError(f"sph_harm_y: diff_n must be 0, 1 or 2, got {diff_n!r}")
    levels = [_sph_harm_y[level](n, m, theta, phi, level=level) for level in range(diff_n + 1)]
    return levels[0] if diff_n == 0 else tuple(levels)
