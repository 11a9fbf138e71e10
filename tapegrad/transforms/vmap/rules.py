"""Batching rules: each primitive's forward run once on a whole batch.

Every rule sees the batched operands with one leading batch axis of length ``n`` (see
dispatch.py) and returns the output with that axis in front. Ops that broadcast take the
elementwise rule (the ufuncs get it by default); ops with axes shift them past the batch
axis; NumPy's linear algebra already treats leading axes as a batch; what is left here
has a rule of its own. A primitive with none runs once per example (dispatch.loop).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import fft, linalg, ops
from tapegrad.ops import indexing, reductions, shape
from tapegrad.ops import linalg as products
from tapegrad.transforms.vmap.dispatch import align, broadcast_batch, elementwise

Values = list[Any]
Flags = list[bool]


def _shift_axes(
    xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]
) -> Any:
    """A one-input op whose ``axis`` (an int or a tuple of ints) names example axes."""
    axis = params["axis"]
    shifted = tuple(a + 1 for a in axis) if isinstance(axis, tuple) else axis + 1
    return primitive.forward(xp, values[0], **{**params, "axis": shifted})


def _leading(
    xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]
) -> Any:
    """A one-input op that treats leading axes as a batch already (np.linalg's)."""
    return primitive.forward(xp, values[0], **params)


def _reshape(
    xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]
) -> Any:
    (x,) = values
    return xp.reshape(x, (x.shape[0], *params["shape"]))


def _transpose(
    xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]
) -> Any:
    return xp.permute_dims(values[0], (0, *(a + 1 for a in params["axes"])))


def _broadcast_to(
    xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]
) -> Any:
    (x,) = align(xp, values + [np.empty(params["shape"])], batched + [False])[:1]
    return xp.broadcast_to(x, (x.shape[0], *params["shape"]))


def _concatenate(
    xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]
) -> Any:
    n = next(v.shape[0] for v, b in zip(values, batched) if b)
    arrays = [broadcast_batch(xp, v, b, n) for v, b in zip(values, batched)]
    return xp.concat(arrays, axis=params["axis"] + 1)


def _advanced_first(index: tuple[Any, ...]) -> int | None:
    """Where NumPy puts the axes of ``index``'s advanced (array) items when they are not
    next to each other: first, ahead of the batch axis. Returns their number of axes then,
    else None (the batch axis stays in front)."""
    arrays = [k for k, item in enumerate(index) if hasattr(item, "shape") and item.ndim > 0]
    if not arrays:
        return None
    advanced = [
        k
        for k, item in enumerate(index)
        if (hasattr(item, "shape") and item.ndim > 0) or isinstance(item, (int, np.integer))
    ]
    if advanced == list(range(advanced[0], advanced[-1] + 1)):
        return None
    shapes = [
        (int(np.count_nonzero(item)),) if item.dtype == bool else item.shape
        for item in (index[k] for k in advanced)
        if hasattr(item, "shape")
    ]
    return len(np.broadcast_shapes(*shapes))


def _getitem(
    xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]
) -> Any:
    index = params["index"]
    out = primitive.forward(xp, values[0], index=(slice(None), *index))
    moved = _advanced_first(index)
    return out if moved is None else xp.moveaxis(out, moved, 0)


def _index_add(
    xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]
) -> Any:
    (v,) = values
    index = params["index"]
    n = v.shape[0]
    moved = _advanced_first(index)
    if moved is not None:  # laid out as getitem's rule finds them before it moves the axis
        v = xp.moveaxis(v, 0, moved)
    return primitive.forward(xp, v, shape=(n, *params["shape"]), index=(slice(None), *index))


def _matmul(xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]) -> Any:
    """``x @ y`` per example: 1-d examples become matrices (a row on the left, a column
    on the right) so that the batch axis is never taken for a matrix axis, then the
    extra axis goes."""
    (x, y), (bx, by) = values[:2], batched[:2]
    x_row = bx and x.ndim == 2  # a batch of vectors: each a 1-row matrix
    y_column = by and y.ndim == 2  # each a 1-column matrix
    if x_row:
        x = xp.expand_dims(x, -2)
    if y_column:
        y = xp.expand_dims(y, -1)
    x, y = align(xp, [x, y], [bx, by])
    out = xp.matmul(x, y)
    if x_row:  # its row axis: the second last, or the last when y is one vector
        out = out[..., 0, :] if y.ndim >= 2 else out[..., 0]
    if y_column:
        out = out[..., 0]
    return out


def _matmul_add(
    xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]
) -> Any:
    product = _matmul(xp, primitive, values[:2], batched[:2], params)
    product, bias = align(xp, [product, values[2]], [any(batched[:2]), batched[2]])
    return product + bias


def _einsum(xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]) -> Any:
    used = set("".join(params["terms"]) + params["output"])
    letter = next(
        c for c in "zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJIHGFEDCBA" if c not in used
    )
    terms = tuple(letter + t if b else t for t, b in zip(params["terms"], batched))
    return primitive.forward(xp, *values, terms=terms, output=letter + params["output"])


def _where(xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]) -> Any:
    return xp.where(*align(xp, values, batched))


def _cross_entropy(
    xp: Any, primitive: Any, values: Values, batched: Flags, params: dict[str, Any]
) -> Any:
    n = next(v.shape[0] for v, b in zip(values, batched) if b)
    x, index, kept = (broadcast_batch(xp, v, b, n) for v, b in zip(values, batched))
    total = xp.sum(xp.reshape(ops.nn._nll_rows(xp, x, index, kept), (n, -1)), axis=1)
    if not params["mean"]:
        return total
    return total / xp.sum(xp.reshape(xp.astype(kept, x.dtype), (n, -1)), axis=1)


def declare() -> None:
    """Attach the rules to the primitives (once, when vmap is imported)."""
    for primitive in (
        reductions._sum, reductions._prod, reductions._max, reductions._min,
        reductions._logsumexp, reductions._cumsum, shape._flip, fft.transforms._c2c,
        fft.transforms._r2c, fft.transforms._c2r, ops.cumulative._cumprod,
        linalg.norms._p_norm,
    ):  # fmt: skip
        primitive.defbatch(_shift_axes)
    for primitive in (
        ops.elementwise._relu, ops.elementwise._sigmoid, ops.elementwise._softplus,
        ops.arithmetic._clip, ops.arithmetic._astype, ops.complex._real, ops.complex._imag,
        ops.complex._angle, ops.rearranging._copy, ops.erf._erf, ops.bessel._i0,
        ops.bessel._i1, ops.trigonometric._sinc, ops.exponential._ldexp,
        ops.device._stop_gradient, ops.device._identity,
    ):  # fmt: skip
        primitive.defbatch(elementwise)
    for primitive in (
        linalg.solvers._inv, linalg.determinants._det, linalg.determinants._slogdet,
        linalg.factorizations._cholesky, linalg.eigen._eigh, linalg.eigen._eigvalsh,
        linalg.singular._svdvals,
    ):  # fmt: skip
        primitive.defbatch(_leading)
    shape._reshape.defbatch(_reshape)
    shape._transpose.defbatch(_transpose)
    shape._broadcast_to.defbatch(_broadcast_to)
    shape._concatenate.defbatch(_concatenate)
    indexing._getitem.defbatch(_getitem)
    indexing._index_add.defbatch(_index_add)
    products._matmul.defbatch(_matmul)
    products._matmul_add.defbatch(_matmul_add)
    products._einsum.defbatch(_einsum)
    ops.arithmetic._where.defbatch(_where)
    ops.nn._cross_entropy.defbatch(_cross_entropy)
