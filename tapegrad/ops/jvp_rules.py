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
  ``tg.compile`` recording cannot repeat: inside one it is refused (NotImplementedError).

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
from tapegrad.backends import namespaces as backend
from tapegrad.core import forward
from tapegrad.core.active import TRACING, _active
from tapegrad.core.record import complex_rules_error
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
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
from tapegrad.ops.arithmetic import cast_cotangent
from tapegrad.ops.primitive import Primitive, Rule, shape_of

_ndarray = np.ndarray
_FLOAT64, _FLOAT32 = np.dtype(np.float64), np.dtype(np.float32)
_SCALARS = (int, float, complex, np.generic)


def _is_raw(a: Any) -> bool:
    """Whether ``a`` is a raw NumPy value (an array or a number), which NumPy computes with."""
    return type(a) is _ndarray or a is None or isinstance(a, _SCALARS)


def _all_raw(arrays: Sequence[Any]) -> bool:
    for a in arrays:  # a loop, not all(...): once per op, and NumPy arrays come first
        if type(a) is not _ndarray and not _is_raw(a):
            return False
    return True


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


def _any_complex(values: Sequence[Any]) -> bool:
    for v in values:
        dtype = getattr(v, "dtype", None)
        if isinstance(v, complex) if dtype is None else backend.is_complex(dtype):
            return True
    return False


def transposed(
    primitive: Primitive,
    tangents: Sequence[Any],
    ans: Any,
    inputs: Sequence[Any],
    params: dict[str, Any],
) -> Any:
    """``J t`` from the VJP rules, exactly: each rule is linear in its cotangent, so with a
    tape watching ``g0`` (zeros shaped like ``ans``), ``u_k = rule_k(g0)`` is ``J_k^T g0``
    and sweeping ``u_k`` back to ``g0`` with seed ``t_k`` gives ``J_k t_k``."""
    if any(tape._mode is TRACING for tape in _active.get()):
        raise NotImplementedError(
            f"{primitive.name}: no forward-mode rule of its own, and its tangent by "
            "transposing its gradient rules takes a gradient sweep, which a tg.compile "
            "recording does not repeat: call this jvp outside tg.compile"
        )
    g0 = ops.zeros_like(ans)
    inner = GradientTape(persistent=True, watch_accessed_variables=False)
    pulled, seeds = [], []
    with inner:
        inner.watch(g0)
        for k, t in enumerate(tangents):
            rule = None if t is None else primitive.rule(k)
            if rule is None:
                continue
            u = rule(g0, ans, *inputs, **params)
            if u is None:
                continue
            u = u if isinstance(u, Tensor) else ops.asarray(u)
            dtype = inputs[k].dtype
            if u.dtype != dtype:  # as the sweep casts it (a real input's cotangent is real)
                u = cast_cotangent(u, dtype)
            pulled.append(u)
            seeds.append(t if isinstance(t, Tensor) else Tensor(t))
    if not pulled:
        return None
    parts = inner.gradient(pulled, g0, output_gradients=seeds, unconnected_gradients="zero")
    return parts


def _zeros_like(x: Any) -> Any:
    return np.zeros_like(x) if type(x) is _ndarray else ops.zeros_like(x)


# --- running a rule -----------------------------------------------------------------------
def output_tangent(
    primitive: Primitive,
    tangents: list[Any],
    inputs: tuple[Any, ...],
    arrays: Sequence[Any],
    output: Tensor,
    params: dict[str, Any],
    outer: tuple[Any, ...],
    raw: bool,
) -> Any:
    """The tangent of ``output = primitive(*inputs)`` (tapegrad/core/forward.py's hook):
    a raw array when ``raw`` (nothing outside the forward tape), else a Tensor computed
    with only the ``outer`` tapes active. None for a result with no tangent (integers)."""
    ans = output._data
    dtype = ans.dtype
    real = dtype is _FLOAT64 or dtype is _FLOAT32
    fast = primitive.same_shape_vjps
    if raw and real and fast is not None and not params and _all_raw(arrays):
        # The hot path: elementwise on real NumPy arrays, by the raw sweep's formulas
        # (J t = J^T t, a diagonal Jacobian being symmetric).
        if len(tangents) == 1:
            tangent = fast[0](tangents[0], ans, *arrays)
        else:
            tangent = None
            for k, t in enumerate(tangents):
                if t is not None:
                    term = fast[k](t, ans, *arrays)
                    tangent = term if tangent is None else tangent + term
        if type(tangent) is _ndarray and tangent.dtype is dtype and tangent.shape == ans.shape:
            return tangent
        return _fit_raw(tangent, ans)
    if not real:
        if not backend.is_floating(dtype):
            return None  # integer and boolean results carry no tangent
        if backend.is_complex(dtype) and primitive.complex_rules is not True:
            raise complex_rules_error(primitive, dtype)
    unwrap = False  # a raw tape's tangent computed on Tensors, kept as its array
    if raw and not _all_raw(arrays):
        # Another backend's arrays, or vmap's: the rules take Tensors.
        tangents = [None if t is None else Tensor(t) for t in tangents]
        raw, unwrap = False, True
    if raw:
        token = _active.set(())
        try:
            tangent = _rule_of(primitive)(tangents, ans, *arrays, **params)
        finally:
            _active.reset(token)
        return _fit_raw(tangent, ans)
    token = _active.set(outer)
    try:
        tangent = _rule_of(primitive)(tangents, output, *inputs, **params)
        if tangent is None:
            return None
        if not isinstance(tangent, Tensor):
            tangent = ops.asarray(tangent)
        if tangent.dtype != dtype:
            tangent = cast_cotangent(tangent, dtype)
        if tangent.shape != output.shape:
            tangent = ops.broadcast_to(tangent, output.shape)
    finally:
        _active.reset(token)
    return tangent._data if unwrap else tangent


def _fit_raw(tangent: Any, ans: Any) -> Any:
    """A rule's result as the raw tangent of ``ans``: an array of its dtype and shape (a real
    result's tangent is real: the real part of a complex one, as the sweep casts)."""
    if tangent is None:
        return None
    if isinstance(tangent, Tensor):
        tangent = tangent._data
    elif type(tangent) is not _ndarray:
        tangent = np.asarray(tangent)
    dtype = ans.dtype
    if tangent.dtype != dtype:
        if backend.is_complex(tangent.dtype) and not backend.is_complex(dtype):
            tangent = tangent.real
        tangent = tangent.astype(dtype)
    if tangent.shape != ans.shape:
        tangent = np.broadcast_to(tangent, ans.shape)
    return tangent


def _rule_of(primitive: Primitive) -> Rule:
    """The primitive's JVP rule; transposition of its VJP rules for one without."""
    rule = primitive.jvp
    if rule is not None:
        return rule
    return lambda tangents, ans, *inputs, **params: transposed(
        primitive, tangents, ans, inputs, params
    )


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
# broadcasts), ``relu``'s no cast of its mask, ``tanh``'s no Python scalar.
def _add_jvp(tangents: Sequence[Any], ans: Any, x: Any, y: Any) -> Any:
    tx, ty = tangents
    if tx is None:
        return ty
    return tx if ty is None else tx + ty


def _subtract_jvp(tangents: Sequence[Any], ans: Any, x: Any, y: Any) -> Any:
    tx, ty = tangents
    if tx is None:
        return -ty
    return tx if ty is None else tx - ty


def _relu_jvp(tangents: Sequence[Any], ans: Any, x: Any) -> Any:
    return tangents[0] * (ans > 0)


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
