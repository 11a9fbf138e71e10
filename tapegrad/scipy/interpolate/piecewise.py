"""The piecewise-cubic interpolants' common base: SciPy's PPoly form (``c`` of shape
``(k + 1, m, ...)`` on the breakpoints ``x``) with its evaluation, ``derivative``,
``antiderivative`` and ``integrate`` as ops, and the checks and Hermite coefficients the
interpolants build it from. The interval each point falls in is decided on the host.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special

from tapegrad import ops
from tapegrad.core.active import tracing
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import shape_of

__all__: list[str] = []


def _plain(*values: Any) -> bool:
    return not tracing() and not any(
        isinstance(v, Tensor) or (isinstance(v, (list, tuple)) and holds_tensor(v)) for v in values
    )


def _host(value: Any, name: str) -> np.ndarray:
    if isinstance(value, Tensor):
        return np.asarray(host_value(value, f"{name}: the intervals"))
    return np.asarray(value)


def _prepare(name: str, x: Any, y: Any, axis: int) -> tuple[Any, np.ndarray, Any, int]:
    """SciPy's ``prepare_input``: ``x`` 1-d, finite, strictly increasing; ``y``'s ``axis``
    moved first. Returns ``(x, host x, y, axis)``."""
    x, y = as_input(x), as_input(y)
    xh, yh = _host(x, name), _host(y, name)
    if np.iscomplexobj(xh):
        raise ValueError(f"{name}: `x` must contain real values.")
    if yh.ndim == 0:
        raise ValueError(f"{name}: `y` must have at least one dimension, got shape ()")
    axis = axis % yh.ndim
    if xh.ndim != 1:
        raise ValueError(f"{name}: `x` must be 1-dimensional, got shape {xh.shape}.")
    if xh.shape[0] < 2:
        raise ValueError(f"{name}: `x` must contain at least 2 elements.")
    if xh.shape[0] != yh.shape[axis]:
        raise ValueError(
            f"{name}: the length of `y` along `axis`={axis} ({yh.shape[axis]}) doesn't "
            f"match the length of `x` ({xh.shape[0]})"
        )
    if not np.all(np.isfinite(xh)):
        raise ValueError(f"{name}: `x` must contain only finite values.")
    if not np.all(np.isfinite(yh)):
        raise ValueError(f"{name}: `y` must contain only finite values.")
    if np.any(np.diff(xh) <= 0):
        raise ValueError(f"{name}: `x` must be strictly increasing sequence.")
    return ops.astype(x, np.float64), xh.astype(float), ops.moveaxis(y, axis, 0), axis


def _column(value: Any) -> Any:
    return ops.reshape(as_input(value), (1, -1))


def _hermite(x: Any, y: Any, dydx: Any) -> Any:
    """CubicHermiteSpline's coefficients ``(4, n - 1, r)`` for ``y``, ``dydx`` ``(n, r)``."""
    dx = ops.reshape(ops.diff(x), (-1, 1))
    slope = ops.diff(y, axis=0) / dx
    t = (dydx[:-1] + dydx[1:] - 2 * slope) / dx
    return ops.stack([t / dx, (slope - dydx[:-1]) / dx - t, dydx[:-1], y[:-1]])


