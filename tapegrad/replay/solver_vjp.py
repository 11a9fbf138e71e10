"""A function's vector-Jacobian product recorded once and replayed on raw arrays: what a
solver's adjoint calls at every step (odeint's adjoint calls its dynamics' VJP about a
thousand times per gradient).

:func:`replayed_vjp` traces ``f`` as ``tg.compile`` does (tapegrad/replay/compiled.py) on
its first call, then runs the recording's forward and its reverse sweep
(tapegrad/replay/sweep.py) straight on NumPy arrays: no Tensors, no tape, no rule lookup
per call. The replay layer sits above the solvers, so ``import tapegrad`` hands this
function down to them as ``tapegrad.core.hooks.replayed_vjp``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.core.anomaly import anomaly_mode
from tapegrad.core.tensor import Tensor
from tapegrad.replay.compiled import Compiled, _signature
from tapegrad.replay.recording import Recording
from tapegrad.replay.sweep import Call, _raw_vjp

_ndarray = np.ndarray


class ReplayedVjp:
    """``f``'s VJP at raw arrays, replayed from one recording; made by :func:`replayed_vjp`.

    A call returns ``(f(*arrays), [cotangentᵀ ∂f/∂array, ...])`` (a cotangent is None
    where ``f`` does not depend on that array); :meth:`value` returns ``f(*arrays)`` alone.
    Both return None when the recording cannot serve these arrays: ``f``'s Python would
    take another path (a guard failed), the arrays' shapes or dtypes differ from the
    recorded ones, ``f``'s result is not an array its recorded ops computed, or tracing
    ``f`` raised. After the first None they answer None at once, and the caller evaluates
    or differentiates ``f`` on a tape instead.
    """

    def __init__(self, f: Callable[..., Any]) -> None:
        self.compiled = Compiled(f, on_guard_failure="raise", max_recordings=1)
        self.recording: Recording | None = None
        self.key: list[tuple[Any, Any]] = []
        self.failed = False
        # The generated reverse sweep, once the replays' own sweep has written it (their
        # second gradient), and where each input's cotangent is in what it returns.
        self.sweep: Callable[..., Any] | None = None
        self.order: list[int] = []

    def __call__(self, arrays: list[Any], cotangent: Any) -> tuple[Any, list[Any]] | None:
        if self.sweep is not None and type(cotangent) is _ndarray and not anomaly_mode():
            env = self._forward(arrays, None)  # then straight into the generated sweep
            if env is None or self.recording is None:
                return None
            grads = self.sweep(env, cotangent, False)
            return env[self.recording.outputs[0][1]], [grads[j] for j in self.order]
        inputs = [Tensor(a) for a in arrays]
        env = self._forward(arrays, inputs)
        if env is None:
            return None
        recording = self.recording
        assert recording is not None  # _forward recorded it
        out = env[recording.outputs[0][1]]
        call = Call(recording, env, inputs, recording.kept)
        grads = _raw_vjp(call, 0, cotangent, list(range(len(inputs))))
        self._find_sweep(recording)
        return out, [grads[k] for k in range(len(inputs))]

    def _find_sweep(self, recording: Recording) -> None:
        """Keep the reverse sweep tapegrad/replay/sweep.py generated for these inputs, if it
        has, and it reads only what the forward keeps."""
        sources = tuple(sorted(recording.input_slots))
        plan = recording.reverse_plans.get((recording.outputs[0][1], sources))
        if plan is None or not plan.code:
            return
        if recording.kept is not None and not plan.code_reads <= recording.kept:
            return
        self.sweep = plan.code
        self.order = [sources.index(slot) for slot in recording.input_slots]

    def value(self, arrays: list[Any]) -> Any:
        """``f(*arrays)`` replayed (None where the recording cannot serve them)."""
        env = self._forward(arrays, None)
        if env is None or self.recording is None:
            return None
        return env[self.recording.outputs[0][1]]

    def _forward(self, arrays: list[Any], inputs: list[Tensor] | None) -> list[Any] | None:
        """Every recorded value at ``arrays`` (the first call records ``f``), or None."""
        if self.failed:
            return None
        if self.recording is None:
            return self._record(inputs or [Tensor(a) for a in arrays])
        if [(a.shape, a.dtype) for a in arrays] != self.key:
            self.failed = True
            return None
        try:
            env, guard, _ = self.recording.forward(arrays)
        except Exception:  # an op the new values break: the caller's tape says how, if it must
            guard = env = None
            self.failed = True
        if guard is not None:
            self.failed = True
        return None if self.failed else env

    def _record(self, inputs: list[Tensor]) -> list[Any] | None:
        self.key = [(x._data.shape, x._data.dtype) for x in inputs]
        try:
            key = _signature((tuple(inputs), {}))[0]
            recording, env = self.compiled._trace(key, tuple(inputs), {}, inputs)
        except Exception:  # f cannot be traced: the caller's tape says why, if it fails too
            self.failed = True
            return None
        if len(recording.outputs) != 1 or recording.outputs[0][0] != "slot":
            self.failed = True  # a result that is an input or a constant: nothing to replay
            return None
        self.recording = recording
        return list(env)


def replayed_vjp(f: Callable[..., Any]) -> ReplayedVjp:
    """``f``'s VJP, recorded at its first call and replayed after (see :class:`ReplayedVjp`).

    ``f`` takes arrays (as Tensors, while it is recorded) and returns one array. Its
    Python runs once, at the recording: later calls replay the recorded ops, so side
    effects in ``f`` happen once, and Tensor -> Python conversions are guards that send
    the caller back to its tape when a replay's value differs.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> vjp = replayed_vjp(lambda x, w: tg.sin(x) * w)
    >>> out, (gx, gw) = vjp([np.array([0.0, 1.0]), np.array([2.0, 3.0])], np.ones(2))  # records
    >>> out, (gx, gw) = vjp([np.array([0.0, 0.5]), np.array([4.0, 3.0])], np.ones(2))  # replays
    >>> [round(float(v), 6) for v in (*gx, *gw)]  # w cos(x), then sin(x)
    [4.0, 2.632748, 0.0, 0.479426]
    >>> vjp.compiled.traces  # f's Python ran once
    1
    """
    return ReplayedVjp(f)
