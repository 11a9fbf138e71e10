"""SciPy's ``legendre_p(n, z, *, diff_n=0)``: the Legendre polynomial ``P_n(z)`` and its
first ``diff_n`` derivatives, stacked on a first axis as SciPy returns them, differentiable
in ``z`` to every order: each level's derivative is the next level, and past SciPy's second
derivative ``P_n''' = 15 C_{n-3}^{(7/2)}`` (DLMF 18.9.19 applied three times, a Gegenbauer
polynomial, itself differentiable to every order). The degree ``n`` has no gradient.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special._primitive import unbroadcast_like
from tapegrad.scipy.special.polynomials import eval_gegenbauer

__all__ = ["legendre_p"]


def _forward(xp: Any, n: Any, z: Any, *, level: int) -> Any:
    return kernel(xp, "special", "legendre_p")(n, z, diff_n=level)[level]


def _third(n: Any, z: Any) -> Tensor:
    """``P_n'''(z)``: 15 times the Gegenbauer ``C_{n-3}^{(7/2)}``, zero below degree 3."""
    low = ops.less(n, 3)
    return ops.where(
        low, 0.0, 15.0 * eval_gegenbauer(ops.where(low, 0, ops.subtract(n, 3)), 3.5, z)
    )


def _rule(g: Any, ans: Any, n: Any, z: Any, *, level: int) -> Any:
    higher = _third(n, z) if level == 2 else _levels[level + 1](n, z, level=level + 1)
    return unbroadcast_like(g * higher, z)


# P_n, P_n', P_n'': SciPy's diff_n levels, each differentiated by the next
_levels = [
    Primitive(f"legendre_p[{level}]", _forward, complex_rules=False).defvjp(None, _rule)
    for level in range(3)
]


@plain_calls_scipy("special")
def legendre_p(n: Any, z: Any, *, diff_n: int = 0) -> Tensor:
    """``P_n(z)`` and its derivatives up to order ``diff_n`` (0, 1 or 2), on a first axis
    of ``diff_n + 1`` as SciPy's; differentiable in ``z`` to every order.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import legendre_p
    >>> legendre_p(2, tg.tensor(0.5), diff_n=1).numpy().tolist()  # (3z² - 1) / 2 and 3z
    [-0.125, 1.5]
    """
    refuse_gradient("legendre_p", "the degree n", n, "it is an integer")
    if diff_n not in (0, 1, 2):
        raise NotImplementedError(
            f"legendre_p: diff_n is only implemented for orders 0, 1 and 2 (SciPy's), "
            f"got {diff_n!r}"
        )
    return ops.stack([_levels[level](n, z, level=level) for level in range(diff_n + 1)])
