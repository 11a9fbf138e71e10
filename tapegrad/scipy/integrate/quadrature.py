"""The quadratures of sampled functions: trapezoid cumulative_trapezoid simpson
cumulative_simpson romb, SciPy's rules composed from tapegrad ops (slices, sums, products),
so they differentiate in ``y``, ``x`` and ``dx`` to every order.

- ``simpson`` (SciPy >= 1.11): composite Simpson over pairs of intervals, each pair
  ``h₀, h₁`` weighing ``(y₀ (2 - h₁/h₀) + y₁ (h₀+h₁)²/(h₀h₁) + y₂ (2 - h₀/h₁)) (h₀+h₁)/6``;
  for an even number of samples the last interval is the integral of the parabola through
  the last three samples (Cartwright's correction), ``α y₋₁ + β y₋₂ - η y₋₃``, with
  ``α = h₂(2h₂ + 3h₁)/(6(h₁+h₂))``, ``β = h₂(h₂ + 3h₁)/(6h₁)``, ``η = h₂³/(6h₁(h₁+h₂))``.
- ``cumulative_simpson``: each interval is integrated under the parabola through it and a
  neighbour (``h₁``, ``h₂`` its and the next interval's lengths), over the first interval
  of three points ``h₁/6 ((3 - h₁/H) f₁ + (h₁ + 3h₂)/h₂ f₂ - h₁²/(H h₂) f₃)``, ``H = h₁ + h₂``,
  and over the second the mirror image; intervals 0, 2, 4, ... use the first formula on
  the points from their left end, the others (and the last) the second one.
- ``romb``: Richardson extrapolation of the trapezoid rule on 2^k + 1 samples.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.integrate

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import normalize_axis, raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = ["cumulative_simpson", "cumulative_trapezoid", "romb", "simpson", "trapezoid"]

ArrayLike = Any


def _tensor(v: Any) -> Tensor:
    """``v`` as a floating Tensor (integers and booleans as float64, as SciPy)."""
    t = v if isinstance(v, Tensor) else ops.asarray(np.asarray(v) if isinstance(v, list) else v)
    dtype = raw(t).dtype
    if not (backend.is_real_floating(dtype) or backend.is_complex(dtype)):
        t = ops.astype(t, np.float64)
    return t


def _slice(v: Any, axis: int, start: int | None, stop: int | None, step: int | None = None) -> Any:
    return ops.getitem(v, (slice(None),) * axis + (slice(start, stop, step),))


def _axis(op: str, y: Tensor, axis: int) -> int:
    if len(shape_of(y)) == 0:
        raise ValueError(f"{op}: y must have at least one axis, got a scalar")
    return normalize_axis(axis, len(shape_of(y)), op)[0]


def _along(v: Tensor, axis: int, ndim: int) -> Tensor:
    """A 1-d ``v`` shaped to broadcast along ``axis`` of an ``ndim``-d array."""
    shape = [1] * ndim
    shape[axis] = shape_of(v)[0]
    return ops.reshape(v, tuple(shape))


def _spacings(op: str, y: Tensor, x: Any, axis: int) -> Tensor:
    """The intervals ``diff(x)`` along ``axis``: ``x`` 1-d (of y's length along axis) or of
    y's shape."""
    x = _tensor(x)
    n, ndim = shape_of(y)[axis], len(shape_of(y))
    if len(shape_of(x)) == 1:
        if shape_of(x)[0] != n:
            raise ValueError(
                f"{op}: if given, length of x along axis must be the same as y "
                f"(x {shape_of(x)}, y {shape_of(y)} along axis {axis})"
            )
        return _along(ops.diff(x), axis, ndim)
    if len(shape_of(x)) != ndim:
        raise ValueError(
            f"{op}: if given, shape of x must be 1-D or the same as y, got x {shape_of(x)} "
            f"and y {shape_of(y)}"
        )
    if shape_of(x)[axis] != n:
        raise ValueError(
            f"{op}: if given, length of x along axis must be the same as y "
            f"(x {shape_of(x)}, y {shape_of(y)} along axis {axis})"
        )
    return ops.diff(x, axis=axis)


def _trapezoids(op: str, y: Any, x: Any, dx: Any, axis: int) -> tuple[Tensor, int]:
    """Each interval's trapezoid along ``axis`` (normalized, returned)."""
    y = _tensor(y)
    axis = _axis(op, y, axis)
    d = dx if x is None else _spacings(op, y, x, axis)
    return d * (_slice(y, axis, 1, None) + _slice(y, axis, None, -1)) / 2.0, axis


@plain_calls_scipy("integrate")
def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: Any = 1.0, axis: int = -1) -> Tensor:
    """The integral of the samples ``y`` along ``axis`` by the trapezoid rule, at the points
    ``x`` (1-d, or of y's shape) or ``dx`` apart, as ``scipy.integrate.trapezoid``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.integrate import trapezoid
    >>> trapezoid(tg.tensor([1.0, 2.0, 3.0]), dx=0.5).item()
    2.0
    """
    pieces, axis = _trapezoids("trapezoid", y, x, dx, axis)
    return ops.sum(pieces, axis=axis)


