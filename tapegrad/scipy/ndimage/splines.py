"""scipy.ndimage's B-spline interpolation with gradients: :func:`spline_filter1d`,
:func:`spline_filter`, and the order 2 to 5 sampler that map_coordinates, shift, zoom,
affine_transform and rotate use.

The prefilter is linear in the image: along each axis it multiplies every line by one
``(n, n)`` matrix that depends only on ``n``, the order and the mode. That matrix is SciPy's
own ``spline_filter1d`` of the identity (so each mode's boundary initialisation is SciPy's),
computed once on the host and cached; the filter is then a ``tensordot`` with it, whose
gradient is the adjoint filter (the transposed matrix) and is itself linear, so derivatives
of every order flow through.

The sampler follows SciPy's ``NI_GeometricTransform``: with ``prefilter`` the modes
``nearest`` and ``grid-constant`` first pad the image by 12 (edge values, ``cval``); a
coordinate is mapped into the array by the mode (an affine map of slope ±1,
tapegrad/scipy/ndimage/_boundary.py); the ``order + 1`` points of its footprint start at
``floor(c) - order // 2`` (odd orders) or ``floor(c + 0.5) - order // 2`` (even ones), and
those past an edge read the point SciPy's spline boundary mode gives. The weights are the
B-spline's polynomial pieces in the fractional part, written with tapegrad ops: the values
are smooth (``C^(order - 1)``) in the coordinates and linear in the image.
"""

from __future__ import annotations

import functools
import itertools
import warnings
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.ndimage._boundary import check_mode, map_coordinate, take_extended

__all__ = ["spline_filter", "spline_filter1d"]

ArrayLike = Any
PAD = 12  # SciPy's _prepad_for_spline_filter, for the modes without an exact prefilter


@functools.lru_cache(maxsize=64)
def _filter_matrix(n: int, order: int, mode: str) -> np.ndarray:
    """SciPy's spline prefilter of a line of ``n`` as a matrix: ``filtered = M @ line``."""
    import scipy.ndimage

    matrix = scipy.ndimage.spline_filter1d(np.eye(n), order, axis=0, mode=mode)
    matrix.setflags(write=False)
    return matrix


def _filter_axis(x: Any, order: int, axis: int, mode: str) -> Any:
    n = shape_of(x)[axis]
    if n <= 1:
        return x
    matrix = ops.asarray(_filter_matrix(n, order, mode), like=x)
    return ops.moveaxis(ops.tensordot(matrix, x, axes=([1], [axis])), 0, axis)


def _output_dtype(name: str, output: Any, x: Any) -> np.dtype:
    if not isinstance(output, (type, str, np.dtype)):
        raise NotImplementedError(
            f"{name}: output= as an array is not supported on Tensors (a Tensor is never "
            "written in place); pass a dtype or use the returned value"
        )
    dtype = np.dtype(output)
    if np.dtype(x.dtype).kind == "c" and dtype.kind != "c":
        warnings.warn("promoting specified output dtype to complex", UserWarning, stacklevel=3)
        dtype = np.promote_types(dtype, np.complex64)
    return dtype


def _check_order(name: str, order: Any, low: int) -> int:
    if not isinstance(order, (int, np.integer)) or not low <= order <= 5:
        raise RuntimeError(f"{name}: spline order not supported, got order={order!r}")
    return int(order)


