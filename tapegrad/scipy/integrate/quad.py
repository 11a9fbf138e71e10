"""SciPy's adaptive quadrature with gradients: quad, by the Leibniz rule.

``quad(func, a, b, args)`` computes ∫ₐᵇ func(x, *args) dx with SciPy's QUADPACK on a host
version of ``func`` (called outside every tape) and records one primitive. Its VJP is

    ∂/∂a = -f(a),   ∂/∂b = f(b),   ∂/∂θ = ∫ₐᵇ ∂f/∂θ (x) dx

for θ the floating ``args`` and the Tensors ``func`` closes over that a tape differentiates;
the integrand ∂f/∂θ comes from a tape around ``func`` (one reverse sweep a point), each of
its components integrated by SciPy's quad again with the call's ``epsabs``, ``epsrel``,
``limit`` and ``points``. An infinite limit is a constant (no gradient).
"""

from __future__ import annotations

import functools
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

__all__ = ["quad"]

ArrayLike = Any


class _Integral:
    """One call's integral: ``func``, which limits are inputs, how the parameters pack into
    one vector, QUADPACK's settings, and (after the forward) SciPy's full result."""

    def __init__(
        self,
        func: Callable[..., Any],
        args: tuple[Any, ...],
        limits: tuple[Any, Any],
        moving: tuple[bool, bool],
        floating: list[int],
        captured: list[Tensor],
        shapes: list[tuple[int, ...]],
        settings: dict[str, Any],
    ) -> None:
        self.func, self.args, self.limits, self.moving = func, args, limits, moving
        self.floating, self.captured, self.shapes = floating, captured, shapes
        self.settings = settings
        self.result: tuple[Any, ...] = ()

    def __repr__(self) -> str:
        return f"<integral of {getattr(self.func, '__name__', 'func')}>"

    def unpack(self, packed: np.ndarray) -> tuple[float, float, list[Any]]:
        """``(a, b, args)``: the moving limits and floating args from ``packed``."""
        pieces, start = [], 0
        for shape in self.shapes:
            size = int(np.prod(shape))
            pieces.append(packed[start : start + size].reshape(shape))
            start += size
        limits = list(self.limits)
        for k in (0, 1):
            if self.moving[k]:
                limits[k] = float(pieces.pop(0))
        args = list(self.args)
        for k, value in zip(self.floating, pieces):
            args[k] = value
        return float(limits[0]), float(limits[1]), args

    def value(self, x: float, args: list[Any]) -> float:
        """``func(x, *args)`` on host values, a float for QUADPACK."""
        with unrecorded():
            out = self.func(x, *args)
            return float(np.asarray(backend.to_host(raw(out))))

    def gradient(self, x: float, args: list[Any]) -> np.ndarray:
        """``∂func/∂θ`` at ``x`` (flat: the floating args, then the captured Tensors)."""
        values = [Tensor(np.asarray(v, dtype=float)) if k in self.floating else v
                  for k, v in enumerate(args)]  # fmt: skip
        floating = [values[k] for k in self.floating]
        _, grads = vjp(lambda *_: self.func(x, *values), [*floating, *self.captured], None)
        return np.concatenate(grads) if grads else np.zeros(0)

    def quad(self, f: Callable[[float], float], a: float, b: float) -> tuple[Any, ...]:
        return tuple(scipy.integrate.quad(f, a, b, **self.settings))


def _forward(xp: Any, packed: Any, system: _Integral) -> Any:
    if xp is not np:
        raise TypeError("quad runs SciPy's QUADPACK on NumPy arrays; move the Tensors to 'cpu'")
    a, b, args = system.unpack(packed)
    system.result = system.quad(lambda x: system.value(x, args), a, b)
    return np.asarray(system.result[0], dtype=np.float64)


