"""The implicit-function core that every solver of ``tapegrad.scipy.optimize`` shares.

A solver finds ``x*`` with ``F(x*, θ) = 0`` on plain arrays (SciPy's kernels do the
solving); :func:`implicit_solution` then records ONE entry from the parameters ``θ`` to
``x*``, whose gradient rule is the implicit function theorem: for a cotangent ``ḡ`` of
``x*``, solve ``J_zᵀ λ = ḡ`` with ``J_z = ∂F/∂z`` at the solution and return
``θ̄ = -λᵀ ∂F/∂θ``. Nothing is unrolled: the solver's iterations never reach a tape.

The rule is written with tapegrad ops (the Jacobian from a tape around ``F``, the solve with
``tapegrad.linalg.solve``, ``λᵀ ∂F/∂θ`` by a VJP of ``F``), so a tape outside records it and
second derivatives are exact. A singular or ill-conditioned ``J_z`` (condition number over
``COND_LIMIT``) raises ``LinAlgError`` naming the condition number: the solution is not
isolated and has no derivative, and the rule never returns a silently wrong gradient.

The unknowns ``z`` may extend ``x`` (``unknowns(x, args)`` gives them, recorded): a
constrained minimum's KKT system solves for ``(x, μ)``, its Lagrange multipliers.

Layer: ``tapegrad.core``, ``tapegrad.ops`` and ``tapegrad.linalg`` only.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import active_tapes, tracing
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import Primitive, raw, shape_of
from tapegrad.scipy.integrate._adjoint import captured as _captured
from tapegrad.scipy.integrate._adjoint import float64, unrecorded

# Above it the linearised optimality condition is numerically singular: the gradient
# would be noise, so the rule raises instead.
COND_LIMIT = 1e12

Residual = Callable[[Tensor, list[Any]], Any]


def host(value: Any) -> np.ndarray:
    """A value (Tensor, array, number) as a float64 NumPy array."""
    return np.asarray(backend.to_host(raw(value)), dtype=float)


def is_plain(*values: Any) -> bool:
    """No Tensor among ``values`` and nothing that records: SciPy's own function runs."""
    return not holds_tensor(list(values)) and not active_tapes() and not tracing()


def as_args(args: Any) -> tuple[Any, ...]:
    return args if isinstance(args, tuple) else (args,)


def constants(args: Sequence[Any]) -> list[Any]:
    """``args`` with each Tensor replaced by a detached float64 copy: what the user's
    function gets while SciPy's solver calls it."""
    return [Tensor(host(a)) if isinstance(a, Tensor) else a for a in args]


def probe(call: Callable[[], Any]) -> list[Tensor]:
    """The Tensors ``call()`` reads from outside that a tape differentiates (trainable
    Variables, watched Tensors), found as odeint finds them."""
    return _captured(call)


def evaluate(fn: Callable[[Tensor], Any], x: np.ndarray) -> np.ndarray:
    """``fn(x)`` on the host, outside every tape."""
    with unrecorded():
        return host(fn(Tensor(np.asarray(x, dtype=float))))


