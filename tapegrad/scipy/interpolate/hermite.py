"""scipy.interpolate's Hermite cubics with gradients: CubicHermiteSpline (given slopes),
PchipInterpolator and Akima1DInterpolator, whose slopes are formulas of the data's divided
differences, differentiable except where a slope's sign or a case of the formula changes
(PCHIP: a slope changes sign or is zero; Akima: two neighbouring divided differences are
equal, where ``|m[i+1] - m[i]|`` has a kink).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy.interpolate.piecewise import (
    _finish,
    _hermite,
    _host,
    _plain,
    _PPoly,
    _prepare,
)

__all__ = ["Akima1DInterpolator", "CubicHermiteSpline", "PchipInterpolator"]


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
