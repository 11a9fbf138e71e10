"""SciPy's initial value problem solver with gradients: solve_ivp, by the adjoint method.

``solve_ivp(fun, t_span, y0, ...)`` integrates dy/dt = fun(t, y, *args) with SciPy's own
solver (any ``method``: RK45, RK23, DOP853, Radau, BDF, LSODA or an OdeSolver class), ``fun``
evaluated on host values outside every tape, and records one primitive whose result is the
OdeResult's ``y``, shape ``(n, len(t))``. Its VJP solves the continuous adjoint system
backwards with solve_ivp itself (the same method), one segment between output times at a
time, restarting y at the stored solution (Pontryagin; Chen et al. 2018):

    dy/ds = f(s, y),   da/ds = -aᵀ ∂f/∂y,   dθ̄/ds = -aᵀ ∂f/∂θ

from each output time t_j back to t_{j-1} (and from the first one back to t0), adding the
cotangent ḡ_{j-1} of y(t_{j-1}) to a. The vector-Jacobian products come from a tape around
``fun``. Then ȳ0 = a(t0), θ̄ = θ̄(t0) (θ: the floating ``args`` and the Tensors ``fun``
closes over that a tape differentiates), t̄_j = ḡ_j · f(t_j, y_j) for an output time
t_j that is an input (a ``t_eval`` point, or ``tf`` when the solver reached it), and
t̄0 = -a(t0) · f(t0, y0) (the solver's own output times without ``t_eval`` stay where it put
them; the first one is t0 itself, whose ḡ then cancels).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.integrate

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import tracing
from tapegrad.core.record import is_recorded
from tapegrad.core.tensor import Tensor
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import Primitive, raw, shape_of
from tapegrad.ops.rule_helpers import result_dtype
from tapegrad.scipy.integrate._adjoint import (
    as_tensor,
    captured,
    detached,
    float64,
    is_floating,
    recorded_vjp,
    unrecorded,
    vjp,
)

__all__ = ["solve_ivp"]

ArrayLike = Any

# The options the adjoint solves share with the forward: the rest (jac, jac_sparsity,
# lband, uband, first_step) describe the forward system only.
_SHARED_OPTIONS = ("max_step", "min_step")
# The adjoint's tolerances where the call gives none: tighter than SciPy's defaults
# (rtol 1e-3, atol 1e-6), which would make a gradient of three digits.
ADJOINT_RTOL, ADJOINT_ATOL = 1e-6, 1e-9


class _IVP:
    """One call's problem: ``fun``, how its differentiable inputs pack into one vector,
    the solver's settings, and (after the forward) SciPy's OdeResult. It is the
    primitive's parameter, so the rule finds it."""

    def __init__(
        self,
        fun: Callable[..., Any],
        args: tuple[Any, ...] | None,
        floating: list[int],
        captured: list[Tensor],
        shapes: list[tuple[int, ...]],
        has_t_eval: bool,
        settings: dict[str, Any],
        options: dict[str, Any],
    ) -> None:
        self.fun, self.args, self.floating, self.captured = fun, args, floating, captured
        self.shapes, self.has_t_eval = shapes, has_t_eval
        self.settings, self.options = settings, options
        self.result: Any = None

    def __repr__(self) -> str:
        name = getattr(self.fun, "__name__", "fun")
        return f"<IVP {name}: y {self.shapes[0]}, {self.settings['method']}>"

    def unpack(self, packed: np.ndarray) -> tuple[np.ndarray, float, float, Any, list[Any]]:
        """``(y0, t0, tf, t_eval, args)``: the floating args as arrays, the others as given."""
        pieces, start = [], 0
        for shape in self.shapes:
            size = int(np.prod(shape))
            pieces.append(packed[start : start + size].reshape(shape))
            start += size
        y0, t0, tf, *rest = pieces
        t_eval = rest.pop(0) if self.has_t_eval else None
        args = list(self.args or ())
        for k, value in zip(self.floating, rest):
            args[k] = value
        return y0, float(t0), float(tf), t_eval, args

    def call(self, s: Any, y: Any, args: list[Any]) -> Tensor:
        """``fun`` at (s, y) as a flat Tensor (a vectorized ``fun`` gets one column)."""
        if self.settings["vectorized"]:
            y = ops.reshape(y, (-1, 1))
        out = self.fun(s, y, *args)
        if isinstance(out, (list, tuple)):
            out = ops.stack([ops.asarray(v) for v in out])
        return ops.reshape(out if isinstance(out, Tensor) else ops.asarray(out), (-1,))

    def rhs(self, s: float, y: np.ndarray, args: list[Any]) -> np.ndarray:
        """``fun`` on host values, for the solver (a (n, k) ``y`` where vectorized; a
        vector ``y`` then goes in as one column)."""
        column = self.settings["vectorized"] and y.ndim == 1
        with unrecorded():
            out = self.fun(s, Tensor(y[:, None] if column else y), *args)
            if isinstance(out, (list, tuple)):
                out = ops.stack([ops.asarray(v) for v in out])
            out = np.asarray(backend.to_host(raw(out)))
        return out.ravel() if column else out

    def vjp(self, s: float, y: np.ndarray, args: list[Any], a: np.ndarray) -> tuple[Any, ...]:
        """``f(s, y)``, ``aᵀ ∂f/∂y`` and ``aᵀ ∂f/∂θ`` (flat, θ the floating args then the
        captured Tensors)."""
        values = [Tensor(np.asarray(v, dtype=float)) if k in self.floating else v
                  for k, v in enumerate(args)]  # fmt: skip
        floating = [values[k] for k in self.floating]

        def call(y_t: Tensor, *params: Tensor) -> Tensor:
            return self.call(s, y_t, values)

        f, grads = vjp(call, [Tensor(y), *floating, *self.captured], a)
        params = np.concatenate(grads[1:]) if len(grads) > 1 else np.zeros(0)
        return f.ravel(), grads[0], params

    def solve(self, packed: np.ndarray) -> Any:
        """SciPy's solve_ivp on the host values; the OdeResult, kept for the caller."""
        y0, t0, tf, t_eval, args = self.unpack(packed)
        settings = self.settings

        def fun(s: float, y: np.ndarray, *args: Any) -> np.ndarray:
            return self.rhs(s, y, list(args))

        with unrecorded():  # the events and jac SciPy calls record nothing either
            self.result = scipy.integrate.solve_ivp(
                fun, (t0, tf), y0, method=settings["method"], t_eval=t_eval,
                dense_output=settings["dense_output"], events=settings["events"],
                vectorized=settings["vectorized"],
                args=None if self.args is None else tuple(args), **self.options,
            )  # fmt: skip
        return self.result.y

    def backwards(self, state: np.ndarray, s0: float, s1: float, args: list[Any]) -> np.ndarray:
        """The augmented state ``[y, a, θ̄]`` carried from ``s0`` back to ``s1``."""
        n = self.shapes[0][0]

        def augmented(s: float, z: np.ndarray) -> np.ndarray:
            f, ay, ap = self.vjp(s, z[:n], args, z[n : 2 * n])
            return np.concatenate([f, -ay, -ap])

        rtol = self.options.get("rtol", ADJOINT_RTOL)
        atol = np.asarray(self.options.get("atol", ADJOINT_ATOL), dtype=float)
        if atol.ndim:  # per component of y: the adjoint and θ̄ take the smallest
            atol = np.concatenate([atol, np.full(state.size - n, atol.min())])
        shared = {k: self.options[k] for k in _SHARED_OPTIONS if k in self.options}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            sol = scipy.integrate.solve_ivp(
                augmented, (s0, s1), state, method=self.settings["method"], rtol=rtol,
                atol=atol, **shared,
            )  # fmt: skip
        if sol.status != 0:
            raise RuntimeError(f"solve_ivp: the adjoint solve failed: {sol.message}")
        return np.asarray(sol.y[:, -1])


