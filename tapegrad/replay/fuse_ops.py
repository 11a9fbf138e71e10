"""The ops ``tg.compile(f, fuse=True)`` compiles: each as a scalar expression and its VJPs.

One :class:`ScalarOp` per primitive, keyed by the primitive object itself (never its
name: a user's Primitive may share one). ``forward(*args)`` returns the Python source of
one element of the result from the source of one element of each input (a local name
or a literal); ``vjps[k](g, ans, *args)`` the source of input ``k``'s cotangent
contribution at that element, or None where input ``k`` has no gradient. The
formulas are the same as the op library's rules for real values (tapegrad/ops/*.py),
in the same order of operations, so fused and eager results agree to rounding.
Helpers the expressions call (``_maximum``, ``_sigmoid``...) are defined in the
generated module's header, :data:`HELPERS`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from tapegrad.ops import (
    arithmetic,
    device,
    elementwise,
    exponential,
    logical,
    nondifferentiable,
    rearranging,
    reductions,
    trigonometric,
)
from tapegrad.ops.primitive import Primitive

Source = Callable[..., str]


@dataclass(frozen=True)
class ScalarOp:
    forward: Source
    vjps: tuple[Source | None, ...] = ()
    boolean: bool = False  # the result is a bool
    reduction: bool = False  # sum: accumulated over the elements


# nan-propagating max/min as NumPy's maximum/minimum; logaddexp(x, 0) and the stable
# sigmoid as the op library's forwards.
HELPERS = """
@njit(cache=True)
def _maximum(x, y):
    return x if (x > y or x != x) else y


@njit(cache=True)
def _minimum(x, y):
    return x if (x < y or x != x) else y


@njit(cache=True)
def _sign(x):
    if x > 0.0:
        return 1.0
    if x < 0.0:
        return -1.0
    return x * 0.0  # 0 at 0, nan at nan


@njit(cache=True)
def _sigmoid(x):
    e = math.exp(-abs(x))
    return 1.0 / (1.0 + e) if x >= 0.0 else e / (1.0 + e)


@njit(cache=True)
def _softplus(x):
    if x == 0.0:
        return x + 0.6931471805599453
    if x > 0.0:
        return x + math.log1p(math.exp(-x))
    if x <= 0.0:
        return math.log1p(math.exp(x))
    return x  # nan
