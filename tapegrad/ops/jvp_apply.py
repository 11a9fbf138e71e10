"""Running a primitive's JVP rule on the forward tape's values, and the tangent of a
primitive without a rule of its own, by transposing its VJP rules.

:func:`output_tangent` is the hook tapegrad/core/forward.py calls for each op a forward tape
sees (the rules themselves are tapegrad/ops/jvp_rules.py): on raw NumPy arrays when nothing
outside the forward tape records, on Tensors with only the outer tapes active when
transforms nest. :func:`transposed` gives ``J t`` exactly from the VJP rules: each is linear
in its cotangent, so ``u = rule(g0)`` for a watched ``g0`` swept back to ``g0`` with seed
``t`` is ``(J^T)^T t``; it takes a gradient sweep, which a tg.compile recording cannot
repeat, so inside one it is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import TRACING, _active
from tapegrad.core.record import complex_rules_error
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
from tapegrad.ops.arithmetic import cast_cotangent
from tapegrad.ops.primitive import Primitive, Rule

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