@plain_calls_scipy("ndimage")
def spline_filter1d(
    input: ArrayLike,  # noqa: A002 - SciPy's name
    order: int = 3,
    axis: int = -1,
    output: Any = np.float64,
    mode: str = "mirror",
) -> Tensor:
    """The B-spline coefficients of ``input`` along ``axis``, as SciPy's: the line is
    filtered so that the spline of ``order`` through the coefficients interpolates it, with
    ``mode``'s boundary (orders 0 and 1 copy the input). Linear in ``input``: the gradient
    is the adjoint filter.

    Args:
        input: The array.
        order: The spline order, 0 to 5.
        axis: The axis filtered.
        output: The dtype of the result (float64; complex input gives complex).
        mode: How the line extends past its ends (SciPy's interpolation modes).

    Returns:
        The filtered array, of ``input``'s shape.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.spline_filter1d(tg.tensor([0.0, 1.0, 0.0])).numpy().round(4)
    array([-1.,  2., -1.])
    """
    order = _check_order("spline_filter1d", order, 0)
    mode = check_mode("spline_filter1d", mode)
    x = as_input(input)
    dtype = _output_dtype("spline_filter1d", output, x)
    rank = len(shape_of(x))
    if rank and not -rank <= axis < rank:
        raise np.exceptions.AxisError(f"spline_filter1d: axis {axis} is out of bounds for "
                                      f"an array of dimension {rank}")  # fmt: skip
    if order > 1 and rank:
        x = _filter_axis(
            ops.astype(x, np.promote_types(dtype, np.float64)), order, axis % rank, mode
        )
    return ops.astype(x, dtype)


@plain_calls_scipy("ndimage")
def spline_filter(
    input: ArrayLike,  # noqa: A002
    order: int = 3,
    output: Any = np.float64,
    mode: str = "mirror",
) -> Tensor:
    """The multidimensional B-spline coefficients of ``input``: :func:`spline_filter1d`
    along every axis in turn, as SciPy's. Linear in ``input``.

    Args:
        input: The array.
        order: The spline order, 2 to 5.
        output: The dtype of the result (float64; complex input gives complex).
        mode: How the array extends past its edges (SciPy's interpolation modes).

    Returns:
        The filtered array, of ``input``'s shape.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.spline_filter(tg.tensor([[0.0, 1.0], [1.0, 0.0]]), order=2).numpy()
    array([[-1.5,  2.5],
           [ 2.5, -1.5]])
    """
    order = _check_order("spline_filter", order, 2)
    mode = check_mode("spline_filter", mode)
    x = as_input(input)
    dtype = _output_dtype("spline_filter", output, x)
    x = ops.astype(x, np.promote_types(dtype, np.float64))
    for axis in range(len(shape_of(x))):
        x = _filter_axis(x, order, axis, mode)
    return ops.astype(x, dtype)


