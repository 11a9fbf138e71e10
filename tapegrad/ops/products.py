"""Products beyond matmul/dot/outer/einsum: tensordot inner vdot vecdot matvec vecmat kron
cross convolve correlate.

Built from einsum, elementwise products and indexing, so their gradients (any order)
come from those rules. ``vdot``, ``vecdot`` and ``vecmat`` conjugate their first
argument, as NumPy does.
"""

from __future__ import annotations

import string
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import normalize_axis, shape_of
from tapegrad.ops.rule_helpers import conj

ArrayLike = Any


def tensordot(a: ArrayLike, b: ArrayLike, axes: Any = 2) -> Tensor:
    """Sum products over ``axes``: the last ``axes`` of ``a`` with the first of ``b``, or
    the pairs ``(axes_a, axes_b)``.

    >>> import tapegrad as tg
    >>> tg.tensordot(tg.ones((2, 3)), tg.ones((3, 4)), axes=1).shape
    (2, 4)
    """
    sa, sb = shape_of(a), shape_of(b)
    if isinstance(axes, (int, np.integer)):
        n = int(axes)
        if n < 0 or n > min(len(sa), len(sb)):
            raise ValueError(f"tensordot: axes={n} does not fit shapes {sa} and {sb}")
        axes_a, axes_b = list(range(len(sa) - n, len(sa))), list(range(n))
    else:
        axes_a, axes_b = ([x] if isinstance(x, (int, np.integer)) else list(x) for x in axes)
    axes_a = [normalize_axis(x, len(sa), "tensordot")[0] for x in axes_a]
    axes_b = [normalize_axis(x, len(sb), "tensordot")[0] for x in axes_b]
    if len(axes_a) != len(axes_b) or any(sa[i] != sb[j] for i, j in zip(axes_a, axes_b)):
        raise ValueError(
            f"tensordot: shape-mismatch for sum: axes {axes_a} of {sa} and {axes_b} of {sb}"
        )
    letters = iter(string.ascii_letters)
    term_a = [next(letters) for _ in sa]
    term_b = [next(letters) for _ in sb]
    for i, j in zip(axes_a, axes_b):
        term_b[j] = term_a[i]
    out = [c for i, c in enumerate(term_a) if i not in axes_a]
    out += [c for j, c in enumerate(term_b) if j not in axes_b]
    return ops.einsum(f"{''.join(term_a)},{''.join(term_b)}->{''.join(out)}", a, b)


def inner(a: ArrayLike, b: ArrayLike) -> Tensor:
    """Sum of products over the last axes of ``a`` and ``b`` (a product with 0-d inputs).

    >>> import tapegrad as tg
    >>> tg.inner(tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0]))
    tensor(11., dtype=float64)
    """
    sa, sb = shape_of(a), shape_of(b)
    if not sa or not sb:
        return ops.multiply(a, b)
    return tensordot(a, b, axes=([-1], [-1]))


def vdot(a: ArrayLike, b: ArrayLike) -> Tensor:
    """``sum(conj(a) * b)`` of the flattened inputs.

    >>> import tapegrad as tg
    >>> tg.vdot(tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0])).item()
    11.0
    """
    flat_a, flat_b = ops.reshape(a, (-1,)), ops.reshape(b, (-1,))
    if shape_of(flat_a) != shape_of(flat_b):
        raise ValueError(
            f"vdot: the inputs must have the same size, got {shape_of(a)} and {shape_of(b)}"
        )
    return ops.sum(conj(flat_a) * flat_b)


def vecdot(x1: ArrayLike, x2: ArrayLike, axis: int = -1) -> Tensor:
    """Vector dot products ``sum(conj(x1) * x2)`` along ``axis``, with broadcasting.

    >>> import tapegrad as tg
    >>> tg.vecdot(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), tg.tensor([1.0, 1.0]))
    tensor([3., 7.], dtype=float64)
    """
    return ops.sum(conj(x1) * x2, axis=axis)


def matvec(x1: ArrayLike, x2: ArrayLike) -> Tensor:
    """Matrix-vector products of stacks: ``x1 (..., m, n)`` times ``x2 (..., n)``.

    >>> import tapegrad as tg
    >>> tg.matvec(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), tg.tensor([1.0, 1.0]))
    tensor([3., 7.], dtype=float64)
    """
    return ops.einsum("...ij,...j->...i", x1, x2)


def vecmat(x1: ArrayLike, x2: ArrayLike) -> Tensor:
    """Vector-matrix products of stacks: ``conj(x1) (..., m)`` times ``x2 (..., m, n)``.

    >>> import tapegrad as tg
    >>> tg.vecmat(tg.tensor([1.0, 1.0]), tg.tensor([[1.0, 2.0], [3.0, 4.0]]))
    tensor([4., 6.], dtype=float64)
    """
    return ops.einsum("...i,...ij->...j", conj(x1), x2)