def _forward(xp: Any, packed: Any, system: _IVP) -> Any:
    if xp is not np:
        raise TypeError("solve_ivp runs SciPy's solvers on NumPy arrays; move the Tensors to 'cpu'")
    return system.solve(packed)


def _adjoint_rule(g: Any, ans: Any, packed: Any, system: _IVP) -> Any:
    if any(is_recorded(v) for v in (g, ans, packed)):
        return _recorded_rule(g, ans, packed, system)
    g, ys, packed = (np.asarray(backend.to_host(raw(v)), dtype=float) for v in (g, ans, packed))
    y0, t0, tf, t_eval, args = system.unpack(packed)
    n, ts = y0.size, np.asarray(system.result.t, dtype=float)
    m = ts.size
    # The grid: t0 (no cotangent of its own), then every output time.
    times = np.concatenate([[t0], ts])
    cotangents = np.concatenate([np.zeros((n, 1)), g.reshape(n, m)], axis=1)
    states = np.concatenate([y0.reshape(n, 1), ys.reshape(n, m)], axis=1)
    adjoint = cotangents[:, -1].copy()
    params = np.zeros(packed.size - n - 2 - _t_eval_size(system))
    t_bar = np.zeros(m)
    for j in range(m, 0, -1):
        t_bar[j - 1] = cotangents[:, j] @ system.rhs(times[j], states[:, j], args)
        if times[j] != times[j - 1]:
            state = system.backwards(
                np.concatenate([states[:, j], adjoint, params]), times[j], times[j - 1], args
            )
            adjoint, params = state[n : 2 * n], state[2 * n :]
        adjoint = adjoint + cotangents[:, j - 1]
    t0_bar = -adjoint @ system.rhs(t0, y0.ravel(), args)
    tf_bar = 0.0
    if system.has_t_eval:
        t_eval_bar = np.zeros(_t_eval_size(system))
        t_eval_bar[:m] = t_bar
        return np.concatenate([adjoint, [t0_bar, tf_bar], t_eval_bar, params])
    # The solver's own times: the first is t0 itself, the last tf when it got there (not an
    # event's time, a constant), the others constants.
    if m:
        t0_bar += t_bar[0]
    if m > 1 and system.result.status == 0:
        tf_bar = t_bar[-1]
    return np.concatenate([adjoint, [t0_bar, tf_bar], params])


