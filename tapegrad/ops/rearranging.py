"""Rearranging without joining: copy ravel moveaxis rollaxis roll rot90 fliplr flipud
matrix_transpose atleast_1d atleast_2d atleast_3d broadcast_arrays unstack resize.

All but ``copy`` are built from the shape primitives and indexing, so their gradients
(any order) come from those rules.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, normalize_axis, shape_of

ArrayLike = Any
Shape = tuple[int, ...]


def _copy_forward(xp: Any, x: Any) -> Any:
    return np.array(x, copy=True) if xp is np else xp.asarray(x, copy=True)


_copy = Primitive("copy", _copy_forward, complex_rules=True).defvjp(lambda g, ans, x: g)


def copy(x: ArrayLike) -> Tensor:
    """A copy of ``x`` (a Variable's value at this moment); the gradient passes unchanged.

    >>> import tapegrad as tg
    >>> v = tg.Variable([1.0, 2.0])
    >>> snapshot = tg.copy(v)
    >>> _ = v.assign([5.0, 6.0])
    >>> snapshot.numpy()
    array([1., 2.])
    """
    return _copy._unary(x)


def ravel(x: ArrayLike, order: str = "C") -> Tensor:
    """``x`` flattened to 1-d, in row-major order (``order="F"``: column-major).

    >>> import tapegrad as tg
    >>> tg.ravel(tg.tensor([[1, 2], [3, 4]]), order="F").numpy()
    array([1, 3, 2, 4])
    """
    if order == "F":
        x = ops.transpose(x)
    elif order not in ("C", "A", "K"):
        raise ValueError(f"ravel: order must be one of 'C', 'F', 'A', 'K', got {order!r}")
    return ops.reshape(x, (-1,))


def moveaxis(x: ArrayLike, source: Any, destination: Any) -> Tensor:
    """Move axes ``source`` to positions ``destination``, keeping the others in order.

    >>> import tapegrad as tg
    >>> tg.moveaxis(tg.zeros((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    ndim = len(shape_of(x))
    sources = _axes_in_order(source, ndim, "moveaxis")
    destinations = _axes_in_order(destination, ndim, "moveaxis")
    if len(sources) != len(destinations):
        raise ValueError(
            f"moveaxis: source {source!r} and destination {destination!r} must have the same "
            "number of elements"
        )
    order = [a for a in range(ndim) if a not in sources]
    for dest, src in sorted(zip(destinations, sources)):
        order.insert(dest, src)
    return ops.transpose(x, tuple(order))


def _axes_in_order(axis: Any, ndim: int, op: str) -> list[int]:
    """``axis`` (an int or a sequence) as non-negative ints, in the order given."""
    axes = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    out = [normalize_axis(a, ndim, op)[0] for a in axes]
    if len(set(out)) != len(out):
        raise ValueError(f"{op}: repeated axis in {axis!r}")
    return out


def rollaxis(x: ArrayLike, axis: int, start: int = 0) -> Tensor:
    """Move ``axis`` to the position before ``start`` (prefer :func:`moveaxis`).

    >>> import tapegrad as tg
    >>> tg.rollaxis(tg.ones((2, 3, 4)), 2).shape
    (4, 2, 3)
    """
    ndim = len(shape_of(x))
    (axis,) = normalize_axis(axis, ndim, "rollaxis")
    if not -ndim <= start <= ndim:
        raise ValueError(f"rollaxis: start {start} is out of bounds for a {ndim}-d input")
    start = start % (ndim + 1) if start < 0 else start
    if axis < start:
        start -= 1
    if axis == start:
        return x if isinstance(x, Tensor) else ops.asarray(x)
    order = [a for a in range(ndim) if a != axis]
    order.insert(start, axis)
    return ops.transpose(x, tuple(order))


def roll(x: ArrayLike, shift: Any, axis: Any = None) -> Tensor:
    """Shift elements along ``axis`` cyclically (of the flattened input when None).

    >>> import tapegrad as tg
    >>> tg.roll(tg.tensor([1, 2, 3, 4]), 1).numpy()
    array([4, 1, 2, 3])
    """
    if axis is None:
        return ops.reshape(roll(ops.reshape(x, (-1,)), shift, 0), shape_of(x))
    shape = shape_of(x)
    shifts, axes = np.broadcast_arrays(np.asarray(shift), np.asarray(axis))
    total: dict[int, int] = {}
    for s, a in zip(shifts.ravel().tolist(), axes.ravel().tolist()):
        (a,) = normalize_axis(a, len(shape), "roll")
        total[a] = total.get(a, 0) + int(s)
    out = x
    for a, s in total.items():
        n = shape[a]
        s = s % n if n else 0
        if s:
            lead = (slice(None),) * a
            out = ops.concatenate(
                [
                    ops.getitem(out, (*lead, slice(n - s, None))),
                    ops.getitem(out, (*lead, slice(0, n - s))),
                ],
                axis=a,
            )
    return out if isinstance(out, Tensor) else ops.asarray(out)


def rot90(x: ArrayLike, k: int = 1, axes: tuple[int, int] = (0, 1)) -> Tensor:
    """Rotate by 90 degrees ``k`` times in the plane of ``axes`` (first towards second).

    >>> import tapegrad as tg
    >>> tg.rot90(tg.tensor([[1, 2], [3, 4]])).numpy()
    array([[2, 4],
           [1, 3]])
    """
    ndim = len(shape_of(x))
    if len(axes) != 2:
        raise ValueError(f"rot90: axes must be two axes, got {axes!r}")
    a, b = (normalize_axis(axis, ndim, "rot90")[0] for axis in axes)
    if a == b:
        raise ValueError(f"rot90: axes {axes!r} must be different")
    k %= 4
    if k == 0:
        return ops.copy(x)
    if k == 2:
        return ops.flip(ops.flip(x, a), b)
    order = list(range(ndim))
    order[a], order[b] = order[b], order[a]
    if k == 1:
        return ops.transpose(ops.flip(x, b), tuple(order))
    return ops.flip(ops.transpose(x, tuple(order)), b)


def fliplr(x: ArrayLike) -> Tensor:
    """Reverse the order along axis 1 (columns of a matrix).

    >>> import tapegrad as tg
    >>> tg.fliplr(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([[2., 1.],
            [4., 3.]], dtype=float64)
    """
    if len(shape_of(x)) < 2:
        raise ValueError(f"fliplr: the input must be at least 2-d, got shape {shape_of(x)}")
    return ops.flip(x, 1)


def flipud(x: ArrayLike) -> Tensor:
    """Reverse the order along axis 0 (rows of a matrix).

    >>> import tapegrad as tg
    >>> tg.flipud(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([[3., 4.],
            [1., 2.]], dtype=float64)
    """
    if len(shape_of(x)) < 1:
        raise ValueError("flipud: the input must be at least 1-d, got a 0-d input")
    return ops.flip(x, 0)


def matrix_transpose(x: ArrayLike) -> Tensor:
    """Swap the last two axes (a stack of matrices transposed).

    >>> import tapegrad as tg
    >>> tg.matrix_transpose(tg.ones((4, 2, 3))).shape
    (4, 3, 2)
    """
    if len(shape_of(x)) < 2:
        raise ValueError(
            f"matrix_transpose: the input must be at least 2-d, got shape {shape_of(x)}"
        )
    return ops.swapaxes(x, -1, -2)


def _at_least(x: ArrayLike, shape_for: Any) -> Tensor:
    shape = shape_of(x)
    new = shape_for(shape)
    if isinstance(x, Tensor) and new == shape:
        return x
    return ops.reshape(x, new)


def _one_or_tuple(results: list[Tensor]) -> Any:
    return results[0] if len(results) == 1 else tuple(results)


def atleast_1d(*arrays: ArrayLike) -> Any:
    """Each input with at least one axis (a tuple for several inputs).

    >>> import tapegrad as tg
    >>> tg.atleast_1d(tg.tensor(1.0)).shape
    (1,)
    """
    return _one_or_tuple([_at_least(a, lambda s: s or (1,)) for a in arrays])


def atleast_2d(*arrays: ArrayLike) -> Any:
    """Each input with at least two axes: 1-d ``(n,)`` becomes ``(1, n)``.

    >>> import tapegrad as tg
    >>> tg.atleast_2d(tg.tensor([1.0, 2.0])).shape
    (1, 2)
    """
    return _one_or_tuple([_at_least(a, lambda s: (1,) * (2 - len(s)) + s) for a in arrays])


def atleast_3d(*arrays: ArrayLike) -> Any:
    """Each input with at least three axes: ``(n,)`` -> ``(1, n, 1)``, ``(m, n)`` ->
    ``(m, n, 1)``.

    >>> import tapegrad as tg
    >>> tg.atleast_3d(tg.tensor([1.0, 2.0])).shape
    (1, 2, 1)
    """

    def shape_for(s: Shape) -> Shape:
        if len(s) == 0:
            return (1, 1, 1)
        if len(s) == 1:
            return (1, s[0], 1)
        if len(s) == 2:
            return (*s, 1)
        return s

    return _one_or_tuple([_at_least(a, shape_for) for a in arrays])


def broadcast_arrays(*arrays: ArrayLike) -> tuple[Tensor, ...]:
    """The inputs broadcast to their common shape.

    >>> import tapegrad as tg
    >>> a, b = tg.broadcast_arrays(tg.tensor([1.0, 2.0]), tg.tensor([[3.0], [4.0]]))
    >>> a.shape, b.shape
    ((2, 2), (2, 2))
    """
    shape = np.broadcast_shapes(*(shape_of(a) for a in arrays))
    return tuple(ops.broadcast_to(a, shape) for a in arrays)


def unstack(x: ArrayLike, axis: int = 0) -> tuple[Tensor, ...]:
    """The slices of ``x`` along ``axis``, as a tuple.

    >>> import tapegrad as tg
    >>> tg.unstack(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    (tensor([1., 2.], dtype=float64), tensor([3., 4.], dtype=float64))
    """
    shape = shape_of(x)
    if not shape:
        raise ValueError("unstack: the input must be at least 1-d, got a 0-d input")
    (axis,) = normalize_axis(axis, len(shape), "unstack")
    lead = (slice(None),) * axis
    return tuple(ops.getitem(x, (*lead, i)) for i in range(shape[axis]))


def resize(x: ArrayLike, new_shape: Any) -> Tensor:
    """``x`` flattened, repeated as needed and cut to ``new_shape`` (``np.resize``).

    >>> import tapegrad as tg
    >>> tg.resize(tg.tensor([1.0, 2.0, 3.0]), (2, 2))
    tensor([[1., 2.],
            [3., 1.]], dtype=float64)
    """
    new_shape = (new_shape,) if isinstance(new_shape, (int, np.integer)) else tuple(new_shape)
    if builtins.any(n < 0 for n in new_shape):
        raise ValueError(f"resize: negative dimensions in {new_shape}")
    size = int(np.prod(new_shape, dtype=np.int64))
    flat = ops.reshape(x, (-1,))
    n = shape_of(flat)[0]
    if n == 0:
        return ops.zeros(new_shape, like=flat)  # nothing to repeat: NumPy gives zeros
    return ops.reshape(ops.getitem(flat, np.arange(size) % n), new_shape)
