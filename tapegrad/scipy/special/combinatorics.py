"""The gamma function's extensions and the counts built on it: loggamma gammasgn binom
factorial comb bernoulli; and the Box-Cox transforms boxcox boxcox1p.

``loggamma`` and ``factorial(extend='complex')`` take complex arguments (their first
derivative is SciPy's complex digamma; SciPy has no complex trigamma, so a second
derivative there raises NotImplementedError). ``factorial`` and ``comb`` with
``exact=False`` are the gamma function's and ``binom``'s, differentiable in real ``n``
(``N`` and ``k``) as JAX's are; with ``exact=True`` they are SciPy's exact integers, and a
gradient raises LookupError. ``gammasgn`` is piecewise constant: its gradient is zero
wherever it is defined.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like
from tapegrad.scipy.special.gamma import digamma, polygamma

ArrayLike = Any


def _psi_rule(g: Any, ans: Any, z: Any) -> Any:
    if np.iscomplexobj(raw(z)):
        raise NotImplementedError(
            "scipy.special.loggamma/factorial: no second derivative for complex arguments "
            "(it is the complex trigamma function, which SciPy does not compute)"
        )
    return g * polygamma(1, z)


# digamma for real and complex arguments (gamma.py's is real only)
_psi = special_primitive("psi", _psi_rule, complex_rules=True)
_gamma = special_primitive(
    "gamma", lambda g, ans, z: g * ops.conj(ans * _psi(z)), complex_rules=True
)
_loggamma = special_primitive(
    "loggamma", lambda g, ans, z: g * ops.conj(_psi(z)), complex_rules=True
)


@plain_calls_scipy("special")
def loggamma(z: ArrayLike) -> Tensor:
    """The principal branch of ``log Γ(z)``: real for real ``z > 0`` (NaN below 0, as
    SciPy), and complex for complex ``z``; its derivative is the digamma function.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import loggamma
    >>> round(loggamma(tg.tensor(5.0)).item(), 12)  # log(4!)
    3.178053830348
    """
    return _loggamma._unary(z)


# piecewise constant: zero gradient wherever it is defined
_gammasgn = special_primitive("gammasgn", lambda g, ans, x: g * 0.0)


@plain_calls_scipy("special")
def gammasgn(x: ArrayLike) -> Tensor:
    """The sign of ``Γ(x)`` (real ``x``). It is piecewise constant, so its gradient is
    zero wherever it is defined (it jumps at the poles 0, -1, -2, ...).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import gammasgn
    >>> gammasgn(tg.tensor(-0.5)).item()
    -1.0
    """
    return _gammasgn._unary(x)


# binom(n, k) = Γ(n + 1) / (Γ(k + 1) Γ(n - k + 1)): log-derivatives in digamma
def _binom_dn(g: Any, ans: Any, n: Any, k: Any) -> Any:
    rest = ops.add(ops.subtract(n, k), 1.0)
    return unbroadcast_like(g * ans * (digamma(ops.add(n, 1.0)) - digamma(rest)), n)


def _binom_dk(g: Any, ans: Any, n: Any, k: Any) -> Any:
    rest = ops.add(ops.subtract(n, k), 1.0)
    return unbroadcast_like(g * ans * (digamma(rest) - digamma(ops.add(k, 1.0))), k)


_binom = special_primitive("binom", _binom_dn, _binom_dk)


@plain_calls_scipy("special")
def binom(x: ArrayLike, y: ArrayLike) -> Tensor:
    """The binomial coefficient of real arguments ``Γ(x + 1) / (Γ(y + 1) Γ(x - y + 1))``,
    differentiable in both (away from the poles of the gammas).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import binom
    >>> binom(tg.tensor(5.0), 2.0).item()
    10.0
    """
    return _binom._binary(x, y)


def _exact(name: str, *values: Any) -> list[Any]:
    """The values of ``exact=True``'s arguments, refused on a tape, as SciPy takes them."""
    for value in values:
        refuse_gradient(name, "its arguments with exact=True", value, "the result is an integer")
    return _exact_values(*values)


def _exact_values(*values: Any) -> list[Any]:
    """Tensors' values as SciPy takes them (0-d arrays as NumPy scalars)."""
    out = []
    for value in values:
        data = np.asarray(raw(value)) if isinstance(value, Tensor) else value
        out.append(data[()] if isinstance(data, np.ndarray) and data.ndim == 0 else data)
    return out


