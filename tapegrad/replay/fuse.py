"""``tg.compile(f, fuse=True)``: a recording compiled with numba into one loop over the elements.

A recording of elementwise ops on float64 arrays of one shape (and scalars or 0-d
arrays broadcast against them, and sums over every element) becomes the Python source
of two numba functions (tapegrad/replay/fuse_ops.py has each op's scalar expression and
VJPs): ``forward`` loops over the elements once, each recorded step one scalar
statement; ``gradient`` computes the same values and, in reverse order in the same loop,
every input's cotangent (a second loop when a scalar computed after a sum is needed by
the reverse pass, as in ``log(sum(exp(x)))``). The source goes to a file named by its
hash in the cache directory (``TAPEGRAD_CACHE_DIR``, by default ``~/.cache/tapegrad/
fused``) and is compiled with ``cache=True``, so numba keeps the machine code beside it
and another process loads it instead of compiling. A recording with an op, dtype or
shape this cannot compile replays as without ``fuse``, after one :class:`FuseWarning`
naming the op. Guards are kernel outputs, checked as the plain replay checks them.
See docs/replay.md.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

from tapegrad.core.active import _active
from tapegrad.core.anomaly import anomaly_mode
from tapegrad.core.record import is_recorded
from tapegrad.core.sweep_raw import current_sweep
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, raw
from tapegrad.replay.kernel import FuseWarning, Kernel, Unfusable
from tapegrad.replay.recording import Recording
from tapegrad.replay.sweep import compiled_vjp
from tapegrad.replay.trace import Guard

_ndarray = np.ndarray
_FLOAT, _BOOL = np.dtype(np.float64), np.dtype(np.bool_)


def numba_or_warning() -> bool:
    """Whether numba imports; if not, one FuseWarning saying how to install it."""
    try:
        import numba  # noqa: F401
    except ImportError:
        warnings.warn(
            "compile(fuse=True): numba is not installed (pip install 'tapegrad[fuse]'), so "
            "recordings replay without fusing",
            FuseWarning,
            stacklevel=4,
        )
        return False
    return True


def fused_recording(name: str, trace: Any, input_slots: list[int], out: Any) -> Recording:
    """A :class:`FusedRecording`, or a plain Recording after a FuseWarning saying why not."""
    try:
        return FusedRecording(name, trace, input_slots, out)
    except Unfusable as why:
        recording = Recording(name, trace, input_slots, out)
        if recording.steps:
            warnings.warn(
                f"compile({name}, fuse=True): {why}; this recording replays without fusing",
                FuseWarning,
                stacklevel=4,
            )
        return recording


class _Env(list[Any]):
    """A fused replay's env: only inputs, outputs and guarded values are filled in; ``grads``
    holds the gradient computed with the forward when a tape was active (seed 1)."""

    __slots__ = ("grads",)
    grads: Any


class FusedRecording(Recording):
    """A Recording whose forward and gradient run as generated numba code."""

    def __init__(self, name: str, trace: Any, input_slots: list[int], out: Any) -> None:
        super().__init__(name, trace, input_slots, out)
        if not self.steps:
            raise Unfusable("nothing to fuse")
        self.fused = True
        self.kernel = Kernel(self, trace.env)
        self.primitive = Primitive(
            f"compiled[{name}]", self.primitive.forward, complex_rules=True
        ).defvjp_argnum(fused_vjp)

    def forward(
        self, arrays: list[Any], full: bool = False
    ) -> tuple[list[Any] | None, Guard | None, Any]:
        kernel = self.kernel
        if full or not self.fused or anomaly_mode():  # full: every step's value
            return Recording.forward(self, arrays, full)
        for a in arrays:
            if type(a) is not _ndarray:
                return Recording.forward(self, arrays)
        env = _Env(self.template)
        env.grads = None
        for slot, a in zip(self.input_slots, arrays):
            env[slot] = a
        for slot, variable in self.variables:
            env[slot] = variable._data
        args = [env[slot] for slot in kernel.sources] + kernel.constants
        if _active.get() and kernel.speculate:
            results = kernel.call("gradient", self, args + [kernel.one_seed])
            if results is not None:
                env.grads = results[len(kernel.outputs) :]
        else:
            results = kernel.call("forward", self, args)
        if results is None:  # the compiler failed (warned once): replay unfused from now on
            return Recording.forward(self, arrays)
        for (slot, shape), value in zip(kernel.outputs, results):
            env[slot] = value.reshape(shape)
        for guard in self.guards:
            new = guard.check(env)
            if new is not None:
                return env, guard, new
        return env, None, None


def fused_vjp(k: int, g: Any, ans: Any, *inputs: Any, call: Any, output: int) -> Any:
    """Input ``k``'s cotangent from the fused gradient; one kernel call serves every input."""
    cached = call.cache
    sweep = current_sweep.get()
    if cached is not None and cached[:3] == (output, g, sweep) and k in cached[3]:
        return cached[3][k]
    recording, kernel = call.recording, call.recording.kernel
    g_raw = raw(g)
    plain = (
        not recording.fused
        or anomaly_mode()
        or type(g_raw) is not _ndarray
        or (isinstance(g, Tensor) and is_recorded(g, *inputs))
        or any(type(x._data) is not _ndarray for x in call.inputs)
    )
    if plain:
        if type(call.env) is _Env:  # the plain sweep reads every value: replay them
            arrays = [x._data for x in call.inputs[: len(recording.input_slots)]]
            call.env = Recording.forward(recording, arrays)[0]
        return compiled_vjp(k, g, ans, *inputs, call=call, output=output)
    out_slot = recording.outputs[output][1]
    seeds = kernel.seed_of.get(out_slot)
    slots = [*recording.input_slots, *(slot for slot, _ in recording.variables)]
    wanted = sorted(call.wanted | {k})
    grads = None
    env = call.env
    if seeds is None:
        pass  # no differentiable path from any input to this output
    elif type(env) is _Env and env.grads is not None:
        grads = [gx if g_raw == 1.0 else gx * g_raw for gx in env.grads]
    elif seeds is not None:
        by_slot = dict(zip(slots, call.inputs))
        args = [by_slot[s]._data for s in kernel.sources] + kernel.constants
        seed_arrays = [np.zeros(shape) for _, shape in kernel.seeds]
        # C-contiguous float64, as the speculative call's seed: one compiled signature.
        seed_arrays[seeds] = np.array(g_raw, dtype=_FLOAT, order="C").reshape(
            kernel.seeds[seeds][1]
        )
        results = kernel.call("gradient", recording, args + seed_arrays)
        if results is None:  # the compiler failed: the plain sweep, on a full env
            call.env = None
            arrays = [x._data for x in call.inputs[: len(recording.input_slots)]]
            call.env = Recording.forward(recording, arrays)[0]
            return compiled_vjp(k, g, ans, *inputs, call=call, output=output)
        grads = results[len(kernel.outputs) :]
    connected = kernel.connected.get(out_slot, frozenset())
    result: dict[int, Any] = {}
    for j in wanted:
        slot = slots[j]
        if grads is None or slot not in connected:
            result[j] = None
            continue
        position = kernel.grad_sources.index(slot)
        gx = grads[position].reshape(call.inputs[j].shape)
        result[j] = Tensor(gx) if isinstance(g, Tensor) else gx
    call.cache = (output, g, sweep, result)
    return result[k]