def _leibniz(g: Any, ans: Any, packed: Any, system: _Integral) -> Any:
    if any(is_recorded(v) for v in (g, ans, packed)):
        return _recorded_leibniz(g, packed, system)
    g = float(np.asarray(backend.to_host(raw(g))))
    packed = np.asarray(backend.to_host(raw(packed)), dtype=float)
    a, b, args = system.unpack(packed)
    limits = [-g * system.value(a, args)] if system.moving[0] else []
    limits += [g * system.value(b, args)] if system.moving[1] else []
    size = packed.size - len(limits)
    params = np.zeros(size)
    if size:
        cache: dict[float, np.ndarray] = {}

        def component(k: int, x: float) -> float:
            if x not in cache:  # the components' quadratures share their first nodes
                cache[x] = system.gradient(x, args)
            return float(cache[x][k])

        for k in range(size):
            params[k] = g * system.quad(functools.partial(component, k), a, b)[0]
    return np.concatenate([limits, params])


def _recorded_leibniz(g: Any, packed: Any, system: _Integral) -> Tensor:
    """The Leibniz rule in tapegrad ops, for a tape that records the gradient: ``func`` at
    the moving limits on Tensors, and each component of ∫ ∂f/∂θ by the differentiable
    ``quad`` of an integrand whose VJP the outer tapes see (second order)."""
    g, packed = as_tensor(g), as_tensor(packed)
    pieces, start = [], 0
    for shape in system.shapes:
        size = int(np.prod(shape))
        pieces.append(ops.reshape(packed[start : start + size], shape))
        start += size
    limits: list[Any] = list(system.limits)
    for k in (0, 1):
        if system.moving[k]:
            limits[k] = pieces.pop(0)
    args = list(system.args)
    for k, value in zip(system.floating, pieces):
        args[k] = value
    parts = [ops.reshape(-g * system.func(limits[0], *args), (1,))] if system.moving[0] else []
    if system.moving[1]:
        parts.append(ops.reshape(g * system.func(limits[1], *args), (1,)))

    def component(k: int, x: Any, *args: Any) -> Tensor:
        values = list(args)
        for j in system.floating:
            values[j] = as_tensor(values[j])
        sources = [*(values[j] for j in system.floating), *system.captured]
        _, grads = recorded_vjp(lambda *_: system.func(x, *values), sources, None)
        return ops.concatenate(grads)[k]

    settings = {key: system.settings[key] for key in ("epsabs", "epsrel", "limit", "points")}
    for k in range(packed.shape[0] - len(parts)):
        value = quad(functools.partial(component, k), limits[0], limits[1], tuple(args),
                     **settings)[0]  # fmt: skip
        parts.append(ops.reshape(g * value, (1,)))
    return ops.concatenate(parts)


# Real integrands only (QUADPACK's); not replayable: the forward closes over ``func``.
_quad = Primitive("quad", _forward, complex_rules=False, replayable=False).defvjp(_leibniz)


