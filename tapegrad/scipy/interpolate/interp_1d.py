"""scipy.interpolate's legacy interp1d with gradients: its kinds (linear, nearest,
previous, next, zero, slinear, quadratic, cubic) on Tensors, the cubic one a
:class:`CubicSpline`, the quadratic one SciPy's ``make_interp_spline(x, y, k=2)``;
built from plain arrays and called on plain arrays it gives SciPy's own object's result.
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from tapegrad import ops
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy.interpolate.bsplines import make_interp_spline
from tapegrad.scipy.interpolate.piecewise import _host, _plain
from tapegrad.scipy.interpolate.splines import CubicSpline

__all__ = ["interp1d"]


_KINDS = ("linear", "nearest", "nearest-up", "zero", "slinear", "quadratic", "cubic",
          "previous", "next")  # fmt: skip
_SUPPORTED = ("linear", "nearest", "nearest-up", "zero", "slinear", "quadratic", "cubic",
              "previous", "next")  # fmt: skip


class interp1d:  # noqa: N801  (SciPy's name)
    """SciPy's legacy ``interp1d(x, y, kind='linear', axis=-1, copy=True,
    bounds_error=None, fill_value=nan, assume_sorted=False)``, with gradients in ``y``,
    the points and (``linear``, ``slinear``, ``cubic``) ``x``, and in a Tensor
    ``fill_value``. Kinds ``linear``, ``slinear``, ``nearest``, ``nearest-up``,
    ``previous``, ``next``, ``zero`` (piecewise constant in the points), ``quadratic``
    (the interpolating B-spline of degree 2, as SciPy's: a gradient in ``x`` raises
    LookupError) and ``cubic`` (SciPy's not-a-knot cubic spline, the
    :class:`CubicSpline`'s); other integer orders raise NotImplementedError.

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
        self._spline: Any = None
        if kind == "cubic":
            self._spline = CubicSpline(self.x, self._y)
        elif kind == "quadratic":
            self._spline = make_interp_spline(self.x, self._y, k=2)
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
        elif kind in ("quadratic", "cubic"):
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
