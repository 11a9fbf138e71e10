"""Forward mode's tape: a tangent carried beside each value, op by op.

A :class:`ForwardTape` sits on the same stack of active tapes as the GradientTapes, in the
FORWARD mode. It holds a tangent for each Tensor computed (inside its block) from a Tensor
that has one, keyed by the Tensor's serial number (serials are never reused, so the key
cannot meet another value). Each primitive call that reads a Tensor with a tangent gets
its output's tangent from the primitive's JVP rule (tapegrad/ops/jvp_rules.py), right after
the reverse tapes have appended its entry, so that the ordering with nested tapes is
right. The rule runs with only the tapes *outside* the forward tape active: what the rule
computes is recorded by the reverse tapes and carried by the forward tapes entered before
this one, never by this one itself. That is how transforms nest: ``jvp(grad(f))`` (a
reverse tape inside, whose sweep's rules are primitives too and so get tangents),
``grad(jvp(f))`` (the tangent rules recorded on the reverse tape outside), ``jvp(jvp(f))``.

When nothing is active outside a forward tape (the common case, ``tg.jvp`` called on
its own), tangents are kept as raw backend arrays and the rules get raw arrays, as the
reverse sweep's raw mode does: no Tensor is made for a tangent.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.core.active import FORWARD, _active
from tapegrad.core.tensor import Tensor

# The forward tapes open now, in any thread: record() looks further only while this is
# non-empty, so a program that never uses forward mode pays one falsy check on the paths
# that are not the one-recording-tape fast path.
open_tapes: set[Any] = set()

# ``output_tangent(primitive, tangents, inputs, arrays, output, params, outer, raw)``: the
# output's tangent, or None for none (set by tapegrad/ops/jvp_rules.py: imports point down).
_output_tangent: list[Callable[..., Any]] = []


def set_tangent_rule(output_tangent: Callable[..., Any]) -> None:
    """Install the function that runs a primitive's JVP rule (tapegrad/ops/jvp_rules.py)."""
    _output_tangent[:] = [output_tangent]


# primitive -> (its JVP on real NumPy arrays, exact, binary), for the inline path of
# :func:`push_tangents`: ``rule(t, ans, a)`` for a primitive of one input,
# ``rule(tx, ty, ans, a, b)`` for one of two (``binary``; None for an input without a
# tangent). ``exact``: given an array tangent for every input, the rule's array result
# always has the output's shape (an elementwise formula of all its operands), so only its
# type and dtype are checked. Set by tapegrad/ops/jvp_raw.py; a primitive without one, or
# a result that is not an array of the output's shape and dtype, goes the general way.
raw_rules: dict[Any, tuple[Callable[..., Any], bool, bool]] = {}


class ForwardTape:
    """Carries tangents through every op computed inside its block (forward-mode AD).

    ``seed(x, tangent)`` gives ``x`` a tangent; each primitive that reads a Tensor with a
    tangent gives its output one (the JVP: the output's derivative along the inputs'
    tangents). ``tangent(y)`` reads it back (zeros when ``y`` does not depend on a seed).
    Used by tg.jvp and the transforms built on it (tapegrad/transforms/forward.py).

    >>> import tapegrad as tg
    >>> from tapegrad.core.forward import ForwardTape
    >>> x = tg.tensor([0.0, 1.0])
    >>> with ForwardTape() as tape:
    ...     tape.seed(x, tg.tensor([1.0, 1.0]))
    ...     y = tg.sin(x) * x
    >>> tape.tangent(y).numpy().round(4).tolist()  # cos(x) x + sin(x)
    [0.0, 1.3818]
    """

    # What the code that walks the active tapes reads of each (GradientTape's names).
    watch_accessed_variables = False
    # Slots: the inline path of :func:`push_tangents` reads five of these per op.
    __slots__ = (
        "_watched", "_refs", "_keys", "_prune_at", "_entries", "_variables", "_roots", "_mode",
        "_entered", "_raw", "_holds_batched", "__weakref__",
    )  # fmt: skip

    def __init__(self) -> None:
        # Serial -> tangent (a raw array while ``_raw``, else a Tensor). Named as
        # GradientTape's watched set: "this value is carried" reads the same for both.
        self._watched: dict[int, Any] = {}
        # A weak reference to each Tensor carried, and its serial at the same index: a
        # tangent goes when its value does (a value that is gone is never an op's input
        # again), so a long forward pass holds no more than about twice the values alive
        # in it. Dead ones are dropped in batches (:meth:`_prune`) rather than by a
        # callback per value: the callback cost more than the rest of an elementwise op's
        # tangent. Two lists, not one of pairs: a pair per op is one more object made
        # (and one more the garbage collector tracks).
        self._refs: list[Any] = []
        self._keys: list[int] = []
        self._prune_at = _PRUNE_FIRST
        self._entries: list[Any] = []  # always empty: a forward tape appends no entries
        self._variables: list[Any] = []
        self._roots: set[int] = set()
        self._mode = FORWARD
        self._entered = False
        self._raw = True  # no tape outside: tangents as raw arrays
        self._holds_batched = False

    def __enter__(self) -> ForwardTape:
        if self._entered:
            raise ValueError("ForwardTape: this tape is already active")
        outer = _active.get()
        self._raw = not outer
        self._entered = True
        open_tapes.add(self)
        _active.set((*outer, self))
        return self

    def __exit__(self, *exc: Any) -> None:
        self._entered = False
        open_tapes.discard(self)
        _active.set(tuple(t for t in _active.get() if t is not self))

    def _prune(self) -> None:
        """Drop the tangents of the values that are gone; next time at twice what is left."""
        carried, refs, keys = self._watched, [], []
        for ref, key in zip(self._refs, self._keys):
            if ref() is None:
                carried.pop(key, None)
            else:
                refs.append(ref)
                keys.append(key)
        self._refs, self._keys = refs, keys
        self._prune_at = 2 * len(refs) + _PRUNE_FIRST

    def carry(self, y: Tensor, tangent: Any) -> None:
        """Keep ``tangent`` (in this tape's form: a raw array while ``_raw``) for ``y``."""
        key = y._id
        self._watched[key] = tangent
        refs = self._refs
        refs.append(_ref(y))
        self._keys.append(key)
        if len(refs) >= self._prune_at:
            self._prune()

    def seed(self, x: Tensor, tangent: Tensor) -> None:
        """Give ``x`` the tangent ``tangent`` (a Tensor of ``x``'s shape and dtype)."""
        if tangent.shape != x.shape:
            raise ValueError(
                f"ForwardTape.seed: a tangent of shape {tangent.shape} for a value of shape "
                f"{x.shape}"
            )
        self.carry(x, tangent._data if self._raw else tangent)

    def tangent(self, y: Tensor) -> Tensor | None:
        """The tangent ``y`` carries, or None when it depends on no seeded value."""
        t = self._watched.get(y._id)
        if t is None or isinstance(t, Tensor):
            return t
        return Tensor(t)

    def __repr__(self) -> str:
        return f"<ForwardTape carrying {len(self._watched)} tangents>"


