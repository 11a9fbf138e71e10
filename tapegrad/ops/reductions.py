"""Reductions: sum mean prod max min var std logsumexp cumsum.

``axis`` is normalized to a sorted tuple before the primitive runs, so every
rule sees the same form. :func:`expand_reduced` is the adjoint of reducing:
it puts the reduced axes back and broadcasts. Complex values: as NumPy, ``var`` and
``std`` are real (they use ``|x - mean|**2``); max, min and logsumexp order values, so
they have no complex gradient.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.record import is_recorded
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, conjugated, normalize_axis, raw, shape_of

ArrayLike = Any
Axis = int | tuple[int, ...] | None


def expand_reduced(g: Any, shape: tuple[int, ...], axes: tuple[int, ...], keepdims: bool) -> Any:
    """Broadcast a reduced cotangent back to ``shape`` (a view, as the op would give, of a
    raw NumPy array: the sweep's raw mode, where nothing records)."""
    if type(g) is np.ndarray:
        if not keepdims:
            g = g.reshape(tuple(1 if i in axes else n for i, n in enumerate(shape)))
        return np.broadcast_to(g, shape)
    if not keepdims:
        g = ops.reshape(g, tuple(1 if i in axes else n for i, n in enumerate(shape)))
    return ops.broadcast_to(g, shape)


def peak_of(xp: Any, x: Any, axis: tuple[int, ...]) -> Any:
    """``max(x, axis, keepdims=True)``: the stabilizer of logsumexp and softmax. NumPy's
    reduction along a short last axis of many rows (10 classes of a batch) is slow (13 us
    on (256, 10) float32); the rows as columns of a transposed copy reduce along axis 0,
    row against row, in 2 us. A maximum is exact: the same values either way."""
    if (
        xp is np
        and type(x) is np.ndarray
        and x.ndim >= 2
        and axis == (x.ndim - 1,)
        and x.shape[-1] <= _SHORT_ROW
        and x.size >= _SHORT_ROW_MIN_SIZE
        and x.dtype.kind == "f"
    ):
        rows = np.ascontiguousarray(x.reshape(-1, x.shape[-1]).T)
        return np.maximum.reduce(rows, axis=0).reshape(*x.shape[:-1], 1)
    if xp is np and type(x) is np.ndarray:
        return np.maximum.reduce(x, axis=axis, keepdims=True)  # np.max without its frames
    return xp.max(x, axis=axis, keepdims=True)


def stable_peak(xp: Any, x: Any, axis: tuple[int, ...]) -> Any:
    """:func:`peak_of`, with 0 where a slice has no finite maximum: what logsumexp and
    softmax subtract, so that a slice of -inf stays -inf rather than NaN."""
    top = peak_of(xp, x, axis)
    if xp is np and bool(np.logical_and.reduce(np.isfinite(top), axis=None)):
        return top  # (the common case: no pass of where)
    return xp.where(xp.isfinite(top), top, 0.0)


# A last axis this short, in an array this large, is reduced the transposed way (measured
# on float32: faster for 2 to 48 columns in 256 rows or more, slower for 8 rows).
_SHORT_ROW, _SHORT_ROW_MIN_SIZE = 48, 512


def _ndim(x: Any) -> int:
    return len(shape_of(x))


def _count(shape: tuple[int, ...], axes: tuple[int, ...]) -> int:
    return math.prod(shape[a] for a in axes)


_sum = Primitive(
    "sum",
    lambda xp, x, axis, keepdims: xp.sum(x, axis=axis, keepdims=keepdims),
    complex_rules=True,
).defvjp(lambda g, ans, x, axis, keepdims: expand_reduced(g, shape_of(x), axis, keepdims))
_sum.saves()


def sum(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Sum over ``axis`` (all axes when None).

    >>> import tapegrad as tg
    >>> tg.sum(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    tensor([4., 6.], dtype=float64)
    >>> tg.grad(tg.sum)(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # of the whole
    tensor([[1., 1.],
            [1., 1.]], dtype=float64)
    """
    return _sum(x, axis=normalize_axis(axis, _ndim(x), "sum"), keepdims=keepdims)


def mean(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """Arithmetic mean over ``axis``.

    >>> import tapegrad as tg
    >>> tg.mean(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    tensor([2., 3.], dtype=float64)
    >>> tg.grad(tg.mean)(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # of the whole
    tensor([[0.25, 0.25],
            [0.25, 0.25]], dtype=float64)
    """
    axes = normalize_axis(axis, _ndim(x), "mean")
    return _sum(x, axis=axes, keepdims=keepdims) / _count(shape_of(x), axes)


def var(x: ArrayLike, axis: Axis = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Variance over ``axis`` with ``ddof`` delta degrees of freedom.

    >>> import tapegrad as tg
    >>> tg.var(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    tensor([1., 1.], dtype=float64)
    >>> tg.grad(tg.var)(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # of the whole
    tensor([[-0.75, -0.25],
            [ 0.25,  0.75]], dtype=float64)
    """
    axes = normalize_axis(axis, _ndim(x), "var")
    deviation = x - _sum(x, axis=axes, keepdims=True) / _count(shape_of(x), axes)
    squares = _sum(squared_magnitude(deviation), axis=axes, keepdims=keepdims)
    return squares / (_count(shape_of(x), axes) - ddof)


def squared_magnitude(d: Tensor) -> Tensor:
    """``|d|**2``: ``d * d`` for real ``d``, the real ``d * conj(d)`` for complex ``d`` (as
    NumPy's variances take it)."""
    if backend.is_complex(d.dtype):
        return ops.real(d * ops.conj(d))
    return d * d


def std(x: ArrayLike, axis: Axis = None, ddof: int = 0, keepdims: bool = False) -> Tensor:
    """Standard deviation over ``axis``; its gradient is NaN (0/0) where it is 0, as in JAX.

    >>> import tapegrad as tg
    >>> tg.std(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    tensor([1., 1.], dtype=float64)
    >>> tg.grad(tg.std)(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # of the whole
    tensor([[-0.3354102, -0.1118034],
            [ 0.1118034,  0.3354102]], dtype=float64)
    """
    axes = normalize_axis(axis, _ndim(x), "std")  # errors name std, not var
    return ops.sqrt(var(x, axis=axes, ddof=ddof, keepdims=keepdims))


def _product_of_others(xp: Any, x: Any, axes: tuple[int, ...]) -> Any:
    """For each element, the product of the other elements of its reduced slice.

    Exclusive cumulative products from both ends: exact even where x has zeros.
    """
    kept = [a for a in range(x.ndim) if a not in axes]
    moved = xp.permute_dims(x, (*kept, *axes))
    flat = xp.reshape(moved, (*[x.shape[a] for a in kept], -1))
    ones = xp.ones((*flat.shape[:-1], 1), dtype=x.dtype)
    left = xp.cumulative_prod(xp.concat([ones, flat[..., :-1]], axis=-1), axis=-1)
    right = xp.flip(
        xp.cumulative_prod(xp.concat([ones, xp.flip(flat, axis=-1)[..., :-1]], axis=-1), axis=-1),
        axis=-1,
    )
    others = xp.reshape(left * right, moved.shape)
    inverse = [0] * x.ndim
    for position, a in enumerate((*kept, *axes)):
        inverse[a] = position
    return xp.permute_dims(others, tuple(inverse))


def _prod_vjp(g: Tensor, ans: Tensor, x: Any, axis: tuple[int, ...], keepdims: bool) -> Tensor:
    shape = shape_of(x)
    g_full = expand_reduced(g, shape, axis, keepdims)
    data = raw(x)
    xp = backend.namespace(data)
    if bool(xp.all(data != 0)):
        # d prod / d x_i = prod / x_i, differentiable again.
        return g_full * conjugated(expand_reduced(ans, shape, axis, keepdims) / x)
    # The product of the others is a constant here: exact in g (so jvp works), not in x.
    if is_recorded(x):
        raise NotImplementedError(
            "prod: the second derivative at inputs containing zeros is not implemented"
        )
    others = _product_of_others(xp, data, axis)
    if backend.is_complex(others.dtype):
        others = xp.conj(others)
    if type(g_full) is np.ndarray:  # raw mode: a raw array, as the branch above gives
        return g_full * others  # (tg.compile's verified replay relies on the same type)
    return g_full * Tensor(others)


_prod = Primitive(
    "prod",
    lambda xp, x, axis, keepdims: xp.prod(x, axis=axis, keepdims=keepdims),
    complex_rules=True,
).defvjp(_prod_vjp)


def prod(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """Product over ``axis``; exact gradients also where ``x`` has zeros.

    >>> import tapegrad as tg
    >>> tg.prod(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    tensor([3., 8.], dtype=float64)
    >>> tg.grad(tg.prod)(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # of the whole
    tensor([[24., 12.],
            [ 8.,  6.]], dtype=float64)
    """
    return _prod(x, axis=normalize_axis(axis, _ndim(x), "prod"), keepdims=keepdims)


def _extremum_vjp(g: Tensor, ans: Tensor, x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    # The gradient goes to the elements equal to the extremum, split evenly among ties.
    shape = shape_of(x)
    hits = ops.astype(ops.equal(x, expand_reduced(ans, shape, axis, keepdims)), ans.dtype)
    share = hits / ops.sum(hits, axis=axis, keepdims=True)
    return expand_reduced(g, shape, axis, keepdims) * share


_max = Primitive(
    "max",
    lambda xp, x, axis, keepdims: xp.max(x, axis=axis, keepdims=keepdims),
    # np.max's own reduce, without its two Python frames: the same values
    numpy=lambda x, axis, keepdims: np.maximum.reduce(x, axis=axis, keepdims=keepdims),
    complex_rules=False,
).defvjp(_extremum_vjp)


def max(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Maximum over ``axis``; tied maxima share the gradient evenly.

    >>> import tapegrad as tg
    >>> tg.max(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    tensor([3., 4.], dtype=float64)
    >>> tg.grad(tg.max)(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # of the whole
    tensor([[0., 0.],
            [0., 1.]], dtype=float64)
    """
    return _max(x, axis=normalize_axis(axis, _ndim(x), "max"), keepdims=keepdims)


_min = Primitive(
    "min",
    lambda xp, x, axis, keepdims: xp.min(x, axis=axis, keepdims=keepdims),
    numpy=lambda x, axis, keepdims: np.minimum.reduce(x, axis=axis, keepdims=keepdims),
    complex_rules=False,
).defvjp(_extremum_vjp)


def min(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    """Minimum over ``axis``; tied minima share the gradient evenly.

    >>> import tapegrad as tg
    >>> tg.min(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    tensor([1., 2.], dtype=float64)
    >>> tg.grad(tg.min)(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # of the whole
    tensor([[1., 0.],
            [0., 0.]], dtype=float64)
    """
    return _min(x, axis=normalize_axis(axis, _ndim(x), "min"), keepdims=keepdims)


def _logsumexp_forward(xp: Any, x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    top = stable_peak(xp, x, axis)
    out = xp.log(xp.sum(xp.exp(x - top), axis=axis, keepdims=True)) + top
    return out if keepdims else xp.squeeze(out, axis=axis)


def _logsumexp_vjp(g: Tensor, ans: Tensor, x: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    # d logsumexp / dx = softmax(x) = exp(x - logsumexp(x)). Two cases need softmax the
    # long way, exp(x - peak) / sum(exp(x - peak)): a slice that is -inf throughout (fully
    # masked; its gradient is 0, not exp(-inf + inf) = NaN), and |logsumexp| >= 2**20,
    # where rounding logsumexp to a multiple of its ulp (>= 1e-10 there) shows in
    # exp(x - ans) (at 1e15 it gave 0.47 instead of 1/2, at 1e308 1 instead of 1/2).
    shape = shape_of(x)
    if type(g) is np.ndarray and type(x) is np.ndarray:  # raw mode: the same, in NumPy
        if not keepdims:  # reduced axes back as 1s: operands broadcast, no broadcast_to
            kept = tuple(1 if i in axis else n for i, n in enumerate(shape))
            g, ans = g.reshape(kept), ans.reshape(kept)
        if ans.size and not np.abs(ans).max() < _ROUNDS_TO_PEAK:
            peak = np.max(x, axis=axis, keepdims=True)
            e = np.exp(x - np.where(peak == -math.inf, 0.0, peak))
            total = np.sum(e, axis=axis, keepdims=True)
            return g * (e / np.where(total == 0.0, 1.0, total))
        return g * np.exp(x - ans)
    g = expand_reduced(g, shape, axis, keepdims)
    values = raw(ans)
    if values.size and not backend.namespace(values).all(abs(values) < _ROUNDS_TO_PEAK):
        peak = ops.stop_gradient(ops.max(x, axis=axis, keepdims=True))
        e = ops.exp(x - ops.where(ops.equal(peak, -math.inf), 0.0, peak))
        total = ops.sum(e, axis=axis, keepdims=True)
        return g * (e / ops.where(ops.equal(total, 0.0), 1.0, total))
    return g * ops.exp(x - expand_reduced(ans, shape, axis, keepdims))


_ROUNDS_TO_PEAK = 2.0**20


_logsumexp = Primitive("logsumexp", _logsumexp_forward, complex_rules=False).defvjp(_logsumexp_vjp)


def logsumexp(x: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Tensor:
    """``log(sum(exp(x)))`` over ``axis``, computed without overflow.

    >>> import tapegrad as tg
    >>> tg.logsumexp(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    tensor([3.12692801, 4.12692801], dtype=float64)
    >>> tg.grad(tg.logsumexp)(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))  # of the whole
    tensor([[0.0320586 , 0.08714432],
            [0.23688282, 0.64391426]], dtype=float64)
    """
    return _logsumexp(x, axis=normalize_axis(axis, _ndim(x), "logsumexp"), keepdims=keepdims)


# The adjoint of a cumulative sum is a reversed cumulative sum.
_cumsum = Primitive(
    "cumsum", lambda xp, x, axis: xp.cumulative_sum(x, axis=axis), complex_rules=True
).defvjp(lambda g, ans, x, axis: ops.flip(_cumsum(ops.flip(g, axis=axis), axis=axis), axis=axis))


def cumsum(x: ArrayLike, axis: int | None = None) -> Tensor:
    """Cumulative sum along ``axis`` (over the flattened input when None).

    >>> import tapegrad as tg
    >>> tg.cumsum(tg.tensor([1.0, 2.0, 4.0]))
    tensor([1., 3., 7.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.cumsum(x)))(tg.tensor([1.0, 2.0, 4.0]))  # the gradient
    tensor([3., 2., 1.], dtype=float64)
    """
    if axis is None:
        return _cumsum(ops.reshape(x, (-1,)), axis=0)
    (axis,) = normalize_axis(axis, _ndim(x), "cumsum")
    return _cumsum(x, axis=axis)
