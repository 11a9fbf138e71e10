"""scipy.interpolate's CubicSpline with gradients: its slopes are the solution of its
(tridiagonal, or cyclic for ``periodic``) linear system, solved by
:func:`tapegrad.linalg.solve`, so the spline is differentiable in ``y``, in the knots ``x``
and in the boundary values of ``bc_type``. Built from plain arrays and called on plain
arrays it gives SciPy's own object's result.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy.interpolate.piecewise import (
    _column,
    _finish,
    _hermite,
    _host,
    _plain,
    _PPoly,
    _prepare,
)

__all__ = ["CubicSpline"]


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
