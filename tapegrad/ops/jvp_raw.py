"""The JVPs of the hot elementwise ops on real NumPy arrays: forward mode's inline path.

``tg.jvp`` with nothing recording outside it keeps tangents as NumPy arrays, and for an
op without params on real NumPy arrays, tapegrad/core/forward.py's ``push_tangents``
calls the formula registered here directly: ``rule(t, ans, a)`` for one input,
``rule(tx, ty, ans, a, b)`` for two, None standing for an input without a tangent. Each
reuses the primal's result where the derivative is a function of it (``d exp = ans t``,
``d tanh = (1 - ans**2) t``) and writes into the arrays it has just made rather than
allocating one per NumPy call. A result that is not an array of the output's shape and
dtype (a broadcast input's lone tangent) is finished by the general path
(tapegrad/ops/jvp_rules.py), which holds every rule in its general form.

The other elementwise ops get their raw sweep's formulas (``defvjp_same_shape``): on real
values an elementwise op's Jacobian is diagonal, so symmetric, and ``J t = J^T t``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.core import forward
from tapegrad.ops import arithmetic, elementwise
from tapegrad.ops.primitive import Primitive

_subtract_from = np.subtract
_negate = np.negative


def _add(tx: Any, ty: Any, ans: Any, a: Any, b: Any) -> Any:
    if tx is None:
        return ty
    return tx if ty is None else tx + ty


def _subtract(tx: Any, ty: Any, ans: Any, a: Any, b: Any) -> Any:
    if tx is None:
        return -ty
    return tx if ty is None else tx - ty


def _multiply(tx: Any, ty: Any, ans: Any, a: Any, b: Any) -> Any:
    if tx is None:
        return a * ty
    return tx * b if ty is None else tx * b + a * ty


def _divide(tx: Any, ty: Any, ans: Any, a: Any, b: Any) -> Any:
    # d (a / b) = (ta - ans tb) / b
    if ty is None:
        return tx / b
    return -(ans * ty) / b if tx is None else (tx - ans * ty) / b


def _tanh(t: Any, ans: Any, a: Any) -> Any:
    u = ans * ans  # (1 - ans**2) t, in one buffer
    _subtract_from(1.0, u, out=u)
    u *= t
    return u


def _sigmoid(t: Any, ans: Any, a: Any) -> Any:
    u = 1.0 - ans  # ans (1 - ans) t
    u *= ans
    u *= t
    return u


def _sin(t: Any, ans: Any, a: Any) -> Any:
    u = np.cos(a)
    u *= t
    return u


def _cos(t: Any, ans: Any, a: Any) -> Any:
    u = np.sin(a)
    u *= t
    return _negate(u, out=u)


def _square(t: Any, ans: Any, a: Any) -> Any:
    u = a * 2.0
    u *= t
    return u


RULES: dict[Primitive, Callable[..., Any]] = {
    arithmetic._add: _add,
    arithmetic._subtract: _subtract,
    arithmetic._multiply: _multiply,
    arithmetic._divide: _divide,
    arithmetic._negative: lambda t, ans, a: -t,
    elementwise._tanh: _tanh,
    elementwise._sigmoid: _sigmoid,
    elementwise._sin: _sin,
    elementwise._cos: _cos,
    elementwise._square: _square,
    elementwise._exp: lambda t, ans, a: t * ans,
    elementwise._log: lambda t, ans, a: t / a,
    elementwise._sqrt: lambda t, ans, a: t / (ans * 2.0),
    elementwise._relu: lambda t, ans, a: t * (ans > 0),
}


def from_same_shape(primitive: Primitive) -> Callable[..., Any] | None:
    """The inline rule of an elementwise primitive from its raw sweep's formulas (None for
    one without them, or with more than two inputs)."""
    fast = primitive.same_shape_vjps
    if fast is None or len(fast) > 2:
        return None
    if len(fast) == 1:
        return fast[0]  # (g, ans, x) is (t, ans, a)
    first, second = fast

    def rule(tx: Any, ty: Any, ans: Any, a: Any, b: Any) -> Any:
        if ty is None:
            return first(tx, ans, a, b)
        if tx is None:
            return second(ty, ans, a, b)
        return first(tx, ans, a, b) + second(ty, ans, a, b)

    return rule


def declare(elementwise_primitives: tuple[Primitive, ...]) -> None:
    """Register the inline rules: this module's, then the sweep's formulas for the other
    ``elementwise_primitives``."""
    for primitive in elementwise_primitives:
        if primitive not in RULES:
            rule = from_same_shape(primitive)
            if rule is not None:
                forward.raw_rules[primitive] = rule
    forward.raw_rules.update(RULES)
