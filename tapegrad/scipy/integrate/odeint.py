"""SciPy's ODE solver with gradients: odeint, differentiated by the adjoint method.

``odeint(func, y0, t, args)`` integrates dy/dt = func(y, t, *args) with SciPy's LSODA and
records one primitive. Its VJP solves the adjoint system backwards, one segment between
observation times at a time, again with SciPy's solver (Pontryagin; Chen et al., "Neural
ordinary differential equations", 2018):

    dy/ds = f(y, s),   da/ds = -aᵀ ∂f/∂y,   dθ̄/ds = -aᵀ ∂f/∂θ

from each t_i back to t_{i-1}, restarting y at the stored solution and adding the output
cotangent ḡ_{i-1} to a. The vector-Jacobian products aᵀ ∂f/∂(y, θ) come from a tape around
``func``, so ``func`` is written with tapegrad ops. Memory grows with the number of time
points, not with the solver's steps. The gradient in each t_i (i > 0) is ḡ_i · f(y_i, t_i);
in t_0 it is (ḡ_0 - ȳ_0) · f(y_0, t_0). Parameters are the floating ``args`` and what
``func`` reads from outside them that a tape differentiates (trainable Variables, watched
Tensors).

The solver calls ``func`` (forward) and its VJP (adjoint) hundreds of times per solve, so
each odeint records ``func`` once, as ``tg.compile`` does, and replays the recording and its
reverse sweep on the solver's arrays (tapegrad/replay/solver_vjp.py, about 4x cheaper
than a tape per call). Where the recording cannot serve (``func`` closes over Tensors that
a tape differentiates, a Tensor -> Python conversion in ``func`` gives another value, its
Python cannot be recorded), the rest of the solve evaluates ``func`` on tapes, as before.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.integrate

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core import hooks
from tapegrad.core.record import is_recorded
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, raw, shape_of
from tapegrad.ops.rule_helpers import result_dtype
from tapegrad.scipy.integrate._adjoint import as_tensor, captured, detached, recorded_vjp
from tapegrad.scipy.integrate._adjoint import float64 as _float64
from tapegrad.scipy.integrate._adjoint import is_floating as _is_floating
from tapegrad.scipy.integrate._adjoint import unrecorded as _unrecorded

ArrayLike = Any
_UNSUPPORTED = ("Dfun", "col_deriv", "full_output", "ml", "mu")


class _System:
    """One call's ODE: ``func``, how its differentiable inputs pack into one vector, and the
    solver's options. It is the primitive's parameter, so the rule finds it."""

    def __init__(
        self,
        func: Callable[..., Any],
        tfirst: bool,
        args: tuple[Any, ...],
        floating: list[int],
        captured: list[Tensor],
        shapes: list[tuple[int, ...]],
        options: dict[str, Any],
    ) -> None:
        self.func, self.tfirst, self.args, self.floating = func, tfirst, args, floating
        self.captured, self.shapes, self.options = captured, shapes, options
        self._replayed: Any = None  # see replayed()

    def __repr__(self) -> str:
        name = getattr(self.func, "__name__", "func")
        return f"<ODE {name}: y {self.shapes[0]}, {self.shapes[1][0]} times>"

    def unpack(self, packed: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[Any]]:
        """``(y0, t, args)``: the floating args as arrays, the others as given."""
        pieces, start = [], 0
        for shape in self.shapes:
            size = int(np.prod(shape))
            pieces.append(packed[start : start + size].reshape(shape))
            start += size
        args = list(self.args)
        for k, value in zip(self.floating, pieces[2:]):
            args[k] = value
        return pieces[0], pieces[1], args

    def call(self, y: Tensor, s: float | Tensor, args: list[Any]) -> Tensor:
        """``func`` at (y, s) as a flat Tensor."""
        out = self.func(s, y, *args) if self.tfirst else self.func(y, s, *args)
        if isinstance(out, (list, tuple)):
            out = ops.stack(list(out))
        return ops.reshape(out, (-1,))

    def rhs(self, y: np.ndarray, s: float, args: list[Any]) -> np.ndarray:
        replayed = self.replayed()
        if replayed is not None:
            out = replayed.value(self.replay_inputs(y, s, args))
            if out is not None:
                return out
        with _unrecorded():
            return backend.to_host(self.call(Tensor(y.reshape(self.shapes[0])), s, args).data)

    def replayed(self) -> Any:
        """``func`` in (y, s, floating args) recorded at its first call and replayed after,
        with its VJP (tapegrad/replay/solver_vjp.py); None when ``func`` reads captured
        Tensors (their gradients come from a tape) or cannot be replayed."""
        if self.captured or hooks.replayed_vjp is None:
            return None
        if self._replayed is None:

            def flat(y: Tensor, s: Tensor, *floating: Tensor) -> Tensor:
                values = list(self.args)
                for k, value in zip(self.floating, floating):
                    values[k] = value
                return self.call(y, s, values)

            self._replayed = hooks.replayed_vjp(flat)
        return None if self._replayed.failed else self._replayed

    def replay_inputs(self, y: np.ndarray, s: float, args: list[Any]) -> list[np.ndarray]:
        theta = [np.asarray(args[k], dtype=float) for k in self.floating]
        return [y.reshape(self.shapes[0]), np.asarray(s, dtype=float), *theta]

    def vjp(self, y: np.ndarray, s: float, args: list[Any], a: np.ndarray) -> tuple[Any, ...]:
        """``f(y, s)`` and ``aᵀ ∂f/∂y``, ``aᵀ ∂f/∂θ`` (flat, θ the floating args then the
        captured Tensors), replayed where :meth:`replayed` can, else on a tape."""
        replayed = self.replayed()
        if replayed is not None:
            inputs = self.replay_inputs(y, s, args)
            found = replayed(inputs, a)
            if found is not None:
                out, grads = found
                del inputs[1], grads[1]  # s's
                flat = [np.zeros(x.size) if g is None else np.asarray(g).ravel()
                        for x, g in zip(inputs, grads)]  # fmt: skip
                params = np.concatenate(flat[1:]) if len(flat) > 1 else np.zeros(0)
                return out, flat[0], params
        y_t = Tensor(y.reshape(self.shapes[0]))
        args = [Tensor(np.asarray(a_k, dtype=float)) if k in self.floating else a_k
                for k, a_k in enumerate(args)]  # fmt: skip
        sources = [y_t, *(args[k] for k in self.floating), *self.captured]
        with _unrecorded():
            with GradientTape(watch_accessed_variables=False) as tape:
                tape.watch(sources)
                out = self.call(y_t, s, args)
            # outside the tape's block: its sweep then runs on raw arrays
            grads = tape.gradient(out, sources, output_gradients=Tensor(a),
                                  unconnected_gradients="zero")  # fmt: skip
        flat = [backend.to_host(g.data).ravel() for g in grads]
        params = np.concatenate(flat[1:]) if len(flat) > 1 else np.zeros(0)
        return backend.to_host(out.data), flat[0], params

    def solve(self, rhs: Callable[..., Any], state: np.ndarray, times: Any) -> np.ndarray:
        with warnings.catch_warnings():  # a failure is raised below, not warned about
            warnings.simplefilter("ignore", scipy.integrate.ODEintWarning)
            result, info = scipy.integrate.odeint(
                rhs, state, times, full_output=True, **self.options
            )
        if info["message"] != "Integration successful.":
            raise RuntimeError(f"odeint: SciPy's solver failed: {info['message']}")
        return result


def _forward(xp: Any, packed: Any, system: _System) -> Any:
    if xp is not np:
        raise TypeError("odeint runs SciPy's LSODA on NumPy arrays; move the Tensors to 'cpu'")
    y0, t, args = system.unpack(packed)
    ys = system.solve(lambda y, s: system.rhs(y, s, args), y0.ravel(), t)
    return ys.reshape((len(t),) + system.shapes[0])


def _adjoint(g: Any, ans: Any, packed: Any, system: _System) -> Any:
    if any(is_recorded(v) for v in (g, ans, packed)):
        return _recorded_adjoint(g, ans, packed, system)
    g, ys, packed = (backend.to_host(raw(v)) for v in (g, ans, packed))
    _, t, args = system.unpack(packed)
    times, n = len(t), ys[0].size
    g, ys = g.reshape(times, n), ys.reshape(times, n)
    adjoint = g[-1].copy()
    params = np.zeros(packed.size - n - times)
    t_bar = np.zeros(times)

    def augmented(state: np.ndarray, s: float) -> np.ndarray:
        f, ay, ap = system.vjp(state[:n], s, args, state[n : 2 * n])
        return np.concatenate([f, -ay, -ap])

    for i in range(times - 1, 0, -1):
        t_bar[i] = g[i] @ system.rhs(ys[i], t[i], args)
        state = np.concatenate([ys[i], adjoint, params])
        state = system.solve(augmented, state, [t[i], t[i - 1]])[-1]
        adjoint = state[n : 2 * n] + g[i - 1]
        params = state[2 * n :]
    t_bar[0] = (g[0] - adjoint) @ system.rhs(ys[0], t[0], args)
    return np.concatenate([adjoint, t_bar, params])


def _recorded_adjoint(g: Any, ans: Any, packed: Any, system: _System) -> Tensor:
    """The adjoint written with tapegrad ops, for a tape that records the gradient: each
    segment's augmented system is solved by the differentiable ``odeint`` itself, its
    dynamics taking the VJPs of ``func`` on a tape the outer tapes see, so the outer tape
    records one more odeint whose own rule is again an adjoint solve (second order)."""
    g, ys, packed = (as_tensor(v) for v in (g, ans, packed))
    times, n = system.shapes[1][0], int(np.prod(system.shapes[0]))
    t = packed[n : n + times]
    args, start = list(system.args), n + times
    for k, shape in zip(system.floating, system.shapes[2:]):
        size = int(np.prod(shape))
        args[k] = ops.reshape(packed[start : start + size], shape)
        start += size
    g, ys = ops.reshape(g, (times, n)), ops.reshape(ys, (times, n))

    def f(y: Tensor, s: Any, args: list[Any]) -> Tensor:
        return system.call(ops.reshape(y, system.shapes[0]), s, args)

    def augmented(state: Tensor, s: Any, *args: Any) -> Tensor:
        state, values = as_tensor(state), list(args)
        for k in system.floating:
            values[k] = as_tensor(values[k])
        sources = [state[:n], *(values[k] for k in system.floating), *system.captured]
        a = state[n : 2 * n]
        out, grads = recorded_vjp(lambda y, *_: f(y, s, values), sources, a)
        return ops.concatenate([out, *(-grad for grad in grads)])

    adjoint = g[-1]
    params = Tensor(np.zeros(packed.shape[0] - n - times))
    t_bar: list[Tensor] = []
    for i in range(times - 1, 0, -1):
        t_bar.append(ops.sum(g[i] * f(ys[i], t[i], args)))
        state = ops.concatenate([ys[i], adjoint, params])
        times_i = ops.stack([t[i], t[i - 1]])
        end = odeint(augmented, state, times_i, tuple(args), **system.options)[-1]
        adjoint, params = end[n : 2 * n] + g[i - 1], end[2 * n :]
    t_bar.append(ops.sum((g[0] - adjoint) * f(packed[:n], t[0], args)))
    return ops.concatenate([adjoint, ops.stack(t_bar[::-1]), params])


# Real states only (its adjoint is written for real dynamics, as SciPy's odeint integrates).
_odeint = Primitive("odeint", _forward, complex_rules=False).defvjp(_adjoint)


def odeint(
    func: Callable[..., Any],
    y0: ArrayLike,
    t: ArrayLike,
    args: Any = (),
    *,
    rtol: float | None = None,
    atol: float | None = None,
    tfirst: bool = False,
    **options: Any,
) -> Tensor:
    """Integrate ``dy/dt = func(y, t, *args)`` (``func(t, y, *args)`` when ``tfirst``) from
    ``y0`` at ``t[0]``; returns ``y`` at every time in ``t``, shape ``(len(t),) + y0.shape``.

    Differentiable in ``y0``, ``t``, the floating ``args`` and the trainable Variables or
    watched Tensors ``func`` reads from outside, by the adjoint method, to every order (a
    gradient that a tape records solves the adjoint system with this odeint itself, so it
    is differentiable again; ``func`` then also gets Tensor times). ``func`` must be written
    with tapegrad ops (``tg.*`` or NumPy functions on Tensors); it may return a list of
    components. ``rtol``, ``atol`` and SciPy's other solver options (``h0``, ``hmax``,
    ``mxstep``, ...) apply to the forward and the adjoint solves; ``Dfun`` is not supported.
    ``func``'s Python runs twice per call (once to find the Tensors it closes over, once
    to be recorded, with the time as a 0-d Tensor); the solver's evaluations replay the
    recorded ops. Python control flow on the values (``float(y[0]) > 1``) falls back to
    calling ``func`` at each evaluation.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.integrate import odeint
    >>> k = tg.tensor(0.5)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(k)
    ...     ys = odeint(lambda y, t, k: -k * y, [1.0], [0.0, 2.0], (k,), rtol=1e-10, atol=1e-10)
    ...     y = ys[1, 0]  # y(2) = e^-1; dy/dk = -2 e^-1
    >>> round(y.item(), 8), round(tape.gradient(y, k).item(), 6)
    (0.36787944, -0.735759)
    """
    for name in _UNSUPPORTED:
        if options.pop(name, None):
            raise NotImplementedError(f"odeint: {name} is not supported")
    if rtol is not None:
        options["rtol"] = rtol
    if atol is not None:
        options["atol"] = atol
    args = args if isinstance(args, tuple) else (args,)
    for value in (y0, t):
        dtype = result_dtype(value)
        if dtype.kind == "c":  # casting would drop the imaginary parts silently
            raise TypeError(
                f"odeint: complex values are not supported ({dtype} input, as SciPy's "
                "odeint); integrate the real and imaginary parts as one real system"
            )
    floating = [k for k, a in enumerate(args) if _is_floating(a)]
    captured = _captured(func, y0, t, args, tfirst, floating)
    pieces = [y0, t, *(args[k] for k in floating), *captured]
    shapes = [tuple(shape_of(p)) for p in pieces]
    if len(shapes[1]) != 1:
        raise ValueError(f"odeint: t must be a vector of times, got shape {shapes[1]}")
    system = _System(func, tfirst, args, floating, captured, shapes, options)
    flat = [_float64(ops.reshape(p, (-1,))) for p in pieces]
    return _odeint(ops.concatenate(flat), system=system)


def _captured(
    func: Callable[..., Any], y0: Any, t: Any, args: tuple, tfirst: bool, floating: list[int]
) -> list[Tensor]:
    """The Tensors ``func`` reads from outside its arguments that a tape differentiates
    (trainable Variables, Tensors an active tape watches), found by calling ``func`` once at
    (y0, t0) under a probe tape (see ``_adjoint.captured``); they become parameters of the
    ODE, so no gradient is lost."""
    values = [detached(a) if k in floating else a for k, a in enumerate(args)]
    y = Tensor(np.asarray(backend.to_host(raw(y0)), dtype=float))
    t0 = float(backend.to_host(raw(t)).ravel()[0])
    return captured(lambda: func(t0, y, *values) if tfirst else func(y, t0, *values))
