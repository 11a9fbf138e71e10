"""SciPy's root finders of a system with gradients: ``root`` (``F(x) = 0``) and
``fixed_point`` (``x = func(x)``); the scalar ones are in bracketing.py and scalar_roots.py.

SciPy's solver finds the root on plain arrays (the function called outside every tape);
the returned root is a Tensor recording one entry, differentiated by the implicit function
theorem on ``F(x, θ) = 0`` (``J dx = -∂F/∂θ``: see ``_implicit.py`` and docs/solvers.md),
in the Tensor ``args`` and the Tensors and trainable Variables the function reads from
outside. The bracket, ``x0`` and the tolerances carry no gradient (the root does not depend
on them). Called with no Tensor and no tape, each is SciPy's own function.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.optimize

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy.optimize._implicit import (
    as_args,
    constants,
    evaluate,
    host,
    implicit_solution,
    is_plain,
    probe,
    value_and_jacobian,
)

__all__ = ["fixed_point", "root"]

_USES_JAC = ("hybr", "lm")


def _flat_call(fun: Callable[..., Any], shape: tuple[int, ...], first: bool = False) -> Any:
    """``fun`` as a function of the flat unknowns and the args list, returning a flat
    Tensor (``first``: ``fun`` returns ``(value, jacobian)``, keep the value)."""

    def call(z: Tensor, args: list[Any]) -> Tensor:
        out = fun(ops.reshape(z, shape), *args)
        if first:
            out = out[0]
        if isinstance(out, (list, tuple)):
            out = ops.stack(list(out))
        return ops.reshape(out, (-1,))

    return call


def _unconverged(name: str, ok: bool, message: Any) -> None:
    if not ok:
        warnings.warn(
            f"{name}: SciPy's solver did not converge ({message}); the implicit gradient "
            "assumes a solution and is not meaningful at this point",
            RuntimeWarning,
            stacklevel=3,
        )


def root(
    fun: Callable[..., Any],
    x0: Any,
    args: Any = (),
    method: str = "hybr",
    jac: Any = None,
    tol: float | None = None,
    callback: Callable[..., Any] | None = None,
    options: dict[str, Any] | None = None,
) -> scipy.optimize.OptimizeResult:
    """``scipy.optimize.root``: SciPy's solver (every method) finds ``fun(x, *args) = 0``;
    the result's ``x`` is a Tensor differentiable in the Tensor ``args`` and what ``fun``
    reads from outside, by the implicit function theorem (``J dx = -∂F/∂θ``), to any order.
    With ``jac`` None (or False), ``hybr`` and ``lm`` get tapegrad's exact Jacobian; a
    callable ``jac`` or ``jac=True`` is the user's, for the solve. The rest of the result
    is SciPy's.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import root
    >>> a = tg.tensor(2.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(a)
    ...     x = root(lambda x, a: x**3 + x - a, [0.5], args=(a,), tol=1e-12).x  # x = 1
    >>> round(x.item(), 10), round(tape.gradient(x, a).item(), 10)  # 1 / (3x² + 1)
    (1.0, 0.25)
    """
    args = as_args(args)
    if is_plain(x0, args):
        return scipy.optimize.root(fun, x0, args, method, jac, tol, callback, options)
    x0h = host(x0)
    shape = x0h.shape
    values = constants(args)
    residual = _flat_call(fun, shape, first=jac is True)
    captured = probe(lambda: residual(Tensor(x0h.ravel()), values))

    def plain_fun(x: np.ndarray) -> Any:
        return evaluate(lambda xt: residual(xt, values), x)

    solve_jac: Any
    if callable(jac):
        solve_fun, solve_jac = plain_fun, lambda x: evaluate(lambda xt: jac(xt, *values), x)
    elif jac is True:

        def solve_fun(x: np.ndarray) -> Any:
            f, j = fun(Tensor(x.reshape(shape)), *values)
            return host(f).ravel(), host(j)

        solve_jac = True
    elif method in _USES_JAC:

        def solve_fun(x: np.ndarray) -> Any:
            return value_and_jacobian(lambda xt: residual(xt, values), x)

        solve_jac = True
    else:
        solve_fun, solve_jac = plain_fun, jac
    result = scipy.optimize.root(
        solve_fun, x0h.ravel(), (), method, solve_jac, tol, callback, options
    )
    _unconverged("root", bool(result.success), result.message)
    x = implicit_solution("root", residual, result.x, args, captured)
    result.x = ops.reshape(x, shape)
    return result


def fixed_point(
    func: Callable[..., Any],
    x0: Any,
    args: Any = (),
    xtol: float = 1e-08,
    maxiter: int = 500,
    method: str = "del2",
) -> Any:
    """``scipy.optimize.fixed_point``: ``x = func(x, *args)`` found by SciPy (``del2`` or
    ``iteration``), as a Tensor of ``x0``'s shape differentiable in the Tensor ``args`` and
    what ``func`` reads from outside, by the implicit function theorem on
    ``func(x) - x = 0`` (``(I - ∂func/∂x) dx = ∂func/∂θ``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import fixed_point
    >>> g = tg.grad(lambda c: fixed_point(lambda x, c: tg.sqrt(c + x), 1.0, args=(c,), xtol=1e-14))
    >>> round(g(2.0), 10)  # x = 2: dx/dc = 1 / (2x - 1)
    0.3333333333
    """
    args = as_args(args)
    if is_plain(x0, args):
        return scipy.optimize.fixed_point(func, x0, args, xtol, maxiter, method)
    x0h = host(x0)
    shape = x0h.shape
    values = constants(args)

    def residual(z: Tensor, a: list[Any]) -> Tensor:
        x = ops.reshape(z, shape)
        return ops.reshape(func(x, *a) - x, (-1,))

    captured = probe(lambda: residual(Tensor(x0h.ravel()), values))
    out = scipy.optimize.fixed_point(
        lambda x: evaluate(lambda xt: func(xt, *values), x).reshape(np.shape(x)),
        x0h,
        (),
        xtol,
        maxiter,
        method,
    )
    what = "I - ∂func/∂x"
    x = implicit_solution("fixed_point", residual, np.ravel(out), args, captured, what=what)
    return ops.reshape(x, shape)
