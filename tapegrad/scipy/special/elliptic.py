"""Elliptic integrals ellipk ellipkm1 ellipe ellipkinc ellipeinc, and the Lambert W function
lambertw.

The complete integrals' derivatives are each other's combinations (DLMF 19.4.1):
``dK/dm = (E - (1-m) K) / (2m (1-m))``, ``dE/dm = (E - K) / (2m)``; the incomplete ones
(DLMF 19.4.2, 19.4.4, in the parameter m = k²):
``dF/dφ = 1/Δ``, ``dE/dφ = Δ`` with ``Δ = sqrt(1 - m sin²φ)``,
``dF/dm = E(φ|m) / (2m(1-m)) - F(φ|m) / (2m) - sin 2φ / (4 (1-m) Δ)``,
``dE/dm = (E(φ|m) - F(φ|m)) / (2m)``. All are written in the functions themselves, so
every order is available; at ``m = 0`` the formulas are 0/0 (SciPy's values are fine,
the gradient there is NaN). ``lambertw``'s ``W' = e^{-W} / (1 + W)`` is holomorphic.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like

ArrayLike = Any


def _dk_dm(m: Any) -> Any:
    one_minus = 1.0 - m
    return (ellipe(m) - one_minus * ellipk(m)) / (2.0 * m * one_minus)


_ellipk = special_primitive("ellipk", lambda g, ans, m: g * _dk_dm(m))


@plain_calls_scipy("special")
def ellipk(m: ArrayLike) -> Tensor:
    """The complete elliptic integral of the first kind ``K(m)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import ellipk
    >>> ellipk(tg.tensor(0.0)).item() * 2  # π
    3.141592653589793
    """
    return _ellipk._unary(m)


# ellipkm1(p) = K(1 - p): d/dp = -K'(1 - p) = -(E(1-p) - p K) / (2 (1-p) p)
_ellipkm1 = special_primitive(
    "ellipkm1",
    lambda g, ans, p: -g * (ellipe(1.0 - p) - p * ellipkm1(p)) / (2.0 * p * (1.0 - p)),
)


@plain_calls_scipy("special")
def ellipkm1(p: ArrayLike) -> Tensor:
    """``K(1 - p)``, accurate for small ``p`` (m near 1).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import ellipkm1
    >>> ellipkm1(tg.tensor(1.0)).item() * 2  # π
    3.141592653589793
    """
    return _ellipkm1._unary(p)


_ellipe = special_primitive("ellipe", lambda g, ans, m: g * (ans - ellipk(m)) / (2.0 * m))


@plain_calls_scipy("special")
def ellipe(m: ArrayLike) -> Tensor:
    """The complete elliptic integral of the second kind ``E(m)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import ellipe
    >>> ellipe(tg.tensor(1.0)).item()
    1.0
    """
    return _ellipe._unary(m)


def _delta(phi: Any, m: Any) -> Any:
    return ops.sqrt(1.0 - m * ops.square(ops.sin(phi)))


def _f_dm(phi: Any, m: Any, f: Any) -> Any:
    one_minus = 1.0 - m
    return (
        ellipeinc(phi, m) / (2.0 * m * one_minus)
        - f / (2.0 * m)
        - ops.sin(2.0 * phi) / (4.0 * one_minus * _delta(phi, m))
    )


_ellipkinc = special_primitive(
    "ellipkinc",
    lambda g, ans, phi, m: unbroadcast_like(g / _delta(phi, m), phi),
    lambda g, ans, phi, m: unbroadcast_like(g * _f_dm(phi, m, ans), m),
)


@plain_calls_scipy("special")
def ellipkinc(phi: ArrayLike, m: ArrayLike) -> Tensor:
    """The incomplete elliptic integral of the first kind ``F(φ|m)``, differentiable in
    both the amplitude and the parameter.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import ellipkinc
    >>> ellipkinc(tg.tensor(0.5), 0.0).item()
    0.5
    """
    return _ellipkinc._binary(phi, m)


_ellipeinc = special_primitive(
    "ellipeinc",
    lambda g, ans, phi, m: unbroadcast_like(g * _delta(phi, m), phi),
    lambda g, ans, phi, m: unbroadcast_like(g * (ans - ellipkinc(phi, m)) / (2.0 * m), m),
)


@plain_calls_scipy("special")
def ellipeinc(phi: ArrayLike, m: ArrayLike) -> Tensor:
    """The incomplete elliptic integral of the second kind ``E(φ|m)``, differentiable in
    both the amplitude and the parameter.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import ellipeinc
    >>> ellipeinc(tg.tensor(0.5), 0.0).item()
    0.5
    """
    return _ellipeinc._binary(phi, m)


# --- Lambert W -------------------------------------------------------------------------------


def _lambertw_forward(xp: Any, z: Any, *, k: Any, tol: float) -> Any:
    return kernel(xp, "special", "lambertw")(z, k, tol)


def _lambertw_rule(g: Any, ans: Any, z: Any, *, k: Any, tol: float) -> Any:
    # W' = W / (z (1 + W)) = e^{-W} / (1 + W), finite at z = 0
    return g * ops.conj(ops.exp(-ans) / (1.0 + ans))


_lambertw = Primitive("lambertw", _lambertw_forward, complex_rules=True).defvjp(_lambertw_rule)


@plain_calls_scipy("special")
def lambertw(z: ArrayLike, k: ArrayLike = 0, tol: float = 1e-8) -> Tensor:
    """Branch ``k`` of the Lambert W function, ``W e^W = z`` (complex values, as SciPy's),
    holomorphic in ``z``: ``W' = e^{-W} / (1 + W)``. The branch index has no gradient.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import lambertw
    >>> lambertw(tg.tensor(0.0)).item()
    0j
    """
    refuse_gradient("lambertw", "the branch k", k, "it is an integer")
    k = k.numpy() if isinstance(k, Tensor) else k
    return _lambertw(z, k=k, tol=tol)
