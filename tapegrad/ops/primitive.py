"""Primitive: a forward on backend arrays plus one VJP rule per input.

A primitive call unwraps its Tensor inputs, runs the forward in the inputs'
array namespace, wraps the result, and (only when some tape is active) records
an entry. Rules are declared next to the forward with :meth:`Primitive.defvjp`:
``rule(cotangent, output, *inputs, **params)`` returns the cotangent of one
input, written with tapegrad ops so that nested tapes record it.
"""

from __future__ import annotations

import functools
import operator
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapegrad.backends import blas
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import _active
from tapegrad.core.anomaly import anomaly_mode, check_forward
from tapegrad.core.batched import Batched, BatchedValueError
from tapegrad.core.record import _NO_PARAMS, record
from tapegrad.core.tensor import Tensor, _serials
from tapegrad.wording import a as article

Rule = Callable[..., Any]
_ndarray = np.ndarray
_new = object.__new__
_NUMPY_TYPES = frozenset({_ndarray, float, int, bool, type(None)})  # need no namespace lookup
_active_tapes = _active.get  # the context variable's own method: no lookup per op
# What a forward raises on a bad input, which the error then explains (an array of Python
# objects raises AttributeError from NumPy's object loops: "'str' object has no attribute").
_FORWARD_ERRORS = (ValueError, TypeError, IndexError, AttributeError)


