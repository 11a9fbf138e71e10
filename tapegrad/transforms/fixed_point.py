"""``tg.fixed_point``: the solution of ``x = f(x, *params)``, differentiated implicitly.

The iteration runs outside every tape; the result records one entry whose gradient rule is
the implicit function theorem on ``F(x, θ) = f(x, θ) - x = 0``: for a cotangent ``ḡ``,
solve ``(I - ∂f/∂x)ᵀ λ = ḡ`` (dense, with ``tapegrad.linalg.solve``) and return
``θ̄ = λᵀ ∂f/∂θ`` by a VJP of ``f``. The rule is written with tapegrad ops, so an outer tape
records it and second derivatives are exact. It is the tool for user-written solvers
(docs/extending.md): any iteration whose limit is a fixed point gets its gradient without
unrolling. ``tapegrad.scipy.optimize`` builds SciPy's solvers on the same rule.

Parameters are the floating ``params`` and the Tensors and trainable Variables ``f`` reads
from outside that a tape differentiates (found by calling ``f`` once under a probe tape).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import _active
from tapegrad.core.entry import INPUTS, OUTPUT
from tapegrad.core.record import keep_values
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import Primitive, raw, shape_of

# Above it ``I - ∂f/∂x`` is numerically singular at the fixed point: no gradient.
COND_LIMIT = 1e12


@contextlib.contextmanager
def _unrecorded() -> Iterator[None]:
    token = _active.set(())
    try:
        yield
    finally:
        _active.reset(token)


def _host(value: Any) -> np.ndarray:
    return np.asarray(backend.to_host(raw(value)), dtype=float)


def _tensor(value: Any) -> Tensor:
    return value if isinstance(value, Tensor) else Tensor(np.asarray(value, dtype=float))


def _captured(call: Callable[[], Any]) -> list[Tensor]:
    """The Tensors ``call()`` reads that it did not compute and a tape differentiates."""
    outer = set().union(*(tape._watched for tape in _active.get()))
    token = keep_values.set(True)
    try:
        with _unrecorded(), GradientTape(watch_accessed_variables=True) as probe:
            probe._watched |= outer
            call()
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


class _FixedPoint:
    """One call: ``f``, its parameters and the solution (the entry's parameter)."""

    def __init__(self, f: Callable[..., Any], params: list[Any], captured: list[Tensor],
                 solution: np.ndarray) -> None:  # fmt: skip
        self.f, self.params, self.captured, self.solution = f, params, captured, solution
        self.tensors = [k for k, p in enumerate(params) if isinstance(p, Tensor)]
        self.sizes = [int(np.prod(shape_of(params[k]))) for k in self.tensors]

    def __repr__(self) -> str:
        return f"<fixed_point of {getattr(self.f, '__name__', 'f')}: {self.solution.shape}>"

    def unpack(self, packed: Tensor) -> list[Any]:
        params, start = list(self.params), 0
        for k, size in zip(self.tensors, self.sizes):
            piece = ops.getitem(packed, slice(start, start + size))
            params[k] = ops.reshape(piece, tuple(shape_of(self.params[k])))
            start += size
        return params

    def step(self, x: Tensor, params: list[Any]) -> Tensor:
        return ops.reshape(self.f(ops.reshape(x, self.solution.shape), *params), (-1,))


def _forward(xp: Any, packed: Any, problem: _FixedPoint) -> Any:
    return xp.asarray(problem.solution)


def _rule(g: Any, ans: Any, packed: Any, problem: _FixedPoint) -> Tensor:
    g, ans, packed = _tensor(g), _tensor(ans), _tensor(packed)
    x = ops.reshape(ans, (-1,))
    n = x.shape[0]
    with GradientTape(persistent=True, watch_accessed_variables=False) as tape:
        tape.watch([x, packed, *problem.captured])
        fx = problem.step(x, problem.unpack(packed))
    dfdx = ops.reshape(tape.jacobian(fx, x, unconnected_gradients="zero"), (n, n))
    matrix = ops.eye(n, dtype=dfdx.dtype) - dfdx
    a = _host(matrix)
    cond = float(np.linalg.cond(a)) if np.all(np.isfinite(a)) else float("inf")
    if not np.isfinite(cond) or cond > COND_LIMIT:
        raise np.linalg.LinAlgError(
            f"fixed_point: no implicit gradient: I - ∂f/∂x at the fixed point has condition "
            f"number {cond:.3g} (over {COND_LIMIT:.0e}), so the fixed point is not isolated "
            "and has no derivative in the parameters"
        )
    lam = linalg.solve(ops.transpose(matrix), ops.reshape(g, (-1,)))
    grads = tape.gradient(fx, [packed, *problem.captured], output_gradients=lam,
                          unconnected_gradients="zero")  # fmt: skip
    lam_norm = float(np.linalg.norm(_host(lam)))
    if lam_norm > 0:  # a 1-by-1 matrix has condition number 1: measure it on the θ scale
        theta = float(np.sqrt(sum(float(np.sum(_host(d) ** 2)) for d in grads)))
        sv = np.linalg.svd(a, compute_uv=False)
        cond = max(float(sv[0]), theta / lam_norm) / float(sv[-1]) if sv[-1] > 0 else np.inf
        if cond > COND_LIMIT:
            raise np.linalg.LinAlgError(
                f"fixed_point: no implicit gradient: I - ∂f/∂x is singular relative to f's "
                f"dependence on the parameters (condition number {cond:.3g}, over "
                f"{COND_LIMIT:.0e}): the fixed point is degenerate"
            )
    total = grads[0]
    if problem.captured:
        pieces = [ops.reshape(c, (-1,)) for c in grads[1:]]
        if sum(problem.sizes):
            pieces.insert(0, ops.zeros((sum(problem.sizes),), dtype=total.dtype))
        total = total + ops.concatenate(pieces)
    return total


@functools.cache
def _primitive() -> Primitive:
    return Primitive("fixed_point", _forward, replayable=False, complex_rules=False).defvjp(_rule)


def fixed_point(
    f: Callable[..., Any],
    x0: Any,
    *params: Any,
    tol: float = 1e-12,
    max_iter: int = 10_000,
) -> Any:
    """The ``x`` with ``x = f(x, *params)``, by iterating ``f`` from ``x0``; its gradient
    by the implicit function theorem, never by unrolling the iteration.

    The iteration runs outside every tape until successive iterates differ by at most
    ``tol`` (relative to their size); the result records one entry whose rule solves
    ``(I - ∂f/∂x)ᵀ λ = ḡ`` at the fixed point and returns ``λᵀ ∂f/∂θ``, written with
    tapegrad ops, so second derivatives are exact. ``f`` must be written with tapegrad ops
    and be a contraction near the fixed point (for the iteration to converge); its Jacobian
    there must not have an eigenvalue 1 (the gradient raises LinAlgError naming the
    condition number of ``I - ∂f/∂x`` otherwise). Differentiable in the Tensor ``params``
    and every Tensor and trainable Variable ``f`` reads from outside; ``x0`` carries no
    gradient. Called with no Tensor and no tape, it returns a NumPy array.

    Args:
        f: ``f(x, *params)``, returning an array of ``x``'s shape.
        x0: The starting point.
        *params: Passed to ``f``; the Tensors among them are differentiated.
        tol: The convergence tolerance: ``max|x_{k+1} - x_k| <= tol * (1 + max|x_k|)``.
        max_iter: The most iterations; RuntimeError if they do not converge.

    Returns:
        The fixed point, a Tensor of ``x0``'s shape (an ndarray for plain inputs).

    Raises:
        RuntimeError: The iteration did not converge within ``max_iter``.
        LinAlgError: In the gradient, when ``I - ∂f/∂x`` is singular at the fixed point.

    >>> import tapegrad as tg
    >>> c = tg.tensor(2.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(c)
    ...     x = tg.fixed_point(lambda x, c: tg.sqrt(c + x), 1.0, c)  # x = 2
    >>> round(x.item(), 10), round(tape.gradient(x, c).item(), 10)  # 1 / (2x - 1)
    (2.0, 0.3333333333)
    """
    x = _host(x0)
    shape = x.shape
    constants = [Tensor(_host(p)) if isinstance(p, Tensor) else p for p in params]
    with _unrecorded():
        for _ in range(max_iter):
            new = _host(f(Tensor(x), *constants)).reshape(shape)
            step = float(np.max(np.abs(new - x), initial=0.0))
            done = step <= tol * (1 + np.max(np.abs(x), initial=0.0))
            x = new
            if done:
                break
        else:
            raise RuntimeError(
                f"fixed_point: the iteration did not converge in {max_iter} steps (last "
                f"step {np.max(np.abs(new - x), initial=0.0):.3g}); f must contract near the "
                "fixed point"
            )
    plain = not holds_tensor([x0, *params]) and not _active.get()
    if plain:
        return x
    captured = _captured(lambda: f(Tensor(x), *constants))
    problem = _FixedPoint(f, list(params), captured, x)
    inputs = [*(params[k] for k in problem.tensors), *captured]
    if not inputs:
        return Tensor(x)
    flat = [ops.reshape(p, (-1,)) for p in inputs]
    packed = ops.concatenate([p if raw(p).dtype == np.float64 else ops.astype(p, np.float64)
                              for p in flat])  # fmt: skip
    return _primitive()(packed, problem=problem)