def _recorded_rule(g: Any, ans: Any, packed: Any, system: _IVP) -> Tensor:
    """The adjoint in tapegrad ops, for a tape that records the gradient: each segment's
    augmented system is solved by the differentiable ``solve_ivp`` (same method), its
    dynamics taking the VJPs of ``fun`` where the outer tapes see them (second order)."""
    g, ys, packed = (as_tensor(v) for v in (g, ans, packed))
    n, ts = system.shapes[0][0], np.asarray(system.result.t, dtype=float)
    m, sizes = ts.size, [int(np.prod(shape)) for shape in system.shapes]
    pieces = ops.split(packed, list(np.cumsum(sizes)[:-1])) if len(sizes) > 1 else [packed]
    y0, t0, tf, *rest = pieces
    t_eval = rest.pop(0) if system.has_t_eval else None
    args = list(system.args or ())
    for k, value, shape in zip(system.floating, rest, system.shapes[3 + system.has_t_eval :]):
        args[k] = ops.reshape(value, shape)
    t0, tf = ops.reshape(t0, ()), ops.reshape(tf, ())
    # The output times: t_eval's points (inputs), or the solver's own (t0, constants, tf).
    outputs: list[Any] = [float(s) for s in ts]
    if t_eval is not None:
        outputs = [t_eval[j] for j in range(m)]
    else:
        outputs[0] = t0 if m else None
        if m > 1 and system.result.status == 0:
            outputs[-1] = tf
    times = [t0, *outputs]
    g, ys = ops.reshape(g, (n, m)), ops.reshape(ys, (n, m))
    states = [y0, *(ys[:, j] for j in range(m))]
    cotangents = [None, *(g[:, j] for j in range(m))]

    def augmented(s: Any, state: Tensor, *args: Any) -> Tensor:
        state, values = as_tensor(state), list(args)
        for k in system.floating:
            values[k] = as_tensor(values[k])
        sources = [state[:n], *(values[k] for k in system.floating), *system.captured]
        out, grads = recorded_vjp(lambda y, *_: system.call(s, y, values), sources,
                                  state[n : 2 * n])  # fmt: skip
        return ops.concatenate([out, *(-grad for grad in grads)])

    rtol = system.options.get("rtol", ADJOINT_RTOL)
    atol = np.asarray(system.options.get("atol", ADJOINT_ATOL), dtype=float)
    size = packed.shape[0] - n - 2 - _t_eval_size(system)
    if atol.ndim:
        atol = np.concatenate([atol, np.full(n + size, atol.min())])
    shared = {k: system.options[k] for k in _SHARED_OPTIONS if k in system.options}
    adjoint, params = cotangents[-1], Tensor(np.zeros(size))
    t_bar: list[Any] = [None] * m
    for j in range(m, 0, -1):
        t_bar[j - 1] = ops.sum(cotangents[j] * system.call(times[j], states[j], args))
        if float(raw(times[j])) != float(raw(times[j - 1])):
            end = as_tensor(times[j - 1])
            sol = solve_ivp(
                augmented, (times[j], end), ops.concatenate([states[j], adjoint, params]),
                method=system.settings["method"], t_eval=ops.reshape(end, (1,)),
                args=tuple(args), rtol=rtol, atol=atol, **shared,
            )  # fmt: skip
            if sol.status != 0:
                raise RuntimeError(f"solve_ivp: the adjoint solve failed: {sol.message}")
            adjoint, params = sol.y[n : 2 * n, 0], sol.y[2 * n :, 0]
        if j > 1:
            adjoint = adjoint + cotangents[j - 1]
    t0_bar = -ops.sum(adjoint * system.call(t0, y0, args))
    tf_bar: Any = Tensor(np.asarray(0.0))
    if t_eval is not None:
        padding = Tensor(np.zeros(_t_eval_size(system) - m))
        rest_bar = [ops.concatenate([ops.stack(t_bar), padding]) if m else padding]
    else:
        rest_bar = []
        if m:
            t0_bar = t0_bar + t_bar[0]
        if m > 1 and system.result.status == 0:
            tf_bar = t_bar[-1]
    head = ops.stack([t0_bar, tf_bar])
    return ops.concatenate([adjoint, head, *rest_bar, params])


