"""``tg.checkpoint``: trade compute for memory by recomputing a block's forward in the sweep.

``checkpoint(f)(*args)`` runs ``f`` as usual, then takes back the entries it appended to
the recording tapes and appends one entry in their place: a one-off primitive from the
values ``f`` read (its arguments, the Variables and watched Tensors it used) to its
output. The tape keeps only those inputs, not ``f``'s intermediates. When the sweep
reaches the entry, its rule runs ``f`` again under a fresh tape and returns that tape's
vector-Jacobian product. Outer recording tapes see the second forward and its sweep, so
derivatives of any order work (they recompute too).

The second forward draws the same numbers from the default ``tg.random`` stream as the
first (Dropout masks), and layers with side effects skip them while it runs (BatchNorm's
running statistics; see :func:`recomputing`). An ``f`` whose second forward differs from
its first anyway (a ``tg.random.Generator`` of its own) raises instead of giving a wrong
gradient.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import weakref
from collections.abc import Callable, Iterator
from typing import Any

from tapegrad import random
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import RECORDING, TRACING, active_tapes
from tapegrad.core.entry import INPUTS, OUTPUT
from tapegrad.core.nests import flatten, pack
from tapegrad.core.record import keep_values
from tapegrad.core.sweep_raw import current_sweep
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, raw
from tapegrad.transforms.custom_gradient import _concat_flat, _unpack

_recomputing: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "tapegrad_recomputing", default=False
)


def recomputing() -> bool:
    """Whether the running code is a checkpointed block's second forward (in the sweep).

    Layers with side effects (BatchNorm's running statistics) skip them then.
    """
    return _recomputing.get()


def checkpoint(f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run ``f`` keeping only its inputs on the tape; the sweep recomputes its forward.

    ``tg.checkpoint(f)`` returns the checkpointed function (as ``jax.checkpoint``);
    ``tg.checkpoint(f, *args)`` calls it at once (as ``torch.utils.checkpoint``). ``f``
    returns a Tensor or a tuple/list of Tensors of one floating dtype. Gradients (of
    any order) are those of ``f`` itself; the memory of ``f``'s intermediates is held
    only while its forward runs, once in the forward pass and once in the sweep.

    Args:
        f: The function to checkpoint.
        *args: When given, ``f``'s positional arguments: ``f`` is called at once.
        **kwargs: ``f``'s keyword arguments, with ``args``.

    Returns:
        The checkpointed function, or its result when ``args`` are given.

    Raises:
        TypeError: ``f`` is not callable.

    >>> import tapegrad as tg
    >>> w = tg.Variable([[0.5, -1.0], [2.0, 0.1]])
    >>> block = tg.checkpoint(lambda x: tg.tanh(x @ w) * 2.0)
    >>> x = tg.tensor([[1.0, 2.0]])
    >>> with tg.GradientTape() as tape:
    ...     loss = tg.sum(block(block(x)))
    >>> len(tape)  # two checkpoint entries and the sum; no tanh, matmul or multiply
    3
    >>> tape.gradient(loss, w).shape
    (2, 2)
    """
    if not callable(f):
        raise TypeError(f"checkpoint: f must be callable, got {type(f).__name__}")

    @functools.wraps(f)
    def checkpointed(*args: Any, **kwargs: Any) -> Any:
        tapes = active_tapes()
        recording = [t for t in tapes if t._mode is RECORDING]
        if not recording or any(t._mode is TRACING for t in tapes):
            # Nothing records, or tg.compile records f: its replay keeps its own residuals.
            return f(*args, **kwargs)
        rng = _rng_state()
        marks = [(t, len(t._entries)) for t in recording]
        token = keep_values.set(True)  # _take_back returns Tensors the entries read
        try:
            out = f(*args, **kwargs)
        finally:
            keep_values.reset(token)
        name = f"checkpoint[{getattr(f, '__name__', 'f')}]"
        outputs = _check_outputs(out, name)  # before the tapes change
        inputs = _take_back(marks)
        if not inputs:  # f read nothing a tape watches: its output is a constant
            return out
        data = outputs[0]._data if len(outputs) == 1 else _concat_flat(outputs)
        rule = _Recompute(name, f, args, kwargs, inputs, outputs, rng).rule
        # Its rule is tape.gradient of f recomputed, in the same complex convention.
        primitive = Primitive(name, lambda xp, *arrays: data, replayable=False, complex_rules=True)
        result = primitive.defvjp_argnum(rule)(*inputs)
        if isinstance(out, Tensor):
            return result
        return pack(out, iter(_unpack(result, outputs)))

    return checkpointed(*args, **kwargs) if args or kwargs else checkpointed


def _take_back(marks: list[tuple[GradientTape, int]]) -> list[Tensor]:
    """Remove the entries appended since each mark; return the Tensors they read that none
    of them computed (f's inputs, in the order first read, each once)."""
    inputs: list[Tensor] = []
    seen: set[int] = set()
    for tape, mark in marks:
        appended = [e for e in tape._entries[mark:] if e is not None]
        made = {e[OUTPUT]._id for e in appended}
        for entry in appended:
            for x in entry[INPUTS]:
                if isinstance(x, Tensor) and x._id not in made and x._id not in seen:
                    seen.add(x._id)
                    inputs.append(x)
        del tape._entries[mark:]
        tape._watched -= made
    return inputs


def _check_outputs(out: Any, name: str) -> list[Tensor]:
    outputs = flatten(out)
    if not outputs or not all(isinstance(o, Tensor) for o in outputs):
        raise TypeError(
            f"{name}: f must return a Tensor or a tuple/list of Tensors, got {type(out).__name__}"
        )
    dtypes = {o.dtype for o in outputs}
    if len(dtypes) != 1 or not backend.is_floating(outputs[0].dtype):
        raise TypeError(
            f"{name}: the outputs must share one floating dtype, got "
            f"{sorted(str(d) for d in dtypes)}"
        )
    return outputs


def _rng_state() -> tuple[random.Generator, dict]:
    """The default tg.random stream and its position, to replay f's draws in the sweep."""
    generator = random._default
    return generator, generator.get_state()


@contextlib.contextmanager
def _replaying(rng: tuple[random.Generator, dict]) -> Iterator[None]:
    """Run with the default stream at the position f's first forward started from, and
    mark the run as a recomputation; put both back afterwards."""
    generator, state = rng
    previous_default, previous_state = random._default, generator.get_state()
    random._default = generator
    generator.set_state(state)
    token = _recomputing.set(True)
    try:
        yield
    finally:
        _recomputing.reset(token)
        generator.set_state(previous_state)
        random._default = previous_default


class _Recompute:
    """The rule of one checkpoint entry: f's second forward and its VJP, once per sweep."""

    def __init__(
        self,
        name: str,
        f: Callable[..., Any],
        args: tuple,
        kwargs: dict,
        inputs: list[Tensor],
        outputs: list[Tensor],
        rng: tuple[random.Generator, dict],
    ) -> None:
        self.name = name
        self.f, self.args, self.kwargs = f, args, kwargs
        self.inputs = inputs
        self.shapes = [o.shape for o in outputs]
        self.rng = rng
        self._last: tuple[Any, tuple, object | None, list[Any]] | None = None

    def rule(self, k: int, g: Any, ans: Any, *saved: Any) -> Any:
        tapes = active_tapes()
        sweep = current_sweep.get()
        last = self._last
        if last is None or last[0]() is not g or last[1] != tapes or last[2] is not sweep:
            last = self._last = (weakref.ref(g), tapes, sweep, self._gradients(g, ans))
        return last[3][k]

    def _gradients(self, g: Any, ans: Any) -> list[Any]:
        differentiable = [x for x in self.inputs if backend.is_floating(x.dtype)]
        with _replaying(self.rng):
            with GradientTape(watch_accessed_variables=False) as tape:
                tape.watch(differentiable)
                out = self.f(*self.args, **self.kwargs)
        outputs = flatten(out)
        if [o.shape for o in outputs if isinstance(o, Tensor)] != self.shapes:
            raise RuntimeError(f"{self.name}: the second forward returned other shapes")
        self._check_same(outputs, raw(ans))
        upstreams = [g] if len(outputs) == 1 else _unpack(_as_tensor(g), outputs)
        grads = tape.gradient(outputs, differentiable, output_gradients=upstreams)
        by_id = {x._id: d for x, d in zip(differentiable, grads)}
        return [by_id.get(x._id) for x in self.inputs]

    def _check_same(self, outputs: list[Tensor], first: Any) -> None:
        """A RuntimeError when the second forward's values differ from the first's."""
        again = outputs[0]._data if len(outputs) == 1 else _concat_flat(outputs)
        xp = backend.namespace(again, first)
        tolerance = _TOLERANCE.get(backend.dtype_name(again.dtype), 1e-12)
        close = xp.abs(again - first) <= tolerance * (1.0 + xp.abs(first))
        same = (again == first) | (xp.isnan(again) & xp.isnan(first))  # infinities, nans
        if not bool(xp.all(close | same)):
            raise RuntimeError(
                f"{self.name}: recomputing f in the reverse sweep gave other values than its "
                "first run, so its gradient would be wrong. f must be deterministic: draw "
                "random numbers from the default tg.random stream (which checkpoint replays), "
                "not from a Generator of its own, and do not change the arrays f reads"
            )


# How far a second forward may drift from the first (threads may sum in another order);
# a different random draw is off by far more.
_TOLERANCE = {"float16": 1e-3, "float32": 1e-5, "complex64": 1e-5}


def _as_tensor(g: Any) -> Tensor:
    return g if isinstance(g, Tensor) else Tensor(g)