def push_tangents(
    primitive: Any,
    inputs: tuple[Any, ...],
    arrays: Any,
    output: Tensor,
    params: dict[str, Any],
    tapes: tuple[Any, ...],
) -> None:
    """Give ``output`` its tangent on each forward tape among ``tapes`` that carries a
    tangent for one of ``inputs`` (record() calls this after the reverse tapes append).

    The common case inline: tg.jvp on its own (one raw forward tape), a hot op without
    params whose result is a real NumPy array of at least one dimension, by its formula
    in tapegrad/ops/jvp_raw.py (which writes into the arrays it makes: NumPy makes a 0-d
    result a scalar). Its inputs, being what NumPy computed that result from, are NumPy
    arrays and scalars or Python numbers, which the formulas take as they are. A result
    the formula cannot vouch for (a broadcast input's lone tangent, another dtype) goes
    the general way, as does everything else.
    """
    tape = tapes[0]
    if len(tapes) != 1 or not tape._raw or params:
        return _push_general(primitive, inputs, arrays, output, params, tapes)
    found = raw_rules.get(primitive)
    ans = output._data
    if found is None or type(ans) is not _ndarray or not ans.ndim:
        return _push_general(primitive, inputs, arrays, output, params, tapes)
    dtype = ans.dtype
    if dtype is not _FLOAT64 and dtype is not _FLOAT32:
        return _push_general(primitive, inputs, arrays, output, params, tapes)
    rule, exact, binary = found
    carried = tape._watched
    if binary:
        x, y = inputs
        tx = carried.get(x._id) if type(x) is Tensor or isinstance(x, Tensor) else None
        ty = carried.get(y._id) if type(y) is Tensor or isinstance(y, Tensor) else None
        if tx is None:
            if ty is None:
                return None
            exact = False  # a lone tangent may be smaller than the result (broadcast)
        elif ty is None:
            exact = False
        a, b = arrays
        tangent = rule(tx, ty, ans, a, b)
    else:
        (x,) = inputs
        t = carried.get(x._id) if type(x) is Tensor or isinstance(x, Tensor) else None
        if t is None:
            return None
        tangent = rule(t, ans, arrays[0])
    if (
        type(tangent) is _ndarray
        and tangent.dtype is dtype
        and (exact or tangent.shape == ans.shape)
    ):
        key = output._id
        carried[key] = tangent
        refs = tape._refs
        refs.append(_ref(output))
        tape._keys.append(key)
        if len(refs) >= tape._prune_at:
            tape._prune()
        return None
    return _push_general(primitive, inputs, arrays, output, params, tapes)


def _push_general(
    primitive: Any,
    inputs: tuple[Any, ...],
    arrays: Any,
    output: Tensor,
    params: dict[str, Any],
    tapes: tuple[Any, ...],
) -> None:
    """:func:`push_tangents` by the JVP rules of tapegrad/ops/jvp_rules.py, tape by tape."""
    for p, tape in enumerate(tapes):
        if tape._mode is not FORWARD:
            continue
        carried = tape._watched
        tangents: list[Any] | None = None
        for k, x in enumerate(inputs):
            if isinstance(x, Tensor):
                t = carried.get(x._id)
                if t is not None:
                    if tangents is None:
                        tangents = [None] * len(inputs)
                    tangents[k] = t
        if tangents is None:
            continue
        raw = tape._raw and p == 0
        tangent = _output_tangent[0](
            primitive, tangents, inputs, arrays, output, params, tapes[:p], raw
        )
        if tangent is not None:
            tape.carry(output, tangent)


_PRUNE_FIRST = 256
_ref = weakref.ref
_ndarray = np.ndarray
_FLOAT64, _FLOAT32 = np.dtype(np.float64), np.dtype(np.float32)