def _is_complex(value: Any) -> bool:
    return np.iscomplexobj(raw(value))


@plain_calls_scipy("special")
def factorial(n: ArrayLike, exact: bool = False, extend: str = "zero") -> Any:
    """``n! = Γ(n + 1)``, with SciPy's options: ``exact=False`` is the gamma function,
    differentiable in real (with ``extend='complex'``, also complex) ``n``; ``extend='zero'``
    gives 0 for ``n < 0`` (gradient 0 there), ``'complex'`` the gamma function everywhere
    (NaN at -1, as SciPy). ``exact=True`` is SciPy's exact integers, with no gradient.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import factorial
    >>> factorial(tg.tensor(4.0)).item()
    24.0
    """
    if extend not in ("zero", "complex"):
        raise ValueError(
            f"factorial: argument `extend` must be either 'zero' or 'complex', received: {extend}"
        )
    if exact:
        if extend == "complex":
            raise ValueError("factorial: incompatible options `exact=True` and `extend='complex'`")
        return scipy.special.factorial(*_exact("factorial", n), exact=True)
    n = n if isinstance(n, Tensor) else ops.asarray(n)
    if extend == "zero":
        if _is_complex(n):
            raise ValueError(
                "factorial: complex n needs extend='complex' (SciPy's default, extend='zero', "
                "takes real n)"
            )
        negative = ops.less(n, 0)
        safe = ops.where(negative, 0.0, n)  # no pole in the branch where() discards
        return ops.where(negative, 0.0, _gamma._unary(ops.add(safe, 1.0)))
    if _is_complex(n):
        return _gamma._unary(ops.add(n, 1.0))
    at_pole = ops.equal(n, -1.0)  # SciPy gives NaN there, not Γ(0) = inf
    safe = ops.where(at_pole, 0.0, n)
    return ops.where(at_pole, np.nan, _gamma._unary(ops.add(safe, 1.0)))


@plain_calls_scipy("special")
def comb(N: ArrayLike, k: ArrayLike, *, exact: bool = False, repetition: bool = False) -> Any:
    """The number of combinations of ``N`` things taken ``k`` at a time, with SciPy's
    options: ``exact=False`` is :func:`binom` (0 where ``k > N``, ``N < 0`` or ``k < 0``),
    differentiable in real ``N`` and ``k``; ``repetition=True`` counts with repetition,
    ``binom(N + k - 1, k)``. ``exact=True`` is SciPy's exact integer, with no gradient.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import comb
    >>> comb(tg.tensor(10.0), 3.0).item()
    120.0
    """
    if exact:
        return scipy.special.comb(*_exact("comb", N, k), exact=True, repetition=repetition)
    N = N if isinstance(N, Tensor) else ops.asarray(N)
    k = k if isinstance(k, Tensor) else ops.asarray(k)
    if repetition:
        one = ops.logical_and(ops.equal(k, 0), ops.greater_equal(N, 0))
        return ops.where(one, 1.0, binom(ops.subtract(ops.add(N, k), 1.0), k))
    inside = ops.logical_and(
        ops.logical_and(ops.less_equal(k, N), ops.greater_equal(N, 0)), ops.greater_equal(k, 0)
    )
    return ops.where(inside, binom(N, k), 0.0)


@plain_calls_scipy("special")
def bernoulli(n: ArrayLike) -> Any:
    """The Bernoulli numbers ``B_0 .. B_n`` (SciPy's); on a Tensor ``n`` a constant Tensor
    (the integer ``n`` has no gradient: LookupError).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import bernoulli
    >>> bernoulli(tg.tensor(2)).numpy()
    array([ 1.        , -0.5       ,  0.16666667])
    """
    refuse_gradient("bernoulli", "n", n, "it is an integer")
    return Tensor(scipy.special.bernoulli(*_exact_values(n)))


# --- Box-Cox ---------------------------------------------------------------------------------