def quad(
    func: Callable[..., Any],
    a: ArrayLike,
    b: ArrayLike,
    args: Any = (),
    full_output: int = 0,
    epsabs: float = 1.49e-08,
    epsrel: float = 1.49e-08,
    limit: int = 50,
    points: Any = None,
    weight: Any = None,
    wvar: Any = None,
    wopts: Any = None,
    maxp1: int = 50,
    limlst: int = 50,
    complex_func: bool = False,
) -> Any:
    """Integrate ``func(x, *args)`` from ``a`` to ``b`` (either may be infinite) with
    SciPy's QUADPACK; returns ``(value, abserr)`` as SciPy (with ``full_output``, SciPy's
    infodict and messages too), ``value`` a 0-d Tensor that records.

    Differentiable (to every order: a recorded gradient integrates with this quad) in finite
    ``a`` and ``b`` (``-f(a)``, ``f(b)``), the floating ``args`` and the Tensors ``func``
    reads from outside that a tape differentiates (trainable Variables, watched Tensors):
    the gradient's integrand comes from a tape around ``func``, integrated by QUADPACK with
    the same ``epsabs``, ``epsrel``, ``limit`` and ``points``. ``func`` must be written with
    tapegrad ops (or NumPy functions on Tensors). ``weight`` (with ``wvar``, ``wopts``) and
    ``complex_func`` raise NotImplementedError; ``maxp1`` and ``limlst`` act with a weight
    only, as in SciPy. Called with no Tensor, and a ``func`` that reads none and returns
    none, it is SciPy's own quad (``points`` are break points, constants).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.integrate import quad
    >>> k = tg.tensor(2.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(k)
    ...     value, error = quad(lambda x: tg.exp(-k * x), 0.0, float("inf"))
    >>> round(value.item(), 10), round(tape.gradient(value, k).item(), 8)  # 1/k, -1/k²
    (0.5, -0.25)
    """
    refused = {"weight": weight is not None, "wvar": wvar is not None,
               "wopts": wopts is not None, "complex_func": bool(complex_func)}  # fmt: skip
    for name, given in refused.items():
        if given:
            raise NotImplementedError(
                f"quad: {name} is not supported (weighted and complex integrands are not "
                "differentiated); use scipy.integrate.quad on plain values"
            )
    args = args if isinstance(args, tuple) else (args,)
    settings = dict(full_output=full_output, epsabs=epsabs, epsrel=epsrel, limit=limit,
                    points=points, maxp1=maxp1, limlst=limlst)  # fmt: skip
    floating = [k for k, v in enumerate(args) if is_floating(v)]
    found, returns_tensor = _probe(func, a, b, args, floating)
    if not (holds_tensor([a, b, args, points]) or found or returns_tensor or tracing()):
        return scipy.integrate.quad(func, a, b, args, **settings)
    if points is not None:  # break points: where to split, constants
        settings["points"] = [float(np.asarray(backend.to_host(raw(p)))) for p in points]
    for name, limit_ in (("a", a), ("b", b)):
        if len(shape_of(limit_)) != 0:
            raise ValueError(f"quad: {name} must be a number, got shape {shape_of(limit_)}")
    ends = [float(np.asarray(backend.to_host(raw(v)))) for v in (a, b)]
    moving = (
        isinstance(a, Tensor) and bool(np.isfinite(ends[0])),
        isinstance(b, Tensor) and bool(np.isfinite(ends[1])),
    )
    pieces = [v for v, m in zip((a, b), moving) if m]
    pieces += [*(args[k] for k in floating), *found]
    shapes = [tuple(shape_of(p)) for p in pieces]
    system = _Integral(func, args, (ends[0], ends[1]), moving, floating, found, shapes, settings)
    flat = [float64(ops.reshape(p if isinstance(p, Tensor) else ops.asarray(p), (-1,)))
            for p in pieces]  # fmt: skip
    packed = ops.concatenate(flat) if flat else Tensor(np.zeros(0))
    value = _quad(packed, system=system)
    return (value, *system.result[1:])


def _probe(
    func: Callable[..., Any], a: Any, b: Any, args: tuple[Any, ...], floating: list[int]
) -> tuple[list[Tensor], bool]:
    """The Tensors ``func`` reads from outside its arguments that a tape differentiates,
    found by calling it once at a point inside (a, b), and whether it returned a Tensor
    (then the call records, even with no Tensor among the arguments)."""
    lo, hi = (float(np.asarray(backend.to_host(raw(v)))) for v in (a, b))
    if np.isfinite(lo) and np.isfinite(hi):
        x = 0.5 * (lo + hi)
    elif np.isfinite(lo) or np.isfinite(hi):
        x = lo + 1.0 if np.isfinite(lo) else hi - 1.0
    else:
        x = 0.0
    values = [detached(v) if k in floating else v for k, v in enumerate(args)]
    out: list[Any] = []
    with np.errstate(all="ignore"):
        found = captured(lambda: out.append(func(x, *values)))
    return found, holds_tensor(out)