def value_and_jacobian(fn: Callable[[Tensor], Any], x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``fn(x)`` (flat) and its Jacobian ``(size of fn(x), size of x)``, outside every tape."""
    with unrecorded():
        xt = Tensor(np.asarray(x, dtype=float).ravel())
        with GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(xt)
            out = ops.reshape(_tensor(fn(xt)), (-1,))
        jac = tape.jacobian(out, xt, unconnected_gradients="zero")
    return host(out), host(jac).reshape(out.shape[0], xt.shape[0])


def value_and_gradient(fn: Callable[[Tensor], Any], x: np.ndarray) -> tuple[float, np.ndarray]:
    """``fn(x)`` (a scalar) and its gradient (flat), outside every tape."""
    with unrecorded():
        xt = Tensor(np.asarray(x, dtype=float).ravel())
        with GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(xt)
            out = _tensor(fn(xt))
        g = tape.gradient(out, xt, unconnected_gradients="zero")
    return float(host(out)), host(g)


def hessian_vector(fn: Callable[[Tensor], Any], x: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``∇²fn(x) v`` (reverse over reverse), outside every tape."""
    with unrecorded():
        xt = Tensor(np.asarray(x, dtype=float).ravel())
        with GradientTape(watch_accessed_variables=False) as outer:
            outer.watch(xt)
            with GradientTape(watch_accessed_variables=False) as inner:
                inner.watch(xt)
                out = _tensor(fn(xt))
            g = inner.gradient(out, xt, unconnected_gradients="zero")
            gv = ops.sum(g * Tensor(np.asarray(v, dtype=float).ravel()))
        hv = outer.gradient(gv, xt, unconnected_gradients="zero")
    return host(hv)


def hessian(fn: Callable[[Tensor], Any], x: np.ndarray) -> np.ndarray:
    """The dense Hessian of a scalar ``fn`` at ``x``, outside every tape."""
    return value_and_jacobian(lambda xt: gradient_of(fn, xt), x)[1]


def gradient_of(fn: Callable[[Tensor], Any], x: Tensor) -> Tensor:
    """``∇fn(x)`` (flat), recorded on every active tape (so differentiable again)."""
    with GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(x)
        out = _tensor(fn(x))
    return ops.reshape(tape.gradient(out, x, unconnected_gradients="zero"), (-1,))


def condition_check(name: str, matrix: Any, what: str) -> None:
    """LinAlgError naming the condition number when ``matrix`` is (numerically) singular."""
    a = host(matrix)
    if a.size == 0:
        return
    cond = float(np.linalg.cond(a)) if np.all(np.isfinite(a)) else float("inf")
    if not np.isfinite(cond) or cond > COND_LIMIT:
        raise np.linalg.LinAlgError(
            f"{name}: no implicit gradient: {what} at the solution has condition number "
            f"{cond:.3g} (over {COND_LIMIT:.0e}), so the solution is degenerate (not isolated, "
            "or a constraint is weakly active) and has no derivative in the parameters"
        )


def _sensitivity_check(name: str, jac: Any, lam: Any, grads: list[Any], what: str) -> None:
    """LinAlgError when the solution's sensitivity ``‖∂F/∂θ‖ / σ_min(J)`` is over
    ``COND_LIMIT``: ``J`` is nearly singular on the scale of the residual's dependence on
    the parameters (a one-by-one ``J`` has condition number 1 even at a triple root)."""
    lam_norm = float(np.linalg.norm(host(lam)))
    if lam_norm == 0.0:
        return
    theta = float(np.sqrt(sum(float(np.sum(host(g) ** 2)) for g in grads)))
    singular = np.linalg.svd(host(jac), compute_uv=False)
    smallest = float(singular[-1]) if singular.size else 1.0
    scale = max(float(singular[0]) if singular.size else 0.0, theta / lam_norm)
    cond = scale / smallest if smallest > 0 else float("inf")
    if not np.isfinite(cond) or cond > COND_LIMIT:
        raise np.linalg.LinAlgError(
            f"{name}: no implicit gradient: {what} at the solution is singular relative to the "
            f"residual's dependence on the parameters (condition number {cond:.3g}, over "
            f"{COND_LIMIT:.0e}): the solution is degenerate (a multiple root, a flat minimum) "
            "and its derivative in the parameters is unbounded"
        )


class ImplicitSystem:
    """One solve: the optimality condition ``residual(z, args)``, which positional
    ``args`` are parameters (the Tensors among them), the Tensors the user's functions
    read from outside (``captured``), and the solution. It is the entry's parameter."""

    def __init__(
        self,
        name: str,
        residual: Residual,
        args: Sequence[Any],
        captured: list[Tensor],
        solution: np.ndarray,
        unknowns: Callable[[Tensor, list[Any]], Tensor] | None = None,
        what: str = "the Jacobian of the optimality condition",
    ) -> None:
        self.name, self.residual, self.args = name, residual, list(args)
        self.floating = [k for k, a in enumerate(self.args) if isinstance(a, Tensor)]
        self.captured, self.solution, self.unknowns, self.what = (
            captured,
            solution,
            unknowns,
            what,
        )
        self.sizes = [int(np.prod(shape_of(self.args[k]))) for k in self.floating]

    def __repr__(self) -> str:
        return f"<{self.name}: {self.solution.size} unknowns, {len(self.parameters())} parameters>"

    def parameters(self) -> list[Tensor]:
        return [*(self.args[k] for k in self.floating), *self.captured]

    def unpack(self, packed: Tensor) -> list[Any]:
        """The args, each Tensor argument a recorded slice of ``packed``."""
        args, start = list(self.args), 0
        for k, size in zip(self.floating, self.sizes):
            piece = ops.getitem(packed, slice(start, start + size))
            args[k] = ops.reshape(piece, tuple(shape_of(self.args[k])))
            start += size
        return args


def _tensor(value: Any) -> Tensor:
    if isinstance(value, Tensor):
        return value
    if isinstance(value, (list, tuple)):
        return ops.stack([_tensor(v) for v in value])
    return Tensor(np.asarray(backend.to_host(value), dtype=float))


def _forward(xp: Any, packed: Any, system: ImplicitSystem) -> Any:
    return xp.asarray(system.solution)


def _rule(g: Any, ans: Any, packed: Any, system: ImplicitSystem) -> Tensor:
    g, ans, packed = _tensor(g), _tensor(ans), _tensor(packed)
    x = ops.reshape(ans, (-1,))
    n = x.shape[0]
    z = x if system.unknowns is None else system.unknowns(x, system.unpack(packed))
    captured = system.captured
    with GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch([z, packed, *captured])
        residual = ops.reshape(_tensor(system.residual(z, system.unpack(packed))), (-1,))
    try:
        jac = tape.jacobian(residual, z, unconnected_gradients="raise")
    except ValueError as exc:
        raise TypeError(
            f"{system.name}: the function does not depend on x through tapegrad ops, so no "
            "implicit gradient: write it with tapegrad ops (tg.* or NumPy functions on Tensors)"
        ) from exc
    m = z.shape[0]
    jac = ops.reshape(jac, (m, m))
    condition_check(system.name, jac, system.what)
    gz = ops.reshape(g, (-1,))
    if m > n:
        gz = ops.concatenate([gz, ops.zeros((m - n,), dtype=gz.dtype)])
    lam = linalg.solve(ops.transpose(jac), gz)
    grads = tape.gradient(
        residual, [packed, *captured], output_gradients=lam, unconnected_gradients="zero"
    )
    _sensitivity_check(system.name, jac, lam, grads, system.what)
    total = grads[0]
    if captured:
        pieces = [ops.reshape(c, (-1,)) for c in grads[1:]]
        if sum(system.sizes):
            pieces.insert(0, ops.zeros((sum(system.sizes),), dtype=total.dtype))
        total = total + ops.concatenate(pieces)
    return -total


@functools.cache
def _primitive(name: str) -> Primitive:
    return Primitive(name, _forward, replayable=False, complex_rules=False).defvjp(_rule)


def implicit_solution(
    name: str,
    residual: Residual,
    solution: Any,
    args: Sequence[Any],
    captured: list[Tensor],
    unknowns: Callable[[Tensor, list[Any]], Tensor] | None = None,
    what: str = "the Jacobian of the optimality condition",
) -> Tensor:
    """``solution`` (a root of ``residual(z, args)`` in z) as a Tensor that records one
    entry from the Tensor ``args`` and the ``captured`` Tensors, differentiated by the
    implicit function theorem (see the module's docstring). ``residual`` takes the flat
    unknowns and the args (their Tensors replaced by recorded slices of one vector) and is
    written with tapegrad ops.

    >>> import numpy as np, tapegrad as tg
    >>> a = tg.tensor(4.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(a)
    ...     x = implicit_solution("sqrt", lambda z, args: z * z - args[0], np.array([2.0]), [a], [])
    >>> round(tape.gradient(x, a).item(), 12)  # d sqrt(a)/da = 1/(2 sqrt a)
    0.25
    """
    solution = np.asarray(solution, dtype=float)
    system = ImplicitSystem(name, residual, args, captured, solution, unknowns, what)
    params = system.parameters()
    if not params:
        return Tensor(solution)
    packed = ops.concatenate([float64(ops.reshape(p, (-1,))) for p in params])
    return _primitive(name)(packed, system=system)
