"""scipy.interpolate's RegularGridInterpolator with gradients, methods ``linear`` and
``nearest``.

The cell each point falls in (SciPy's ``searchsorted``) is decided on the host; the
values are then built with differentiable ops: linear in ``values``, and for ``linear``
differentiable in the points ``xi`` and the grid ``points`` (piecewise constant in both
for ``nearest``). Built from plain arrays and called on plain arrays it is SciPy's own
object's result.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.active import tracing
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import refuse_gradient

__all__ = ["RegularGridInterpolator"]

_METHODS = ("linear", "nearest", "slinear", "cubic", "quintic", "pchip")
_SUPPORTED = ("linear", "nearest")


def _plain(value: Any) -> bool:
    return not isinstance(value, Tensor) and not (
        isinstance(value, (list, tuple)) and holds_tensor(value)
    )


def _host(value: Any) -> np.ndarray:
    if isinstance(value, Tensor):
        return np.asarray(host_value(value, "RegularGridInterpolator: the cells"), float)
    return np.asarray(value, dtype=float)


class RegularGridInterpolator:
    """SciPy's ``RegularGridInterpolator(points, values, method, bounds_error,
    fill_value)`` on a rectilinear grid, with gradients in ``values``, in the points it
    is called at and (``linear``) in the grid ``points``. Methods ``linear`` and
    ``nearest`` on Tensors; the spline methods raise NotImplementedError there (SciPy's
    own object takes them on plain arrays). ``solver``/``solver_args`` are the spline
    methods' and are refused on Tensors.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.interpolate import RegularGridInterpolator
    >>> f = RegularGridInterpolator(([0.0, 1.0, 2.0],), tg.tensor([0.0, 10.0, 30.0]))
    >>> f(tg.tensor([[0.5], [1.5]])).numpy()
    array([ 5., 20.])
    """

    def __init__(
        self,
        points: Any,
        values: Any,
        method: str = "linear",
        bounds_error: bool = True,
        fill_value: Any = np.nan,
        *,
        solver: Any = None,
        solver_args: Any = None,
    ) -> None:
        if method not in _METHODS:
            raise ValueError(f"RegularGridInterpolator: method {method!r} is not defined")
        self.method = method
        self.bounds_error = bounds_error
        self.fill_value = fill_value
        self._plain = _plain(points) and _plain(values) and not tracing()
        self._options = (solver, solver_args)
        if self._plain:
            import scipy.interpolate

            self._scipy = scipy.interpolate.RegularGridInterpolator(
                points, values, method=method, bounds_error=bounds_error,
                fill_value=fill_value, solver=solver, solver_args=solver_args,
            )  # fmt: skip
        refuse_gradient("RegularGridInterpolator", "fill_value", fill_value, "a constant fill")
        self.grid = tuple(as_input(p) for p in points)
        self.values = as_input(values)
        shape = shape_of(self.values)
        if len(self.grid) > len(shape):
            raise ValueError(
                f"RegularGridInterpolator: there are {len(self.grid)} point arrays, but "
                f"values has {len(shape)} dimensions"
            )
        for k, p in enumerate(self.grid):
            host = _host(p)
            if host.ndim != 1 or len(host) != shape[k]:
                raise ValueError(
                    f"RegularGridInterpolator: there are {len(host)} points in dimension "
                    f"{k}, but values has {shape[k]} values in dimension {k}"
                )
            if len(host) > 1 and not np.all(np.diff(host) > 0):
                raise ValueError(
                    f"RegularGridInterpolator: the points in dimension {k} must be strictly "
                    "ascending or descending"
                )

    def __call__(self, xi: Any, method: str | None = None, *, nu: Any = None) -> Any:
        """The interpolant at ``xi`` (shape ``(..., ndim)``), by ``method`` (the
        constructor's by default); ``nu`` (derivative orders) is the spline methods'."""
        method = self.method if method is None else method
        if self._plain and _plain(xi) and not tracing():
            return self._scipy(xi, method=method, nu=nu)
        if method not in _METHODS:
            raise ValueError(f"RegularGridInterpolator: method {method!r} is not defined")
        if method not in _SUPPORTED:
            raise NotImplementedError(
                f"RegularGridInterpolator: method={method!r} is not supported on Tensors "
                f"yet ({', '.join(_SUPPORTED)} are)"
            )
        if nu is not None:
            raise NotImplementedError(
                "RegularGridInterpolator: nu= (derivatives) is not supported on Tensors; "
                "differentiate with tg.grad"
            )
        if any(option is not None for option in self._options):
            raise NotImplementedError(
                "RegularGridInterpolator: solver=/solver_args= belong to the spline "
                "methods, not supported on Tensors"
            )
        d = len(self.grid)
        x = as_input(xi)
        shape = tuple(shape_of(x))
        if shape[-1:] != (d,):
            raise ValueError(
                f"RegularGridInterpolator: the requested sample points xi have dimension "
                f"{shape[-1] if shape else 0}, but this RegularGridInterpolator has "
                f"dimension {d}"
            )
        points = ops.reshape(x, (-1, d))
        host = _host(points)
        outside = np.zeros(len(host), dtype=bool)
        cells: list[tuple[Any, Any]] = []
        fractions: list[Any] = []
        for k, p in enumerate(self.grid):
            grid = _host(p)
            column = host[:, k]
            out = (column < grid[0]) | (column > grid[-1])
            if self.bounds_error and out.any():
                raise ValueError(
                    f"RegularGridInterpolator: one of the requested xi is out of bounds in "
                    f"dimension {k} (bounds_error=True; bounds_error=False fills them with "
                    "fill_value)"
                )
            outside |= out
            i = np.searchsorted(grid, column) - 1
            i = np.clip(i, 0, max(len(grid) - 2, 0))
            if len(grid) == 1:
                cells.append((i, i))
                fractions.append(None)
                continue
            low, high = ops.take(p, i), ops.take(p, i + 1)
            fractions.append((points[:, k] - low) / (high - low))
            cells.append((i, i + 1))
        flat = ops.reshape(self.values, (-1, *shape_of(self.values)[d:]))
        strides = np.cumprod((1, *shape_of(self.values)[:d][:0:-1]))[::-1]
        trailing = len(shape_of(self.values)) - d
        result: Any = None
        if method == "nearest":
            index = np.zeros(len(host), dtype=np.intp)
            for k, (i, j) in enumerate(cells):
                t = fractions[k]
                if t is None:
                    index += i * strides[k]
                    continue
                near = np.where(_host(t) <= 0.5, i, j)
                index += near * strides[k]
            result = ops.take(flat, index, axis=0)
        else:
            corners: list[tuple[Any, np.ndarray]] = [(None, np.zeros(len(host), np.intp))]
            for k, (i, j) in enumerate(cells):
                t = fractions[k]
                grown = []
                for weight, index in corners:
                    if t is None:
                        grown.append((weight, index + i * strides[k]))
                        continue
                    for w, at in ((1 - t, i), (t, j)):
                        grown.append((w if weight is None else weight * w, index + at * strides[k]))
                corners = grown
            for weight, index in corners:
                value = ops.take(flat, index, axis=0)
                if weight is not None:
                    value = value * ops.reshape(weight, (-1,) + (1,) * trailing)
                result = value if result is None else result + value
        if self.fill_value is not None and outside.any():
            mask = outside.reshape((-1,) + (1,) * trailing)
            result = ops.where(mask, self.fill_value, result)
        return ops.reshape(result, shape[:-1] + tuple(shape_of(self.values)[d:]))
