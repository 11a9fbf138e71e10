"""``least_squares`` and ``curve_fit`` with gradients: SciPy's solver fits on plain arrays;
the fitted parameters are a Tensor differentiated by the implicit function theorem on the
minimum of the cost ``½ Σ ρ(rᵢ² / s²) s²`` (``∇cost = 0``, coordinates at a bound fixed),
in the Tensor ``args`` (``xdata``, ``ydata``, ``sigma`` for ``curve_fit``) and what the
residual function reads from outside. See docs/solvers.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.optimize

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import refuse_gradient
from tapegrad.scipy.optimize._implicit import (
    as_args,
    constants,
    evaluate,
    host,
    is_plain,
    probe,
    value_and_jacobian,
)
from tapegrad.scipy.optimize.minimize import _as_tensor, _bounds, _Equalities, _near
from tapegrad.scipy.optimize.minimize import implicit_minimum as _implicit_minimum

__all__ = ["curve_fit", "least_squares"]


def _loss(name: Any) -> Callable[[Tensor], Tensor]:
    losses: dict[str, Callable[[Tensor], Tensor]] = {
        "linear": lambda z: z,
        "soft_l1": lambda z: 2.0 * (ops.sqrt(1.0 + z) - 1.0),
        "huber": lambda z: ops.where(z <= 1.0, z, 2.0 * ops.sqrt(ops.maximum(z, 1.0)) - 1.0),
        "cauchy": lambda z: ops.log1p(z),
        "arctan": lambda z: ops.arctan(z),
    }
    if not isinstance(name, str) or name not in losses:
        raise NotImplementedError(
            f"least_squares: loss={name!r} has no implicit gradient here (a callable loss "
            "gives SciPy ρ and its derivatives); use one of " + ", ".join(losses)
        )
    return losses[name]


def least_squares(
    fun: Callable[..., Any],
    x0: Any,
    jac: Any = "2-point",
    bounds: Any = (-np.inf, np.inf),
    method: str = "trf",
    ftol: float | None = 1e-08,
    xtol: float | None = 1e-08,
    gtol: float | None = 1e-08,
    x_scale: Any = None,
    loss: Any = "linear",
    f_scale: float = 1.0,
    diff_step: Any = None,
    tr_solver: str | None = None,
    tr_options: dict[str, Any] | None = None,
    jac_sparsity: Any = None,
    max_nfev: int | None = None,
    verbose: int = 0,
    args: Any = (),
    kwargs: dict[str, Any] | None = None,
    callback: Callable[..., Any] | None = None,
    workers: Any = None,
) -> scipy.optimize.OptimizeResult:
    """``scipy.optimize.least_squares``: SciPy's method (``trf``, ``dogbox``, ``lm``) fits;
    the result's ``x`` is a Tensor (``fun`` and ``cost`` too) differentiable in the Tensor
    ``args`` and what ``fun`` reads from outside, through the minimum of the cost (every
    built-in ``loss``; coordinates at a bound have gradient 0). With ``jac='2-point'`` (the
    default) the solve gets tapegrad's exact Jacobian; a callable is the user's.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import least_squares
    >>> t = tg.tensor([0.0, 1.0, 2.0])
    >>> y = tg.tensor([1.0, 3.0, 7.0])
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(y)
    ...     fit = least_squares(lambda p, t, y: p[0] + p[1] * t - y, [0.0, 0.0], args=(t, y))
    ...     slope = fit.x[1]
    >>> fit.x.numpy().round(6), tape.gradient(slope, y).numpy().round(6)
    (array([0.666667, 3.      ]), array([-0.5, -0. ,  0.5]))
    """
    args = as_args(args)
    kwargs = dict(kwargs or {})
    options = {"method": method, "ftol": ftol, "xtol": xtol, "gtol": gtol, "x_scale": x_scale,
               "loss": loss, "f_scale": f_scale, "diff_step": diff_step,
               "tr_solver": tr_solver, "tr_options": tr_options or {},
               "jac_sparsity": jac_sparsity, "max_nfev": max_nfev, "verbose": verbose,
               "callback": callback, "workers": workers}  # fmt: skip
    if is_plain(x0, args, *kwargs.values()):
        return scipy.optimize.least_squares(fun, x0, jac, bounds, args=args, kwargs=kwargs,
                                            **options)  # fmt: skip
    for value in kwargs.values():
        refuse_gradient("least_squares", "kwargs", value, "pass parameters through args")
    rho = _loss(loss)
    x0h = host(x0)
    shape, n = x0h.shape, x0h.size
    values = constants(args)

    def residuals(x: Tensor, a: list[Any]) -> Tensor:
        return ops.reshape(_as_tensor(fun(ops.reshape(x, shape), *a, **kwargs)), (-1,))

    def cost(x: Tensor, a: list[Any]) -> Tensor:
        r = residuals(x, a)
        return 0.5 * f_scale**2 * ops.sum(rho((r / f_scale) ** 2))

    captured = probe(lambda: residuals(Tensor(x0h.ravel()), values))
    if callable(jac):
        solve_jac: Any = lambda x: evaluate(  # noqa: E731
            lambda xt: jac(ops.reshape(xt, shape), *values, **kwargs), x
        )
    elif jac == "2-point":
        solve_jac = lambda x: value_and_jacobian(lambda xt: residuals(xt, values), x)[1]  # noqa: E731
    else:
        solve_jac = jac
    lo, hi = (np.broadcast_to(host(b), n) for b in bounds)
    lb, ub = _bounds(list(zip(lo, hi)), n)
    result = scipy.optimize.least_squares(
        lambda x: evaluate(lambda xt: residuals(xt, values), x),
        x0h.ravel(),
        solve_jac,
        (lb, ub),
        **options,
    )
    xs = np.asarray(result.x, dtype=float)
    equalities = _Equalities(n)
    for bound, label in ((lb, "lower bound"), (ub, "upper bound")):
        rows = np.flatnonzero(_near(xs, bound))
        equalities.add(lambda x, a: x, rows, bound[rows], label)
    x = _implicit_minimum("least_squares", cost, xs, args, captured, equalities)
    result.x = ops.reshape(x, shape)
    result.fun = residuals(x, list(args))
    result.cost = cost(x, list(args))
    return result


def curve_fit(
    f: Callable[..., Any],
    xdata: Any,
    ydata: Any,
    p0: Any = None,
    sigma: Any = None,
    absolute_sigma: bool = False,
    check_finite: bool | None = None,
    bounds: Any = (-np.inf, np.inf),
    method: str | None = None,
    jac: Any = None,
    *,
    full_output: bool = False,
    nan_policy: str | None = None,
    **kwargs: Any,
) -> Any:
    """``scipy.optimize.curve_fit``: SciPy fits ``f(xdata, *p) ≈ ydata``; ``popt`` is a
    Tensor differentiable in ``xdata``, ``ydata``, a 1-d ``sigma`` and what ``f`` reads
    from outside, through the minimum of ``½ Σ ((f - y) / σ)²`` (parameters at a bound:
    gradient 0). ``pcov`` (and the ``full_output`` extras) are SciPy's plain arrays. A 2-d
    ``sigma`` (a covariance) raises NotImplementedError when a tape would differentiate it.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import curve_fit
    >>> t = tg.tensor([0.0, 1.0, 2.0, 3.0])
    >>> y = tg.tensor([1.0, 2.9, 5.1, 7.0])
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(y)
    ...     popt, pcov = curve_fit(lambda t, a, b: a + b * t, t, y, p0=[0.0, 0.0])
    ...     slope = popt[1]
    >>> tape.gradient(slope, y).numpy().round(6)  # the slope's weights
    array([-0.3, -0.1,  0.1,  0.3])
    """
    if is_plain(xdata, ydata, p0, sigma):
        return scipy.optimize.curve_fit(f, xdata, ydata, p0, sigma, absolute_sigma,
                                        check_finite, bounds, method, jac,
                                        full_output=full_output, nan_policy=nan_policy,
                                        **kwargs)  # fmt: skip
    refuse_gradient("curve_fit", "p0", p0, "the fit does not depend on the start")
    if sigma is not None and np.ndim(host(sigma)) == 2:
        if isinstance(sigma, Tensor):
            raise NotImplementedError("curve_fit: no gradient with a 2-d sigma (a covariance)")
    x_c, y_c = constants([xdata, ydata])
    s_c = None if sigma is None else constants([sigma])[0]
    p0h = None if p0 is None else host(p0)
    if p0h is None:
        import inspect

        count = len(inspect.signature(f).parameters) - 1
        p0h = np.ones(count)
    n = p0h.size

    def model(p: Tensor, xd: Any) -> Tensor:
        return ops.reshape(_as_tensor(f(xd, *(p[i] for i in range(n)))), (-1,))

    out = scipy.optimize.curve_fit(
        lambda xd, *p: evaluate(lambda pt: model(pt, x_c), np.array(p)),
        host(x_c) if isinstance(x_c, Tensor) else x_c,
        host(y_c),
        p0h,
        None if s_c is None else host(s_c),
        absolute_sigma,
        check_finite,
        bounds,
        method,
        jac,
        full_output=full_output,
        nan_policy=nan_policy,
        **kwargs,
    )
    popt = np.asarray(out[0], dtype=float)
    args = (xdata, ydata, sigma if isinstance(sigma, Tensor) else None)
    captured = probe(lambda: model(Tensor(popt), x_c))

    def cost(p: Tensor, a: list[Any]) -> Tensor:
        r = model(p, a[0]) - ops.reshape(_as_tensor(a[1]), (-1,))
        if sigma is not None:
            r = r / ops.reshape(_as_tensor(a[2] if a[2] is not None else s_c), (-1,))
        return 0.5 * ops.sum(r * r)

    lo, hi = (np.broadcast_to(host(b), n) for b in bounds)
    lb, ub = _bounds(list(zip(lo, hi)), n)
    equalities = _Equalities(n)
    for bound, label in ((lb, "lower bound"), (ub, "upper bound")):
        rows = np.flatnonzero(_near(popt, bound))
        equalities.add(lambda x, a: x, rows, bound[rows], label)
    tensor = _implicit_minimum("curve_fit", cost, popt, args, captured, equalities)
    return (tensor, *out[1:])