class Primitive:
    """An op the tape records. ``differentiable=False`` ops never record.

    ``forward(xp, *arrays, **params)`` computes the result in the inputs' array
    namespace ``xp``; ``numpy``, when given, is the one NumPy function that forward
    is on NumPy arrays (``np.tanh`` for ``lambda xp, x: xp.tanh(x)``), called directly.
    ``complex_rules=True`` declares that the rules hold for complex values too, in the
    convention of docs/complex.md (``g * conj(f'(z))``); ``False``, that the op has no
    complex gradient (it orders values, as ``max`` does, or is a function of a real
    variable, as ``floor`` and ``fmod`` are: TypeError when it records a complex result);
    left None, recording a complex result raises NotImplementedError rather than
    differentiating complex values with rules written for real ones. Every differentiable
    primitive of tapegrad's own declares one or the other (tests/ops/test_complex_decisions.py).
    ``value_dependent_shape=True`` marks a forward whose result's shape follows its
    inputs' values, not only their shapes (``nonzero``): tg.compile guards that shape.

    Args:
        name: The op's name, used in listings and error messages.
        forward: ``forward(xp, *arrays, **params)``, returning an array (or a tuple).
        differentiable: Whether the op records at all.
        explain: ``explain(exc, *arrays, **params)``: a clearer message for an error the
            forward raised, or None to keep the default (op, shapes, dtypes).
        replayable: Whether tg.compile may replay the forward (False: it re-records).
        numpy: The NumPy function equal to ``forward`` on NumPy arrays (a fast path).
        complex_rules: Whether the rules hold for complex values (see above).
        value_dependent_shape: Whether the result's shape follows the inputs' values.

    >>> import tapegrad as tg
    >>> cube = tg.Primitive("cube", lambda xp, x: x**3).defvjp(lambda g, ans, x: g * 3 * x**2)
    >>> x = tg.tensor(2.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = cube(x)
    >>> tape.gradient(y, x).item()
    12.0
    """

    __slots__ = (
        "name", "forward", "numpy_forward", "vjps", "argnum_rule", "argnum_rules",
        "same_shape_vjps", "ruled_inputs", "differentiable", "explain", "replayable",
        "complex_rules",
        "value_dependent_shape", "unsaved", "saves_output", "in_place_vjp", "in_place_forward",
        "matrix_vjps",
        "jvp", "batch",
        "_unary", "_binary",
    )  # fmt: skip

    def __init__(
        self,
        name: str,
        forward: Callable[..., Any],
        differentiable: bool = True,
        explain: Callable[..., str | None] | None = None,
        replayable: bool = True,
        numpy: Callable[..., Any] | None = None,
        complex_rules: bool | None = None,
        value_dependent_shape: bool = False,
    ) -> None:
        self.name = name
        self.forward = forward
        # The forward on NumPy arrays: ``numpy`` is the NumPy function itself where the
        # forward is one (np.multiply for ``lambda xp, x, y: xp.multiply(x, y)``), which
        # saves a Python call per op; tests/test_fast_rules.py checks the two agree.
        self.numpy_forward = functools.partial(forward, np) if numpy is None else numpy
        self.vjps: tuple[Rule | None, ...] = ()
        self.argnum_rule: Rule | None = None
        self.same_shape_vjps: tuple[Rule, ...] | None = None
        self.in_place_vjp: Rule | None = None
        self.in_place_forward: Callable[[Any], Any] | None = None
        self.matrix_vjps: tuple[Rule, ...] | None = None
        self.jvp: Rule | None = None  # forward mode (defjvp)
        self.batch: Rule | None = None  # vmap's batching rule (defbatch)
        self.ruled_inputs = 0  # inputs 0 .. ruled_inputs - 1 all have rules
        self.differentiable = differentiable
        self.explain = explain
        # False for one-off primitives whose forward and rule close over one call's values
        # (custom_gradient): tg.compile refuses to record them.
        self.replayable = replayable
        self.complex_rules = complex_rules
        self.value_dependent_shape = value_dependent_shape
        # What the rules do not read (see saves): None keeps every value.
        self.unsaved: tuple[int, ...] | None = None
        self.saves_output = True
        # ``self(x)`` and ``self(x, y)`` without params: what op functions call (see
        # unary_call below).
        self._unary: Callable[[Any], Tensor] = unary_call(self)
        self._binary: Callable[[Any, Any], Tensor] = binary_call(self)

    def defvjp(self, *rules: Rule | None) -> Primitive:
        """Declare one VJP rule per positional input (None: that input has no gradient)."""
        self.vjps = rules
        self.ruled_inputs = next((k for k, r in enumerate(rules) if r is None), len(rules))
        return self

    def defvjp_argnum(self, rule: Rule) -> Primitive:
        """For variadic primitives: ``rule(argnum, cotangent, output, *inputs, **params)``."""
        self.argnum_rule = rule
        self.argnum_rules: dict[int, Rule] = {}
        self.ruled_inputs = sys.maxsize
        return self

    def defvjp_same_shape(self, *rules: Rule) -> Primitive:
        """Shortcut rules for raw NumPy arrays, one per input, valid when that input has
        the output's shape (so no unbroadcast), for real values (they take no complex
        conjugates: an entry with a complex result is recorded without them). The sweep
        uses them only on NumPy arrays when nothing records, calls them without params
        (primitives that have params get none), and trusts them to return the cotangent's
        shape (it checks only the dtype); tests/test_fast_rules.py checks them against
        the general rules."""
        self.same_shape_vjps = rules
        return self

    def defvjp_in_place(self, rule: Rule) -> Primitive:
        """For a one-input primitive with a shortcut rule: ``rule(g, ans, x)``, the same
        result written into ``g``. The raw sweep uses it when it holds the only reference
        to ``g`` (an array of its own that a rule made), as NumPy reuses the temporary of
        ``(g @ w.T) * mask``: no new array, and memory still in cache."""
        self.in_place_vjp = rule
        return self

    def defvjp_matrices(self, *rules: Rule) -> Primitive:
        """For matrix products: rules, one per input, for real 2-d NumPy operands and a 2-d
        result (no batch axes, no conjugates, no broadcasting), written as one expression
        each so that a replay's generated sweep inlines them (``g @ y.T``) rather than
        calling the general rules' few Python frames per product."""
        self.matrix_vjps = rules
        return self

    def defforward_in_place(self, forward: Callable[[Any], Any]) -> Primitive:
        """For a one-input elementwise primitive on NumPy arrays: ``forward(x)``, the result
        written into ``x`` (of the result's shape and dtype) and returned. A generated
        replay calls it where ``x`` is a temporary nothing reads after (a unary ufunc's
        forward needs none: ``ufunc(x, out=x)``)."""
        self.in_place_forward = forward
        return self

    def defjvp(self, rule: Rule) -> Primitive:
        """Declare the forward-mode rule: ``rule(tangents, output, *inputs, **params)``, where
        ``tangents`` holds one tangent per input (None for an input without one), returns the
        output's tangent, written with tapegrad ops (see tapegrad/transforms/forward)."""
        self.jvp = rule
        return self

    def defbatch(self, rule: Rule) -> Primitive:
        """Declare vmap's batching rule (see tapegrad/transforms/vmap)."""
        self.batch = rule
        return self

    def saves(self, *inputs: int, output: bool = False) -> Primitive:
        """Declare which values the gradient rules read: the inputs numbered ``inputs``,
        and the output when ``output``; of the others they read only the shape and dtype.

        A tape then keeps no large array it does not need (NumPy arrays of
        ``record.DROP_BYTES`` or more; it keeps their shape and dtype), so memory is freed
        when the user's own references go, as in hand-written NumPy. Whether there is
        anything to drop is told from the sizes of the output and the first input (no
        other input of an op declared so may be larger than its output). Undeclared
        primitives keep every value. tests/test_saved_values.py checks each declaration
        by running the rules on arrays of NaN in place of the values declared unread.
        """
        arity = len(self.vjps)
        self.unsaved = tuple(k for k in range(arity) if k not in inputs)
        self.saves_output = output
        return self

    def rule(self, k: int) -> Rule | None:
        """The VJP rule of input ``k``, or None when that input has no gradient."""
        if self.argnum_rule is not None:
            # One partial per input, kept on the primitive (a custom_gradient's one-off
            # primitive takes its rules with it when it goes).
            rules = self.argnum_rules
            if k not in rules:
                rules[k] = functools.partial(self.argnum_rule, k)
            return rules[k]
        return self.vjps[k] if k < len(self.vjps) else None

    def __call__(self, *inputs: Any, **params: Any) -> Tensor:
        if not params:
            if len(inputs) == 2:
                return self._binary(inputs[0], inputs[1])
            if len(inputs) == 1:
                return self._unary(inputs[0])
        arrays = [x._data if isinstance(x, Tensor) else x for x in inputs]
        for a in arrays:
            if type(a) not in _NUMPY_TYPES:
                converted = as_operands(inputs)
                if converted is not None:
                    return self(*converted, **params)
                out = self._forward_any(arrays, params)
                break
        else:
            try:
                out = self.numpy_forward(*arrays, **params)
            except BatchedValueError:  # a Batched value in the params (an index, in vmap)
                if not _batching:
                    raise
                out = _batching[0](self, arrays, params)
            except _FORWARD_ERRORS as exc:
                raise self._error(exc, arrays, params) from exc
        if type(out) is not _ndarray and isinstance(out, np.generic):
            out = np.asarray(out)
        result = _new(Tensor)  # Tensor(out) without the __init__ frame
        result._data, result._id = out, next(_serials)
        if anomaly_mode():
            check_forward(self, inputs, result)
        tapes = _active_tapes()
        if tapes:  # non-differentiable ops are seen by tg.compile's traces only
            record(self, inputs, arrays, result, params, tapes)
        return result

    def _forward_any(self, arrays: list[Any], params: dict[str, Any]) -> Any:
        """The forward on any backend's arrays, in their namespace (the path of inputs that
        are not NumPy arrays or Python numbers: lists, other libraries' arrays, and what no
        op takes, refused here before NumPy makes an array of objects of it). A Batched
        value (an input inside tg.vmap) goes to the batching rules instead (set_batching)."""
        if _batching:
            for a in arrays:
                if type(a) is Batched:
                    return _batching[0](self, arrays, params)
        for k, a in enumerate(arrays):
            if type(a) not in _NUMPY_TYPES and unaccepted(a) is not None:
                raise self._error(TypeError(f"operand {k}"), arrays, params)
        if all(type(a) in _NUMPY_TYPES for a in arrays):
            xp = np
        else:
            try:
                xp = backend.namespace(*arrays)
            except backend.MixedDevicesError as exc:
                raise backend.MixedDevicesError(f"{self.name}: {exc}") from None
        try:
            return self.forward(xp, *arrays, **params)
        except _FORWARD_ERRORS as exc:
            raise self._error(exc, arrays, params) from exc

    def _error(self, exc: Exception, arrays: Sequence[Any], params: dict[str, Any]) -> Exception:
        """The error to raise for ``exc`` from the forward: a TypeError naming an operand no
        op takes (a string, None, a dict, an array of strings or objects), else an error of
        ``exc``'s kind naming the op and the inputs' shapes and dtypes."""
        for k, a in enumerate(arrays):
            kind = unaccepted(a)
            if kind is not None:
                return TypeError(
                    f"{self.name}: operand {k} is {kind}; tapegrad's ops take Tensors, arrays "
                    "of numbers or booleans, (nested) lists of them, and Python numbers"
                )
        message = self._explain(exc, arrays, params)
        try:
            return type(exc)(message)
        except TypeError:  # an exception whose constructor takes more (NumPy's ufunc errors)
            return next(c for c in _FORWARD_ERRORS if isinstance(exc, c))(message)

    def _explain(self, exc: Exception, arrays: Sequence[Any], params: dict[str, Any]) -> str:
        if self.explain is not None:
            message = self.explain(exc, *arrays, **params)
            if message:
                return f"{self.name}: {message}"
        shapes = ", ".join(_describe(a) for a in arrays)
        extra = f" with {params}" if params else ""
        return f"{self.name}: {exc} (inputs {shapes}{extra})"

    def __repr__(self) -> str:
        return f"<Primitive {self.name}>"


