"""Forward-mode (JVP) rules, and how a primitive without one gets its output's tangent.

A JVP rule is ``rule(tangents, ans, *inputs, **params)``: ``tangents`` holds one tangent
per input (None for an input without one) and the rule returns the output's tangent, the
derivative of ``ans`` along them. Like the VJP rules it is written in NumPy's vocabulary
and tapegrad's ops, so it runs on raw arrays when nothing outside the forward tape
records (the common case) and on Tensors, recorded, when transforms nest.

Most primitives need no rule of their own; each falls in one of these kinds, fastest first:

- **linear** (``sum``, ``reshape``, ``getitem``, ``real``...): the tangent is the primitive
  applied to the tangent;
- **multilinear** (``multiply``, ``matmul``, ``einsum``): the sum over the inputs of the
  primitive with that one input replaced by its tangent (the product rule);
- **elementwise**, on real values: the Jacobian is diagonal, hence symmetric, so ``J t`` is
  the VJP rule applied to ``t`` (``J^T t``) for each input of the output's shape; on raw
  NumPy arrays the raw sweep's shortcut formulas serve (``defvjp_same_shape``);
- anything else, exactly, by **transposing its VJP rules**: ``u = rule(g0)`` is linear in a
  watched cotangent ``g0``, so sweeping ``u`` back to ``g0`` with seed ``t`` gives
  ``(J^T)^T t = J t``; about two rule calls. That takes a gradient sweep, which a
  ``tg.compile`` recording cannot repeat: inside one it is refused (NotImplementedError;
  tapegrad/ops/jvp_apply.py, which also runs the rules for tapegrad/core/forward.py).

``add``, ``subtract``, ``relu``, ``tanh``, ``sigmoid`` and ``matmul_add`` have rules of their
own, in fewer ops than their kind's (each op of a rule is recorded again by a tape outside
the forward tape, and replayed by tg.compile).

Complex values follow the reverse mode's convention (each complex number a pair of reals,
docs/complex.md): a holomorphic ``f`` gives ``f'(z) t``; ``conj``, ``abs`` and ``real``
their real-linear derivatives. tests/test_forward_mode.py checks every sample call of
every differentiable function against finite differences and against the reverse mode.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core import forward
from tapegrad.ops import (
    arithmetic,
    bessel,
    device,
    elementwise,
    erf,
    exponential,
    indexing,
    jvp_raw,
    linalg,
    modular,
    rearranging,
    reductions,
    shape,
    trigonometric,
)
from tapegrad.ops import complex as complex_ops
from tapegrad.ops.jvp_apply import _all_raw, _any_complex, output_tangent, transposed
from tapegrad.ops.primitive import Primitive, Rule, shape_of

_ndarray = np.ndarray
_SCALARS = (int, float, complex, np.generic)


# --- the kinds ----------------------------------------------------------------------------
def _call(primitive: Primitive, operands: Sequence[Any], params: dict[str, Any]) -> Any:
    """``primitive(*operands, **params)``; straight to NumPy on raw NumPy arrays."""
    if _all_raw(operands):
        out = primitive.numpy_forward(*operands, **params)
        return out if type(out) is _ndarray else np.asarray(out)
    return primitive(*operands, **params)


def linear(primitive: Primitive) -> Rule:
    """The JVP rule of a primitive linear in its input 0 (the others constants): the
    primitive applied to the tangent."""

    def rule(tangents: Sequence[Any], ans: Any, *inputs: Any, **params: Any) -> Any:
        return _call(primitive, (tangents[0], *inputs[1:]), params)

    return rule


def jointly_linear(primitive: Primitive) -> Rule:
    """The JVP rule of a primitive linear in all its differentiable inputs together
    (``concatenate``, ``where``'s two branches): the primitive of the tangents, zeros for
    an input without one, the input itself for one with no gradient (``where``'s
    condition)."""

    def rule(tangents: Sequence[Any], ans: Any, *inputs: Any, **params: Any) -> Any:
        operands = [
            x if primitive.rule(k) is None else _zeros_like(x) if t is None else t
            for k, (t, x) in enumerate(zip(tangents, inputs))
        ]
        return _call(primitive, operands, params)

    return rule


def multilinear(primitive: Primitive) -> Rule:
    """The JVP rule of a primitive linear in each input (``multiply``, ``matmul``,
    ``einsum``): by the product rule, the sum over inputs of the primitive with that input
    replaced by its tangent."""

    def rule(tangents: Sequence[Any], ans: Any, *inputs: Any, **params: Any) -> Any:
        total = None
        for k, t in enumerate(tangents):
            if t is not None:
                term = _call(primitive, (*inputs[:k], t, *inputs[k + 1 :]), params)
                total = term if total is None else total + term
        return total

    return rule


def elementwise_rule(primitive: Primitive) -> Rule:
    """The JVP rule of an elementwise primitive: on real values its Jacobian is diagonal
    (symmetric), so the VJP rule applied to the tangent gives ``J t`` for an input of the
    output's shape; a broadcast input, and complex values, go by transposition."""

    def rule(tangents: Sequence[Any], ans: Any, *inputs: Any, **params: Any) -> Any:
        if _any_complex((ans, *inputs)):  # J is real-linear only: no symmetric shortcut
            return transposed(primitive, tangents, ans, inputs, params)
        total, spread = None, None
        out_shape = shape_of(ans)
        for k, t in enumerate(tangents):
            if t is None:
                continue
            operands = inputs
            if shape_of(inputs[k]) != out_shape:
                # A broadcast input: the same, with every input broadcast to the result's
                # shape first (so the rule's unbroadcast has nothing to sum).
                if spread is None:
                    spread = [_broadcast(x, out_shape) for x in inputs]
                operands, t = spread, _broadcast(t, out_shape)
            term = primitive.rule(k)(t, ans, *operands, **params)  # type: ignore[misc]
            total = term if total is None else total + term
        return total

    return rule


def _broadcast(x: Any, shape: tuple[int, ...]) -> Any:
    if type(x) is _ndarray or isinstance(x, _SCALARS):
        return np.broadcast_to(x, shape)
    return ops.broadcast_to(x, shape)


def reduction_rule(primitive: Primitive) -> Rule:
    """The JVP rule of a reduction whose every result reads only its own slice of ``x``
    (``logsumexp``, ``max``, ``prod``): its VJP is ``g`` spread over the slice times the
    slice's weights ``w = d out / d x``, so the VJP of ones gives ``w``, and
    ``J t = sum(w * t)`` over the same axes. Complex values go by transposition."""

    def rule(tangents: Sequence[Any], ans: Any, x: Any, **params: Any) -> Any:
        if _any_complex((ans, x)):
            return transposed(primitive, tangents, ans, (x,), params)
        ones = np.ones_like(ans) if type(ans) is _ndarray else ops.ones_like(ans)
        weights = primitive.rule(0)(ones, ans, x, **params)  # type: ignore[misc]
        product = weights * tangents[0]
        if type(product) is _ndarray:
            return np.sum(product, axis=params["axis"], keepdims=params["keepdims"])
        return ops.sum(product, axis=params["axis"], keepdims=params["keepdims"])

    return rule


def _zeros_like(x: Any) -> Any:
    return np.zeros_like(x) if type(x) is _ndarray else ops.zeros_like(x)


def _matmul_add_jvp(tangents: Sequence[Any], ans: Any, x: Any, y: Any, b: Any) -> Any:
    tx, ty, tb = tangents
    matmul = linalg._matmul
    terms = []
    if tx is not None:
        terms.append(_call(matmul, (tx, y), {}))
    if ty is not None:
        terms.append(_call(matmul, (x, ty), {}))
    if tb is not None:
        terms.append(tb)
    total = terms[0]
    for term in terms[1:]:
        total = total + term
    return total


# The commonest ops' own rules: ``add``'s tangent needs no input broadcast (NumPy
# broadcasts), ``relu``'s no cast of its mask, ``tanh``'s no Python scalar. Those of add,
# subtract and relu are the inline formulas themselves (tapegrad/ops/jvp_raw.py: they
# allocate nothing of their own, so they serve Tensors as well).
def _add_jvp(tangents: Sequence[Any], ans: Any, x: Any, y: Any) -> Any:
    tx, ty = tangents
    return jvp_raw._add(tx, ty, ans, x, y)


def _subtract_jvp(tangents: Sequence[Any], ans: Any, x: Any, y: Any) -> Any:
    tx, ty = tangents
    return jvp_raw._subtract(tx, ty, ans, x, y)


def _relu_jvp(tangents: Sequence[Any], ans: Any, x: Any) -> Any:
    return jvp_raw._relu(tangents[0], ans, x)


def _tanh_jvp(tangents: Sequence[Any], ans: Any, x: Any) -> Any:
    # t - ans**2 t (holomorphic: complex values too), as the inline formula computes it.
    t = tangents[0]
    return t - ans * ans * t


def _sigmoid_jvp(tangents: Sequence[Any], ans: Any, x: Any) -> Any:
    # (ans - ans**2) t, as _tanh_jvp.
    return (ans - ans * ans) * tangents[0]


# --- the table ----------------------------------------------------------------------------
LINEAR: tuple[Primitive, ...] = (
    arithmetic._negative, arithmetic._astype, reductions._sum, reductions._cumsum,
    shape._reshape, shape._transpose, shape._broadcast_to, shape._flip, indexing._getitem,
    complex_ops._real, complex_ops._imag, complex_ops._conj, rearranging._copy,
    device._identity,  # the fresh copy of a transform's argument carries its tangent
)  # fmt: skip
JOINTLY_LINEAR: tuple[Primitive, ...] = (shape._concatenate, arithmetic._where)
MULTILINEAR: tuple[Primitive, ...] = (arithmetic._multiply, linalg._matmul, linalg._einsum)
ELEMENTWISE: tuple[Primitive, ...] = (
    arithmetic._add, arithmetic._subtract, arithmetic._divide, arithmetic._power,
    arithmetic._maximum, arithmetic._minimum, arithmetic._abs, arithmetic._clip,
    elementwise._exp, elementwise._log, elementwise._log1p, elementwise._expm1,
    elementwise._sqrt, elementwise._square, elementwise._sin, elementwise._cos,
    elementwise._tan, elementwise._tanh, elementwise._sinh, elementwise._cosh,
    elementwise._arctan, elementwise._sigmoid, elementwise._relu, elementwise._softplus,
    trigonometric._arcsin, trigonometric._arccos, trigonometric._arcsinh,
    trigonometric._arccosh, trigonometric._arctanh, trigonometric._arctan2,
    trigonometric._hypot, trigonometric._sinc, exponential._log2, exponential._log10,
    exponential._exp2, exponential._logaddexp, exponential._logaddexp2, exponential._cbrt,
    exponential._reciprocal, erf._erf, bessel._i0, bessel._i1, modular._remainder,
    modular._fmod, modular._copysign, modular._fmax, modular._fmin,
)  # fmt: skip
REDUCTIONS: tuple[Primitive, ...] = (
    reductions._logsumexp, reductions._max, reductions._min, reductions._prod,
)  # fmt: skip
_BUILDERS: tuple[tuple[Callable[[Primitive], Rule], tuple[Primitive, ...]], ...] = (
    (linear, LINEAR),
    (jointly_linear, JOINTLY_LINEAR),
    (multilinear, MULTILINEAR),
    (elementwise_rule, ELEMENTWISE),
    (reduction_rule, REDUCTIONS),
)


def _declare() -> None:
    for build, primitives in _BUILDERS:
        for primitive in primitives:
            primitive.defjvp(build(primitive))
    linalg._matmul_add.defjvp(_matmul_add_jvp)
    arithmetic._add.defjvp(_add_jvp)
    arithmetic._subtract.defjvp(_subtract_jvp)
    elementwise._relu.defjvp(_relu_jvp)
    elementwise._tanh.defjvp(_tanh_jvp)
    elementwise._sigmoid.defjvp(_sigmoid_jvp)
    forward.set_tangent_rule(output_tangent)
    jvp_raw.declare(ELEMENTWISE)


_declare()
