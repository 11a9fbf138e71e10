"""SciPy's root finders from a starting point with gradients: ``newton`` (Newton, secant or
Halley; elementwise for an array ``x0``) and ``root_scalar`` (every method), differentiated by
the implicit function theorem as roots.py says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.optimize

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import refuse_gradient
from tapegrad.scipy.integrate._adjoint import unrecorded
from tapegrad.scipy.optimize._implicit import (
    as_args,
    constants,
    evaluate,
    host,
    implicit_solution,
    is_plain,
    probe,
)
from tapegrad.scipy.optimize.bracketing import _scalar_residual
from tapegrad.scipy.optimize.roots import _flat_call, _unconverged

__all__ = ["newton", "root_scalar"]


def newton(
    func: Callable[..., Any],
    x0: Any,
    fprime: Callable[..., Any] | None = None,
    args: Any = (),
    tol: float = 1.48e-08,
    maxiter: int = 50,
    fprime2: Callable[..., Any] | None = None,
    x1: Any = None,
    rtol: float = 0.0,
    full_output: bool = False,
    disp: bool = True,
) -> Any:
    """``scipy.optimize.newton`` (Newton, secant or Halley as SciPy chooses; an array
    ``x0`` solves elementwise): the root as a Tensor of ``x0``'s shape, differentiable in
    the Tensor ``args`` and what ``func`` reads from outside. ``fprime`` and ``fprime2``
    serve the solve only; the gradient differentiates ``func`` itself.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import newton
    >>> f = lambda x, c: x**3 - c
    >>> round(tg.grad(lambda c: newton(f, 1.0, args=(c,), tol=1e-13))(8.0), 10)  # 1/(3·4)
    0.0833333333
    """
    args = as_args(args)
    if is_plain(x0, x1, args):
        return scipy.optimize.newton(func, x0, fprime, args, tol, maxiter, fprime2, x1, rtol,
                                     full_output, disp)  # fmt: skip
    x0h = host(x0)
    shape = x0h.shape
    values = constants(args)
    residual = _flat_call(func, shape)
    captured = probe(lambda: residual(Tensor(x0h.ravel()), values))

    def plain(g: Callable[..., Any] | None) -> Callable[..., Any] | None:
        if g is None:
            return None
        return lambda x: evaluate(lambda xt: g(xt, *values), x).reshape(np.shape(x))

    def f(x: Any) -> Any:
        return evaluate(lambda xt: func(xt, *values), x).reshape(np.shape(x))

    start = x0h if shape else float(x0h)
    second = None if x1 is None else (host(x1) if shape else float(host(x1)))
    out = scipy.optimize.newton(f, start, plain(fprime), (), tol, maxiter, plain(fprime2),
                                second, rtol, full_output, disp)  # fmt: skip
    x = out[0] if full_output else out
    tensor = ops.reshape(implicit_solution("newton", residual, np.ravel(x), args, captured), shape)
    if not full_output:
        return tensor
    if shape:
        return type(out)(tensor, *out[1:])
    out[1].root = tensor
    return tensor, out[1]


def root_scalar(
    f: Callable[..., Any],
    args: Any = (),
    method: str | None = None,
    bracket: Any = None,
    fprime: Any = None,
    fprime2: Any = None,
    x0: Any = None,
    x1: Any = None,
    xtol: float | None = None,
    rtol: float | None = None,
    maxiter: int | None = None,
    options: dict[str, Any] | None = None,
) -> Any:
    """``scipy.optimize.root_scalar`` (every method: the bracketing ones, newton, secant,
    halley): SciPy's ``RootResults`` whose ``root`` is a 0-d Tensor differentiable in the
    Tensor ``args`` and what ``f`` reads from outside. ``fprime=True`` / ``fprime2=True``
    (``f`` returns its derivatives too) and callables serve the solve only.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import root_scalar
    >>> g = tg.grad(lambda c: root_scalar(lambda x, c: x * x - c, (c,), bracket=[0, 3]).root)
    >>> round(g(4.0), 10)
    0.25
    """
    args = as_args(args)
    if is_plain(bracket, x0, x1, args):
        return scipy.optimize.root_scalar(f, args, method, bracket, fprime, fprime2, x0, x1,
                                          xtol, rtol, maxiter, options)  # fmt: skip
    for label, value in (("bracket", bracket), ("x0", x0), ("x1", x1)):
        refuse_gradient("root_scalar", label, value, "the root does not depend on it")
    values = constants(args)
    returns_derivatives = fprime is True or fprime2 is True

    def value_of(x: Any, *a: Any) -> Any:
        out = f(x, *a)
        return out[0] if returns_derivatives else out

    residual = _scalar_residual(value_of)
    start = x0 if x0 is not None else (bracket[0] if bracket is not None else 0.0)
    captured = probe(lambda: residual(Tensor(np.array([float(host(start))])), values))

    def plain(x: float) -> Any:
        out = f(Tensor(np.asarray(float(x))), *values)
        if isinstance(out, (tuple, list)):
            return tuple(float(host(o)) for o in out)
        return float(host(out))

    def plain_derivative(g: Any) -> Any:
        if callable(g):
            return lambda x: float(host(g(Tensor(np.asarray(float(x))), *values)))
        return g

    bracket_h = None if bracket is None else [float(host(v)) for v in bracket]
    x0h = None if x0 is None else float(host(x0))
    x1h = None if x1 is None else float(host(x1))
    with_plain = _unrecorded_call(plain)
    result = scipy.optimize.root_scalar(
        with_plain, (), method, bracket_h, plain_derivative(fprime), plain_derivative(fprime2),
        x0h, x1h, xtol, rtol, maxiter, options,
    )  # fmt: skip
    _unconverged("root_scalar", bool(result.converged), result.flag)
    x = implicit_solution("root_scalar", residual, np.array([result.root]), args, captured)
    result.root = ops.reshape(x, ())
    return result


def _unrecorded_call(fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*a: Any) -> Any:
        with unrecorded():
            return fn(*a)

    return call
