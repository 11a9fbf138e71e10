"""The JVPs of the hot elementwise ops on real NumPy arrays: forward mode's inline path.

``tg.jvp`` with nothing recording outside it keeps tangents as NumPy arrays, and for an
op without params on real NumPy arrays, tapegrad/core/forward.py's ``push_tangents``
calls the formula registered here directly: ``rule(t, ans, a)`` for one input,
``rule(tx, ty, ans, a, b)`` for two, None standing for an input without a tangent. Each
reuses the primal's result where the derivative is a function of it (``d exp = ans t``,
``d tanh = t - ans**2 t``), writes into the arrays it has just made rather than
allocating one per NumPy call (the output passed positionally: ``out=`` costs a keyword
parse) and takes no Python scalar operand (NumPy converts one per call, about half the
cost of an (8,)-element op): ``1 - ans**2`` would. They are registered *exact*: given a
tangent for every input, the result has the output's shape, so push_tangents checks
only its type and dtype. A result that is not an array of the output's shape and dtype
(a broadcast input's lone tangent) is finished by the general path
(tapegrad/ops/jvp_rules.py), which holds every rule in its general form; the two agree
to rounding (tests/test_forward_compile.py checks both against finite differences).

The other elementwise ops get their raw sweep's formulas (``defvjp_same_shape``): on real
values an elementwise op's Jacobian is diagonal, so symmetric, and ``J t = J^T t``; those
are not exact (a formula may return a smaller array: its result's shape is checked).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.core import forward
from tapegrad.ops import arithmetic, elementwise
from tapegrad.ops.primitive import Primitive

_mul, _sub, _div, _neg = np.multiply, np.subtract, np.divide, np.negative
_cos_of, _sin_of = np.cos, np.sin


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
    if ty is None:
        return tx * b
    u = tx * b
    u += a * ty
    return u


def _divide(tx: Any, ty: Any, ans: Any, a: Any, b: Any) -> Any:
    # d (a / b) = (ta - ans tb) / b
    if ty is None:
        return tx / b
    u = ans * ty
    if tx is None:
        _neg(u, u)
    else:
        _sub(tx, u, u)
    u /= b
    return u


def _tanh(t: Any, ans: Any, a: Any) -> Any:
    u = ans * ans  # t - ans**2 t, in one buffer
    _mul(u, t, u)
    return _sub(t, u, u)


def _sigmoid(t: Any, ans: Any, a: Any) -> Any:
    u = ans * ans  # (ans - ans**2) t
    _sub(ans, u, u)
    _mul(u, t, u)
    return u


def _sin(t: Any, ans: Any, a: Any) -> Any:
    u = _cos_of(a)
    _mul(u, t, u)
    return u


def _cos(t: Any, ans: Any, a: Any) -> Any:
    u = _sin_of(a)
    _mul(u, t, u)
    return _neg(u, u)


def _square(t: Any, ans: Any, a: Any) -> Any:
    u = a * t  # 2 a t (doubling is exact)
    u += u
    return u


def _sqrt(t: Any, ans: Any, a: Any) -> Any:
    u = ans + ans  # t / (2 ans)
    return _div(t, u, u)


def _exp(t: Any, ans: Any, a: Any) -> Any:
    return t * ans


def _log(t: Any, ans: Any, a: Any) -> Any:
    return t / a


def _relu(t: Any, ans: Any, a: Any) -> Any:
    return t * (ans > 0)


def _negative(t: Any, ans: Any, a: Any) -> Any:
    return -t


_BINARY = (arithmetic._add, arithmetic._subtract, arithmetic._multiply, arithmetic._divide)
RULES: dict[Primitive, Callable[..., Any]] = {
    arithmetic._add: _add,
    arithmetic._subtract: _subtract,
    arithmetic._multiply: _multiply,
    arithmetic._divide: _divide,
    arithmetic._negative: _negative,
    elementwise._tanh: _tanh,
    elementwise._sigmoid: _sigmoid,
    elementwise._sin: _sin,
    elementwise._cos: _cos,
    elementwise._square: _square,
    elementwise._exp: _exp,
    elementwise._log: _log,
    elementwise._sqrt: _sqrt,
    elementwise._relu: _relu,
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
                binary = len(primitive.same_shape_vjps or ()) == 2
                forward.raw_rules[primitive] = (rule, False, binary)
    for primitive, rule in RULES.items():
        forward.raw_rules[primitive] = (rule, True, primitive in _BINARY)
