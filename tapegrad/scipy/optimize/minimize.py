"""``minimize`` with gradients: SciPy's minimizer (every method) finds ``x*`` on plain
arrays; the result's ``x`` is a Tensor differentiated by the implicit function theorem on
the optimality condition (docs/solvers.md):

* unconstrained: ``∇f(x*, θ) = 0``, so ``H dx = -∂(∇f)/∂θ`` (``H`` the recorded Hessian);
* bounds and constraints: the constraints active at ``x*`` (equalities, inequalities at
  their bound, coordinates at a bound) are equalities ``e(x, θ) = 0``, with multipliers
  ``μ = -(E Eᵀ)⁻¹ E ∇f`` (``E = ∂e/∂x``); the KKT system ``[∇f + Eᵀμ; e] = 0`` is
  differentiated in ``(x, μ)``: ``[[∇²L, Eᵀ], [E, 0]] (dx, dμ) = -∂/∂θ``.

Differentiable in the Tensor ``args`` and every Tensor and trainable Variable that ``fun``
and the constraint functions read from outside; bounds and the constraints' own bounds are
constants. ``jac`` omitted: tapegrad supplies the exact gradient (and ``hessp``/``hess``
for the methods that need one); the user's callables serve the solve only.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.optimize

from tapegrad import linalg, ops
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import refuse_gradient
from tapegrad.scipy.optimize._implicit import (
    as_args,
    condition_check,
    constants,
    evaluate,
    gradient_of,
    hessian,
    hessian_vector,
    host,
    implicit_solution,
    is_plain,
    probe,
    value_and_gradient,
    value_and_jacobian,
)

__all__ = ["minimize", "minimize_scalar"]

_NO_GRADIENT = ("nelder-mead", "powell", "cobyla", "cobyqa")
_NEEDS_HESS = ("dogleg", "trust-exact")
_NEEDS_HESSP = ("newton-cg", "trust-ncg", "trust-krylov")
# How close to its bound a constraint or coordinate is active, relative to the bound.
ACTIVE_TOL = 1e-6

Objective = Callable[[Tensor, list[Any]], Tensor]


class _Equalities:
    """The constraints active at the solution, as one function ``e(x, args) = 0``."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.parts: list[Callable[[Tensor, list[Any]], Tensor]] = []
        self.labels: list[str] = []

    def __bool__(self) -> bool:
        return bool(self.parts)

    def add(
        self, fn: Callable[[Tensor, list[Any]], Tensor], rows: np.ndarray, target: np.ndarray,
        label: str,
    ) -> None:  # fmt: skip
        if rows.size:
            index = Tensor(rows.astype(np.int64))
            bound = Tensor(target.astype(float))
            self.parts.append(lambda x, a: ops.take(fn(x, a), index) - bound)
            self.labels.extend(f"{label}[{int(r)}]" for r in rows)

    def __call__(self, x: Tensor, args: list[Any]) -> Tensor:
        return ops.concatenate([part(x, args) for part in self.parts])


def _bounds(bounds: Any, n: int) -> tuple[np.ndarray, np.ndarray]:
    lb, ub = np.full(n, -np.inf), np.full(n, np.inf)
    if bounds is None:
        return lb, ub
    if isinstance(bounds, scipy.optimize.Bounds):
        refuse_gradient("minimize", "bounds", bounds.lb, "bounds are constants")
        refuse_gradient("minimize", "bounds", bounds.ub, "bounds are constants")
        return (np.broadcast_to(host(bounds.lb), n).copy(),
                np.broadcast_to(host(bounds.ub), n).copy())  # fmt: skip
    for i, (lo, hi) in enumerate(bounds):
        refuse_gradient("minimize", "bounds", lo, "bounds are constants")
        refuse_gradient("minimize", "bounds", hi, "bounds are constants")
        lb[i] = -np.inf if lo is None else float(host(lo))
        ub[i] = np.inf if hi is None else float(host(hi))
    return lb, ub


def _near(value: np.ndarray, bound: np.ndarray) -> np.ndarray:
    with np.errstate(invalid="ignore"):
        return np.isfinite(bound) & (np.abs(value - bound) <= ACTIVE_TOL * (1 + np.abs(bound)))


