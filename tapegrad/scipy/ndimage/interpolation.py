"""scipy.ndimage's interpolation with gradients: map_coordinates shift zoom
affine_transform rotate, orders 0 to 5 in every mode.

Each output point reads the ``(order + 1)^d`` input points around its coordinate
(SciPy's ``map_coordinate`` maps a coordinate outside the array by the mode first, an
affine map of slope ±1: tapegrad/scipy/ndimage/_boundary.py); which points, and the
extension of the indices past the edges, are decided on the host. The values are then a
gather of the input times weights built from the coordinates with differentiable ops:
linear (``order=1``) in the input and in the coordinates (and so in ``shift``, ``zoom``'s
output grid, ``affine_transform``'s matrix and offset, ``rotate``'s angle), piecewise
constant in the coordinates at ``order=0`` (gradient zero there). Orders 2 to 5 are
SciPy's B-splines (:mod:`.splines`: the prefilter, linear in the input, and weights smooth
in the coordinates).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.ndimage._boundary import check_mode, extend_indices, map_coordinate
from tapegrad.scipy.ndimage.splines import spline_sample

__all__ = ["affine_transform", "map_coordinates", "rotate", "shift", "zoom"]

ArrayLike = Any


def _check(name: str, output: Any, order: Any, mode: Any, cval: Any) -> str:
    if output is not None:
        raise NotImplementedError(
            f"{name}: output= is not supported on Tensors (a Tensor is never written in "
            "place); use the returned value"
        )
    if not isinstance(order, (int, np.integer)) or not 0 <= order <= 5:
        raise RuntimeError(f"{name}: spline order not supported, got order={order!r}")
    refuse_gradient(name, "cval", cval, "the fill value of the constant modes")
    return check_mode(name, mode)


def _sample(
    x: Any, coordinates: list[Any], order: int, mode: str, cval: float, prefilter: bool
) -> Tensor:
    """``x`` (d axes) interpolated at ``coordinates`` (d arrays of one shape)."""
    if order > 1:
        return spline_sample(x, coordinates, order, mode, cval, bool(prefilter))
    shape = shape_of(x)
    mapped: list[Any] = []
    outside: Any = None
    for axis, c in enumerate(coordinates):
        host = np.asarray(host_value(c, "ndimage: the cells the coordinates fall in"), float)
        cc, slope, out = map_coordinate(host, shape[axis], mode)
        mapped.append((c, host, cc, slope))
        outside = out if outside is None else outside | out
    flat = ops.reshape(x, (-1,))
    strides = np.cumprod((1, *shape[:0:-1]))[::-1]
    corners: list[tuple[Any, np.ndarray, np.ndarray]] = [(None, 0, True)]  # type: ignore[list-item]
    for axis, (c, host, cc, slope) in enumerate(mapped):
        n = shape[axis]
        start = np.floor(cc + (0.5 if order == 0 else 0.0)).astype(np.intp)
        steps = []
        if order == 0:
            steps.append((None, start))
        else:
            # t = cc - start, an affine function of c: slope * c + (cc - slope * host - start)
            t = c * slope + (cc - slope * host - start) if isinstance(c, Tensor) else cc - start
            steps += [(1 - t, start), (t, start + 1)]
        grown = []
        for weight, offset, inside in corners:
            for w, index in steps:
                found, ok = extend_indices(index, n, mode)
                product = w if weight is None else (weight if w is None else weight * w)
                grown.append((product, offset + found * strides[axis], inside & ok))
        corners = grown
    total: Any = None
    for weight, offset, inside in corners:
        value = ops.take(flat, np.asarray(offset, dtype=np.intp))
        if not np.all(inside):
            value = ops.where(inside, value, cval)
        term = value if weight is None else value * weight
        total = term if total is None else total + term
    if outside is not None and outside.any():
        total = ops.where(outside, cval, total)
    return ops.astype(total, np.result_type(np.dtype(x.dtype), np.float32))


def _float_input(name: str, x: Any) -> Any:
    x = as_input(x)
    if np.dtype(x.dtype).kind == "c":
        raise NotImplementedError(f"{name}: complex input is not supported on Tensors yet")
    return x


@plain_calls_scipy("ndimage")
def map_coordinates(
    input: ArrayLike,  # noqa: A002 - SciPy's name
    coordinates: ArrayLike,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: float = 0.0,
    prefilter: bool = True,
) -> Tensor:
    """``input`` interpolated at ``coordinates`` (shape ``(input.ndim, ...)``), as SciPy's:
    orders 0 to 5 in every mode on Tensors, differentiable in ``input`` and (orders 1 to 5)
    in ``coordinates``. ``prefilter`` (orders above 1) applies SciPy's spline_filter
    first; without it the input is taken as the spline coefficients.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> a = tg.tensor([0.0, 10.0, 20.0])
    >>> ndimage.map_coordinates(a, tg.tensor([[0.5, 1.25]]), order=1).numpy()
    array([ 5. , 12.5])
    >>> tg.grad(lambda c: tg.sum(ndimage.map_coordinates(a, c, order=1)))(tg.tensor([[0.5]]))
    tensor([[10.]], dtype=float64)
    """
    mode = _check("map_coordinates", output, order, mode, cval)
    x = _float_input("map_coordinates", input)
    c = as_input(coordinates)
    shape = shape_of(c)
    if len(shape) < 1 or shape[0] != len(shape_of(x)):
        raise RuntimeError(
            f"map_coordinates: invalid shape for coordinate array: {tuple(shape)} for an "
            f"input of shape {tuple(shape_of(x))}"
        )
    return _sample(x, [c[k] for k in range(shape[0])], int(order), mode, cval, prefilter)


def _grid(shape: tuple[int, ...]) -> list[np.ndarray]:
    return [g.astype(float) for g in np.indices(shape)]


def _sequence(value: Any, rank: int) -> list[Any]:
    if isinstance(value, Tensor) and len(value.shape) == 1:
        return [value[k] for k in range(rank)]
    if isinstance(value, (list, tuple)):
        if len(value) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return list(value)
    if isinstance(value, np.ndarray) and value.ndim == 1:
        return list(value)
    return [value] * rank


@plain_calls_scipy("ndimage")
def shift(
    input: ArrayLike,  # noqa: A002
    shift: Any,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: float = 0.0,
    prefilter: bool = True,
) -> Tensor:
    """``input`` shifted by ``shift`` (a number or one per axis) with SciPy's
    interpolation: output point ``k`` reads ``k - shift``. Differentiable in ``input``
    and (orders 1 to 5) in ``shift``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.shift(tg.tensor([0.0, 10.0, 20.0]), 0.5, order=1, mode="nearest").numpy()
    array([ 0.,  5., 15.])
    """
    mode = _check("shift", output, order, mode, cval)
    x = _float_input("shift", input)
    rank = len(shape_of(x))
    grid = _grid(tuple(shape_of(x)))
    shifts = _sequence(shift, rank)
    return _sample(
        x, [g - s for g, s in zip(grid, shifts, strict=True)], int(order), mode, cval, prefilter
    )


@plain_calls_scipy("ndimage")
def zoom(
    input: ArrayLike,  # noqa: A002
    zoom: Any,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: float = 0.0,
    prefilter: bool = True,
    *,
    grid_mode: bool = False,
) -> Tensor:
    """``input`` resampled by ``zoom`` (a number or one per axis) with SciPy's
    interpolation and output shape ``round(shape * zoom)``; ``grid_mode`` aligns the
    pixel edges rather than centres, as SciPy's. Differentiable in ``input``; ``zoom``
    sets a shape and takes no gradient.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.zoom(tg.tensor([0.0, 10.0]), 1.5, order=1).numpy()
    array([ 0.,  5., 10.])
    """
    mode = _check("zoom", output, order, mode, cval)
    refuse_gradient("zoom", "zoom", zoom, "it sets the output shape")
    x = _float_input("zoom", input)
    shape = tuple(shape_of(x))
    zooms = [float(z) for z in _sequence(zoom, len(shape))]
    if prefilter and all(z == 1 for z in zooms):  # SciPy returns the input as it is
        return ops.astype(x, np.result_type(np.dtype(x.dtype), np.float32))
    out_shape = tuple(round(n * z) for n, z in zip(shape, zooms, strict=True))
    ratios = []
    for n, m in zip(shape, out_shape, strict=True):
        if grid_mode:
            ratios.append(n / m if m else 1.0)
        else:
            ratios.append((n - 1) / (m - 1) if m > 1 else 1.0)
    coordinates = []
    for axis, g in enumerate(_grid(out_shape)):
        if grid_mode:
            coordinates.append((g + 0.5) * ratios[axis] - 0.5)
        else:
            coordinates.append(g * ratios[axis])
    return _sample(x, coordinates, int(order), mode, cval, prefilter)


@plain_calls_scipy("ndimage")
def affine_transform(
    input: ArrayLike,  # noqa: A002
    matrix: ArrayLike,
    offset: Any = 0.0,
    output_shape: Any = None,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: float = 0.0,
    prefilter: bool = True,
) -> Tensor:
    """``input`` resampled at ``matrix @ o + offset`` for each output index ``o``, as
    SciPy's: ``matrix`` a square ``(d, d)`` matrix, a diagonal ``(d,)``, or a homogeneous
    ``(d, d + 1)``/``(d + 1, d + 1)`` one. Differentiable in ``input`` and (orders 1-5) in
    ``matrix`` and ``offset``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> a = tg.tensor([0.0, 10.0, 20.0, 30.0])
    >>> ndimage.affine_transform(a, tg.tensor([0.5]), order=1).numpy()
    array([ 0.,  5., 10., 15.])
    """
    mode = _check("affine_transform", output, order, mode, cval)
    x = _float_input("affine_transform", input)
    shape = tuple(shape_of(x))
    rank = len(shape)
    out_shape = shape if output_shape is None else tuple(int(n) for n in output_shape)
    m = as_input(matrix)
    mshape = tuple(shape_of(m))
    grid = _grid(out_shape)
    if len(mshape) == 2 and mshape[0] == rank + 1 and mshape[1] == rank + 1:
        m = m[:rank]
        mshape = (rank, rank + 1)
    if len(mshape) == 2 and mshape == (rank, rank + 1):
        offset = m[:, rank]
        m = m[:, :rank]
        mshape = (rank, rank)
    offsets = _sequence(offset, rank)
    if len(out_shape) != rank:
        raise RuntimeError("affine_transform: output_shape must have the input's rank")
    if mshape == (rank,):
        coordinates = [grid[k] * m[k] + offsets[k] for k in range(rank)]
    elif mshape == (rank, rank):
        coordinates = []
        for k in range(rank):
            total: Any = offsets[k]
            for j in range(rank):
                total = grid[j] * m[k, j] + total
            coordinates.append(total)
    else:
        raise RuntimeError(
            f"affine_transform: matrix must be (d,), (d, d), (d, d + 1) or (d + 1, d + 1) "
            f"with d = {rank}, got shape {mshape}"
        )
    return _sample(x, coordinates, int(order), mode, cval, prefilter)


@plain_calls_scipy("ndimage")
def rotate(
    input: ArrayLike,  # noqa: A002
    angle: Any,
    axes: Any = (1, 0),
    reshape: bool = True,
    output: Any = None,
    order: int = 3,
    mode: str = "constant",
    cval: float = 0.0,
    prefilter: bool = True,
) -> Tensor:
    """``input`` rotated by ``angle`` degrees in the plane of ``axes``, as SciPy's (the
    output grows to hold it with ``reshape``). Differentiable in ``input`` and (orders 1-5)
    in ``angle`` where ``reshape`` is false (with ``reshape`` the output shape depends
    on the angle: refused).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.rotate(tg.tensor([[1.0, 2.0], [3.0, 4.0]]), 90, order=1).numpy()
    array([[2., 4.],
           [1., 3.]])
    """
    mode = _check("rotate", output, order, mode, cval)
    x = _float_input("rotate", input)
    if reshape:
        refuse_gradient("rotate", "angle", angle, "reshape=True: the output shape depends on it")
    shape = tuple(shape_of(x))
    rank = len(shape)
    if rank < 2:
        raise ValueError("rotate: input array should be at least 2D")
    ax = sorted(int(a) % rank for a in axes)
    if len(ax) != 2 or ax[0] == ax[1]:
        raise ValueError("rotate: axes must be two distinct axes")
    host = float(host_value(angle, "rotate: the angle")) if isinstance(angle, Tensor) else angle
    rad = np.deg2rad(host)
    c, s = math.cos(rad), math.sin(rad)
    if isinstance(angle, Tensor):
        theta = angle * (np.pi / 180)
        cos, sin = ops.cos(theta), ops.sin(theta)
    else:
        # SciPy's rounding of the angle's cosine and sine
        cos, sin = special_cosdg(host), special_sindg(host)
        c, s = cos, sin
    in_plane = np.array([shape[ax[0]], shape[ax[1]]], dtype=float)
    if reshape:
        corners = np.array([[0, 0, in_plane[0], in_plane[0]], [0, in_plane[1], 0, in_plane[1]]])
        rot = np.array([[c, s], [-s, c]])
        out_bounds = rot @ corners
        out_plane = (np.ptp(out_bounds, axis=1) + 0.5).astype(int)
    else:
        out_plane = in_plane.astype(int)
    out_shape = list(shape)
    out_shape[ax[0]], out_shape[ax[1]] = int(out_plane[0]), int(out_plane[1])
    out_center = (np.asarray(out_plane, float) - 1) / 2
    in_center = (in_plane - 1) / 2
    grid = _grid(tuple(out_shape))
    u, v = grid[ax[0]] - out_center[0], grid[ax[1]] - out_center[1]
    coordinates = list(grid)
    # matrix [[cos, sin], [-sin, cos]] applied to (u, v), then the input centre
    coordinates[ax[0]] = u * cos + v * sin + in_center[0]
    coordinates[ax[1]] = v * cos - u * sin + in_center[1]
    return _sample(x, coordinates, int(order), mode, cval, prefilter)


def special_cosdg(angle: float) -> float:
    import scipy.special

    return float(scipy.special.cosdg(angle))


def special_sindg(angle: float) -> float:
    import scipy.special

    return float(scipy.special.sindg(angle))
