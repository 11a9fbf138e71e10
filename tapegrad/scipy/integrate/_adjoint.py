"""What odeint, solve_ivp and quad share: evaluating a user's function outside every tape,
finding the Tensors it closes over that a tape differentiates, and packing the floating
parameters.

The functions these integrators take are called on host values by SciPy's solvers, so the
tapes never see the Tensors they read from outside their arguments. :func:`captured` finds
them by calling the function once under a probe tape that watches what the active tapes
watch (trainable Variables too); they become inputs of the one recorded primitive, so no
gradient is silently lost.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import _active
from tapegrad.core.entry import INPUTS, OUTPUT
from tapegrad.core.record import keep_values
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw


@contextlib.contextmanager
def unrecorded() -> Iterator[None]:
    """No active tape sees the ops inside: a function's evaluations for SciPy's solver."""
    token = _active.set(())
    try:
        yield
    finally:
        _active.reset(token)


def is_floating(value: Any) -> bool:
    """Whether ``value`` is a real floating number or array (a parameter to differentiate)."""
    if isinstance(value, float):
        return True
    dtype = getattr(raw(value), "dtype", None)
    return dtype is not None and backend.is_real_floating(dtype)


def float64(x: Tensor) -> Tensor:
    return x if raw(x).dtype == np.float64 else ops.astype(x, np.float64)


def detached(value: Any) -> Any:
    """A Tensor's value as a fresh Tensor no tape watches (others unchanged): what a probe
    passes for the arguments that are parameters already."""
    return Tensor(raw(value)) if isinstance(value, Tensor) else value


def captured(call: Callable[[], Any]) -> list[Tensor]:
    """The Tensors ``call()`` reads that it did not compute and a tape differentiates:
    trainable Variables, and Tensors an active tape watches (or computed from them). The
    active tapes record nothing meanwhile; ``call`` passes its own arguments detached."""
    outer = set().union(*(tape._watched for tape in _active.get()))
    token = keep_values.set(True)  # the Tensors found in the entries become parameters
    try:
        with unrecorded(), GradientTape(watch_accessed_variables=True) as probe:
            probe._watched |= outer
            _ = call()
    finally:
        keep_values.reset(token)
    entries = [entry for entry in probe._entries if entry is not None]
    produced = {entry[OUTPUT]._id for entry in entries}
    variables = {v._id for v in probe.watched_variables()}
    found: dict[int, Tensor] = {}
    for entry in entries:
        for x in entry[INPUTS]:
            if (
                isinstance(x, Tensor)
                and x._id not in produced
                and (x._id in outer or x._id in variables)
            ):
                found.setdefault(x._id, x)
    return list(found.values())


def vjp(
    call: Callable[..., Any], sources: list[Tensor], cotangent: Any
) -> tuple[np.ndarray, list[np.ndarray]]:
    """``call(*sources)`` (flattened, on the host) and ``cotangentᵀ ∂call/∂source`` for each
    source (flat host arrays, zeros where unconnected), from a tape around ``call`` that no
    outer tape sees. ``cotangent`` None: ``call`` returns a scalar, weighed by one."""
    with unrecorded():
        with GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(sources)
            out = call(*sources)
        # outside the tape's block: its sweep then runs on raw arrays
        weight = None if cotangent is None else Tensor(cotangent)
        grads = tape.gradient(out, sources, output_gradients=weight,
                              unconnected_gradients="zero")  # fmt: skip
    flat = [np.asarray(backend.to_host(g.data), dtype=float).ravel() for g in grads]
    return np.asarray(backend.to_host(raw(out))), flat


def as_tensor(value: Any) -> Tensor:
    """``value`` as a Tensor: a Tensor itself (so a tape that watches it still sees it),
    else a new float64 Tensor of it."""
    if isinstance(value, Tensor):
        return value
    return Tensor(np.asarray(backend.to_host(value), dtype=np.float64))


def recorded_vjp(
    call: Callable[..., Any], sources: list[Tensor], cotangent: Any
) -> tuple[Tensor, list[Tensor]]:
    """``call(*sources)`` and ``cotangentᵀ ∂call/∂source`` for each source (flat Tensors,
    zeros where unconnected), computed where the active tapes see it: an outer tape records
    the forward and the sweep, so the VJP can be differentiated again (second order)."""
    with GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(sources)
        out = call(*sources)
    grads = tape.gradient(out, sources, output_gradients=cotangent,
                          unconnected_gradients="zero")  # fmt: skip
    return out, [ops.reshape(g, (-1,)) for g in grads]