class _Constraint:
    """One constraint as ``lb <= fn(x, args) <= ub`` (flat), and its SciPy form for the
    solve (plain functions, tapegrad's Jacobian where the user gave none)."""

    def __init__(self, c: Any, shape: tuple[int, ...], values: list[Any]) -> None:
        self.values = values
        self.fn: Callable[[Tensor, list[Any]], Tensor]
        if isinstance(c, dict):
            kind = c["type"]
            extra = as_args(c.get("args", ()))
            for value in extra:
                refuse_gradient("minimize", "a constraint's args", value, "they are constants")
            extra_c = constants(extra)
            fun = c["fun"]
            self.fn = lambda x, a: ops.reshape(
                _as_tensor(fun(ops.reshape(x, shape), *extra_c)), (-1,)
            )
            self.lb, self.ub = 0.0, (0.0 if kind == "eq" else np.inf)
            user_jac = c.get("jac")
            jac = (
                (lambda x: evaluate(lambda xt: user_jac(xt, *extra_c), x))
                if callable(user_jac)
                else (lambda x: value_and_jacobian(lambda xt: self.fn(xt, values), x)[1])
            )
            self.scipy: Any = {"type": kind, "fun": self.plain, "jac": jac}
            self.label = f"constraint {kind}"
        elif isinstance(c, scipy.optimize.LinearConstraint):
            refuse_gradient("minimize", "LinearConstraint.A", c.A, "it is a constant")
            a_matrix = Tensor(np.atleast_2d(host(c.A)))
            self.fn = lambda x, a: ops.matmul(a_matrix, x)
            self.lb, self.ub = host(c.lb), host(c.ub)
            self.scipy = scipy.optimize.LinearConstraint(
                a_matrix.numpy(), self.lb, self.ub, keep_feasible=c.keep_feasible
            )
            self.label = "LinearConstraint"
        elif isinstance(c, scipy.optimize.NonlinearConstraint):
            fun = c.fun
            self.fn = lambda x, a: ops.reshape(_as_tensor(fun(ops.reshape(x, shape))), (-1,))
            self.lb, self.ub = host(c.lb), host(c.ub)
            jac = (
                (lambda x: evaluate(lambda xt: c.jac(ops.reshape(xt, shape)), x))
                if callable(c.jac)
                else (lambda x: value_and_jacobian(lambda xt: self.fn(xt, values), x)[1])
            )
            self.scipy = scipy.optimize.NonlinearConstraint(
                self.plain, self.lb, self.ub, jac=jac, hess=c.hess,
                keep_feasible=c.keep_feasible,
            )  # fmt: skip
            self.label = "NonlinearConstraint"
        else:
            raise TypeError(
                f"minimize: a constraint must be a dict, LinearConstraint or "
                f"NonlinearConstraint, got {type(c).__name__}"
            )

    def plain(self, x: np.ndarray) -> np.ndarray:
        return evaluate(lambda xt: self.fn(xt, self.values), np.ravel(x))

    def activate(self, equalities: _Equalities, x: np.ndarray) -> None:
        value = self.plain(x)
        lb = np.broadcast_to(np.asarray(self.lb, dtype=float), value.shape)
        ub = np.broadcast_to(np.asarray(self.ub, dtype=float), value.shape)
        at_lb, at_ub = _near(value, lb), _near(value, ub)
        at_ub &= ~at_lb  # lb == ub: one equality
        rows = np.flatnonzero(at_lb | at_ub)
        target = np.where(at_lb, lb, ub)[rows]
        equalities.add(self.fn, rows, target, self.label)


def _as_tensor(value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (list, tuple)):
        return ops.stack([_as_tensor(v) for v in value])
    return Tensor(np.asarray(value, dtype=float))