# vmap's entry point, ``batched_call(primitive, arrays, params)``, once tapegrad/transforms/vmap
# is imported (the layer above sets it: imports point down).
_batching: list[Callable[..., Any]] = []


def set_batching(batched_call: Callable[..., Any]) -> None:
    """Route every primitive call that meets a Batched input to ``batched_call``."""
    _batching[:] = [batched_call]


# The hot path of every op: ``primitive._unary`` and ``primitive._binary``, and Tensor's
# operators, which are such functions themselves (tapegrad/core/tensor.py). Plain functions
# of the inputs, not methods: positional, no params, and on NumPy arrays and Python
# scalars no namespace lookup. The tail that wraps and records the result is spelled
# out in both: one more call per op costs a measurable share of a small op
# (docs/performance.md). ``type(x) is Tensor`` comes before isinstance for the same
# reason: a builtin call per input is measurable too, and so is a set lookup, hence
# ``type(a) is _ndarray`` before ``in _NUMPY_TYPES``. The forward is read into a local
# before the call: ``primitive.numpy_forward(a)`` would look it up as a method, which
# Python does not speed up for a slot (~40 ns per op). ``depth`` is where record()
# starts its search for the user's frame: 3 when an op function (or ``__call__``) calls
# this function, 2 when it is the operator Python calls from the user's frame itself.


