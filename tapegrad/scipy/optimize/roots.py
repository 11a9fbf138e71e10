"""SciPy's root finders with gradients: ``root``, ``root_scalar``, ``brentq``, ``brenth``,
``bisect``, ``ridder``, ``toms748``, ``newton`` and ``fixed_point``.

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
    value_and_jacobian,
)

__all__ = [
    "bisect",
    "brenth",
    "brentq",
    "fixed_point",
    "newton",
    "ridder",
    "root",
    "root_scalar",
    "toms748",
]

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


def _scalar_residual(f: Callable[..., Any]) -> Callable[[Tensor, list[Any]], Tensor]:
    def call(z: Tensor, args: list[Any]) -> Tensor:
        return ops.reshape(f(ops.reshape(z, ()), *args), (1,))

    return call


def _bracketed(
    name: str, f: Callable[..., Any], a: Any, b: Any, args: Any, full_output: bool, **kw: Any
) -> Any:
    args = as_args(args)
    solver = getattr(scipy.optimize, name)
    if is_plain(a, b, args):
        return solver(f, a, b, args, full_output=full_output, **kw)
    for label, value in (("a", a), ("b", b)):
        refuse_gradient(name, label, value, "the root does not depend on the bracket")
    values = constants(args)
    residual = _scalar_residual(f)
    captured = probe(lambda: residual(Tensor(np.array([float(host(a))])), values))
    out = solver(
        lambda x: float(evaluate(lambda xt: residual(xt, values), np.array([x]))[0]),
        float(host(a)),
        float(host(b)),
        (),
        full_output=full_output,
        **kw,
    )
    x = out[0] if full_output else out
    tensor = ops.reshape(implicit_solution(name, residual, np.array([x]), args, captured), ())
    if full_output:
        out[1].root = tensor
        return tensor, out[1]
    return tensor


def brentq(
    f: Callable[..., Any],
    a: Any,
    b: Any,
    args: Any = (),
    xtol: float = 2e-12,
    rtol: float = 8.881784197001252e-16,
    maxiter: int = 100,
    full_output: bool = False,
    disp: bool = True,
) -> Any:
    """``scipy.optimize.brentq``: the root in ``[a, b]`` as a 0-d Tensor, differentiable
    in the Tensor ``args`` and what ``f`` reads from outside (``dx/dθ = -f_θ / f_x``), to
    any order. With ``full_output``, ``(x, RootResults)``, its ``root`` the Tensor.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import brentq
    >>> c = tg.tensor(2.0)
    >>> round(tg.grad(lambda c: brentq(lambda x, c: x * x - c, 0.0, 3.0, args=(c,)))(c).item(), 10)
    0.3535533906
    """
    return _bracketed("brentq", f, a, b, args, full_output, xtol=xtol, rtol=rtol,
                      maxiter=maxiter, disp=disp)  # fmt: skip


def brenth(
    f: Callable[..., Any],
    a: Any,
    b: Any,
    args: Any = (),
    xtol: float = 2e-12,
    rtol: float = 8.881784197001252e-16,
    maxiter: int = 100,
    full_output: bool = False,
    disp: bool = True,
) -> Any:
    """``scipy.optimize.brenth``, differentiable as :func:`brentq`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import brenth
    >>> round(tg.grad(lambda c: brenth(lambda x, c: x * x - c, 0.0, 3.0, args=(c,)))(4.0), 10)
    0.25
    """
    return _bracketed("brenth", f, a, b, args, full_output, xtol=xtol, rtol=rtol,
                      maxiter=maxiter, disp=disp)  # fmt: skip


def bisect(
    f: Callable[..., Any],
    a: Any,
    b: Any,
    args: Any = (),
    xtol: float = 2e-12,
    rtol: float = 8.881784197001252e-16,
    maxiter: int = 100,
    full_output: bool = False,
    disp: bool = True,
) -> Any:
    """``scipy.optimize.bisect``, differentiable as :func:`brentq`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import bisect
    >>> round(tg.grad(lambda c: bisect(lambda x, c: x * x - c, 0.0, 3.0, args=(c,)))(4.0), 8)
    0.25
    """
    return _bracketed("bisect", f, a, b, args, full_output, xtol=xtol, rtol=rtol,
                      maxiter=maxiter, disp=disp)  # fmt: skip


def ridder(
    f: Callable[..., Any],
    a: Any,
    b: Any,
    args: Any = (),
    xtol: float = 2e-12,
    rtol: float = 8.881784197001252e-16,
    maxiter: int = 100,
    full_output: bool = False,
    disp: bool = True,
) -> Any:
    """``scipy.optimize.ridder``, differentiable as :func:`brentq`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import ridder
    >>> round(tg.grad(lambda c: ridder(lambda x, c: x * x - c, 0.0, 3.0, args=(c,)))(4.0), 10)
    0.25
    """
    return _bracketed("ridder", f, a, b, args, full_output, xtol=xtol, rtol=rtol,
                      maxiter=maxiter, disp=disp)  # fmt: skip


def toms748(
    f: Callable[..., Any],
    a: Any,
    b: Any,
    args: Any = (),
    k: int = 1,
    xtol: float = 2e-12,
    rtol: float = 8.881784197001252e-16,
    maxiter: int = 100,
    full_output: bool = False,
    disp: bool = True,
) -> Any:
    """``scipy.optimize.toms748``, differentiable as :func:`brentq`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import toms748
    >>> round(tg.grad(lambda c: toms748(lambda x, c: x * x - c, 0.0, 3.0, args=(c,)))(4.0), 10)
    0.25
    """
    return _bracketed("toms748", f, a, b, args, full_output, k=k, xtol=xtol, rtol=rtol,
                      maxiter=maxiter, disp=disp)  # fmt: skip


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
