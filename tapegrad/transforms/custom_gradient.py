"""``@custom_gradient``: a function whose reverse-mode derivative the user supplies.

Each call makes a one-off Primitive from the Tensor arguments to a fresh copy
of the function's output, whose VJP rule calls the user's ``grad_fn``. The
body of the function runs with every tape recording as usual, so when
``grad_fn`` reuses the body's intermediates (as in TensorFlow's ``log1pexp``
example), a tape outside the one being swept sees how they depend on the
inputs: second derivatives of a custom gradient are exact.
"""

from __future__ import annotations

import functools
import inspect
import weakref
from collections.abc import Callable
from typing import Any

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import active_tapes
from tapegrad.core.nests import flatten, pack
from tapegrad.core.sweep_raw import current_sweep
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.ops.primitive import Primitive, shape_of
from tapegrad.transforms.args import undo_on_error
from tapegrad.wording import count


def custom_gradient(f: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate ``f(*inputs) -> (y, grad_fn)`` to differentiate it with ``grad_fn``.

    ``y`` is a Tensor, or a tuple/list of Tensors of one floating dtype.
    ``grad_fn(*upstreams)`` gets one cotangent per output and returns one gradient
    per positional input of ``f`` (a tuple), or, for a single input, that gradient;
    a gradient is a Tensor or array shaped like its input, a nest matching a nested
    input, or None (no gradient). Keyword arguments are passed to ``f`` and are not
    differentiated. When ``f`` reads trainable Variables that are not inputs,
    ``grad_fn`` must accept ``variables=`` and return ``(input_grads, variable_grads)``,
    as in TensorFlow.

    ``grad_fn`` is written with tapegrad ops, so an outer tape records it and its
    derivatives (second order and up) are available. On complex values, the cotangents
    it gets and the gradients it returns follow docs/complex.md (``dL/dx + i dL/dy``).

    Args:
        f: A function of Tensors returning ``(y, grad_fn)``.

    Returns:
        The decorated function: it returns ``y`` and records one entry whose rule is
        ``grad_fn``.

    Raises:
        TypeError: When called: ``f`` does not return a pair ``(y, grad_fn)``, ``y`` is not
            floating Tensors of one dtype, or ``grad_fn`` returns the wrong number of
            gradients.
        ValueError: In the sweep: ``grad_fn`` returns a gradient of the wrong shape.

    >>> import tapegrad as tg
    >>> @tg.custom_gradient
    ... def log1pexp(x):
    ...     e = tg.exp(x)
    ...     def grad_fn(upstream):
    ...         return upstream * (1 - 1 / (1 + e))
    ...     return tg.log(1 + e), grad_fn
    >>> tg.grad(log1pexp)(tg.tensor(100.0)).item()
    1.0
    """
    name = getattr(f, "__name__", "custom_gradient")

    @functools.wraps(f)
    def custom_f(*args: Any, **kwargs: Any) -> Any:
        if not active_tapes():  # nothing records, so nothing will ask for grad_fn
            return _output_and_grad_fn(f(*args, **kwargs), name)[0]
        with undo_on_error():
            # An extra tape only to learn which trainable Variables the body reads.
            with GradientTape(watch_accessed_variables=True) as probe:
                y, grad_fn = _output_and_grad_fn(f(*args, **kwargs), name)
            inputs = [leaf for leaf in flatten(args) if isinstance(leaf, Tensor)]
            input_ids = {t._id for t in inputs}
            variables = [v for v in probe.watched_variables() if v._id not in input_ids]
            if variables and not _accepts_variables(grad_fn):
                names = ", ".join(v.name or f"Variable{v.shape}" for v in variables)
                raise TypeError(
                    f"custom_gradient {name}: the function reads the trainable Variables "
                    f"({names}), so grad_fn must accept a keyword argument `variables` and "
                    "return (input_gradients, variable_gradients)"
                )
            outputs = flatten(y)
            backward = _Backward(name, args, inputs, variables, outputs, grad_fn)
            if isinstance(y, Tensor):
                primitive = Primitive(
                    name, lambda xp, *arrays: y._data, replayable=False, complex_rules=True
                )
                return primitive.defvjp_argnum(backward.rule)(*inputs, *variables)
            # Several outputs travel as one flat Tensor: grad_fn sees all their cotangents at once.
            dtypes = {o.dtype for o in outputs}
            if len(dtypes) != 1:
                raise TypeError(
                    f"custom_gradient {name}: the outputs must share one dtype, got "
                    f"{sorted(str(d) for d in dtypes)}"
                )
            primitive = Primitive(
                name,
                lambda xp, *arrays: _concat_flat(outputs),
                replayable=False,
                complex_rules=True,
            )
            packed = primitive.defvjp_argnum(backward.rule)(*inputs, *variables)
            return pack(y, iter(_unpack(packed, outputs)))

    return custom_f


def _output_and_grad_fn(result: Any, name: str) -> tuple[Any, Callable[..., Any]]:
    if not (isinstance(result, (tuple, list)) and len(result) == 2 and callable(result[1])):
        raise TypeError(
            f"custom_gradient {name}: the function must return (output, grad_fn), "
            f"got {type(result).__name__}"
        )
    y, grad_fn = result
    leaves = [y] if isinstance(y, Tensor) else y
    if not isinstance(leaves, (tuple, list)) or not all(isinstance(o, Tensor) for o in leaves):
        raise TypeError(
            f"custom_gradient {name}: the output must be a Tensor or a tuple/list of Tensors, "
            f"got {type(y).__name__}"
        )
    return y, grad_fn


def _accepts_variables(fn: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return any(p.name == "variables" or p.kind is p.VAR_KEYWORD for p in parameters)


def _concat_flat(outputs: list[Tensor]) -> Any:
    xp = backend.namespace(*(o._data for o in outputs))
    return xp.concat([xp.reshape(o._data, (-1,)) for o in outputs])


def _unpack(packed: Tensor, like: list[Tensor]) -> list[Tensor]:
    """Slice a flat Tensor back into pieces shaped like ``like`` (recorded ops)."""
    pieces, start = [], 0
    for o in like:
        pieces.append(ops.reshape(ops.getitem(packed, slice(start, start + o.size)), o.shape))
        start += o.size
    return pieces


class _Backward:
    """The VJP rule of one call: runs grad_fn once per cotangent, for every input."""

    def __init__(
        self,
        name: str,
        args: tuple[Any, ...],
        inputs: list[Tensor],
        variables: list[Variable],
        outputs: list[Tensor],
        grad_fn: Callable[..., Any],
    ) -> None:
        self.name = name
        self.args = args
        self.inputs = inputs
        self.variables = variables
        self.outputs = outputs
        self.grad_fn = grad_fn
        # The sweep asks for one input at a time with the same cotangent; grad_fn runs once
        # per sweep (a later sweep may pass the same cotangent object, refilled).
        self._last: tuple[Any, tuple, object | None, list[Any]] | None = None

    def rule(self, k: int, g: Tensor, ans: Tensor, *saved: Any) -> Tensor | None:
        tapes = active_tapes()
        sweep = current_sweep.get()
        last = self._last
        if last is None or last[0]() is not g or last[1] != tapes or last[2] is not sweep:
            last = self._last = (weakref.ref(g), tapes, sweep, self._gradients(g))
        gradient = last[3][k]
        if gradient is None:
            return None
        x = saved[k]
        if shape_of(gradient) != x.shape:
            raise ValueError(
                f"custom_gradient {self.name}: grad_fn returned a gradient of shape "
                f"{shape_of(gradient)} for {self._describe(k)} of shape {x.shape}"
            )
        if not isinstance(gradient, Tensor):  # the sweep casts it to x's dtype
            gradient = ops.asarray(gradient, like=x)
        return gradient

    def _describe(self, k: int) -> str:
        if k >= len(self.inputs):
            return f"Variable {self.variables[k - len(self.inputs)].name or ''}".rstrip()
        return f"input Tensor {k}"

    def _gradients(self, g: Tensor) -> list[Any]:
        """One gradient (or None) per Tensor input, then per Variable."""
        upstreams = [g] if len(self.outputs) == 1 else _unpack(g, self.outputs)
        if self.variables:
            result = self.grad_fn(*upstreams, variables=self.variables)
            if not (isinstance(result, (tuple, list)) and len(result) == 2):
                raise TypeError(
                    f"custom_gradient {self.name}: with variables, grad_fn must return "
                    "(input_gradients, variable_gradients)"
                )
            input_grads, variable_grads = result
            variable_grads = list(variable_grads)
            if len(variable_grads) != len(self.variables):
                raise ValueError(
                    f"custom_gradient {self.name}: grad_fn returned {len(variable_grads)} "
                    f"variable gradients for {len(self.variables)} variables"
                )
        else:
            input_grads, variable_grads = self.grad_fn(*upstreams), []
        return self._per_input(input_grads) + variable_grads

    def _per_input(self, grads: Any) -> list[Any]:
        n = len(self.args)
        if isinstance(grads, (tuple, list)) and len(grads) == n:
            per_arg = list(grads)
        elif n == 1:
            per_arg = [grads]
        else:
            got = count(len(grads), "value") if isinstance(grads, (tuple, list)) else "one value"
            raise TypeError(
                f"custom_gradient {self.name}: grad_fn must return one gradient per input "
                f"({n}), got {got}"
            )
        flat: list[Tensor | None] = []
        for i, (arg, gradient) in enumerate(zip(self.args, per_arg)):
            leaves = flatten(arg)
            found = [None] * len(leaves) if gradient is None else flatten(gradient)
            if len(found) != len(leaves):
                raise TypeError(
                    f"custom_gradient {self.name}: the gradient of input {i} has "
                    f"{len(found)} leaves but the input has {len(leaves)}"
                )
            flat.extend(d for leaf, d in zip(leaves, found) if isinstance(leaf, Tensor))
        return flat