"""

_LN2 = repr(math.log(2.0))
_LN10 = repr(math.log(10.0))


def literal(source: str) -> float | None:
    """The value of a literal operand (a constant of the recording), else None."""
    try:
        return float(source)
    except ValueError:
        return None


def _unary(function: str, vjp: Source) -> ScalarOp:
    return ScalarOp(lambda x: f"{function}({x})", (vjp,))


def _power_base(g: str, ans: str, x: str, y: str) -> str:
    # d(x**y)/dx = y * x**(y-1); constant exponents 0 and 1 skip the power, and at
    # x = y = 0 the exponent is 1 (tapegrad/ops/arithmetic.py's _power_vjp_base).
    exponent = literal(y)
    if exponent in (0.0, 1.0):
        return f"({g} * {1.0 if exponent == 1.0 else 0.0})"
    if exponent is not None:
        return f"({g} * ({y} * {x} ** ({y} - 1)))"
    return (
        f"({g} * ({y} * {x} ** ((1.0 if {y} == 0.0 else {y} - 1.0) if {x} == 0.0 else {y} - 1.0)))"
    )


def _power_exponent(g: str, ans: str, x: str, y: str) -> str:
    # d(x**y)/dy = x**y * log(x), taken as 0 where x <= 0.
    return f"({g} * {ans} * (math.log({x}) if {x} > 0.0 else 0.0))"


def _tie(g: str, x: str, y: str, wins: str) -> str:
    # The winner gets all of g; at a tie each side gets half (as the op library's rule).
    return f"({g} if {wins} else ({g} * 0.5 if {x} == {y} else 0.0))"


def _clip_forward(x: str, low: str, high: str) -> str:
    if low != "None":
        x = f"_maximum({x}, {low})"
    if high != "None":
        x = f"_minimum({x}, {high})"
    return x


def _clip_vjp(g: str, ans: str, x: str, low: str, high: str) -> str:
    inside = g
    if low != "None":
        inside = f"(0.0 if {x} < {low} else {inside})"
    if high != "None":
        inside = f"(0.0 if {x} > {high} else {inside})"
    return inside


def _comparison(operator: str) -> ScalarOp:
    return ScalarOp(lambda x, y: f"({x} {operator} {y})", boolean=True)


def _passthrough(g: str, ans: str, *args: str) -> str:
    return g


OPS: dict[Primitive, ScalarOp] = {
    arithmetic._add: ScalarOp(lambda x, y: f"({x} + {y})", (_passthrough, _passthrough)),
    arithmetic._subtract: ScalarOp(
        lambda x, y: f"({x} - {y})", (_passthrough, lambda g, ans, x, y: f"(-{g})")
    ),
    arithmetic._multiply: ScalarOp(
        lambda x, y: f"({x} * {y})",
        (lambda g, ans, x, y: f"({g} * {y})", lambda g, ans, x, y: f"({g} * {x})"),
    ),
    arithmetic._divide: ScalarOp(
        lambda x, y: f"({x} / {y})",
        (lambda g, ans, x, y: f"({g} / {y})", lambda g, ans, x, y: f"(-{g} * {ans} / {y})"),
    ),
    arithmetic._power: ScalarOp(lambda x, y: f"({x} ** {y})", (_power_base, _power_exponent)),
    arithmetic._negative: ScalarOp(lambda x: f"(-{x})", (lambda g, ans, x: f"(-{g})",)),
    arithmetic._maximum: ScalarOp(
        lambda x, y: f"_maximum({x}, {y})",
        (
            lambda g, ans, x, y: _tie(g, x, y, f"{x} > {y}"),
            lambda g, ans, x, y: _tie(g, y, x, f"{y} > {x}"),
        ),
    ),
    arithmetic._minimum: ScalarOp(
        lambda x, y: f"_minimum({x}, {y})",
        (
            lambda g, ans, x, y: _tie(g, x, y, f"{x} < {y}"),
            lambda g, ans, x, y: _tie(g, y, x, f"{y} < {x}"),
        ),
    ),
    arithmetic._where: ScalarOp(
        lambda c, x, y: f"({x} if {c} else {y})",
        (
            None,
            lambda g, ans, c, x, y: f"({g} if {c} else 0.0)",
            lambda g, ans, c, x, y: f"(0.0 if {c} else {g})",
        ),
    ),
    arithmetic._clip: ScalarOp(_clip_forward, (_clip_vjp, None, None)),
    arithmetic._abs: _unary("abs", lambda g, ans, x: f"({g} * _sign({x}))"),
    elementwise._exp: _unary("math.exp", lambda g, ans, x: f"({g} * {ans})"),
    elementwise._log: _unary("math.log", lambda g, ans, x: f"({g} / {x})"),
    elementwise._log1p: _unary("math.log1p", lambda g, ans, x: f"({g} / ({x} + 1.0))"),
    elementwise._expm1: _unary("math.expm1", lambda g, ans, x: f"({g} * ({ans} + 1.0))"),
    elementwise._sqrt: _unary("math.sqrt", lambda g, ans, x: f"({g} / ({ans} * 2.0))"),
    elementwise._square: ScalarOp(
        lambda x: f"({x} * {x})", (lambda g, ans, x: f"({g} * ({x} * 2.0))",)
    ),
    elementwise._sin: _unary("math.sin", lambda g, ans, x: f"({g} * math.cos({x}))"),
    elementwise._cos: _unary("math.cos", lambda g, ans, x: f"(-{g} * math.sin({x}))"),
    elementwise._tan: _unary("math.tan", lambda g, ans, x: f"({g} * ({ans} * {ans} + 1.0))"),
    elementwise._tanh: _unary("math.tanh", lambda g, ans, x: f"({g} * (1.0 - {ans} * {ans}))"),
    elementwise._sinh: _unary("math.sinh", lambda g, ans, x: f"({g} * math.cosh({x}))"),
    elementwise._cosh: _unary("math.cosh", lambda g, ans, x: f"({g} * math.sinh({x}))"),
    elementwise._arctan: _unary("math.atan", lambda g, ans, x: f"({g} / ({x} * {x} + 1.0))"),
    elementwise._sigmoid: _unary("_sigmoid", lambda g, ans, x: f"({g} * ({ans} * (1.0 - {ans})))"),
    elementwise._relu: ScalarOp(
        lambda x: f"_maximum({x}, 0.0)", (lambda g, ans, x: f"({g} * ({ans} > 0.0))",)
    ),
    elementwise._softplus: _unary("_softplus", lambda g, ans, x: f"({g} * _sigmoid({x}))"),
    trigonometric._arcsin: _unary(
        "math.asin", lambda g, ans, x: f"({g} / math.sqrt(1.0 - {x} * {x}))"
    ),
    trigonometric._arccos: _unary(
        "math.acos", lambda g, ans, x: f"(-{g} / math.sqrt(1.0 - {x} * {x}))"
    ),
    trigonometric._arcsinh: _unary(
        "math.asinh", lambda g, ans, x: f"({g} / math.sqrt({x} * {x} + 1.0))"
    ),
    trigonometric._arctanh: _unary("math.atanh", lambda g, ans, x: f"({g} / (1.0 - {x} * {x}))"),
    exponential._log2: _unary("math.log2", lambda g, ans, x: f"({g} / ({x} * {_LN2}))"),
    exponential._log10: _unary("math.log10", lambda g, ans, x: f"({g} / ({x} * {_LN10}))"),
    exponential._reciprocal: ScalarOp(
        lambda x: f"(1.0 / {x})", (lambda g, ans, x: f"(-{g} * ({ans} * {ans}))",)
    ),
    reductions._sum: ScalarOp(lambda x: x, (_passthrough,), reduction=True),
    rearranging._copy: ScalarOp(lambda x: x, (_passthrough,)),
    device._stop_gradient: ScalarOp(lambda x: x),
    device._identity: ScalarOp(lambda x: x, (_passthrough,)),
    nondifferentiable._greater: _comparison(">"),
    nondifferentiable._greater_equal: _comparison(">="),
    nondifferentiable._less: _comparison("<"),
    nondifferentiable._less_equal: _comparison("<="),
    nondifferentiable._equal: _comparison("=="),
    nondifferentiable._not_equal: _comparison("!="),
    logical._logical_not: ScalarOp(lambda x: f"({x} == 0)", boolean=True),
    logical._logical_and: ScalarOp(lambda x, y: f"(({x} != 0) & ({y} != 0))", boolean=True),
    logical._logical_or: ScalarOp(lambda x, y: f"(({x} != 0) | ({y} != 0))", boolean=True),
    logical._isnan: ScalarOp(lambda x: f"({x} != {x})", boolean=True),
}
