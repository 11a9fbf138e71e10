"""Running products and differences: cumprod cumulative_sum cumulative_prod nancumsum
nancumprod diff ediff1d gradient trapezoid.

``cumprod`` is a primitive; the others are built from cumsum, cumprod, slices and
elementwise arithmetic, so their gradients (any order) come from those rules.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.record import is_recorded
from tapegrad.core.tensor import Tensor, note_escape
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import Primitive, conjugated, normalize_axis, raw, shape_of

ArrayLike = Any


def _reversed_cumsum(g: Any, axis: int) -> Any:
    return ops.flip(ops.cumsum(ops.flip(g, axis=axis), axis=axis), axis=axis)


def _cumprod_vjp(g: Any, ans: Any, x: Any, axis: int) -> Any:
    # d P_j / d x_i = P_j / x_i for j >= i, so the cotangent of x_i is
    # sum_{j >= i} g_j conj(P_j / x_i) (conj: docs/complex.md), differentiable again.
    data = raw(x)
    xp = backend.namespace(data)
    if bool(xp.all(data != 0)):
        return _reversed_cumsum(g * conjugated(ans), axis) / conjugated(x)
    # With zeros: grad_i = conj(P_{i-1}) S_i, where S_i = g_i + conj(x_{i+1}) S_{i+1} runs
    # backwards.
    # The prefix products are constants here: exact in g (so jvp works), not in x.
    if is_recorded(x):
        raise NotImplementedError(
            "cumprod: the second derivative at inputs containing zeros is not implemented"
        )
    values = xp.moveaxis(data, axis, 0)
    cotangent = xp.moveaxis(raw(g), axis, 0)
    products = xp.moveaxis(raw(ans), axis, 0)
    n = values.shape[0]
    suffix = [cotangent[n - 1, ...]]
    for i in range(n - 2, -1, -1):
        suffix.append(cotangent[i, ...] + xp.conj(values[i + 1, ...]) * suffix[-1])
    suffix = xp.stack(suffix[::-1], axis=0)
    prefix = xp.concat([xp.ones_like(products[:1, ...]), products[:-1, ...]], axis=0)
    grad = xp.moveaxis(xp.conj(prefix) * suffix, 0, axis)
    return grad if type(g) is np.ndarray else Tensor(grad)


_cumprod = Primitive(
    "cumprod", lambda xp, x, axis: xp.cumulative_prod(x, axis=axis), complex_rules=True
).defvjp(_cumprod_vjp)


def cumprod(x: ArrayLike, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Cumulative product along ``axis`` (of the flattened input when None); exact
    gradients also where ``x`` has zeros.

    >>> import tapegrad as tg
    >>> tg.cumprod(tg.tensor([1.0, 2.0, 3.0])).numpy()
    array([1., 2., 6.])
    """
    if dtype is not None:
        x = ops.astype(x, dtype)
    if axis is None:
        return _cumprod(ops.reshape(x, (-1,)), axis=0)
    (axis,) = normalize_axis(axis, len(shape_of(x)), "cumprod")
    return _cumprod(x, axis=axis)


def _cumulative(
    running: Any, identity: float, x: ArrayLike, axis: int | None, dtype: Any,
    include_initial: bool, op: str,
) -> Tensor:  # fmt: skip
    shape = shape_of(x)
    if axis is None:
        if len(shape) > 1:
            raise ValueError(f"{op}: axis must be given for inputs of more than one dimension")
        axis = 0
    if not shape:
        raise ValueError(f"{op}: the input must be at least 1-d")
    out = running(x, axis=axis, dtype=dtype) if dtype is not None else running(x, axis=axis)
    if include_initial:
        (axis,) = normalize_axis(axis, len(shape), op)
        edge = tuple(1 if d == axis else n for d, n in enumerate(shape))
        start = ops.full(edge, identity, dtype=out.dtype, like=out)
        out = ops.concatenate([start, out], axis=axis)
    return out