@plain_calls_scipy("integrate")
def cumulative_trapezoid(
    y: ArrayLike,
    x: ArrayLike | None = None,
    dx: Any = 1.0,
    axis: int = -1,
    initial: Any = None,
) -> Tensor:
    """The running integral by the trapezoid rule, as ``scipy.integrate.cumulative_trapezoid``:
    one value fewer than ``y`` along ``axis``, unless ``initial`` (0, as SciPy takes no
    other value) is put first.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.integrate import cumulative_trapezoid
    >>> cumulative_trapezoid(tg.tensor([1.0, 2.0, 3.0]), initial=0.0).numpy()
    array([0. , 1.5, 4. ])
    """
    pieces, axis = _trapezoids("cumulative_trapezoid", y, x, dx, axis)
    result = ops.cumsum(pieces, axis=axis)
    if initial is None:
        return result
    if not (np.isscalar(initial) or (isinstance(initial, Tensor) and initial.ndim == 0)):
        raise ValueError("cumulative_trapezoid: `initial` parameter should be a scalar.")
    if bool(backend.to_host(raw(initial)) != 0):  # SciPy >= 1.14 takes no other value
        raise ValueError(f"cumulative_trapezoid: `initial` must be `None` or `0`, got {initial!r}")
    return _prepend(result, initial, axis)


def _prepend(result: Tensor, initial: Any, axis: int) -> Tensor:
    shape = list(shape_of(result))
    shape[axis] = 1
    dtype = backend.dtype_name(raw(result).dtype)
    first = ops.broadcast_to(ops.astype(ops.asarray(initial, like=result), dtype), tuple(shape))
    return ops.concatenate([first, result], axis=axis)


def _simpson_pairs(y: Tensor, h: Any, axis: int, stop: int, uneven: bool) -> Tensor:
    """Composite Simpson over the pairs of intervals starting at samples 0, 2, .. < ``stop``;
    ``h``: the intervals along ``axis`` (``uneven``) or their common length ``dx``."""
    y0 = _slice(y, axis, 0, stop, 2)
    y1 = _slice(y, axis, 1, stop + 1, 2)
    y2 = _slice(y, axis, 2, stop + 2, 2)
    if not uneven:
        return ops.sum(y0 + 4.0 * y1 + y2, axis=axis) * h / 3.0
    h0, h1 = _slice(h, axis, 0, stop, 2), _slice(h, axis, 1, stop + 1, 2)
    hsum, ratio = h0 + h1, h0 / h1
    weighted = y0 * (2.0 - 1.0 / ratio) + y1 * (hsum * hsum / (h0 * h1)) + y2 * (2.0 - ratio)
    return ops.sum(hsum / 6.0 * weighted, axis=axis)


