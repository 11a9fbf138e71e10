"""scipy.interpolate's 1-d piecewise-cubic interpolants with gradients: CubicSpline,
CubicHermiteSpline, PchipInterpolator, Akima1DInterpolator and interp1d.

Each is a piecewise polynomial in SciPy's PPoly form (``c`` of shape ``(k + 1, m, ...)``,
breakpoints ``x``), its coefficients built from the data with tapegrad ops: CubicSpline's
slopes are the solution of its (tridiagonal, or cyclic for ``periodic``) linear system,
solved by :func:`tapegrad.linalg.solve`, so the spline is differentiable in ``y``, in the
knots ``x`` and in the boundary values of ``bc_type``. PCHIP's and Akima's slopes are
formulas of the data's divided differences, differentiable except where a slope's sign
or a case of the formula changes (PCHIP: a slope changes sign or is zero; Akima: two
neighbouring divided differences are equal, where ``|m[i+1] - m[i]|`` has a kink). The
interval each point falls in is decided on the host. Evaluation (``spline(x, nu)``),
``derivative``, ``antiderivative`` and ``integrate`` are ops too: differentiable in the
points, the bounds, the data and the knots. Built from plain arrays and called on plain
arrays each object gives SciPy's own object's result.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
import scipy.special

from tapegrad import linalg, ops
from tapegrad.core.active import tracing
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import shape_of

__all__ = [
    "Akima1DInterpolator",
    "CubicHermiteSpline",
    "CubicSpline",
    "PchipInterpolator",
    "interp1d",
]


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


def _matrix(lower: Any, main: Any, upper: Any, cyclic: bool = False) -> Any:
    """The (cyclic) tridiagonal matrix with ``M[i, i-1] = lower[i]``, ``M[i, i] = main[i]``,
    ``M[i, i+1] = upper[i]``."""
    n = shape_of(main)[0]
    eye = np.eye(n)
    up = np.roll(eye, 1, axis=1)
    down = np.roll(eye, -1, axis=1)
    if not cyclic:
        up, down = np.triu(up), np.tril(down)

    def column(v: Any) -> Any:
        return ops.reshape(v, (-1, 1))

    return column(main) * eye + column(upper) * up + column(lower) * down


def _vector(*parts: Any) -> Any:
    return ops.concatenate([ops.reshape(as_input(p), (-1,)) for p in parts])


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


class CubicHermiteSpline(_PPoly):
    """SciPy's ``CubicHermiteSpline(x, y, dydx, axis=0, extrapolate=None)``: the piecewise
    cubic with values ``y`` and slopes ``dydx`` at ``x``; differentiable in all three.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.interpolate import CubicHermiteSpline
    >>> f = CubicHermiteSpline([0.0, 1.0], tg.tensor([0.0, 1.0]), tg.tensor([0.0, 0.0]))
    >>> f(tg.tensor([0.5])).numpy()
    array([0.5])
    """

    def __init__(self, x: Any, y: Any, dydx: Any, axis: int = 0, extrapolate: Any = None) -> None:
        name = "CubicHermiteSpline"
        extrapolate = True if extrapolate is None else extrapolate
        if _plain(x, y, dydx):
            import scipy.interpolate

            s = scipy.interpolate.CubicHermiteSpline(x, y, dydx, axis, extrapolate)
            _finish(self, name, None, None, (), s.axis, extrapolate, s)
            return
        x, _, y, axis = _prepare(name, x, y, axis)
        d = ops.moveaxis(as_input(dydx), axis, 0)
        if tuple(shape_of(d)) != tuple(shape_of(y)):
            raise ValueError(f"{name}: the shapes of `y` and `dydx` must be identical.")
        n, rest = shape_of(y)[0], tuple(shape_of(y)[1:])
        c = _hermite(x, ops.reshape(y, (n, -1)), ops.reshape(d, (n, -1)))
        _finish(self, name, c, x, rest, axis, extrapolate, None)


_BC = ("not-a-knot", "clamped", "natural", "periodic")


class CubicSpline(_PPoly):
    """SciPy's ``CubicSpline(x, y, axis=0, bc_type='not-a-knot', extrapolate=None)``, with
    gradients in ``y``, the knots ``x`` and the boundary values of ``bc_type``
    (``((order, value), (order, value))``): its slopes solve SciPy's tridiagonal (or,
    ``periodic``, cyclic) system by :func:`tapegrad.linalg.solve`.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.interpolate import CubicSpline
    >>> y = tg.tensor([0.0, 1.0, 4.0, 9.0])
    >>> f = CubicSpline([0.0, 1.0, 2.0, 3.0], y)
    >>> f(tg.tensor([1.5])).numpy(), float(f.integrate(0.0, 3.0).numpy())
    (array([2.25]), 9.0)
    >>> tg.grad(lambda v: CubicSpline([0.0, 1.0, 2.0, 3.0], v)(1.5))(y).numpy()
    array([-0.0625,  0.5625,  0.5625, -0.0625])
    """

    def __init__(
        self, x: Any, y: Any, axis: int = 0, bc_type: Any = "not-a-knot", extrapolate: Any = None
    ) -> None:
        name = "CubicSpline"
        plain = _plain(x, y) and (isinstance(bc_type, str) or _plain(*bc_type))
        if plain:
            import scipy.interpolate

            s = scipy.interpolate.CubicSpline(x, y, axis, bc_type, extrapolate)
            _finish(self, name, None, None, (), s.axis, s.extrapolate, s)
            return
        x, xh, y, axis = _prepare(name, x, y, axis)
        n, rest = shape_of(y)[0], tuple(shape_of(y)[1:])
        Y = ops.reshape(y, (n, -1))
        bc = self._bc(bc_type, _host(Y, name), rest, axis)
        if extrapolate is None:
            extrapolate = "periodic" if bc[0] == "periodic" else True
        dx = ops.diff(x)
        d = ops.reshape(dx, (-1, 1))
        slope = ops.diff(Y, axis=0) / d
        if n == 2:
            bc = [(1, slope[0]) if b in ("not-a-knot", "periodic") else b for b in bc]
        if n == 3 and bc[0] == "not-a-knot" and bc[1] == "not-a-knot":
            M = _matrix(_vector(0.0, dx[1], 1.0), _vector(1.0, 2 * (dx[0] + dx[1]), 1.0),
                        _vector(1.0, dx[0], 0.0))  # fmt: skip
            b = ops.stack([2 * slope[0], 3 * (d[0] * slope[1] + d[1] * slope[0]), 2 * slope[1]])
            s = linalg.solve(M, b)
        elif n == 3 and bc[0] == "periodic":
            t = ops.sum(slope / d, axis=0) / ops.sum(1.0 / d, axis=0)
            s = ops.broadcast_to(t, (n, shape_of(Y)[1]))
        elif bc[0] == "periodic":
            before = ops.roll(dx, 1)  # dx[i - 1], cyclically
            M = _matrix(dx, 2 * (before + dx), before, cyclic=True)
            b = 3 * (d * ops.roll(slope, 1, axis=0) + ops.reshape(before, (-1, 1)) * slope)
            s = linalg.solve(M, b)
            s = ops.concatenate([s, s[:1]], axis=0)
        else:
            lower = [dx[1:] if n > 2 else None]
            main = [2 * (dx[:-1] + dx[1:]) if n > 2 else None]
            upper = [dx[:-1] if n > 2 else None]
            rows = [3 * (d[1:] * slope[:-1] + d[:-1] * slope[1:])] if n > 2 else []
            start, end = bc
            if start == "not-a-knot":
                span = x[2] - x[0]
                first = (
                    dx[1],
                    span,
                    ((d[0] + 2 * span) * d[1] * slope[0] + d[0] ** 2 * slope[1]) / span,
                )
            elif start[0] == 1:
                first = (1.0, 0.0, _column(start[1]))
            else:
                first = (
                    2 * dx[0],
                    dx[0],
                    -0.5 * _column(start[1]) * d[0] ** 2 + 3 * (Y[1:2] - Y[:1]),
                )
            if end == "not-a-knot":
                span = x[-1] - x[-3]
                last = (
                    dx[-2],
                    span,
                    (d[-1] ** 2 * slope[-2] + (2 * span + d[-1]) * d[-2] * slope[-1]) / span,
                )
            elif end[0] == 1:
                last = (1.0, 0.0, _column(end[1]))
            else:
                value = 0.5 * _column(end[1]) * d[-1] ** 2 + 3 * (Y[-1:] - Y[-2:-1])
                last = (2 * dx[-1], dx[-1], value)

            def keep(parts: list[Any]) -> list[Any]:
                return [p for p in parts if p is not None]

            M = _matrix(
                _vector(0.0, *keep(lower), last[1]),
                _vector(first[0], *keep(main), last[0]),
                _vector(first[1], *keep(upper), 0.0),
            )
            b = ops.concatenate(
                [ops.reshape(first[2], (1, -1)), *rows, ops.reshape(last[2], (1, -1))], axis=0
            )
            b = ops.broadcast_to(b, (n, shape_of(Y)[1]))
            s = linalg.solve(M, b)
        c = _hermite(x, Y, s)
        _finish(self, name, c, x, rest, axis, extrapolate, None)

    @staticmethod
    def _bc(bc_type: Any, y: np.ndarray, rest: tuple[int, ...], axis: int) -> list[Any]:
        name = "CubicSpline"
        if isinstance(bc_type, str):
            if bc_type == "periodic" and not np.allclose(y[0], y[-1], rtol=1e-15, atol=1e-15):
                raise ValueError(
                    f"{name}: the first and last `y` point along axis {axis} must be "
                    "identical (within machine precision) when bc_type='periodic'."
                )
            bc_type = (bc_type, bc_type)
        elif len(bc_type) != 2:
            raise ValueError(f"{name}: `bc_type` must contain 2 elements to specify start "
                             "and end conditions.")  # fmt: skip
        elif "periodic" in [b for b in bc_type if isinstance(b, str)]:
            raise ValueError(f"{name}: 'periodic' `bc_type` is defined for both curve ends "
                             "and cannot be used with other boundary conditions.")  # fmt: skip
        out: list[Any] = []
        for b in bc_type:
            if isinstance(b, str):
                if b == "clamped":
                    out.append((1, np.zeros(rest)))
                elif b == "natural":
                    out.append((2, np.zeros(rest)))
                elif b in ("not-a-knot", "periodic"):
                    out.append(b)
                else:
                    raise ValueError(f"{name}: bc_type={b} is not allowed.")
                continue
            try:
                order, value = b
            except Exception as e:
                raise ValueError(f"{name}: a specified derivative value must be given in "
                                 "the form (order, value).") from e  # fmt: skip
            if order not in (1, 2):
                raise ValueError(f"{name}: the specified derivative order must be 1 or 2.")
            value = as_input(value)
            if tuple(shape_of(value)) != rest:
                raise ValueError(f"{name}: `deriv_value` shape {tuple(shape_of(value))} is "
                                 f"not the expected one {rest}.")  # fmt: skip
            out.append((order, value))
        return out


class PchipInterpolator(_PPoly):
    """SciPy's ``PchipInterpolator(x, y, axis=0, extrapolate=None)``: the monotone cubic
    of Fritsch and Butland's slopes; differentiable in ``y`` and ``x`` except where a
    divided difference changes sign or is zero (the slope switches to 0 there) and where
    the end slopes' shape-preserving clamps switch.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.interpolate import PchipInterpolator
    >>> PchipInterpolator([0.0, 1.0, 2.0], tg.tensor([0.0, 1.0, 1.0]))(1.5).numpy()
    array(1.)
    """

    def __init__(self, x: Any, y: Any, axis: int = 0, extrapolate: Any = None) -> None:
        name = "PchipInterpolator"
        if _plain(x, y):
            import scipy.interpolate

            s = scipy.interpolate.PchipInterpolator(x, y, axis, extrapolate)
            _finish(self, name, None, None, (), s.axis, s.extrapolate, s)
            return
        x, _, y, axis = _prepare(name, x, y, axis)
        if np.iscomplexobj(_host(y, name)):
            raise ValueError(f"{name}: only works with real values for `y`.")
        n, rest = shape_of(y)[0], tuple(shape_of(y)[1:])
        Y = ops.reshape(y, (n, -1))
        h = ops.reshape(ops.diff(x), (-1, 1))
        m = ops.diff(Y, axis=0) / h
        if n == 2:
            dk = ops.concatenate([m, m], axis=0)
        else:
            mh = _host(m, name)
            sm = np.sign(mh)
            flat = (sm[1:] != sm[:-1]) | (mh[1:] == 0) | (mh[:-1] == 0)
            w1 = 2 * h[1:] + h[:-1]
            w2 = h[1:] + 2 * h[:-1]
            safe = ops.where(mh == 0, 1.0, m)
            whmean = (w1 / safe[:-1] + w2 / safe[1:]) / (w1 + w2)
            inner = ops.where(flat, 0.0, 1.0 / ops.where(flat, 1.0, whmean))
            dk = ops.concatenate(
                [self._edge(h[0], h[1], m[0], m[1])[None], inner,
                 self._edge(h[-1], h[-2], m[-1], m[-2])[None]], axis=0,
            )  # fmt: skip
        c = _hermite(x, Y, dk)
        _finish(self, name, c, x, rest, axis, True if extrapolate is None else extrapolate, None)

    @staticmethod
    def _edge(h0: Any, h1: Any, m0: Any, m1: Any) -> Any:
        d = ((2 * h0 + h1) * m0 - h0 * m1) / (h0 + h1)
        dh, m0h, m1h = (_host(v, "PchipInterpolator") for v in (d, m0, m1))
        mask = np.sign(dh) != np.sign(m0h)
        mask2 = (np.sign(m0h) != np.sign(m1h)) & (np.abs(dh) > 3.0 * np.abs(m0h))
        return ops.where(mask, 0.0, ops.where(~mask & mask2, 3.0 * m0, d))


class Akima1DInterpolator(_PPoly):
    """SciPy's ``Akima1DInterpolator(x, y, axis=0, *, method='akima'|'makima',
    extrapolate=None)``; differentiable in ``y`` and ``x`` except where two neighbouring
    divided differences are equal (Akima's weights ``|m[i+1] - m[i]|`` have a kink
    there; its gradient there is the one-sided 0 of ``abs``) and where all weights vanish.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.interpolate import Akima1DInterpolator
    >>> y = tg.tensor([0.0, 1.0, 0.0, 1.0, 0.0])
    >>> Akima1DInterpolator([0.0, 1.0, 2.0, 3.0, 4.0], y)(2.0).numpy()
    array(0.)
    """

    def __init__(
        self, x: Any, y: Any, axis: int = 0, *, method: str = "akima", extrapolate: Any = None
    ) -> None:
        name = "Akima1DInterpolator"
        if method not in ("akima", "makima"):
            raise NotImplementedError(f"{name}: `method`={method} is unsupported.")
        extrapolate = False if extrapolate is None else extrapolate
        if _plain(x, y):
            import scipy.interpolate

            s = scipy.interpolate.Akima1DInterpolator(
                x, y, axis, method=method, extrapolate=extrapolate
            )
            _finish(self, name, None, None, (), s.axis, s.extrapolate, s)
            return
        x, _, y, axis = _prepare(name, x, y, axis)
        if np.iscomplexobj(_host(y, name)):
            raise ValueError(f"{name}: only works with real values for `y`.")
        n, rest = shape_of(y)[0], tuple(shape_of(y)[1:])
        Y = ops.reshape(y, (n, -1))
        mid = ops.diff(Y, axis=0) / ops.reshape(ops.diff(x), (-1, 1))
        if n == 2:
            t = ops.concatenate([mid, mid], axis=0)
        else:
            m1 = 2.0 * mid[:1] - mid[1:2]
            m0 = 2.0 * m1 - mid[:1]
            e1 = 2.0 * mid[-1:] - mid[-2:-1]
            e2 = 2.0 * e1 - mid[-1:]
            m = ops.concatenate([m0, m1, mid, e1, e2], axis=0)
            t = 0.5 * (m[3:] + m[:-3])
            dm = ops.abs(ops.diff(m, axis=0))
            if method == "makima":
                pm = ops.abs(m[1:] + m[:-1])
                f1, f2 = dm[2:] + 0.5 * pm[2:], dm[:-2] + 0.5 * pm[:-2]
            else:
                f1, f2 = dm[2:], dm[:-2]
            f12 = f1 + f2
            fh = _host(f12, name)
            chosen = fh > 1e-9 * (fh.max() if fh.size else -np.inf)
            ratio = f2 / ops.where(chosen, f12, 1.0)
            t = ops.where(chosen, m[1:-2] + ratio * (m[2:-1] - m[1:-2]), t)
        c = _hermite(x, Y, t)
        _finish(self, name, c, x, rest, axis, extrapolate, None)


_KINDS = ("linear", "nearest", "nearest-up", "zero", "slinear", "quadratic", "cubic",
          "previous", "next")  # fmt: skip
_SUPPORTED = ("linear", "nearest", "nearest-up", "zero", "slinear", "cubic", "previous", "next")


class interp1d:  # noqa: N801  (SciPy's name)
    """SciPy's legacy ``interp1d(x, y, kind='linear', axis=-1, copy=True,
    bounds_error=None, fill_value=nan, assume_sorted=False)``, with gradients in ``y``,
    the points and (``linear``, ``slinear``, ``cubic``) ``x``, and in a Tensor
    ``fill_value``. Kinds ``linear``, ``slinear``, ``nearest``, ``nearest-up``,
    ``previous``, ``next``, ``zero`` (piecewise constant in the points) and ``cubic``
    (SciPy's not-a-knot cubic spline, the :class:`CubicSpline`'s); ``quadratic`` and
    integer orders other than 0, 1, 3 raise NotImplementedError on Tensors.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.interpolate import interp1d
    >>> interp1d([0.0, 1.0, 2.0], tg.tensor([0.0, 10.0, 30.0]))(tg.tensor([0.5, 1.5])).numpy()
    array([ 5., 20.])
    """

    def __init__(
        self,
        x: Any,
        y: Any,
        kind: Any = "linear",
        axis: int = -1,
        copy: bool = True,
        bounds_error: Any = None,
        fill_value: Any = np.nan,
        assume_sorted: bool = False,
    ) -> None:
        name = "interp1d"
        self.copy, self.bounds_error = copy, bounds_error
        self._scipy = None
        fills = fill_value if isinstance(fill_value, tuple) else (fill_value,)
        if _plain(x, y, *fills):
            import scipy.interpolate

            self._scipy = scipy.interpolate.interp1d(
                x, y, kind, axis, copy, bounds_error, fill_value, assume_sorted
            )
        if isinstance(kind, (int, np.integer)) and not isinstance(kind, bool):
            kind = {0: "zero", 1: "slinear", 2: "quadratic", 3: "cubic"}.get(int(kind), kind)
        if kind not in _KINDS:
            raise NotImplementedError(f"{name}: kind={kind!r} is unsupported: use fitpack routines")
        self.kind = kind
        x, y = as_input(x), as_input(y)
        xh = _host(x, name)
        if not assume_sorted:
            order = np.argsort(xh, kind="mergesort")
            x, y, xh = ops.take(x, order), ops.take(y, order, axis=axis), xh[order]
        if xh.ndim != 1:
            raise ValueError(f"{name}: the x array must have exactly one dimension.")
        shape = tuple(shape_of(y))
        if not shape:
            raise ValueError(f"{name}: the y array must have at least one dimension.")
        if shape[axis % len(shape)] != len(xh):
            raise ValueError(f"{name}: x and y arrays must be equal in length along "
                             "interpolation axis.")  # fmt: skip
        self.axis = axis % len(shape)
        self.x, self.y = ops.astype(x, np.float64), y
        self._xh = xh.astype(float)
        self._extra = shape[: self.axis] + shape[self.axis + 1 :]
        self._y = ops.reshape(ops.moveaxis(y, self.axis, 0), (len(xh), -1))
        order = {"zero": 0, "slinear": 1, "quadratic": 2, "cubic": 3}.get(kind, 0)
        if len(xh) < order + 1 or len(xh) < 1:
            raise ValueError(f"{name}: x and y arrays must have at least {order + 1} entries")
        self._refusal = ""
        if kind not in _SUPPORTED:
            self._refusal = (
                f"{name}: kind={kind!r} is not supported on Tensors yet "
                f"({', '.join(_SUPPORTED)} are)"
            )
            if self._scipy is None:
                raise NotImplementedError(self._refusal)
            return
        self._spline = CubicSpline(self.x, self._y) if kind == "cubic" else None
        extrapolate = isinstance(fill_value, str) and fill_value == "extrapolate"
        if extrapolate:
            if self.bounds_error:
                raise ValueError(f"{name}: Cannot extrapolate and raise at the same time.")
            self.bounds_error = False
        if kind in ("previous", "next") and extrapolate:
            row = self._y[-1] if kind == "previous" else self._y[0]
            fill_value = (np.nan, row) if kind == "previous" else (row, np.nan)
            extrapolate = False
        self._extrapolate = extrapolate
        self.fill_value = fill_value
        if not extrapolate:
            pair = isinstance(fill_value, tuple) and len(fill_value) == 2
            ends = fill_value if pair else (fill_value, fill_value)
            self._fill = tuple(
                ops.reshape(ops.broadcast_to(as_input(f), self._extra or (1,)), (1, -1))
                for f in ends
            )
            if self.bounds_error is None:
                self.bounds_error = True

    def __call__(self, x: Any) -> Any:
        """The interpolant at ``x``: ``x``'s shape in place of ``axis`` in ``y``'s."""
        if self._scipy is not None and _plain(x):
            return self._scipy(x)
        name = "interp1d"
        if self._refusal:
            raise NotImplementedError(self._refusal)
        x = as_input(x)
        shape = tuple(shape_of(x))
        flat = ops.reshape(ops.astype(x, np.float64), (-1,))
        host = _host(flat, name).astype(float)
        xs, n, kind = self._xh, len(self._xh), self.kind
        if kind in ("linear", "slinear"):
            hi = np.clip(np.searchsorted(xs, host), 1, n - 1)
            lo = hi - 1
            x_lo, x_hi = ops.take(self.x, lo), ops.take(self.x, hi)
            y_lo, y_hi = ops.take(self._y, lo, axis=0), ops.take(self._y, hi, axis=0)
            slope = (y_hi - y_lo) / ops.reshape(x_hi - x_lo, (-1, 1))
            value = slope * ops.reshape(flat - x_lo, (-1, 1)) + y_lo
        elif kind == "cubic":
            assert self._spline is not None
            value = self._spline(flat)
        else:
            if kind in ("nearest", "nearest-up"):
                bounds = xs / 2.0
                side: Literal["left", "right"] = "left" if kind == "nearest" else "right"
                index = np.searchsorted(bounds[1:] + bounds[:-1], host, side=side)
                index = np.clip(index, 0, n - 1)
            elif kind == "zero":
                index = np.clip(np.searchsorted(xs, host, side="right") - 1, 0, n - 1)
            else:
                shift = 1 if kind == "next" else 0
                moved = np.nextafter(xs, np.inf if shift else -np.inf)
                side = "right" if shift else "left"
                index = np.clip(np.searchsorted(moved, host, side=side), 1 - shift, n - shift)
                index = index + shift - 1
            value = ops.take(self._y, index, axis=0)
        if not self._extrapolate:
            below, above = host < xs[0], host > xs[-1]
            if self.bounds_error and below.any():
                raise ValueError(
                    f"{name}: A value ({host[np.argmax(below)]}) in x_new is below the "
                    f"interpolation range's minimum value ({xs[0]}; bounds_error=True)."
                )
            if self.bounds_error and above.any():
                raise ValueError(
                    f"{name}: A value ({host[np.argmax(above)]}) in x_new is above the "
                    f"interpolation range's maximum value ({xs[-1]}; bounds_error=True)."
                )
            if below.any():
                value = ops.where(below[:, None], self._fill[0], value)
            if above.any():
                value = ops.where(above[:, None], self._fill[1], value)
        value = ops.reshape(value, shape + self._extra)
        if self.axis != 0 and shape != ():
            nx, ny = len(shape), len(self._extra)
            order = (list(range(nx, nx + self.axis)) + list(range(nx))
                     + list(range(nx + self.axis, nx + ny)))  # fmt: skip
            value = ops.transpose(value, tuple(order))
        return value
