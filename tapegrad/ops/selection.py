"""Selecting and placing elements: select choose compress extract piecewise nonzero argwhere
flatnonzero trim_zeros put put_along_axis place fill_diagonal.

Masks and index arrays carry no gradient; the values they pick do (gathers, wheres,
and layout.gather_layout for the functional forms of NumPy's in-place functions).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.ops.layout import gather_layout
from tapegrad.ops.primitive import Primitive, normalize_axis, shape_of
from tapegrad.ops.rule_helpers import placed, result_dtype

ArrayLike = Any


def select(condlist: Any, choicelist: Any, default: ArrayLike = 0) -> Tensor:
    """Where the first true condition of ``condlist`` holds, the matching choice; else
    ``default``.

    >>> import tapegrad as tg
    >>> x = tg.tensor([-1.0, 0.5, 2.0])
    >>> tg.select([x < 0, x > 1], [-x, x * 10], default=0.0).numpy()
    array([ 1.,  0., 20.])
    """
    condlist, choicelist = list(condlist), list(choicelist)
    if len(condlist) != len(choicelist):
        raise ValueError(
            f"select: {len(condlist)} conditions but {len(choicelist)} choices; they must match"
        )
    if not condlist:
        raise ValueError("select: need at least one condition")
    dtype = result_dtype(*choicelist, default)
    like = next((c for c in (*choicelist, *condlist) if isinstance(c, Tensor)), None)
    out = default
    for condition, choice in zip(reversed(condlist), reversed(choicelist)):
        if like is not None and not isinstance(condition, Tensor):  # host masks go along
            condition = ops.asarray(np.asarray(condition), like=like)
        out = ops.where(condition, choice, out)
    return ops.astype(out, dtype) if np.dtype(result_dtype(out)) != dtype else out


def choose(a: ArrayLike, choices: Any, mode: str = "raise") -> Tensor:
    """``choices[a[i]][i]`` for every position ``i`` (all broadcast together).

    >>> import tapegrad as tg
    >>> tg.choose([1, 0], [tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0])]).numpy()
    array([3., 2.])
    """
    index = np.asarray(host_value(a, "numpy.choose()"))
    choices = list(choices) if not hasattr(choices, "shape") else list(ops.unstack(choices))
    n = len(choices)
    if mode == "wrap":
        index = index % n
    elif mode == "clip":
        index = np.clip(index, 0, n - 1)
    elif mode != "raise":
        raise ValueError(f"choose: mode must be 'raise', 'wrap' or 'clip', got {mode!r}")
    elif index.size and (index.min() < 0 or index.max() >= n):
        raise ValueError(f"choose: indices must lie in [0, {n}) for {n} choices")
    shape = np.broadcast_shapes(index.shape, *(shape_of(c) for c in choices))
    stacked = ops.stack([ops.broadcast_to(c, shape) for c in choices])
    picks = np.broadcast_to(index, shape)[None]
    return ops.take_along_axis(stacked, picks, axis=0)[0]


def _positions(condition: Any, op: str) -> np.ndarray:
    mask = np.asarray(host_value(condition, f"numpy.{op}()"))
    return np.flatnonzero(mask.ravel())


def compress(condition: Any, a: ArrayLike, axis: int | None = None) -> Tensor:
    """The slices of ``a`` along ``axis`` where ``condition`` is true (flattened when None).

    >>> import tapegrad as tg
    >>> tg.compress([True, False, True], tg.tensor([1.0, 2.0, 4.0]))
    tensor([1., 4.], dtype=float64)
    """
    return ops.take(a, _positions(condition, "compress"), axis=axis)


def extract(condition: Any, arr: ArrayLike) -> Tensor:
    """The elements of ``arr`` where ``condition`` is true, flattened.

    >>> import tapegrad as tg
    >>> tg.extract(tg.tensor([True, False, True]), tg.tensor([1.0, 2.0, 4.0]))
    tensor([1., 4.], dtype=float64)
    """
    return ops.take(arr, _positions(condition, "extract"))


def _argwhere_forward(xp: Any, x: Any) -> Any:
    if xp is np:
        return np.argwhere(x)
    return xp.stack(xp.nonzero(x), axis=-1)


_argwhere = Primitive("argwhere", _argwhere_forward, differentiable=False)


def argwhere(x: ArrayLike) -> Tensor:
    """The indices of the nonzero elements, one row each (integer, no gradient).

    >>> import tapegrad as tg
    >>> tg.argwhere(tg.tensor([[1.0, 2.0], [3.0, 4.0]]) > 2)
    tensor([[1, 0],
            [1, 1]], dtype=int64)
    """
    if not shape_of(x):
        return _argwhere._unary(ops.reshape(x, (1,)))[:, :0]  # NumPy's 0-d rule: (n, 0)
    return _argwhere._unary(x)


def nonzero(x: ArrayLike) -> tuple[Tensor, ...]:
    """The indices of the nonzero elements, one integer Tensor per axis (``np.where(x)``).

    >>> import tapegrad as tg
    >>> tg.nonzero(tg.tensor([0.0, 3.0, 4.0]))[0].numpy()
    array([1, 2])
    """
    if not shape_of(x):
        raise ValueError(
            "nonzero: a 0-d input is not allowed (as in NumPy); use atleast_1d(x).nonzero()"
        )
    rows = _argwhere._unary(x)
    return tuple(rows[:, k] for k in range(len(shape_of(x))))


def flatnonzero(x: ArrayLike) -> Tensor:
    """The indices of the nonzero elements of the flattened input.

    >>> import tapegrad as tg
    >>> tg.flatnonzero(tg.tensor([0.0, 3.0, 0.0, 1.0]))
    tensor([1, 3], dtype=int64)
    """
    return nonzero(ops.reshape(x, (-1,)))[0]


def piecewise(x: ArrayLike, condlist: Any, funclist: Any, *args: Any, **kw: Any) -> Tensor:
    """Evaluate ``funclist[k]`` (a function or a constant) where ``condlist[k]`` holds, as
    ``np.piecewise``: one more function than conditions is the "otherwise" piece; later
    conditions win where several hold.

    >>> import tapegrad as tg
    >>> x = tg.tensor([-1.0, 2.0])
    >>> tg.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * v])
    tensor([1., 4.], dtype=float64)
    """
    shape = shape_of(x)
    masks = [
        np.broadcast_to(np.asarray(host_value(c, "numpy.piecewise()"), bool), shape)
        for c in (condlist if isinstance(condlist, list) else [condlist])
    ]
    if len(funclist) == len(masks) + 1:
        masks.append(~np.any(masks, axis=0) if masks else np.ones(shape, bool))
    if len(funclist) != len(masks):
        raise ValueError(
            f"piecewise: {len(masks)} conditions need {len(masks)} or {len(masks) + 1} functions, "
            f"got {len(funclist)}"
        )
    taken = np.zeros(shape, bool)
    out = ops.zeros(shape, dtype=result_dtype(x), like=x)
    for mask, function in reversed(list(zip(masks, funclist))):
        owned = mask & ~taken  # the last condition that holds owns the element
        taken |= mask
        if not owned.any():
            continue
        if callable(function):
            values = function(ops.getitem(x, mask), *args, **kw)
            values = ops.getitem(values, owned[mask]) if shape_of(values) else values
        else:
            values = function
        values = placed(
            values if hasattr(values, "shape") else np.asarray(values), x, result_dtype(x)
        )
        piece = ops.broadcast_to(values, (int(owned.sum()),))
        out = out + ops.index_add(piece, shape=shape, index=owned)
    return out


def _written(op: str, arr: ArrayLike, values: ArrayLike, inplace: bool, write: Any) -> Tensor:
    """The functional form of NumPy's in-place ``op``: the result as a new Tensor.

    ``write(numbers, value_numbers)`` runs NumPy's own in-place function on element numbers
    (values' numbers where it writes values): that gives the layout, NumPy's rules and all.
    """
    if inplace:
        raise TypeError(
            f"numpy.{op} changes its argument in place, and Tensors are immutable: call "
            f"tapegrad.numpy.{op}(..., inplace=False), which returns the result (as jax.numpy)"
        )

    def layout(numbers: list[np.ndarray]) -> np.ndarray:
        out = numbers[0].copy()
        write(out, numbers[1])
        return out

    return gather_layout([arr, values], layout, result_dtype(arr))


def _host(x: Any, op: str) -> Any:
    return host_value(x, f"numpy.{op}()") if hasattr(x, "shape") else x


def put(
    a: ArrayLike, ind: Any, v: ArrayLike, mode: str = "raise", *, inplace: bool = True
) -> Tensor:
    """``a`` with the flat positions ``ind`` set to ``v`` (repeated as needed); needs
    ``inplace=False`` on Tensors, as ``jax.numpy.put``.

    >>> import tapegrad as tg
    >>> tg.put(tg.zeros(3), [0, 2], tg.tensor([7.0, 8.0]), inplace=False)
    tensor([7., 0., 8.], dtype=float64)
    """
    ind = _host(ind, "put")
    return _written("put", a, v, inplace, lambda out, values: np.put(out, ind, values, mode=mode))  # type: ignore[arg-type]


def put_along_axis(
    arr: ArrayLike, indices: Any, values: ArrayLike, axis: int | None, *, inplace: bool = True
) -> Tensor:
    """``arr`` with ``values`` written at ``indices`` along ``axis`` (the last write wins);
    needs ``inplace=False`` on Tensors.

    >>> import tapegrad as tg
    >>> tg.put_along_axis(tg.zeros(3), [1], 5.0, axis=0, inplace=False).numpy()
    array([0., 5., 0.])
    """
    indices = np.asarray(_host(indices, "put_along_axis"))

    def write(out: np.ndarray, numbers: np.ndarray) -> None:
        np.put_along_axis(out, indices, numbers, axis)

    return _written("put_along_axis", arr, values, inplace, write)


def place(arr: ArrayLike, mask: Any, vals: ArrayLike, *, inplace: bool = True) -> Tensor:
    """``arr`` with the positions where ``mask`` holds set to ``vals`` in turn (cycled).

    >>> import tapegrad as tg
    >>> tg.place(tg.zeros(3), tg.tensor([True, False, True]), tg.tensor([7.0, 8.0]), inplace=False)
    tensor([7., 0., 8.], dtype=float64)
    """
    mask = _host(mask, "place")
    return _written("place", arr, vals, inplace, lambda out, values: np.place(out, mask, values))


def fill_diagonal(
    a: ArrayLike, val: ArrayLike, wrap: bool = False, *, inplace: bool = True
) -> Tensor:
    """``a`` with its main diagonal set to ``val`` (cycled); needs ``inplace=False``.

    >>> import tapegrad as tg
    >>> tg.fill_diagonal(tg.zeros((2, 2)), 5.0, inplace=False)
    tensor([[5., 0.],
            [0., 5.]], dtype=float64)
    """

    def write(out: np.ndarray, numbers: np.ndarray) -> None:
        np.fill_diagonal(out, numbers.ravel(), wrap=wrap)

    return _written("fill_diagonal", a, val, inplace, write)


def trim_zeros(filt: ArrayLike, trim: str = "fb", axis: Any = None) -> Tensor:
    """``filt`` without its leading (``"f"``) and trailing (``"b"``) zeros along ``axis``
    (every axis when None), as ``np.trim_zeros``.

    >>> import tapegrad as tg
    >>> tg.trim_zeros(tg.tensor([0.0, 1.0, 2.0, 0.0])).numpy()
    array([1., 2.])
    """
    trim = trim.lower()
    if any(c not in "fb" for c in trim):
        raise ValueError(f"trim_zeros: unexpected character(s) in trim: {trim!r}")
    host = np.asarray(host_value(filt, "numpy.trim_zeros()")) != 0
    shape = shape_of(filt)
    axes = (
        range(len(shape))
        if axis is None
        else [
            normalize_axis(a, len(shape), "trim_zeros")[0]
            for a in (axis if isinstance(axis, (tuple, list)) else (axis,))
        ]
    )
    index = [slice(None)] * len(shape)
    for a in axes:
        others = tuple(d for d in range(len(shape)) if d != a)
        present = np.flatnonzero(host.any(axis=others) if others else host)
        if present.size == 0:
            index[a] = slice(0, 0)
            continue
        start = int(present[0]) if "f" in trim else 0
        stop = int(present[-1]) + 1 if "b" in trim else shape[a]
        index[a] = slice(start, stop)
    return ops.getitem(filt, tuple(index))