def _boxcox_dlmbda(log_x: Any, lmbda: Any) -> Any:
    """d/dλ of expm1(λ L) / λ, with L = log x: L² h(λ L), h(u) = (u e^u - expm1(u)) / u²,
    by its series where u is small (the closed form cancels there); L²/2 at λ = 0."""
    u = ops.multiply(lmbda, log_x)
    small = ops.less(ops.abs(u), 1e-3)
    safe = ops.where(small, 1.0, u)
    closed = (safe * ops.exp(safe) - ops.expm1(safe)) / ops.square(safe)
    series = 0.5 + u * (1.0 / 3.0 + u * (1.0 / 8.0 + u * (1.0 / 30.0)))
    return ops.square(log_x) * ops.where(small, series, closed)


_boxcox = special_primitive(
    "boxcox",
    lambda g, ans, x, lmbda: unbroadcast_like(g * ops.exp((lmbda - 1.0) * ops.log(x)), x),
    lambda g, ans, x, lmbda: unbroadcast_like(g * _boxcox_dlmbda(ops.log(x), lmbda), lmbda),
)


@plain_calls_scipy("special")
def boxcox(x: ArrayLike, lmbda: ArrayLike) -> Tensor:
    """The Box-Cox transform ``(x^λ - 1) / λ`` (``log x`` at λ = 0), differentiable in
    ``x`` (``x^(λ-1)``) and ``λ``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import boxcox
    >>> boxcox(tg.tensor(4.0), 0.5).item()
    2.0
    """
    return _boxcox._binary(x, lmbda)


_boxcox1p = special_primitive(
    "boxcox1p",
    lambda g, ans, x, lmbda: unbroadcast_like(g * ops.exp((lmbda - 1.0) * ops.log1p(x)), x),
    lambda g, ans, x, lmbda: unbroadcast_like(g * _boxcox_dlmbda(ops.log1p(x), lmbda), lmbda),
)


@plain_calls_scipy("special")
def boxcox1p(x: ArrayLike, lmbda: ArrayLike) -> Tensor:
    """The Box-Cox transform of ``1 + x``: ``((1 + x)^λ - 1) / λ`` (``log1p(x)`` at
    λ = 0), differentiable in ``x`` and ``λ``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import boxcox1p
    >>> boxcox1p(tg.tensor(3.0), 0.5).item()
    2.0
    """
    return _boxcox1p._binary(x, lmbda)


# The inverses: x = inv_boxcox(y, λ) solves boxcox(x, λ) = y, so dx/dy = x^(1-λ) and, by the
# implicit-function theorem, dx/dλ = -x^(1-λ) d/dλ boxcox(x, λ).
def _inv_boxcox_dy(x_log: Any, lmbda: Any) -> Any:
    return ops.exp((1.0 - lmbda) * x_log)


_inv_boxcox = special_primitive(
    "inv_boxcox",
    lambda g, ans, y, lmbda: unbroadcast_like(g * _inv_boxcox_dy(ops.log(ans), lmbda), y),
    lambda g, ans, y, lmbda: unbroadcast_like(
        -g * _inv_boxcox_dy(ops.log(ans), lmbda) * _boxcox_dlmbda(ops.log(ans), lmbda), lmbda
    ),
)
_inv_boxcox1p = special_primitive(
    "inv_boxcox1p",
    lambda g, ans, y, lmbda: unbroadcast_like(g * _inv_boxcox_dy(ops.log1p(ans), lmbda), y),
    lambda g, ans, y, lmbda: unbroadcast_like(
        -g * _inv_boxcox_dy(ops.log1p(ans), lmbda) * _boxcox_dlmbda(ops.log1p(ans), lmbda),
        lmbda,
    ),
)


@plain_calls_scipy("special")
def inv_boxcox(y: ArrayLike, lmbda: ArrayLike) -> Tensor:
    """The inverse of :func:`boxcox`: ``(1 + λ y)^(1/λ)`` (``exp(y)`` at λ = 0),
    differentiable in ``y`` and ``λ``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import inv_boxcox
    >>> inv_boxcox(tg.tensor(2.0), 0.5).item()
    4.0
    """
    return _inv_boxcox._binary(y, lmbda)


@plain_calls_scipy("special")
def inv_boxcox1p(y: ArrayLike, lmbda: ArrayLike) -> Tensor:
    """The inverse of :func:`boxcox1p`: ``(1 + λ y)^(1/λ) - 1``, differentiable in ``y``
    and ``λ``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import inv_boxcox1p
    >>> inv_boxcox1p(tg.tensor(2.0), 0.5).item()
    3.0
    """
    return _inv_boxcox1p._binary(y, lmbda)