class _PPoly:
    """A piecewise polynomial in SciPy's PPoly form: ``c`` ``(k + 1, m, ...)`` on the
    breakpoints ``x`` (``m + 1``, ascending), evaluated along ``axis``."""

    c: Any
    x: Any
    axis: int
    extrapolate: Any
    _scipy: Any

    def _set(self, c: Any, x: Any, extrapolate: Any, axis: int, scipy_object: Any) -> None:
        self.c, self.x, self.extrapolate, self.axis = c, x, extrapolate, axis
        self._scipy = scipy_object

    @classmethod
    def _build(cls, c: Any, x: Any, extrapolate: Any, axis: int, scipy_object: Any) -> _PPoly:
        p = object.__new__(_PPoly)
        p._set(c, x, extrapolate, axis, scipy_object)
        return p

    def __call__(self, x: Any, nu: int = 0, extrapolate: Any = None) -> Any:
        """The ``nu``-th derivative at the points ``x``: shape ``x``'s shape put in place
        of ``axis`` in the data's."""
        if self._scipy is not None and _plain(x):
            return self._scipy(x, nu, extrapolate)
        if nu < 0:
            raise ValueError("PPoly: Order of derivative cannot be negative")
        p = self.derivative(nu) if nu else self
        out = p._evaluate(x, self.extrapolate if extrapolate is None else extrapolate)
        nx = len(shape_of(as_input(x)))
        if self.axis != 0:
            order = list(range(len(shape_of(out))))
            order = order[nx : nx + self.axis] + order[:nx] + order[nx + self.axis :]
            out = ops.transpose(out, tuple(order))
        return out

    def _evaluate(self, x: Any, extrapolate: Any) -> Any:
        x = as_input(x)
        shape = tuple(shape_of(x))
        flat = ops.reshape(ops.astype(x, np.float64), (-1,))
        knots = _host(self.x, "PPoly")
        host = _host(flat, "PPoly").astype(float)
        if extrapolate == "periodic":
            period = self.x[-1] - self.x[0]
            width = knots[-1] - knots[0]
            wrapped = (host - knots[0]) % width
            turns = np.round((host - knots[0] - wrapped) / width)
            flat = flat - turns * period
            host = knots[0] + wrapped
            extrapolate = False
        m = len(knots) - 1
        i = np.clip(np.searchsorted(knots, host, side="right") - 1, 0, m - 1)
        trailing = tuple(shape_of(self.c)[2:])
        s = ops.reshape(flat - ops.take(self.x, i), (-1,) + (1,) * len(trailing))
        c = ops.take(self.c, i, axis=1)
        value = c[0]
        for row in range(1, shape_of(c)[0]):
            value = value * s + c[row]
        if not extrapolate:
            outside = (host < knots[0]) | (host > knots[-1]) | np.isnan(host)
            if outside.any():
                value = ops.where(outside.reshape((-1,) + (1,) * len(trailing)), np.nan, value)
        return ops.reshape(value, shape + trailing)

    def derivative(self, nu: int = 1) -> _PPoly:
        """The ``nu``-th derivative, a piecewise polynomial of degree ``k - nu``."""
        if nu < 0:
            return self.antiderivative(-nu)
        scipy_object = None if self._scipy is None else self._scipy.derivative(nu)
        k1 = shape_of(self.c)[0]
        if nu == 0:
            c = self.c
        elif k1 <= nu:
            c = ops.zeros_like(self.c[:1])
        else:
            c = self.c[:-nu]
            factor = scipy.special.poch(np.arange(k1 - nu, 0, -1), nu)
            c = c * factor.reshape((-1,) + (1,) * (len(shape_of(c)) - 1))
        return self._build(c, self.x, self.extrapolate, self.axis, scipy_object)

    def antiderivative(self, nu: int = 1) -> _PPoly:
        """The ``nu``-th antiderivative: zero at ``x[0]``, its derivatives below ``nu``
        continuous (SciPy's convention)."""
        if nu <= 0:
            return self.derivative(-nu)
        scipy_object = None if self._scipy is None else self._scipy.antiderivative(nu)
        c = self.c
        h = ops.diff(self.x)
        for _ in range(nu):
            k1 = shape_of(c)[0]
            rest = (1,) * (len(shape_of(c)) - 1)
            c = c / np.arange(k1, 0, -1).reshape((-1, *rest))
            hh = ops.reshape(h, (-1,) + rest[1:])
            end = c[0]
            for row in range(1, k1):
                end = end * hh + c[row]
            end = end * hh  # the piece's integral over its interval
            start = ops.concatenate([ops.zeros_like(end[:1]), ops.cumsum(end, axis=0)[:-1]], axis=0)
            c = ops.concatenate([c, start[None]], axis=0)
        extrapolate = False if self.extrapolate == "periodic" else self.extrapolate
        return self._build(c, self.x, extrapolate, self.axis, scipy_object)

    def integrate(self, a: Any, b: Any, extrapolate: Any = None) -> Any:
        """The definite integral from ``a`` to ``b``, of shape ``c.shape[2:]``;
        differentiable in the bounds too."""
        if self._scipy is not None and _plain(a, b):
            return self._scipy.integrate(a, b, extrapolate)
        extrapolate = self.extrapolate if extrapolate is None else extrapolate
        a, b = as_input(a), as_input(b)
        ah, bh = float(_host(a, "PPoly.integrate")), float(_host(b, "PPoly.integrate"))
        sign = 1.0
        if bh < ah:
            a, b, ah, bh, sign = b, a, bh, ah, -1.0
        anti = self.antiderivative(1)

        def F(t: Any) -> Any:  # noqa: N802  (the antiderivative)
            return anti._evaluate(t, True)

        knots = _host(self.x, "PPoly.integrate")
        if extrapolate == "periodic":
            xs, xe = self.x[0], self.x[-1]
            width = knots[-1] - knots[0]
            turns, left_h = divmod(bh - ah, width)
            left = (b - a) - turns * (xe - xs)
            total = turns * (F(xe) - F(xs))
            wrapped = knots[0] + (ah - knots[0]) % width
            a = a - np.round((ah - wrapped) / width) * (xe - xs)
            if wrapped + left_h <= knots[-1]:
                total = total + F(a + left) - F(a)
            else:
                total = total + F(xe) - F(a) + F(xs + left + a - xe) - F(xs)
            return sign * total
        if not extrapolate and (ah < knots[0] or bh > knots[-1]):
            return ops.full(tuple(shape_of(self.c)[2:]), np.nan)
        return sign * (F(b) - F(a))

    def roots(self, discontinuity: bool = True, extrapolate: Any = None) -> Any:
        """SciPy's roots, on a spline built from plain arrays only."""
        if self._scipy is None:
            raise NotImplementedError(
                "PPoly.roots: not supported on Tensors (roots are found on the host)"
            )
        return self._scipy.roots(discontinuity, extrapolate)

    def solve(self, y: float = 0.0, discontinuity: bool = True, extrapolate: Any = None) -> Any:
        """SciPy's solve, on a spline built from plain arrays only."""
        if self._scipy is None:
            raise NotImplementedError(
                "PPoly.solve: not supported on Tensors (roots are found on the host)"
            )
        return self._scipy.solve(y, discontinuity, extrapolate)


def _finish(self: _PPoly, name: str, c: Any, x: Any, rest: tuple[int, ...], axis: int,
            extrapolate: Any, scipy_object: Any) -> None:  # fmt: skip
    if scipy_object is not None:
        self._set(scipy_object.c, scipy_object.x, extrapolate, axis, scipy_object)
        return
    c = ops.reshape(c, (4, -1, *rest))
    self._set(c, x, extrapolate, axis, None)