@plain_calls_scipy("integrate")
def simpson(y: ArrayLike, x: ArrayLike | None = None, *, dx: Any = 1.0, axis: int = -1) -> Tensor:
    """The integral of the samples ``y`` along ``axis`` by Simpson's rule, as
    ``scipy.integrate.simpson`` (SciPy >= 1.11): for an even number of samples the last
    interval is integrated under the parabola through the last three (Cartwright's
    correction); two samples: the trapezoid.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.integrate import simpson
    >>> x = tg.tensor([0.0, 1.0, 3.0, 4.0])
    >>> round(simpson(x**2, x=x).item(), 12)  # exact for parabolas: 4**3 / 3
    21.333333333333
    """
    y = _tensor(y)
    axis = _axis("simpson", y, axis)
    n = shape_of(y)[axis]
    uneven = x is not None
    h = _spacings("simpson", y, x, axis) if uneven else dx
    if n % 2 == 1:
        return _simpson_pairs(y, h, axis, n - 2, uneven)
    if n == 2:
        last = _slice(h, axis, -1, None) if uneven else h
        return ops.sum(0.5 * last * (_slice(y, axis, 1, 2) + _slice(y, axis, 0, 1)), axis=axis)
    result = _simpson_pairs(y, h, axis, n - 3, uneven)
    if uneven:
        h1, h2 = (
            ops.squeeze(_slice(h, axis, -2, -1), axis),
            ops.squeeze(_slice(h, axis, -1, None), axis),
        )
    else:
        h1 = h2 = h
    alpha = (2.0 * h2 * h2 + 3.0 * h2 * h1) / (6.0 * (h1 + h2))
    beta = (h2 * h2 + 3.0 * h2 * h1) / (6.0 * h1)
    eta = h2 * h2 * h2 / (6.0 * h1 * (h1 + h2))

    def at(k: int) -> Any:
        return ops.squeeze(_slice(y, axis, k, k + 1 if k != -1 else None), axis)

    return result + alpha * at(-1) + beta * at(-2) - eta * at(-3)


@plain_calls_scipy("integrate")
def cumulative_simpson(
    y: ArrayLike,
    *,
    x: ArrayLike | None = None,
    dx: Any = 1.0,
    axis: int = -1,
    initial: Any = None,
) -> Tensor:
    """The running integral by Simpson's rule, as ``scipy.integrate.cumulative_simpson``:
    each interval under the parabola through it and a neighbouring sample; fewer than three
    samples: the trapezoid rule. ``dx`` and ``initial``: scalars or arrays of y's shape with
    one point along ``axis``; ``initial`` is put first and added to the rest.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.integrate import cumulative_simpson
    >>> cumulative_simpson(tg.tensor([0.0, 1.0, 4.0, 9.0])).numpy().round(6)  # x**2
    array([0.333333, 2.666667, 9.      ])
    """
    op = "cumulative_simpson"
    y = _tensor(y)
    axis = _axis(op, y, axis)
    shape, n = shape_of(y), shape_of(y)[axis]
    one_point = tuple(1 if k == axis else size for k, size in enumerate(shape))
    if x is not None:
        xt = _tensor(x)
        if not (len(shape_of(xt)) == 1 and shape_of(xt)[0] == n) and tuple(shape_of(xt)) != shape:
            raise ValueError(
                f"{op}: if given, shape of `x` must be the same as `y` or 1-D with the same "
                f"length as `y` along `axis` (x {shape_of(xt)}, y {shape})"
            )
        h = _spacings(op, y, xt, axis)
        if bool(np.any(backend.to_host(raw(h)) <= 0)):
            raise ValueError(f"{op}: input x must be strictly increasing.")
    else:
        d = _tensor(dx)
        if len(shape_of(d)) != 0 and tuple(shape_of(d)) != one_point:
            raise ValueError(
                f"{op}: if provided, dx must either be a scalar or have the same shape as y "
                f"but with only 1 point along axis (dx {shape_of(d)}, y {shape})"
            )
        h = d
    if n < 3:
        result = cumulative_trapezoid(y, xt if x is not None else None, dx=h, axis=axis)
    else:
        if len(shape_of(h)) == 0 or shape_of(h)[axis] != n - 1:
            h = ops.broadcast_to(h, tuple(n - 1 if k == axis else s for k, s in enumerate(shape)))
        result = ops.cumsum(_simpson_intervals(y, h, axis, n), axis=axis)
    if initial is None:
        return result
    start = _tensor(initial)
    if len(shape_of(start)) != 0 and tuple(shape_of(start)) != one_point:
        raise ValueError(
            f"{op}: if provided, `initial` must either be a scalar or have the same shape as "
            f"`y` but with only 1 point along `axis` (initial {shape_of(start)}, y {shape})"
        )
    return _prepend(result + start, start, axis)