def _weights(t: Any, order: int) -> list[Any]:
    """The ``order + 1`` B-spline weights at ``t``, the offset from the middle knot
    (SciPy's ``get_spline_interpolation_weights``, the same polynomials)."""
    z = 1.0 - t
    if order == 2:
        y = 0.5 - t
        w = [0.5 * y * y, 0.75 - t * t]
    elif order == 3:
        w = [z * z * z / 6.0, (t * t * (t - 2.0) * 3.0 + 4.0) / 6.0]
        w.append((z * z * (z - 2.0) * 3.0 + 4.0) / 6.0)
    elif order == 4:
        s, y, q = t * t, 1.0 + t, (0.5 - t) * (0.5 - t)
        w = [q * q / 24.0, y * (y * (y * (5.0 - y) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0]
        w.append(s * (s * 0.25 - 0.625) + 115.0 / 192.0)
        w.append(z * (z * (z * (5.0 - z) / 6.0 - 1.25) + 5.0 / 24.0) + 55.0 / 96.0)
    else:
        y, z2, s, r = 1.0 + t, 2.0 - t, t * t, z * z
        w = [z * r * r / 120.0]
        w.append(y * (y * (y * (y * (y / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425)
        w.append(s * (s * (0.25 - t / 12.0) - 0.5) + 0.55)
        w.append(r * (r * (0.25 - z / 12.0) - 0.5) + 0.55)
        w.append(z2 * (z2 * (z2 * (z2 * (z2 / 24.0 - 0.375) + 1.25) - 1.75) + 0.625) + 0.425)
    last = 1.0 - w[0]
    for weight in w[1:]:
        last = last - weight
    return [*w, last]


def _stack(values: list[Any]) -> Any:
    if any(isinstance(v, Tensor) for v in values):
        return ops.stack(values)
    return np.stack(values)


def _prefilter(x: Any, order: int, mode: str, cval: float) -> tuple[Any, int]:
    """SciPy's prefilter: pad by 12 for nearest and grid-constant, then spline_filter."""
    pad = PAD if mode in ("nearest", "grid-constant") else 0
    if pad:
        for axis, n in enumerate(shape_of(x)):
            x = take_extended(x, axis, np.arange(-pad, n + pad), mode, cval)
    if not isinstance(x, Tensor):  # only the coordinates are differentiated: SciPy's kernel
        import scipy.ndimage

        return scipy.ndimage.spline_filter(np.asarray(x), order, mode=mode), pad
    return spline_filter(x, order, mode=mode), pad


def _footprint(c: Any, n: int, order: int, mode: str, pad: int) -> tuple[Any, ...]:
    """For coordinates ``c`` (flat) along an axis of ``n``: the footprint's indices
    ``(order + 1, m)``, whether each is inside (grid-constant), its weights, and the points
    that take ``cval`` (constant)."""
    host = np.asarray(host_value(c, "ndimage: the cells the coordinates fall in"), float)
    shifted = host + pad
    if mode in ("nearest", "grid-constant"):
        cc, slope, outside = shifted, np.ones_like(shifted), np.zeros(shifted.shape, bool)
    else:
        cc, slope, outside = map_coordinate(shifted, n, mode)
    base = np.floor(cc) if order & 1 else np.floor(cc + 0.5)
    # the fractional part, an affine function of c: slope * c + (cc - slope * host - base)
    t = c * slope + (cc - slope * host - base) if isinstance(c, Tensor) else cc - base
    index = base.astype(np.intp) - order // 2 + np.arange(order + 1)[:, None]
    inside = (index >= 0) & (index < n)
    if mode != "grid-constant":
        spline_mode = "mirror" if mode in ("constant", "wrap") else mode
        mapped = map_coordinate(index.astype(float), n, spline_mode)[0].astype(np.intp)
        index, inside = np.where(inside, index, mapped), np.ones_like(inside)
    return np.clip(index, 0, n - 1), inside, _stack(_weights(t, order)), outside


def spline_sample(
    x: Any, coordinates: list[Any], order: int, mode: str, cval: float, prefilter: bool
) -> Tensor:
    """``x`` (d axes) interpolated at ``coordinates`` (d arrays of one shape) by the spline
    of ``order`` (2 to 5), as SciPy's ``NI_GeometricTransform``."""
    dtype = np.result_type(np.dtype(x.dtype), np.float32)
    pad = 0
    if prefilter:
        x, pad = _prefilter(x, order, mode, cval)
    shape = shape_of(x)
    out_shape = tuple(shape_of(coordinates[0]))
    flat_coordinates = [
        ops.reshape(c, (-1,)) if isinstance(c, Tensor) else np.reshape(c, -1) for c in coordinates
    ]
    axes = [_footprint(c, shape[k], order, mode, pad) for k, c in enumerate(flat_coordinates)]
    strides = np.cumprod((1, *shape[:0:-1]))[::-1]
    flat = ops.reshape(x, (-1,))
    *leading, (last_index, last_inside, last_weights, _) = axes
    total: Any = None
    # one gather of the last axis's whole footprint per corner of the leading axes
    for corner in itertools.product(range(order + 1), repeat=len(leading)):
        offset, inside, weight = last_index * strides[-1], last_inside, last_weights
        for axis, k in enumerate(corner):
            index_k, inside_k, weights_k, _ = leading[axis]
            offset = offset + index_k[k] * strides[axis]
            inside = inside & inside_k[k]
            weight = weight * weights_k[k]
        value = ops.take(flat, offset)
        if not inside.all():
            value = ops.where(inside, value, cval)
        term = ops.sum(value * weight, axis=0)
        total = term if total is None else total + term
    outside = np.logical_or.reduce([a[3] for a in axes])
    if outside.any():
        total = ops.where(outside, cval, total)
    return ops.astype(ops.reshape(total, out_shape), dtype)