def implicit_minimum(
    name: str,
    objective: Objective,
    solution: np.ndarray,
    args: tuple[Any, ...],
    captured: list[Tensor],
    equalities: _Equalities | None = None,
) -> Tensor:
    """``solution``, a minimum of ``objective(x, args)`` (flat ``x``) subject to the active
    ``equalities``, as a Tensor differentiated through its optimality condition."""
    n = int(np.size(solution))
    if not equalities:

        def stationarity(z: Tensor, a: list[Any]) -> Tensor:
            return gradient_of(lambda x: objective(x, a), z)

        return implicit_solution(name, stationarity, solution, args, captured, what="the Hessian")
    e = equalities

    def multipliers(x: Tensor, a: list[Any]) -> Tensor:
        with GradientTape(persistent=True, watch_accessed_variables=False) as tape:
            tape.watch(x)
            value = objective(x, a)
            active = e(x, a)
        gf = ops.reshape(tape.gradient(value, x, unconnected_gradients="zero"), (-1,))
        jac = ops.reshape(
            tape.jacobian(active, x, unconnected_gradients="zero"), (active.shape[0], n)
        )
        gram = ops.matmul(jac, ops.transpose(jac))
        condition_check(name, gram, "E Eᵀ (the active constraints' Jacobian E)")
        mu = -linalg.solve(gram, ops.matmul(jac, gf))
        scale = 1e-10 * (1.0 + float(np.max(np.abs(host(gf)), initial=0.0)))
        weak = [label for label, m in zip(e.labels, host(mu)) if abs(m) <= scale]
        if weak:
            warnings.warn(
                f"{name}: {', '.join(weak)} active with multiplier 0 (weakly active): the "
                "solution is not differentiable there; the gradient keeps it active",
                RuntimeWarning,
                stacklevel=2,
            )
        return ops.concatenate([x, mu])

    def kkt(z: Tensor, a: list[Any]) -> Tensor:
        x, mu = ops.getitem(z, slice(0, n)), ops.getitem(z, slice(n, None))
        lagrangian = gradient_of(lambda xx: objective(xx, a) + ops.sum(mu * e(xx, a)), x)
        return ops.concatenate([lagrangian, e(x, a)])

    return implicit_solution(
        name, kkt, solution, args, captured, multipliers, what="the KKT matrix"
    )


def minimize(
    fun: Callable[..., Any],
    x0: Any,
    args: Any = (),
    method: str | Callable[..., Any] | None = None,
    jac: Any = None,
    hess: Any = None,
    hessp: Any = None,
    bounds: Any = None,
    constraints: Any = (),
    tol: float | None = None,
    callback: Callable[..., Any] | None = None,
    options: dict[str, Any] | None = None,
) -> scipy.optimize.OptimizeResult:
    """``scipy.optimize.minimize``: SciPy's method finds the minimum; the result's ``x``
    (and ``fun``) are Tensors differentiable in the Tensor ``args`` and what ``fun`` and
    the constraints read from outside, by implicit differentiation of the optimality
    condition (``H dx = -∂(∇f)/∂θ``; the KKT system with the active bounds and
    constraints), to any order. The rest of the result is SciPy's.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import minimize
    >>> a = tg.tensor([1.0, 2.0])
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(a)
    ...     x = minimize(lambda x, a: tg.sum((x - a) ** 2) + tg.sum(x**4), [0.0, 0.0], (a,)).x
    ...     total = tg.sum(x)
    >>> tape.gradient(total, a).numpy().round(6)  # 1 / (1 + 6 x²) per coordinate
    array([0.323953, 0.19288 ])
    """
    args = as_args(args)
    if is_plain(x0, args):
        return scipy.optimize.minimize(fun, x0, args, method, jac, hess, hessp, bounds,
                                       constraints, tol, callback, options)  # fmt: skip
    x0h = host(x0)
    shape, n = x0h.shape, x0h.size
    values = constants(args)

    def objective(x: Tensor, a: list[Any]) -> Tensor:
        out = fun(ops.reshape(x, shape), *a)
        return ops.reshape(_as_tensor(out[0] if jac is True else out), ())

    if isinstance(constraints, (dict, scipy.optimize.LinearConstraint,
                                scipy.optimize.NonlinearConstraint)):  # fmt: skip
        constraints = [constraints]
    cons = [_Constraint(c, shape, values) for c in constraints]
    start = Tensor(x0h.ravel())
    captured = probe(lambda: [objective(start, values), *(c.fn(start, values) for c in cons)])
    lb, ub = _bounds(bounds, n)

    name = method.lower() if isinstance(method, str) else method
    solve_fun: Callable[..., Any]
    solve_jac: Any = jac
    if callable(jac):
        solve_fun = lambda x: float(evaluate(lambda xt: objective(xt, values), x))  # noqa: E731
        solve_jac = lambda x: evaluate(lambda xt: jac(ops.reshape(xt, shape), *values), x)  # noqa: E731
    elif jac is None and name not in _NO_GRADIENT or jac is True:
        solve_fun = lambda x: value_and_gradient(lambda xt: objective(xt, values), x)  # noqa: E731
        solve_jac = True
    else:
        solve_fun = lambda x: float(evaluate(lambda xt: objective(xt, values), x))  # noqa: E731

    def plain(user: Any) -> Any:
        if not callable(user):
            return user
        return lambda x, *p: evaluate(
            lambda xt: user(ops.reshape(xt, shape), *values, *p), np.ravel(x)
        )

    solve_hess, solve_hessp = plain(hess), plain(hessp)
    if hess is None and hessp is None:
        if name in _NEEDS_HESS:
            solve_hess = lambda x: hessian(lambda xt: objective(xt, values), x)  # noqa: E731
        elif name in _NEEDS_HESSP:
            solve_hessp = lambda x, p: hessian_vector(  # noqa: E731
                lambda xt: objective(xt, values), x, p
            )
    plain_bounds = None if bounds is None else scipy.optimize.Bounds(lb, ub)
    result = scipy.optimize.minimize(
        solve_fun, x0h.ravel(), (), method, solve_jac, solve_hess, solve_hessp, plain_bounds,
        [c.scipy for c in cons], tol, callback, options,
    )  # fmt: skip
    xs = np.asarray(result.x, dtype=float)
    stationary = False
    if not result.success and not cons and bounds is None:  # "precision loss" at a minimum
        gradient = value_and_gradient(lambda xt: objective(xt, values), xs)[1]
        stationary = bool(np.max(np.abs(gradient), initial=0.0) <= 1e-6)
    if not result.success and not stationary:
        warnings.warn(
            f"minimize: SciPy's solver did not converge ({result.message}); the implicit "
            "gradient assumes a minimum and is not meaningful at this point",
            RuntimeWarning,
            stacklevel=2,
        )
    equalities = _Equalities(n)
    for c in cons:
        c.activate(equalities, xs)
    for bound, label in ((lb, "lower bound"), (ub, "upper bound")):
        rows = np.flatnonzero(_near(xs, bound))
        equalities.add(lambda x, a: x, rows, bound[rows], label)
    x = implicit_minimum("minimize", objective, xs, args, captured, equalities)
    result.x = ops.reshape(x, shape)
    result.fun = objective(x, list(args))
    return result