def _simpson_intervals(y: Tensor, h: Tensor, axis: int, n: int) -> Tensor:
    """Each of the n - 1 intervals' integral under its parabola (see the module's text)."""
    f1, f2, f3 = (_slice(y, axis, k, n - 2 + k) for k in range(3))
    h1, h2 = _slice(h, axis, 0, n - 2), _slice(h, axis, 1, n - 1)
    whole = h1 + h2
    first = h1 / 6.0 * ((3.0 - h1 / whole) * f1 + (h1 + 3.0 * h2) / h2 * f2
                        - h1 * h1 / (whole * h2) * f3)  # fmt: skip
    second = h2 / 6.0 * ((3.0 - h2 / whole) * f3 + (h2 + 3.0 * h1) / h1 * f2
                         - h2 * h2 / (whole * h1) * f1)  # fmt: skip
    # interval j: first[j] for even j, second[j - 1] for odd j, and the last one second[-1]
    pick = [j if j % 2 == 0 else n - 2 + j - 1 for j in range(n - 1)]
    pick[-1] = 2 * (n - 2) - 1
    return ops.take(ops.concatenate([first, second], axis=axis), np.array(pick), axis=axis)


@plain_calls_scipy("integrate")
def romb(y: ArrayLike, dx: Any = 1.0, axis: int = -1, show: bool = False) -> Tensor:
    """Romberg integration of 2^k + 1 equally spaced samples ``dx`` apart along ``axis``,
    as ``scipy.integrate.romb``: the trapezoid rule on 1, 2, 4, .. intervals, extrapolated.
    ``show`` prints SciPy's table of the extrapolations.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.integrate import romb
    >>> round(romb(tg.tensor([0.0, 1.0, 16.0, 81.0, 256.0])).item(), 12)  # x**4: exact
    204.8
    """
    y = _tensor(y)
    axis = _axis("romb", y, axis)
    intervals = shape_of(y)[axis] - 1
    k = max(intervals - 1, 0).bit_length()
    if intervals < 1 or 1 << k != intervals:
        raise ValueError(
            f"romb: number of samples must be one plus a non-negative power of 2, got "
            f"{intervals + 1} along axis {axis}"
        )
    h = intervals * (dx if isinstance(dx, Tensor) else float(dx))
    rows = [[(_slice(y, axis, 0, 1) + _slice(y, axis, -1, None)) / 2.0 * h]]
    step = intervals
    for i in range(1, k + 1):
        new = _slice(y, axis, step // 2, intervals, step)
        step //= 2
        row = [0.5 * (rows[-1][0] + h * ops.sum(new, axis=axis, keepdims=True))]
        for j in range(1, i + 1):
            prev = row[j - 1]
            row.append(prev + (prev - rows[-1][j - 1]) / ((1 << (2 * j)) - 1))
        rows.append(row)
        h = h / 2.0
    if show:  # SciPy's printout of the same table, from the values
        host = backend.to_host(raw(y))
        scipy.integrate.romb(host, backend.to_host(raw(dx)) if isinstance(dx, Tensor) else dx,
                             axis=axis, show=True)  # fmt: skip
    return ops.squeeze(rows[-1][-1], axis)
