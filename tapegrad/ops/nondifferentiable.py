"""Ops whose outputs carry no gradient: comparisons, argmax argmin sign floor ceil round trunc
fix spacing floor_divide.

Their results are piecewise constant (or boolean), so they record nothing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.operands import explain_broadcast
from tapegrad.ops.primitive import Primitive, normalize_axis, shape_of

ArrayLike = Any


def _comparison(name: str) -> Primitive:
    return Primitive(
        name,
        lambda xp, x, y: getattr(xp, name)(x, y),
        differentiable=False,
        explain=explain_broadcast,
        numpy=getattr(np, name),  # a ufunc: the fast path, and vmap's elementwise rule
    )


_equal = _comparison("equal")
_not_equal = _comparison("not_equal")
_less = _comparison("less")
_less_equal = _comparison("less_equal")
_greater = _comparison("greater")
_greater_equal = _comparison("greater_equal")


def equal(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x == y`` (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.equal(tg.tensor([1.0, 2.0, 3.0]), 2.0)
    tensor([False,  True, False], dtype=bool)
    """
    return _equal._binary(x, y)


def not_equal(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x != y`` (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.not_equal(tg.tensor([1.0, 2.0, 3.0]), 2.0)
    tensor([ True, False,  True], dtype=bool)
    """
    return _not_equal._binary(x, y)


def less(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x < y`` (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.less(tg.tensor([1.0, 2.0, 3.0]), 2.0)
    tensor([ True, False, False], dtype=bool)
    """
    return _less._binary(x, y)


def less_equal(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x <= y`` (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.less_equal(tg.tensor([1.0, 2.0, 3.0]), 2.0)
    tensor([ True,  True, False], dtype=bool)
    """
    return _less_equal._binary(x, y)


def greater(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x > y`` (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.greater(tg.tensor([1.0, 2.0, 3.0]), 2.0)
    tensor([False, False,  True], dtype=bool)
    """
    return _greater._binary(x, y)


def greater_equal(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x >= y`` (boolean, no gradient).

    >>> import tapegrad as tg
    >>> tg.greater_equal(tg.tensor([1.0, 2.0, 3.0]), 2.0)
    tensor([False,  True,  True], dtype=bool)
    """
    return _greater_equal._binary(x, y)


def _arg_extremum(name: str, kernel: str) -> Primitive:
    return Primitive(
        name,
        lambda xp, x, axis, keepdims: getattr(xp, kernel)(x, axis=axis, keepdims=keepdims),
        differentiable=False,
    )


_argmax = _arg_extremum("argmax", "argmax")
_argmin = _arg_extremum("argmin", "argmin")


def _single_axis(x: ArrayLike, axis: int | None, op: str) -> int | None:
    if axis is None:
        return None
    (axis,) = normalize_axis(axis, len(shape_of(x)), op)
    return axis


def argmax(x: ArrayLike, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """Index of the maximum along ``axis`` (of the flattened input when None).

    >>> import tapegrad as tg
    >>> tg.argmax(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=1)
    tensor([1, 1], dtype=int64)
    """
    return _argmax(x, axis=_single_axis(x, axis, "argmax"), keepdims=keepdims)


def argmin(x: ArrayLike, axis: int | None = None, keepdims: bool = False) -> Tensor:
    """Index of the minimum along ``axis`` (of the flattened input when None).

    >>> import tapegrad as tg
    >>> tg.argmin(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=1)
    tensor([0, 0], dtype=int64)
    """
    return _argmin(x, axis=_single_axis(x, axis, "argmin"), keepdims=keepdims)


def _rounding(name: str) -> Primitive:
    return Primitive(name, lambda xp, x: getattr(xp, name)(x), differentiable=False)


_sign = _rounding("sign")
_floor = _rounding("floor")
_ceil = _rounding("ceil")
_round = _rounding("round")


def sign(x: ArrayLike) -> Tensor:
    """Elementwise sign: -1, 0 or 1 (no gradient).

    >>> import tapegrad as tg
    >>> tg.sign(tg.tensor([-1.5, 0.4, 2.5]))
    tensor([-1.,  1.,  1.], dtype=float64)
    """
    return _sign._unary(x)


def floor(x: ArrayLike) -> Tensor:
    """Elementwise floor (no gradient).

    >>> import tapegrad as tg
    >>> tg.floor(tg.tensor([-1.5, 0.4, 2.5]))
    tensor([-2.,  0.,  2.], dtype=float64)
    """
    return _floor._unary(x)


def ceil(x: ArrayLike) -> Tensor:
    """Elementwise ceiling (no gradient).

    >>> import tapegrad as tg
    >>> tg.ceil(tg.tensor([-1.5, 0.4, 2.5]))
    tensor([-1.,  1.,  3.], dtype=float64)
    """
    return _ceil._unary(x)


def round(x: ArrayLike) -> Tensor:  # noqa: A001 - NumPy's name
    """Elementwise rounding to the nearest integer, halves to even (no gradient).

    >>> import tapegrad as tg
    >>> tg.round(tg.tensor([-1.5, 0.4, 2.5]))  # halves to even, as NumPy
    tensor([-2.,  0.,  2.], dtype=float64)
    """
    return _round._unary(x)


_trunc = _rounding("trunc")


def trunc(x: ArrayLike) -> Tensor:
    """Elementwise rounding towards zero (no gradient).

    >>> import tapegrad as tg
    >>> tg.trunc(tg.tensor([-1.5, 0.4, 2.5]))
    tensor([-1.,  0.,  2.], dtype=float64)
    """
    return _trunc._unary(x)


def fix(x: ArrayLike) -> Tensor:
    """Elementwise rounding towards zero, as ``np.fix`` (no gradient).

    >>> import tapegrad as tg
    >>> tg.fix(tg.tensor([-1.5, 0.4, 2.5]))
    tensor([-1.,  0.,  2.], dtype=float64)
    """
    return _trunc._unary(x)


_spacing = Primitive(
    "spacing",
    lambda xp, x: backend.via_numpy(np.spacing, xp, x),
    differentiable=False,
)


def spacing(x: ArrayLike) -> Tensor:
    """Elementwise distance to the next larger-magnitude float (piecewise constant).

    >>> import tapegrad as tg
    >>> tg.spacing(tg.tensor([1.0])).item() == 2.0**-52
    True
    """
    return _spacing._unary(x)


_floor_divide = Primitive(
    "floor_divide",
    lambda xp, x, y: xp.floor_divide(x, y),
    differentiable=False,
    explain=explain_broadcast,
)


def floor_divide(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x // y``, rounded down (piecewise constant: no gradient).

    >>> import tapegrad as tg
    >>> tg.floor_divide(tg.tensor(-7.0), 2.0).item()
    -4.0
    """
    return _floor_divide._binary(x, y)