def unary_call(primitive: Primitive, depth: int = 3) -> Callable[[Any], Tensor]:
    """``primitive(x)``, the call of a one-input primitive without params."""

    def unary(x: Any) -> Tensor:
        a = x._data if type(x) is Tensor or isinstance(x, Tensor) else x
        if type(a) is _ndarray or type(a) in _NUMPY_TYPES:
            forward = primitive.numpy_forward
            try:
                out = forward(a)
            except _FORWARD_ERRORS as exc:
                raise primitive._error(exc, (a,), _NO_PARAMS) from exc
        else:
            converted = as_operands((x,))
            if converted is not None:
                return unary(*converted)
            out = primitive._forward_any([a], _NO_PARAMS)
        if type(out) is not _ndarray and isinstance(out, np.generic):
            out = np.asarray(out)
        result = _new(Tensor)  # Tensor(out) without the __init__ frame
        result._data, result._id = out, next(_serials)
        if anomaly_mode():
            check_forward(primitive, (x,), result)
        tapes = _active_tapes()
        if tapes:
            record(primitive, (x,), (a,), result, _NO_PARAMS, tapes, depth)
        return result

    return unary


def binary_call(primitive: Primitive, depth: int = 3) -> Callable[[Any, Any], Tensor]:
    """``primitive(x, y)``, the call of a two-input primitive without params."""

    def binary(x: Any, y: Any) -> Tensor:
        a = x._data if type(x) is Tensor or isinstance(x, Tensor) else x
        b = y._data if type(y) is Tensor or isinstance(y, Tensor) else y
        if (type(a) is _ndarray or type(a) in _NUMPY_TYPES) and (
            type(b) is _ndarray or type(b) in _NUMPY_TYPES
        ):
            forward = primitive.numpy_forward
            try:
                out = forward(a, b)
            except _FORWARD_ERRORS as exc:
                raise primitive._error(exc, (a, b), _NO_PARAMS) from exc
        else:
            converted = as_operands((x, y))
            if converted is not None:
                return binary(*converted)
            out = primitive._forward_any([a, b], _NO_PARAMS)
        if type(out) is not _ndarray and isinstance(out, np.generic):
            out = np.asarray(out)
        result = _new(Tensor)  # Tensor(out) without the __init__ frame
        result._data, result._id = out, next(_serials)
        if anomaly_mode():
            check_forward(primitive, (x, y), result)
        tapes = _active_tapes()
        if tapes:
            record(primitive, (x, y), (a, b), result, _NO_PARAMS, tapes, depth)
        return result

    return binary