def kron(a: ArrayLike, b: ArrayLike) -> Tensor:
    """The Kronecker product: blocks ``a[i] * b``.

    >>> import tapegrad as tg
    >>> tg.kron(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 10.0])).numpy()
    array([ 1., 10.,  2., 20.])
    """
    sa, sb = shape_of(a), shape_of(b)
    ndim = max(len(sa), len(sb))
    sa, sb = (1,) * (ndim - len(sa)) + sa, (1,) * (ndim - len(sb)) + sb
    spread_a = ops.reshape(a, tuple(n for m in sa for n in (m, 1)))
    spread_b = ops.reshape(b, tuple(n for m in sb for n in (1, m)))
    return ops.reshape(spread_a * spread_b, tuple(m * n for m, n in zip(sa, sb)))


def cross(
    a: ArrayLike, b: ArrayLike, axisa: int = -1, axisb: int = -1, axisc: int = -1,
    axis: int | None = None,
) -> Tensor:  # fmt: skip
    """Cross products of 3-vectors (2-vectors give the z component), as ``np.cross``.

    >>> import tapegrad as tg
    >>> tg.cross(tg.tensor([1.0, 0.0, 0.0]), tg.tensor([0.0, 1.0, 0.0]))
    tensor([0., 0., 1.], dtype=float64)
    """
    if axis is not None:
        axisa = axisb = axisc = axis
    a = ops.moveaxis(a, axisa, -1)
    b = ops.moveaxis(b, axisb, -1)
    na, nb = shape_of(a)[-1], shape_of(b)[-1]
    if na not in (2, 3) or nb not in (2, 3):
        raise ValueError(
            f"cross: incompatible dimensions for cross product (dimension must be 2 or 3), "
            f"got {na} and {nb}"
        )
    a0, a1 = a[..., 0], a[..., 1]
    b0, b1 = b[..., 0], b[..., 1]
    z = a0 * b1 - a1 * b0
    if na == 2 and nb == 2:
        return z
    a2 = a[..., 2] if na == 3 else None
    b2 = b[..., 2] if nb == 3 else None
    x = (a1 * b2 if b2 is not None else 0) - (a2 * b1 if a2 is not None else 0)
    y = (a2 * b0 if a2 is not None else 0) - (a0 * b2 if b2 is not None else 0)
    out = ops.stack(list(ops.broadcast_arrays(x, y, z)), axis=-1)
    return ops.moveaxis(out, -1, axisc)


def convolve(a: ArrayLike, v: ArrayLike, mode: str = "full") -> Tensor:
    """Discrete linear convolution of two 1-d inputs (``mode``: full, same or valid).

    >>> import tapegrad as tg
    >>> tg.convolve(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([0.0, 1.0, 0.5])).numpy()
    array([0. , 1. , 2.5, 4. , 1.5])
    """
    if len(shape_of(a)) != 1 or len(shape_of(v)) != 1:
        raise ValueError(
            f"convolve: the inputs must be 1-d, got shapes {shape_of(a)} and {shape_of(v)}"
        )
    na, nv = shape_of(a)[0], shape_of(v)[0]
    if na == 0 or nv == 0:
        raise ValueError("convolve: the inputs cannot be empty")
    # full[k] = sum_{i + j = k} a[i] v[j]: the outer product scatter-added onto i + j
    products = ops.reshape(ops.outer(a, v), (-1,))
    positions = np.add.outer(np.arange(na), np.arange(nv)).ravel()
    full = ops.index_add(products, shape=(na + nv - 1,), index=positions)
    if mode == "full":
        return full
    if mode == "same":
        longer = max(na, nv)
        start = (min(na, nv) - 1) // 2
        return full[start : start + longer]
    if mode == "valid":
        start = min(na, nv) - 1
        return full[start : start + max(na, nv) - min(na, nv) + 1]
    raise ValueError(f"convolve: mode must be 'full', 'same' or 'valid', got {mode!r}")


def correlate(a: ArrayLike, v: ArrayLike, mode: str = "valid") -> Tensor:
    """Cross-correlation of two 1-d inputs: ``sum_n a[n + k] conj(v[n])`` (NumPy's
    default mode is ``"valid"``).

    >>> import tapegrad as tg
    >>> tg.correlate(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([0.0, 1.0]))
    tensor([2., 3.], dtype=float64)
    """
    return convolve(a, ops.flip(conj(v), 0), mode)
