"""SciPy's bracketing root finders with gradients: ``brentq``, ``brenth``, ``bisect``,
``ridder`` and ``toms748``, the root of a scalar function in ``[a, b]``, differentiated by the
implicit function theorem as roots.py says; the bracket carries no gradient.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

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
    implicit_solution,
    is_plain,
    probe,
)

__all__ = ["bisect", "brenth", "brentq", "ridder", "toms748"]


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


class _Bracketing(Protocol):
    def __call__(
        self,
        f: Callable[..., Any],
        a: Any,
        b: Any,
        args: Any = (),
        xtol: float = 2e-12,
        rtol: float = 8.881784197001252e-16,
        maxiter: int = 100,
        full_output: bool = False,
        disp: bool = True,
    ) -> Any: ...


def _bracketing(name: str, doc: str) -> _Bracketing:
    """SciPy's bracketing root finder ``name`` (all but toms748: it has ``k`` too)."""

    def call(
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
        return _bracketed(name, f, a, b, args, full_output, xtol=xtol, rtol=rtol,
                          maxiter=maxiter, disp=disp)  # fmt: skip

    call.__name__ = call.__qualname__ = name
    call.__doc__ = doc
    return call


brentq = _bracketing(
    "brentq",
    """``scipy.optimize.brentq``: the root in ``[a, b]`` as a 0-d Tensor, differentiable
    in the Tensor ``args`` and what ``f`` reads from outside (``dx/dθ = -f_θ / f_x``), to
    any order. With ``full_output``, ``(x, RootResults)``, its ``root`` the Tensor.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import brentq
    >>> c = tg.tensor(2.0)
    >>> round(tg.grad(lambda c: brentq(lambda x, c: x * x - c, 0.0, 3.0, args=(c,)))(c).item(), 10)
    0.3535533906
    """,
)

brenth = _bracketing(
    "brenth",
    """``scipy.optimize.brenth``, differentiable as :func:`brentq`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import brenth
    >>> round(tg.grad(lambda c: brenth(lambda x, c: x * x - c, 0.0, 3.0, args=(c,)))(4.0), 10)
    0.25
    """,
)

bisect = _bracketing(
    "bisect",
    """``scipy.optimize.bisect``, differentiable as :func:`brentq`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import bisect
    >>> round(tg.grad(lambda c: bisect(lambda x, c: x * x - c, 0.0, 3.0, args=(c,)))(4.0), 8)
    0.25
    """,
)

ridder = _bracketing(
    "ridder",
    """``scipy.optimize.ridder``, differentiable as :func:`brentq`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.optimize import ridder
    >>> round(tg.grad(lambda c: ridder(lambda x, c: x * x - c, 0.0, 3.0, args=(c,)))(4.0), 10)
    0.25
    """,
)


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
