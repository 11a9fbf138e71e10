"""scipy.interpolate's B-splines with gradients: :class:`BSpline` and
:func:`make_interp_spline`.

Every B-spline operation is linear in the coefficients ``c``, so each is SciPy's own
operation applied to the identity coefficients (``BSpline(t, eye(m), k)``: the basis),
which gives the exact matrix, times ``c`` on the tape. The dependence on a point ``x``
is exact too: on the knot interval holding ``x0`` (the point's value) the spline is a
polynomial of degree ``k``, so

    s^(nu)(x) = sum_{p = 0}^{k - nu} B^(nu + p)(x0) c (x - x0)^p / p!

with ``B^(q)(x0)`` SciPy's basis derivatives at ``x0``: its value is SciPy's, its
derivatives in ``x`` of every order are the spline's. ``make_interp_spline`` is a linear
solve whose right-hand side is ``y`` (and the ``bc_type`` derivative values): SciPy
solves it once for the identity, and ``c = M y``. The knots ``t`` and the data sites
``x`` are chosen on the host: a gradient with respect to them is refused with a
LookupError.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.interpolate

from tapegrad import ops
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import refuse_gradient
from tapegrad.scipy.interpolate.piecewise import _host, _plain

__all__ = ["BSpline", "make_interp_spline"]


def _front(value: Any, axis: int) -> Any:
    value = as_input(value)
    return ops.moveaxis(value, axis % max(len(shape_of(value)), 1), 0)


class BSpline:
    """SciPy's ``BSpline(t, c, k, extrapolate=True, axis=0)``, differentiable in the
    coefficients ``c`` and in the points it is called at (also through ``nu``,
    :meth:`derivative`, :meth:`antiderivative` and :meth:`integrate`'s bounds). The
    knots ``t`` are constants. Built from plain arrays and called on plain arrays it is
    SciPy's own object's result.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.interpolate import BSpline
    >>> c = tg.tensor([0.0, 1.0, 4.0])
    >>> s = BSpline([0.0, 0.0, 0.0, 1.0, 1.0, 1.0], c, 2)
    >>> float(s(0.5).numpy())
    1.5
    >>> tg.grad(lambda v: BSpline([0, 0, 0, 1, 1, 1.0], v, 2)(0.5))(c).numpy()
    array([0.25, 0.5 , 0.25])
    """

    t: np.ndarray
    c: Any
    k: int
    extrapolate: Any
    axis: int
    _scipy: Any
    _basis: Any

    def __init__(self, t: Any, c: Any, k: int, extrapolate: Any = True, axis: int = 0) -> None:
        name = "BSpline"
        refuse_gradient(name, "the knots `t`", t, "they are fixed on the host")
        th = np.asarray(_host(as_input(t), name), dtype=float)
        ch = _host(as_input(c), name)
        # SciPy's own checks and messages (t, k, c's length, axis).
        plain = scipy.interpolate.BSpline(th, ch, k, extrapolate, axis)
        self._set(th, _front(c, axis) if not _plain(c) else plain.c, plain.k,
                  plain.extrapolate, plain.axis, plain if _plain(t, c) else None)  # fmt: skip

    def _set(self, t: np.ndarray, c: Any, k: int, extrapolate: Any, axis: int,
             scipy_object: Any) -> None:  # fmt: skip
        self.t, self.c, self.k, self.extrapolate, self.axis = t, c, int(k), extrapolate, axis
        self._scipy = scipy_object
        self._basis = scipy.interpolate.BSpline(t, np.eye(shape_of(c)[0]), self.k, extrapolate)

    @classmethod
    def _build(cls, t: np.ndarray, c: Any, k: int, extrapolate: Any, axis: int,
               scipy_object: Any = None) -> BSpline:  # fmt: skip
        s = object.__new__(cls)
        s._set(t, c, k, extrapolate, axis, scipy_object)
        return s

    @classmethod
    def _wrap(cls, scipy_object: Any) -> BSpline:
        s = scipy_object
        return cls._build(s.t, s.c, s.k, s.extrapolate, s.axis, s)

    @property
    def tck(self) -> tuple[Any, Any, int]:
        """``(t, c, k)``."""
        return self.t, self.c, self.k

    def _columns(self) -> Any:
        """``c`` as ``(m, r)``: each column one spline."""
        return ops.reshape(as_input(self.c), (shape_of(self.c)[0], -1))

    def _trailing(self) -> tuple[int, ...]:
        return tuple(shape_of(self.c)[1:])

    def _basis_at(self, x0: np.ndarray, nu: int, extrapolate: Any) -> tuple[np.ndarray, Any]:
        """SciPy's ``nu``-th basis derivatives at ``x0`` ``(len(x0), m)``, zero rows where
        the spline is not defined (those rows' mask, or None)."""
        m = shape_of(self.c)[0]
        if nu > self.k:
            return np.zeros((len(x0), m)), None
        basis = np.asarray(self._basis(x0, nu, extrapolate), dtype=float)
        undefined = np.isnan(basis).any(axis=1)
        return np.where(undefined[:, None], 0.0, basis), (undefined if undefined.any() else None)

    def _taylor(self, x: Any, start: int, top: int, extrapolate: Any) -> tuple[Any, Any]:
        """``sum_{p = 0}^{top} B^(start + p)(x0) c (x - x0)^p / p!`` over flat ``x``
        ``(len, r)``, and the mask of points where the spline is not defined."""
        x0 = np.asarray(_host(x, "BSpline"), dtype=float)
        step = x - x0
        columns = self._columns()
        total: Any = None
        undefined = None
        for p in range(top + 1):
            basis, mask = self._basis_at(x0, start + p, extrapolate)
            undefined = mask if p == 0 else undefined
            term = ops.matmul(basis, columns)
            if p:
                term = term * ops.reshape(step**p / math.factorial(p), (-1, 1))
            total = term if total is None else total + term
        return total, undefined

    def __call__(self, x: Any, nu: int = 0, extrapolate: Any = None) -> Any:
        """The ``nu``-th derivative at ``x``: ``x``'s shape put in place of ``axis`` in
        ``c``'s trailing shape."""
        if self._scipy is not None and _plain(x):
            return self._scipy(x, nu, extrapolate)
        if nu < 0:
            raise ValueError(f"BSpline: the order of derivative cannot be negative: {nu}")
        extrapolate = self.extrapolate if extrapolate is None else extrapolate
        x = ops.astype(as_input(x), np.float64)
        shape = tuple(shape_of(x))
        value, undefined = self._taylor(ops.reshape(x, (-1,)), nu, max(self.k - nu, 0),
                                        extrapolate)  # fmt: skip
        if undefined is not None:
            value = ops.where(undefined[:, None], np.nan, value)
        out = ops.reshape(value, shape + self._trailing())
        if self.axis != 0:
            order = list(range(len(shape_of(out))))
            nx = len(shape)
            order = order[nx : nx + self.axis] + order[:nx] + order[nx + self.axis :]
            out = ops.transpose(out, tuple(order))
        return out

    def _mapped(self, scipy_basis: Any, scipy_object: Any) -> BSpline:
        """The spline whose coefficients are ``scipy_basis.c @ c`` (a linear map of
        ``c`` that SciPy computed on the identity); SciPy's own spline when ``c`` is plain."""
        if scipy_object is not None:
            return self._wrap(scipy_object)
        matrix = np.asarray(scipy_basis.c, dtype=float)
        c = ops.reshape(ops.matmul(matrix, self._columns()), (-1, *self._trailing()))
        return self._build(scipy_basis.t, c, scipy_basis.k, scipy_basis.extrapolate, self.axis,
                           scipy_object)  # fmt: skip

    def derivative(self, nu: int = 1) -> BSpline:
        """The ``nu``-th derivative, a B-spline of degree ``k - nu`` (SciPy's ``splder``,
        linear in ``c``)."""
        scipy_object = None if self._scipy is None else self._scipy.derivative(nu)
        return self._mapped(self._basis.derivative(nu), scipy_object)

    def antiderivative(self, nu: int = 1) -> BSpline:
        """The ``nu``-th antiderivative, a B-spline of degree ``k + nu`` (SciPy's
        ``splantider``, linear in ``c``); ``periodic`` extrapolation is turned off."""
        scipy_object = None if self._scipy is None else self._scipy.antiderivative(nu)
        return self._mapped(self._basis.antiderivative(nu), scipy_object)

    def integrate(self, a: Any, b: Any, extrapolate: Any = None) -> Any:
        """The definite integral from ``a`` to ``b``, of shape ``c.shape[1:]``;
        differentiable in ``c`` and in the bounds (``d/db = s(b)``, ``d/da = -s(a)``,
        zero beyond the base interval when ``extrapolate=False``)."""
        if self._scipy is not None and _plain(a, b):
            return self._scipy.integrate(a, b, extrapolate)
        extrapolate = self.extrapolate if extrapolate is None else extrapolate
        a, b = (ops.astype(as_input(v), np.float64) for v in (a, b))
        a0, b0 = (float(_host(v, "BSpline.integrate")) for v in (a, b))
        weights = np.asarray(self._basis.integrate(a0, b0, extrapolate), dtype=float)
        total = ops.matmul(weights[None], self._columns())[0]
        if not isinstance(extrapolate, str):
            extrapolate = bool(extrapolate)
        # G(s) = sum_{p >= 1} B^(p - 1)(s0) c (s - s0)^p / p!: the integral's change past s0.
        for sign, bound, bound0 in ((1.0, b, b0), (-1.0, a, a0)):
            step = bound - bound0
            for p in range(1, self.k + 2):
                basis, _ = self._basis_at(np.array([bound0]), p - 1, extrapolate)
                term = ops.matmul(basis, self._columns())[0] * (step**p / math.factorial(p))
                total = total + sign * term
        return ops.reshape(total, self._trailing())

    @classmethod
    def basis_element(cls, t: Any, extrapolate: bool = True) -> BSpline:
        """SciPy's ``BSpline.basis_element`` (plain knots; a constant spline)."""
        return cls._wrap(scipy.interpolate.BSpline.basis_element(t, extrapolate))

    @classmethod
    def design_matrix(cls, x: Any, t: Any, k: int, extrapolate: bool = False) -> Any:
        """SciPy's ``BSpline.design_matrix`` (a sparse array of plain basis values)."""
        return scipy.interpolate.BSpline.design_matrix(x, t, k, extrapolate)


def _derivative_values(bc_type: Any) -> list[Any]:
    """The ``(order, value)`` conditions of an explicit ``bc_type`` pair, left then right."""
    if bc_type is None or isinstance(bc_type, str):
        return []
    return [pair for side in bc_type if side is not None and not isinstance(side, str)
            for pair in side]  # fmt: skip


def _with_values(bc_type: Any, values: list[Any]) -> Any:
    """``bc_type`` with its explicit conditions' values replaced, in order."""
    if bc_type is None or isinstance(bc_type, str):
        return bc_type
    it = iter(values)
    return tuple(
        side if side is None or isinstance(side, str)
        else [(order, next(it)) for order, _ in side]
        for side in bc_type
    )  # fmt: skip


def make_interp_spline(
    x: Any,
    y: Any,
    k: int = 3,
    t: Any = None,
    bc_type: Any = None,
    axis: int = 0,
    check_finite: bool = True,
) -> BSpline:
    """SciPy's ``make_interp_spline(x, y, k=3, t=None, bc_type=None, axis=0,
    check_finite=True)``: the interpolating B-spline of degree ``k``, differentiable in
    ``y`` and in the values of an explicit ``bc_type`` (``([(order, value)], ...)``):
    its coefficients solve the collocation system ``A c = [left values, y, right
    values]``, so ``c = M y + sum_j m_j v_j`` with ``M`` and ``m_j`` SciPy's solutions
    for the identity and the unit conditions. The data sites ``x`` and knots ``t``
    choose the system on the host: a gradient in them raises LookupError.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.interpolate import make_interp_spline
    >>> y = tg.tensor([0.0, 1.0, 4.0, 9.0])
    >>> s = make_interp_spline([0.0, 1.0, 2.0, 3.0], y)
    >>> round(float(s(1.5).numpy()), 12)
    2.25
    """
    name = "make_interp_spline"
    pairs = _derivative_values(bc_type)
    if _plain(x, y, t) and all(_plain(v) for _, v in pairs):
        return BSpline._wrap(
            scipy.interpolate.make_interp_spline(x, y, k, t, bc_type, axis, check_finite)
        )
    why = "the collocation system is built from them on the host"
    refuse_gradient(name, "the data sites `x`", x, why)
    refuse_gradient(name, "the knots `t`", t, why)
    xh = np.asarray(_host(as_input(x), name), dtype=float)
    th = None if t is None else np.asarray(_host(as_input(t), name), dtype=float)
    y = as_input(y)
    if not shape_of(y):
        raise ValueError(f"{name}: `y` must have at least one dimension, got shape ()")
    y = _front(y, axis)
    yshape = tuple(shape_of(y))
    if check_finite and not np.all(np.isfinite(_host(y, name))):
        raise ValueError(f"{name}: `y` must contain only finite values.")
    n = yshape[0]
    columns = ops.reshape(ops.astype(y, np.float64), (n, -1))
    identity = np.eye(n)
    if isinstance(bc_type, str) and bc_type == "periodic":
        yh = _host(y, name)
        if not np.allclose(yh[0], yh[-1], atol=1e-15):
            raise ValueError(f"{name}: the first and last points of `y` do not match while "
                             "bc_type='periodic' expects them to")  # fmt: skip
        # SciPy's periodic spline reads y[:-1] (y[-1] repeats y[0]): columns for y[:-1].
        identity = np.vstack([np.eye(n - 1), np.eye(1, n - 1)])
        columns = columns[:-1]
    # SciPy checks x, k, t and bc_type here, and solves A M = [0, I, 0].
    zeros = [np.zeros(identity.shape[1]) for _ in pairs]
    unit = scipy.interpolate.make_interp_spline(
        xh, identity, k, th, _with_values(bc_type, zeros), 0, check_finite
    )
    c = ops.matmul(np.asarray(unit.c, dtype=float), columns)
    if pairs:
        count = len(pairs)
        eye = list(np.eye(count))
        response = scipy.interpolate.make_interp_spline(
            xh, np.zeros((n, count)), k, th, _with_values(bc_type, eye), 0, check_finite
        )
        for j, (_, value) in enumerate(pairs):
            value = ops.reshape(ops.astype(as_input(value), np.float64), (1, -1))
            c = c + np.asarray(response.c)[:, j : j + 1] * value
    c = ops.reshape(c, (-1, *yshape[1:]))
    return BSpline._build(unit.t, c, unit.k, unit.extrapolate, axis % len(yshape))
