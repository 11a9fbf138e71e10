"""Hypergeometric functions: hyp1f1 hyp2f1.

Differentiable in the argument (real or complex, both holomorphic there): the rules
are the contiguous relations ``d/dx 1F1(a; b; x) = a/b 1F1(a+1; b+1; x)`` and
``d/dz 2F1(a, b; c; z) = ab/c 2F1(a+1, b+1; c+1; z)``, written with the functions
themselves, so every order of derivative is available. SciPy has no derivative in the
parameters ``a``, ``b``, ``c``: a gradient there raises LookupError.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like

ArrayLike = Any


def _parameters(name: str, **values: Any) -> None:
    for argument, value in values.items():
        refuse_gradient(
            name,
            f"the parameter {argument}",
            value,
            "SciPy has no derivative of hypergeometric functions in their parameters",
        )


_hyp1f1 = special_primitive(
    "hyp1f1",
    None,
    None,
    lambda g, ans, a, b, x: unbroadcast_like(
        g * ops.conj(ops.divide(a, b) * _hyp1f1(ops.add(a, 1.0), ops.add(b, 1.0), x)), x
    ),
    complex_rules=True,
)


@plain_calls_scipy("special")
def hyp1f1(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Tensor:
    """Kummer's confluent hypergeometric function ``1F1(a; b; x)``, differentiable in ``x``
    (real or complex); a gradient in ``a`` or ``b`` raises LookupError.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import hyp1f1
    >>> round(hyp1f1(1.0, 1.0, tg.tensor(1.0)).item(), 12)  # e
    2.718281828459
    """
    _parameters("hyp1f1", a=a, b=b)
    return _hyp1f1(a, b, x)


_hyp2f1 = special_primitive(
    "hyp2f1",
    None,
    None,
    None,
    lambda g, ans, a, b, c, z: unbroadcast_like(
        g
        * ops.conj(
            ops.divide(ops.multiply(a, b), c)
            * _hyp2f1(ops.add(a, 1.0), ops.add(b, 1.0), ops.add(c, 1.0), z)
        ),
        z,
    ),
    complex_rules=True,
)


@plain_calls_scipy("special")
def hyp2f1(a: ArrayLike, b: ArrayLike, c: ArrayLike, z: ArrayLike) -> Tensor:
    """Gauss's hypergeometric function ``2F1(a, b; c; z)``, differentiable in ``z`` (real
    or complex); a gradient in ``a``, ``b`` or ``c`` raises LookupError.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import hyp2f1
    >>> round(hyp2f1(1.0, 1.0, 2.0, tg.tensor(0.5)).item(), 12)  # -log(1 - z) / z
    1.38629436112
    """
    _parameters("hyp2f1", a=a, b=b, c=c)
    return _hyp2f1(a, b, c, z)
