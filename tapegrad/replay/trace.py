"""The recording pass of tg.compile: a pseudo-tape that sees f's primitive calls and guards.

While f runs for a new signature, a :class:`Trace` sits alone on the stack of
active tapes in TRACING mode. ``record()`` (tapegrad/core/record.py) hands it every primitive call
(differentiable or not) and ``tape.note_escape`` every Tensor -> Python
conversion. A call that reads a traced value (an argument, a Variable, or the
result of an earlier traced call) becomes a :class:`Step`; anything else is a
constant. A conversion of a traced value becomes a :class:`Guard`.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import itemgetter
from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.active import TRACING
from tapegrad.core.sites import caller_site, format_site
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.ops.primitive import Primitive


class Step:
    """One recorded primitive call: ``env[out] = forward(xp, *env[args], **params)``."""

    __slots__ = (
        "primitive", "forward", "xp", "args", "get", "params", "refs", "out", "floating", "ndim",
        "site",
    )  # fmt: skip

    def __init__(
        self, primitive: Primitive, xp: Any, args: list[int], params: dict, out: int, floating: bool
    ) -> None:
        self.primitive = primitive
        self.floating = floating
        self.forward = primitive.forward
        self.xp = xp
        self.args = tuple(args)
        # itemgetter of one index returns the item itself; of a slice, a 1-list.
        self.get = itemgetter(slice(args[0], args[0] + 1)) if len(args) == 1 else itemgetter(*args)
        self.params = params
        self.refs: list[tuple[str, int | None, int]] = []  # params that hold traced arrays
        self.out = out
        self.site = caller_site()

    @property
    def where(self) -> str | None:
        """The user's ``file:line`` that made this call while f was recorded."""
        return format_site(self.site)

    def call_params(self, env: list[Any], unwrap: Callable[[Any], Any] | None = None) -> dict:
        """The params, with arrays that came from traced values taken from ``env``."""
        if not self.refs:
            return self.params
        params = dict(self.params)
        for key, position, slot in self.refs:
            value = env[slot] if unwrap is None else unwrap(env[slot])
            if position is None:
                params[key] = value
            else:
                items = list(params[key])
                items[position] = value
                params[key] = tuple(items)
        return params


class Guard:
    """A Tensor -> Python conversion made while tracing, and the value it gave; or, with
    ``how == "shape"``, the shape of a result that depends on values."""

    __slots__ = ("slot", "how", "value", "where")

    def __init__(self, slot: int, how: str, value: Any, where: str | None) -> None:
        self.slot, self.how, self.value, self.where = slot, how, value, where

    def check(self, env: list[Any]) -> Any:
        """None when the conversion gives the recorded value again, else the new value."""
        return self.check_value(env[self.slot])

    def check_value(self, value: Any) -> Any:
        """:meth:`check` of the slot's value itself (the generated replay's locals)."""
        new = _convert(self.how, value)
        if isinstance(self.value, np.ndarray):
            same = (
                new.shape == self.value.shape
                and new.dtype == self.value.dtype
                and bool(np.array_equal(new, self.value, equal_nan=new.dtype.kind in "fc"))
            )
        else:
            same = new == self.value or (new != new and self.value != self.value)
        return None if same else new


def _convert(how: str, data: Any) -> Any:
    if how == "shape":
        return tuple(data.shape)
    kind = how.split("(", 1)[0]
    if kind == "bool":
        return bool(data)
    if kind == "float":
        return float(data)
    if kind in ("int", "index"):
        return int(data)
    if kind == "item":
        return backend.to_host(data).item()
    return np.array(backend.to_host(data), copy=True)  # numpy(), np.asarray(): the whole value


class Trace:
    """The pseudo-tape active while f runs under tg.compile; see the module docstring."""

    _mode = TRACING

    def __init__(self) -> None:
        # Tape-like fields, always empty, for code that walks the active tapes.
        self._entries: list[Any] = []
        self._variables: list[Variable] = []
        self._watched: set[int] = set()
        self.env: list[Any] = []  # slot -> value (arrays, and constants)
        self.slot_of: dict[int, int] = {}  # Tensor serial -> slot
        self.array_slot: dict[int, int] = {}  # id(array) of a traced value -> slot
        self.steps: list[Step] = []
        self.variables: list[tuple[int, Variable]] = []
        self.guards: list[tuple[int, Guard]] = []  # (steps recorded before it, guard)

    def slot(self, value: Any) -> int:
        self.env.append(value)
        return len(self.env) - 1

    def add_traced(self, t: Tensor, live: bool = False) -> int:
        """A slot for ``t``'s value; ``live``: a Variable f reads, read again by each replay.

        A Variable passed as an argument is an input like any other, not live.
        """
        slot = self.slot(t._data)
        self.slot_of[t._id] = slot
        self.array_slot[id(t._data)] = slot
        if live:
            self.variables.append((slot, t))
        return slot

    def _lookup(self, x: Any) -> int | None:
        if isinstance(x, Tensor):
            slot = self.slot_of.get(x._id)
            if slot is None and isinstance(x, Variable):
                slot = self.add_traced(x, live=True)
            return slot
        if hasattr(x, "shape"):  # the raw array of a traced Tensor, passed on by an op
            return self.array_slot.get(id(x))
        return None

    def _trace(self, primitive: Primitive, inputs: tuple, output: Tensor, params: dict) -> None:
        """Called by ``record()`` for every primitive call while this trace is active."""
        if not primitive.replayable:
            raise NotImplementedError(
                f"{primitive.name}: this op is made anew by each call (a custom_gradient "
                "function), so a tg.compile recording cannot replay it; call it outside the "
                "compiled function"
            )
        mark = len(self.env)
        traced = False
        args = []
        for x in inputs:
            slot = self._lookup(x)
            if slot is None:
                slot = self.slot(x._data if isinstance(x, Tensor) else x)
            else:
                traced = True
            args.append(slot)
        refs = []
        for key, value in params.items():
            items = value if isinstance(value, tuple) else (value,)
            for position, item in enumerate(items):
                slot = self._lookup(item) if hasattr(item, "shape") else None
                if slot is not None:
                    refs.append((key, position if isinstance(value, tuple) else None, slot))
        if not traced and not refs:
            del self.env[mark:]  # a constant: computed once, kept as a constant
            return
        xp = backend.namespace(*(self.env[a] for a in args))
        floating = backend.is_floating(output.dtype)  # as record() decides
        ndim = output.ndim
        step = Step(primitive, xp, args or [self.slot(None)], params, 0, floating)
        step.out = self.add_traced(output)
        step.ndim = ndim
        step.refs = refs
        if not args:  # a primitive without positional inputs (never today): keep arity >= 1
            step.forward = lambda xp, _, **p: primitive.forward(xp, **p)
        self.steps.append(step)
        if refs or primitive.value_dependent_shape:
            # The result's shape may follow values (a boolean mask, a traced repeat count),
            # and everything recorded after it assumed this shape: guard it.
            guard = Guard(step.out, "shape", tuple(output.shape), step.where)
            self.guards.append((len(self.steps), guard))

    def _guard(self, t: Tensor, how: str) -> None:
        """Called by ``tape.note_escape`` when a Tensor's value leaves for Python."""
        slot = self._lookup(t)
        if slot is None:
            return  # a constant converts to the same value on every call
        try:
            value = _convert(how, t._data)
        except Exception:
            return  # the conversion itself fails and raises for the user
        self.guards.append((len(self.steps), Guard(slot, how, value, format_site(caller_site()))))
