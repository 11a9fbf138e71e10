"""Shape ops: reshape transpose swapaxes expand_dims squeeze broadcast_to concatenate stack
split flip tile repeat pad.

Only reshape, transpose, broadcast_to, concatenate and flip are primitives; the
rest are built from them (and from indexing), so their gradients come for free.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, normalize_axis, shape_of, unbroadcast

ArrayLike = Any
Shape = tuple[int, ...]


def _reshape_vjp(g: Any, ans: Any, x: Any, shape: Shape) -> Any:
    if type(g) is np.ndarray:  # the sweep's raw mode: reshape's forward, no Tensor
        return g.reshape(shape_of(x))
    return _reshape(g, shape=shape_of(x))


_reshape = Primitive(
    "reshape", lambda xp, x, shape: xp.reshape(x, shape), complex_rules=True
).defvjp(_reshape_vjp)


def reshape(x: ArrayLike, shape: int | Shape) -> Tensor:
    """``x`` with a new shape of the same size (one dimension may be -1).

    >>> import tapegrad as tg
    >>> tg.reshape(tg.arange(6.0), (2, 3))
    tensor([[0., 1., 2.],
            [3., 4., 5.]], dtype=float64)
    """
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)
    return _reshape(x, shape=shape)


def _transpose_vjp(g: Tensor, ans: Tensor, x: Any, axes: Shape) -> Tensor:
    return _transpose(g, axes=tuple(int(a) for a in np.argsort(axes)))


_transpose = Primitive(
    "transpose", lambda xp, x, axes: xp.permute_dims(x, axes), complex_rules=True
).defvjp(_transpose_vjp)


def transpose(x: ArrayLike, axes: Shape | None = None) -> Tensor:
    """Permute the axes of ``x`` (reverse them when ``axes`` is None).

    >>> import tapegrad as tg
    >>> tg.transpose(tg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([[1., 3.],
            [2., 4.]], dtype=float64)
    """
    ndim = len(shape_of(x))
    if axes is None:
        axes = tuple(reversed(range(ndim)))
    else:
        axes = tuple(int(a) % ndim if ndim else int(a) for a in axes)
        if sorted(axes) != list(range(ndim)):
            raise ValueError(f"transpose: axes {axes} are not a permutation of {ndim} axes")
    return _transpose(x, axes=axes)


def swapaxes(x: ArrayLike, axis1: int, axis2: int) -> Tensor:
    """Exchange two axes of ``x``.

    >>> import tapegrad as tg
    >>> tg.swapaxes(tg.ones((2, 3, 4)), 0, 2).shape
    (4, 3, 2)
    """
    ndim = len(shape_of(x))
    (a,) = normalize_axis(axis1, ndim, "swapaxes")
    (b,) = normalize_axis(axis2, ndim, "swapaxes")
    axes = list(range(ndim))
    axes[a], axes[b] = axes[b], axes[a]
    return _transpose(x, axes=tuple(axes))


def expand_dims(x: ArrayLike, axis: int | Shape) -> Tensor:
    """Insert length-1 axes at the positions ``axis`` of the result.

    >>> import tapegrad as tg
    >>> tg.expand_dims(tg.tensor([1.0, 2.0, 4.0]), 0).shape
    (1, 3)
    """
    shape = shape_of(x)
    positions = normalize_axis(
        axis, len(shape) + (1 if isinstance(axis, int) else len(axis)), "expand_dims"
    )
    rest = iter(shape)
    new = tuple(1 if i in positions else next(rest) for i in range(len(shape) + len(positions)))
    return _reshape(x, shape=new)


def squeeze(x: ArrayLike, axis: int | Shape | None = None) -> Tensor:
    """Remove length-1 axes (all of them when ``axis`` is None).

    >>> import tapegrad as tg
    >>> tg.squeeze(tg.ones((1, 3, 1))).shape
    (3,)
    """
    shape = shape_of(x)
    if axis is None:
        axes = tuple(i for i, n in enumerate(shape) if n == 1)
    else:
        axes = normalize_axis(axis, len(shape), "squeeze")
        for a in axes:
            if shape[a] != 1:
                raise ValueError(f"squeeze: axis {a} of shape {shape} does not have length 1")
    return _reshape(x, shape=tuple(n for i, n in enumerate(shape) if i not in axes))


_broadcast_to = Primitive(
    "broadcast_to", lambda xp, x, shape: xp.broadcast_to(x, shape), complex_rules=True
).defvjp(lambda g, ans, x, shape: unbroadcast(g, shape_of(x)))


def broadcast_to(x: ArrayLike, shape: Shape) -> Tensor:
    """``x`` broadcast to ``shape`` (NumPy's rules).

    >>> import tapegrad as tg
    >>> tg.broadcast_to(tg.tensor([1.0, 2.0]), (2, 2))
    tensor([[1., 2.],
            [1., 2.]], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.broadcast_to(x, (3, 2))))(tg.tensor([1.0, 2.0]))  # summed back
    tensor([3., 3.], dtype=float64)
    """
    return _broadcast_to(x, shape=tuple(int(n) for n in shape))


def _concatenate_vjp(k: int, g: Tensor, ans: Tensor, *arrays: Any, axis: int) -> Tensor:
    start = builtins.sum(shape_of(a)[axis] for a in arrays[:k])
    index = (slice(None),) * axis + (slice(start, start + shape_of(arrays[k])[axis]),)
    if type(g) is np.ndarray:  # the sweep's raw mode: getitem's forward, no Tensor
        return g[index]
    return ops.getitem(g, index)


def _explain_concatenate(exc: Exception, *arrays: Any, axis: int) -> str:
    shapes = ", ".join(str(shape_of(a)) for a in arrays)
    return f"cannot join shapes {shapes} along axis {axis}"


_concatenate = Primitive(
    "concatenate",
    lambda xp, *arrays, axis: xp.concat(list(arrays), axis=axis),
    explain=_explain_concatenate,
    complex_rules=True,
).defvjp_argnum(_concatenate_vjp)


def concatenate(arrays: Any, axis: int | None = 0) -> Tensor:
    """Join a sequence of arrays along an existing axis (flattened first when None).

    >>> import tapegrad as tg
    >>> tg.concatenate([tg.tensor([1.0]), tg.tensor([2.0, 3.0])])
    tensor([1., 2., 3.], dtype=float64)
    """
    arrays = list(arrays)
    if not arrays:
        raise ValueError("concatenate: need at least one array")
    if axis is None:
        arrays = [reshape(a, (-1,)) for a in arrays]
        axis = 0
    (axis,) = normalize_axis(axis, len(shape_of(arrays[0])), "concatenate")
    return _concatenate(*arrays, axis=axis)


def stack(arrays: Any, axis: int = 0) -> Tensor:
    """Join arrays of equal shape along a new axis.

    >>> import tapegrad as tg
    >>> tg.stack([tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0])], axis=1)
    tensor([[1., 3.],
            [2., 4.]], dtype=float64)
    """
    arrays = list(arrays)
    if not arrays:
        raise ValueError("stack: need at least one array")
    shapes = {shape_of(a) for a in arrays}
    if len(shapes) != 1:
        raise ValueError(f"stack: all inputs must have the same shape, got {sorted(shapes)}")
    return concatenate([expand_dims(a, axis) for a in arrays], axis=axis)


def split(x: ArrayLike, indices_or_sections: Any, axis: int = 0) -> list[Tensor]:
    """Split ``x`` into pieces along ``axis`` (equal sections, or at the given indices).

    >>> import tapegrad as tg
    >>> tg.split(tg.arange(4.0), 2)
    [tensor([0., 1.], dtype=float64), tensor([2., 3.], dtype=float64)]
    """
    shape = shape_of(x)
    (axis,) = normalize_axis(axis, len(shape), "split")
    try:
        pieces = np.split(np.arange(shape[axis]), indices_or_sections)
    except ValueError as exc:
        raise ValueError(f"split: {exc} (shape {shape}, axis {axis})") from None
    lead = (slice(None),) * axis
    out, start = [], 0
    for piece in pieces:
        out.append(ops.getitem(x, (*lead, slice(start, start + len(piece)))))
        start += len(piece)
    return out


_flip = Primitive("flip", lambda xp, x, axis: xp.flip(x, axis=axis), complex_rules=True).defvjp(
    lambda g, ans, x, axis: _flip(g, axis=axis)
)


def flip(x: ArrayLike, axis: int | Shape | None = None) -> Tensor:
    """Reverse the order of elements along ``axis`` (all axes when None).

    >>> import tapegrad as tg
    >>> tg.flip(tg.tensor([1.0, 2.0, 4.0]))
    tensor([4., 2., 1.], dtype=float64)
    """
    return _flip(x, axis=normalize_axis(axis, len(shape_of(x)), "flip"))


def tile(x: ArrayLike, reps: int | Shape) -> Tensor:
    """Repeat ``x`` ``reps`` times along each axis (NumPy's rules), by broadcasting.

    >>> import tapegrad as tg
    >>> tg.tile(tg.tensor([1.0, 2.0]), 2)
    tensor([1., 2., 1., 2.], dtype=float64)
    """
    reps = (reps,) if isinstance(reps, (int, np.integer)) else tuple(int(r) for r in reps)
    shape = shape_of(x)
    ndim = builtins.max(len(shape), len(reps))
    shape = (1,) * (ndim - len(shape)) + shape
    reps = (1,) * (ndim - len(reps)) + reps
    interleaved = tuple(n for pair in zip((1,) * ndim, shape) for n in pair)
    spread = tuple(n for pair in zip(reps, shape) for n in pair)
    tiled = broadcast_to(reshape(x, interleaved), spread)
    return reshape(tiled, tuple(r * n for r, n in zip(reps, shape)))


def repeat(x: ArrayLike, repeats: Any, axis: int | None = None) -> Tensor:
    """Repeat each element ``repeats`` times along ``axis`` (flattened when None).

    >>> import tapegrad as tg
    >>> tg.repeat(tg.tensor([1.0, 2.0]), 2)
    tensor([1., 1., 2., 2.], dtype=float64)
    """
    if axis is None:
        x, axis = reshape(x, (-1,)), 0
    (axis,) = normalize_axis(axis, len(shape_of(x)), "repeat")
    try:
        positions = np.repeat(np.arange(shape_of(x)[axis]), repeats)
    except ValueError as exc:
        raise ValueError(f"repeat: {exc} (shape {shape_of(x)}, axis {axis})") from None
    return ops.take(x, positions, axis=axis)


# Modes whose padding copies elements of the input: each axis gathers from NumPy's own
# padding of the element positions, so the copies send their gradients home.
_COPYING_MODES = ("edge", "reflect", "symmetric", "wrap")


def pad(x: ArrayLike, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Tensor:
    """Pad ``x`` as ``np.pad``: modes constant (``constant_values``, per axis too), empty
    (zeros), edge, reflect, symmetric and wrap (``reflect_type="even"``).

    >>> import tapegrad as tg
    >>> tg.pad(tg.tensor([1.0, 2.0]), 1, mode="reflect").numpy()
    array([2., 1., 2., 1.])
    """
    shape = shape_of(x)
    try:
        widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (len(shape), 2))
    except ValueError:
        raise ValueError(f"pad: pad_width {pad_width!r} does not fit shape {shape}") from None
    if (widths < 0).any():
        raise ValueError(f"pad: negative pad_width {pad_width!r}")
    if mode in _COPYING_MODES:
        extra = {}
        if mode in ("reflect", "symmetric"):
            extra["reflect_type"] = kwargs.pop("reflect_type", "even")
            if extra["reflect_type"] != "even":
                raise NotImplementedError("pad: reflect_type='odd' is not supported")
        _no_more(kwargs, mode)
        out = x
        for axis, (low, high) in enumerate(widths):
            if low or high:
                source = np.pad(np.arange(shape[axis]), (int(low), int(high)), mode=mode, **extra)  # type: ignore[call-overload]
                out = ops.take(out, source, axis=axis)
        return out if isinstance(out, Tensor) else ops.asarray(out)
    if mode not in ("constant", "empty"):
        raise NotImplementedError(
            f"pad: mode {mode!r} is not supported (constant, empty, edge, reflect, symmetric "
            "and wrap are)"
        )
    values = kwargs.pop("constant_values", 0) if mode == "constant" else 0
    _no_more(kwargs, mode)
    padded = tuple(int(n + lo + hi) for n, (lo, hi) in zip(shape, widths))
    inner = tuple(slice(int(lo), int(lo + n)) for n, (lo, _) in zip(shape, widths))
    out = ops.index_add(x, shape=padded, index=inner)
    if shape and np.any(np.asarray(values) != 0):  # the border: NumPy's own constant padding
        dtype = np.dtype(backend.dtype_name(out.dtype))
        border = np.pad(np.zeros(shape, dtype), widths, constant_values=values)
        out = out + ops.asarray(border, like=out)
    return out


def _no_more(kwargs: dict[str, Any], mode: str) -> None:
    if kwargs:
        raise ValueError(f"pad: unsupported keyword arguments for mode {mode!r}: {sorted(kwargs)}")