def minimize_scalar(
    fun: Callable[..., Any],
    bracket: Any = None,
    bounds: Any = None,
    args: Any = (),
    method: str | Callable[..., Any] | None = None,
    tol: float | None = None,
    options: dict[str, Any] | None = None,
) -> scipy.optimize.OptimizeResult:
    """``scipy.optimize.minimize_scalar`` (``brent``, ``golden``, ``bounded``): the
    result's ``x`` and ``fun`` are 0-d Tensors differentiable in the Tensor ``args`` and
    what ``fun`` reads from outside, through ``f'(x*, θ) = 0``
    (``dx/dθ = -f_xθ / f_xx``); a minimum at a bound of ``bounded`` has gradient 0.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import minimize_scalar
    >>> g = tg.grad(lambda c: minimize_scalar(lambda x, c: (x - c) ** 2 + x**4, args=(c,),
    ...                                       options={"xtol": 1e-12}).x)
    >>> round(g(1.0), 6)  # 1 / (1 + 6 x²) at x* = 0.5898
    0.323954
    """
    args = as_args(args)
    if is_plain(args):
        return scipy.optimize.minimize_scalar(fun, bracket, bounds, args, method, tol, options)
    for label, value in (("bracket", bracket), ("bounds", bounds)):
        refuse_gradient("minimize_scalar", label, value, "they are constants")
    values = constants(args)

    def objective(x: Tensor, a: list[Any]) -> Tensor:
        return ops.reshape(_as_tensor(fun(ops.reshape(x, ()), *a)), ())

    start = 0.0 if bounds is None else float(np.mean([float(host(b)) for b in bounds]))
    captured = probe(lambda: objective(Tensor(np.array([start])), values))
    bracket_h = None if bracket is None else tuple(float(host(b)) for b in bracket)
    bounds_h = None if bounds is None else tuple(float(host(b)) for b in bounds)
    result = scipy.optimize.minimize_scalar(
        lambda x: float(evaluate(lambda xt: objective(xt, values), np.array([x]))),
        bracket_h, bounds_h, (), method, tol, options,
    )  # fmt: skip
    xs = np.array([float(result.x)])
    equalities = _Equalities(1)
    if bounds_h is not None:
        for bound, label in ((bounds_h[0], "lower bound"), (bounds_h[1], "upper bound")):
            rows = np.flatnonzero(_near(xs, np.array([bound])))
            equalities.add(lambda x, a: x, rows, np.array([bound])[rows], label)
    x = implicit_minimum("minimize_scalar", objective, xs, args, captured, equalities)
    result.x = ops.reshape(x, ())
    result.fun = objective(x, list(args))
    return result