def unbroadcast(g: Any, shape: tuple[int, ...]) -> Any:
    """Sum ``g`` down to ``shape``: the adjoint of NumPy broadcasting.

    A raw NumPy cotangent (the sweep's raw mode: nothing records) is summed by
    NumPy itself, as the ``sum`` op would: no Tensor, no dispatch; over leading axes only
    (a bias's gradient), as a matrix-vector product with ones (:func:`blas.sum_leading`).
    Tensors take the op.
    """
    if g.shape == shape:
        return g
    lead = g.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and g.shape[lead + i] != 1
    )
    if type(g) is np.ndarray:
        if axes == tuple(range(len(axes))):
            total = blas.sum_leading(g, len(axes))
            if total is not None:
                return total.reshape(shape)
        return np.add.reduce(g, axis=axes, keepdims=True).reshape(shape)  # (g.sum's reduce)
    from tapegrad.ops.reductions import sum as _sum
    from tapegrad.ops.shape import reshape

    return reshape(_sum(g, axis=axes), shape)


# What has a ``conjugate`` method that returns the value itself when it is real (NumPy
# arrays too, without a copy; checked first, as the raw sweep's commonest case).
_CONJUGATES = (Tensor, int, float, complex, np.generic)


def conjugated(x: Any) -> Any:
    """The complex conjugate of ``x`` inside a gradient rule; ``x`` itself when it is real.

    Rules take the convention ``g * conj(f'(z))`` (see docs/complex.md). A NumPy array
    stays a NumPy array (the sweep's raw mode), a Tensor records ``conj``.

    >>> import numpy as np
    >>> from tapegrad.ops.primitive import conjugated
    >>> a = np.ones(2)
    >>> conjugated(a) is a, conjugated(np.array([1 + 2j])).tolist()
    (True, [(1-2j)])
    """
    if type(x) is _ndarray or isinstance(x, _CONJUGATES):
        return x.conjugate()
    from tapegrad.ops.complex import conj  # another library's array

    return conj(x)


def raw(x: Any) -> Any:
    """The backend array of a Tensor; anything else unchanged."""
    return x._data if isinstance(x, Tensor) else x


def shape_of(x: Any) -> tuple[int, ...]:
    if type(x) is _ndarray:  # the common case in gradient rules, which get raw arrays
        return x.shape
    if isinstance(x, Tensor):
        return x.shape
    if isinstance(x, (list, tuple)) and holds_tensor(x):  # without reading the values
        return tuple(np.shape(stand_ins(x)))
    return tuple(np.shape(x))


def normalize_axis(axis: Any, ndim: int, op: str) -> tuple[int, ...]:
    """``axis`` as a sorted tuple of non-negative ints; None means every axis."""
    if axis is None:
        return tuple(range(ndim))
    try:  # operator.index, not int: int(1.5) would quietly pick axis 1
        if isinstance(axis, (tuple, list)):
            axes = tuple(operator.index(a) for a in axis)
        else:
            axes = (operator.index(axis),)
    except TypeError:
        raise TypeError(
            f"{op}: axis must be None, an int or a tuple of ints, got {axis!r}"
        ) from None
    result = []
    for a in axes:
        if not -ndim <= a < ndim:
            raise ValueError(f"{op}: axis {a} is out of bounds for {article(f'{ndim}-d')} input")
        result.append(a % ndim)
    if len(set(result)) != len(result):
        raise ValueError(f"{op}: repeated axis in {axis}")
    return tuple(sorted(result))


# What an operand may be (lists holding Tensors as arrays, what no op takes): ops/operands.py,
# built on this module.
from tapegrad.ops.layout import holds_tensor, stand_ins  # noqa: E402
from tapegrad.ops.operands import _describe, as_operands, unaccepted  # noqa: E402