def cumulative_sum(
    x: ArrayLike, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Tensor:
    """The array API's cumulative sum: ``axis`` needed beyond 1-d; ``include_initial``
    starts with a 0.

    >>> import tapegrad as tg
    >>> tg.cumulative_sum(tg.tensor([1.0, 2.0, 4.0]), include_initial=True)
    tensor([0., 1., 3., 7.], dtype=float64)
    """
    running = (
        ops.cumsum if dtype is None else lambda a, axis: ops.cumsum(ops.astype(a, dtype), axis)
    )
    return _cumulative(running, 0, x, axis, None, include_initial, "cumulative_sum")


def cumulative_prod(
    x: ArrayLike, *, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> Tensor:
    """The array API's cumulative product: ``axis`` needed beyond 1-d; ``include_initial``
    starts with a 1.

    >>> import tapegrad as tg
    >>> tg.cumulative_prod(tg.tensor([1.0, 2.0, 4.0]))
    tensor([1., 2., 8.], dtype=float64)
    """
    return _cumulative(cumprod, 1, x, axis, dtype, include_initial, "cumulative_prod")


def nancumsum(x: ArrayLike, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Cumulative sum with NaN counted as 0.

    >>> import tapegrad as tg
    >>> tg.nancumsum(tg.tensor([1.0, float("nan"), 3.0]))
    tensor([1., 1., 4.], dtype=float64)
    """
    x = ops.where(ops.isnan(x), 0, x)
    return ops.cumsum(x if dtype is None else ops.astype(x, dtype), axis=axis)


def nancumprod(x: ArrayLike, axis: int | None = None, dtype: Any = None) -> Tensor:
    """Cumulative product with NaN counted as 1.

    >>> import tapegrad as tg
    >>> tg.nancumprod(tg.tensor([1.0, float("nan"), 3.0]))
    tensor([1., 1., 3.], dtype=float64)
    """
    return cumprod(ops.where(ops.isnan(x), 1, x), axis=axis, dtype=dtype)


_NO_VALUE = object()


def _edge(value: Any, shape: tuple[int, ...], axis: int, like: Any) -> Any:
    """``prepend``/``append`` of diff: a 0-d value broadcast to one slice along ``axis``."""
    if not shape_of(value):
        edge = tuple(1 if d == axis else n for d, n in enumerate(shape))
        if isinstance(value, Tensor):
            return ops.broadcast_to(value, edge)
        return ops.full(edge, value, like=like, dtype=np.result_type(value))
    return value


def diff(
    x: ArrayLike, n: int = 1, axis: int = -1, prepend: Any = _NO_VALUE, append: Any = _NO_VALUE
) -> Tensor:
    """The ``n``-th discrete difference along ``axis``: ``x[1:] - x[:-1]``, repeated.

    >>> import tapegrad as tg
    >>> tg.diff(tg.tensor([1.0, 4.0, 9.0])).numpy()
    array([3., 5.])
    """
    if n < 0:
        raise ValueError(f"diff: order n must be non-negative, got {n}")
    shape = shape_of(x)
    if not shape:
        raise ValueError("diff: the input must be at least 1-d")
    (axis,) = normalize_axis(axis, len(shape), "diff")
    if prepend is not _NO_VALUE or append is not _NO_VALUE:
        parts = [x]
        if prepend is not _NO_VALUE:
            parts.insert(0, _edge(prepend, shape, axis, x))
        if append is not _NO_VALUE:
            parts.append(_edge(append, shape, axis, x))
        x = ops.concatenate(parts, axis=axis)
    lead = (slice(None),) * axis
    boolean = "bool" in str(getattr(x, "dtype", ""))
    for _ in range(n):
        later, earlier = (
            ops.getitem(x, (*lead, slice(1, None))),
            ops.getitem(x, (*lead, slice(None, -1))),
        )
        x = ops.not_equal(later, earlier) if boolean else later - earlier
    return x if isinstance(x, Tensor) else ops.asarray(x)


def _neighbours(x: ArrayLike, axis: int) -> tuple[Tensor, Tensor]:
    """``(x[1:], x[:-1])`` along ``axis``."""
    lead = (slice(None),) * axis
    return ops.getitem(x, (*lead, slice(1, None))), ops.getitem(x, (*lead, slice(None, -1)))


def ediff1d(ary: ArrayLike, to_end: Any = None, to_begin: Any = None) -> Tensor:
    """Differences of consecutive elements of the flattened input, with optional ends.

    >>> import tapegrad as tg
    >>> tg.ediff1d(tg.tensor([1.0, 2.0, 4.0]), to_begin=0.0)
    tensor([0., 1., 2.], dtype=float64)
    """
    flat = ops.reshape(ary, (-1,))

    def placed(end: Any) -> Any:
        if not isinstance(end, Tensor) and not holds_tensor(end):  # a constant, in its dtype
            dtype = np.dtype(backend.dtype_name(flat.dtype))
            end = ops.asarray(np.asarray(end, dtype=dtype), like=flat)
        return ops.reshape(end, (-1,))

    parts = [diff(flat)]
    if to_begin is not None:
        parts.insert(0, placed(to_begin))
    if to_end is not None:
        parts.append(placed(to_end))
    return parts[0] if len(parts) == 1 else ops.concatenate(parts)


def trapezoid(y: ArrayLike, x: ArrayLike = None, dx: float = 1.0, axis: int = -1) -> Tensor:
    """The integral of ``y`` along ``axis`` by the trapezoidal rule (sample points ``x``,
    else spacing ``dx``); differentiable in ``y`` and ``x``.

    >>> import tapegrad as tg
    >>> tg.trapezoid(tg.tensor([0.0, 1.0, 2.0])).item()
    2.0
    """
    shape = shape_of(y)
    (axis,) = normalize_axis(axis, len(shape), "trapezoid")
    if x is None:
        d = dx
    else:
        d = diff(x, axis=-1 if len(shape_of(x)) == 1 else axis)
        if len(shape_of(x)) == 1:
            d = ops.reshape(d, tuple(-1 if i == axis else 1 for i in range(len(shape))))
    lead = (slice(None),) * axis
    later, earlier = (
        ops.getitem(y, (*lead, slice(1, None))),
        ops.getitem(y, (*lead, slice(None, -1))),
    )
    return ops.sum(d * (later + earlier) / 2.0, axis=axis)


def _spacing(h: Any) -> np.ndarray:
    if isinstance(h, Tensor):
        note_escape(h, "numpy.gradient(spacing)")  # spacings are constants here
        return backend.to_host(h.data)
    return np.asarray(h)


def gradient(f: ArrayLike, *varargs: Any, axis: Any = None, edge_order: int = 1) -> Any:
    """Second-order central differences inside, one-sided differences at the ends, as
    ``np.gradient``; spacings are scalars or coordinate arrays (constants).

    >>> import tapegrad as tg
    >>> tg.gradient(tg.tensor([1.0, 4.0, 9.0, 16.0])).numpy()
    array([3., 4., 6., 7.])
    """
    shape = shape_of(f)
    if axis is None:
        axes: tuple[int, ...] = tuple(range(len(shape)))
    else:  # in the order given: the results follow it
        given = axis if isinstance(axis, (tuple, list)) else (axis,)
        axes = tuple(normalize_axis(a, len(shape), "gradient")[0] for a in given)
    if len(varargs) == 0:
        spacings = [np.asarray(1.0)] * len(axes)
    elif len(varargs) == 1 and np.ndim(_spacing(varargs[0])) == 0:
        spacings = [_spacing(varargs[0])] * len(axes)
    elif len(varargs) == len(axes):
        spacings = [_spacing(h) for h in varargs]
    else:
        raise TypeError(f"gradient: {len(varargs)} spacings given for {len(axes)} axes")
    if edge_order not in (1, 2):
        raise ValueError(f"gradient: edge_order must be 1 or 2, got {edge_order}")
    dtype = getattr(f, "dtype", None)
    if dtype is None or not backend.is_floating(dtype):
        f = ops.astype(f if dtype is not None else np.asarray(f), np.float64)
    out = [_gradient_along(f, a, h, edge_order) for a, h in zip(axes, spacings)]
    return out[0] if len(out) == 1 else tuple(out)


def _gradient_along(f: Any, axis: int, h: np.ndarray, edge_order: int) -> Tensor:
    n = shape_of(f)[axis]
    if n < edge_order + 1:
        raise ValueError(
            f"gradient: axis {axis} has {n} points; edge_order={edge_order} needs at least "
            f"{edge_order + 1}"
        )
    ndim = len(shape_of(f))
    dtype = np.dtype(backend.dtype_name(f.dtype))

    def along(values: np.ndarray) -> Tensor:  # coefficients broadcast along `axis`, next to f
        shaped = values.astype(dtype).reshape([-1 if d == axis else 1 for d in range(ndim)])
        return ops.asarray(shaped, like=f)

    def part(start: int | None, stop: int | None) -> Any:
        return ops.getitem(f, (slice(None),) * axis + (slice(start, stop),))

    def combine(coefficients: Any, parts: Any) -> Any:
        a, b, c = coefficients
        return parts[0] * a + parts[1] * b + parts[2] * c

    if h.ndim == 0:
        dx = np.full(n - 1, float(h))
    else:
        if h.shape != (n,):
            raise ValueError(f"gradient: coordinates of shape {h.shape} do not fit axis length {n}")
        dx = np.diff(h.astype(np.float64))
    uniform = bool(np.all(dx == dx[0]))
    first, last = float(dx[0]), float(dx[-1])  # Python floats: float32 stays float32
    start, end = (part(0, 1), part(1, 2), part(2, 3)), (part(-3, -2), part(-2, -1), part(-1, None))
    pieces = []
    if edge_order == 1:
        pieces.append((part(1, 2) - part(0, 1)) / first)
    elif uniform:
        pieces.append(combine((-1.5 / first, 2.0 / first, -0.5 / first), start))
    else:
        d1, d2 = first, float(dx[1])
        pieces.append(
            combine(
                (-(2 * d1 + d2) / (d1 * (d1 + d2)), (d1 + d2) / (d1 * d2), -d1 / (d2 * (d1 + d2))),
                start,
            )
        )
    if n > 2:
        if uniform:
            pieces.append((part(2, None) - part(None, -2)) / (2.0 * first))
        else:
            d1, d2 = dx[:-1], dx[1:]
            coefficients = (-d2 / (d1 * (d1 + d2)), (d2 - d1) / (d1 * d2), d1 / (d2 * (d1 + d2)))
            middle = (part(None, -2), part(1, -1), part(2, None))
            pieces.append(combine([along(c) for c in coefficients], middle))  # type: ignore[arg-type]
    if edge_order == 1:
        pieces.append((part(-1, None) - part(-2, -1)) / last)
    elif uniform:
        pieces.append(combine((0.5 / last, -2.0 / last, 1.5 / last), end))
    else:
        d1, d2 = float(dx[-2]), last
        pieces.append(
            combine(
                (d2 / (d1 * (d1 + d2)), -(d2 + d1) / (d1 * d2), (2 * d2 + d1) / (d2 * (d1 + d2))),
                end,
            )
        )
    return ops.concatenate(pieces, axis=axis)