def _t_eval_size(system: _IVP) -> int:
    return int(np.prod(system.shapes[3])) if system.has_t_eval else 0


# Real states only (the adjoint is written for real dynamics). Not replayable: the number
# of output times, and the OdeResult, follow the solver.
_solve_ivp = Primitive(
    "solve_ivp", _forward, complex_rules=False, replayable=False, value_dependent_shape=True
).defvjp(_adjoint_rule)


def solve_ivp(
    fun: Callable[..., Any],
    t_span: ArrayLike,
    y0: ArrayLike,
    method: Any = "RK45",
    t_eval: ArrayLike | None = None,
    dense_output: bool = False,
    events: Any = None,
    vectorized: bool = False,
    args: Any = None,
    **options: Any,
) -> Any:
    """Solve ``dy/dt = fun(t, y, *args)`` from ``y0`` at ``t_span[0]`` to ``t_span[1]`` with
    SciPy's solver ``method``; returns SciPy's OdeResult, its ``y`` a Tensor that records.

    Differentiable, by the adjoint method (to every order: a gradient a tape records solves
    the adjoint with this solve_ivp itself), in ``y0``, the floating
    ``args``, the Tensors ``fun`` reads from outside that a tape differentiates (trainable
    Variables, watched Tensors), ``t_span``'s ends and the ``t_eval`` points. ``fun`` must
    be written with tapegrad ops (or NumPy functions on Tensors). The adjoint is solved
    with the same ``method`` and the call's ``rtol``/``atol`` (1e-6 and 1e-9 where it gives
    none, tighter than SciPy's defaults), ``max_step`` and ``min_step``. ``events`` stop or
    mark the solve as in SciPy, their times constants (``t_events``, ``y_events`` and
    ``sol`` under ``dense_output`` are SciPy's plain arrays). Called with no Tensor, and a
    ``fun`` that reads none and returns none, it is SciPy's own solve_ivp.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.integrate import solve_ivp
    >>> k = tg.tensor(0.5)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(k)
    ...     sol = solve_ivp(lambda t, y: -k * y, (0.0, 2.0), [1.0], rtol=1e-10, atol=1e-12)
    ...     y = sol.y[0, -1]  # y(2) = e^-1; dy/dk = -2 e^-1
    >>> round(y.item(), 8), round(tape.gradient(y, k).item(), 6)
    (0.36787944, -0.735759)
    """
    if args is not None:
        try:
            args = tuple(args)
        except TypeError as exc:
            raise TypeError(
                f"solve_ivp: supplied 'args' cannot be unpacked; supply `args` as a tuple "
                f"(e.g. `args=({args},)`)"
            ) from exc
    floating = [k for k, a in enumerate(args or ()) if is_floating(a)]
    found, returns_tensor = _probe(fun, t_span, y0, args, floating, vectorized)
    if not (holds_tensor([t_span, y0, t_eval, args]) or found or returns_tensor or tracing()):
        return scipy.integrate.solve_ivp(
            fun, t_span, y0, method=method, t_eval=t_eval, dense_output=dense_output,
            events=events, vectorized=vectorized, args=args, **options,
        )  # fmt: skip
    dtype = result_dtype(y0)
    if dtype.kind == "c":
        raise NotImplementedError(
            f"solve_ivp: complex y0 ({dtype}) is not differentiated; integrate the real and "
            "imaginary parts as one real system"
        )
    if len(shape_of(y0)) != 1:
        raise ValueError(f"solve_ivp: y0 must be 1-dimensional, got shape {shape_of(y0)}")
    if isinstance(t_span, Tensor):
        if tuple(shape_of(t_span)) != (2,):
            raise ValueError(f"solve_ivp: t_span must be 2 times, got shape {shape_of(t_span)}")
        t0, tf = ops.getitem(t_span, 0), ops.getitem(t_span, 1)
    else:
        if len(t_span) != 2:
            raise ValueError(f"solve_ivp: t_span must be 2 times, got {len(t_span)}")
        t0, tf = t_span
    if t_eval is not None and len(shape_of(t_eval)) != 1:
        raise ValueError("solve_ivp: `t_eval` must be 1-dimensional.")
    pieces = [y0, t0, tf, *([] if t_eval is None else [t_eval])]
    pieces += [*((args or ())[k] for k in floating), *found]
    shapes = [tuple(shape_of(p)) for p in pieces]
    settings = dict(method=method, dense_output=dense_output, events=events,
                    vectorized=vectorized)  # fmt: skip
    system = _IVP(fun, args, floating, found, shapes, t_eval is not None, settings, options)
    flat = [float64(ops.reshape(ops.asarray(p) if not isinstance(p, Tensor) else p, (-1,)))
            for p in pieces]  # fmt: skip
    y = _solve_ivp(ops.concatenate(flat), system=system)
    result = system.result
    result.y = y
    return result


def _probe(
    fun: Callable[..., Any],
    t_span: Any,
    y0: Any,
    args: tuple[Any, ...] | None,
    floating: list[int],
    vectorized: bool,
) -> tuple[list[Tensor], bool]:
    """The Tensors ``fun`` reads from outside its arguments that a tape differentiates,
    found by calling it once at (t0, y0), and whether it returned a Tensor (then the call
    records, even with no Tensor among the arguments)."""
    values = [detached(a) if k in floating else a for k, a in enumerate(args or ())]
    y = np.asarray(backend.to_host(raw(y0)))
    y = y.astype(float) if y.dtype.kind != "c" else y
    y_t = y.reshape(-1, 1) if vectorized else y  # a plain y: does fun return a Tensor?
    t0 = float(backend.to_host(raw(t_span[0] if not isinstance(t_span, Tensor) else t_span))
                .ravel()[0])  # fmt: skip
    out: list[Any] = []
    found = captured(lambda: out.append(fun(t0, y_t, *values)))
    return found, holds_tensor(out)
