"""scipy.interpolate's griddata with gradients, on scattered points in any dimension.

``method="linear"``: SciPy's Delaunay triangulation of the points (Qhull, on the host,
after ``rescale``'s shift and scaling) and its simplex search decide which simplex holds
each point of ``xi``; the value is then the barycentric combination SciPy computes,
``sum_j c_j values[v_j]`` with ``c = T (x - r)`` from the simplex's stored transform,
written with tapegrad ops: linear in ``values`` and affine in ``xi`` within a simplex (so
differentiable there; continuous with a kink across a face). Points outside the convex
hull take ``fill_value``.

``method="nearest"``: SciPy's KD-tree picks the node; the value is a gather of ``values``
(piecewise constant in ``xi``: its gradient there is zero).

``method="cubic"`` (2-d, Clough-Tocher): the gradients SciPy estimates at the nodes come
from an iteration that stops at a tolerance, so the interpolant is not an exact linear map
of ``values``: its values are SciPy's; a gradient through it raises NotImplementedError.

One-dimensional points go through :class:`~tapegrad.scipy.interpolate.interp1d`, as in
SciPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.record import is_recorded
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.interpolate.interp_1d import interp1d

__all__ = ["griddata"]

ArrayLike = Any


def _host(value: Any, what: str) -> np.ndarray:
    if isinstance(value, tuple):
        value = tuple(_host(v, what) for v in value)
        return _coordinates_host(value)
    return np.asarray(host_value(value, f"griddata: {what}"), dtype=float)


def _coordinates_host(points: tuple[np.ndarray, ...]) -> np.ndarray:
    arrays = np.broadcast_arrays(*points)
    return np.stack([np.asarray(a, float) for a in arrays], axis=-1)


def _coordinates(xi: Any, ndim: int) -> Any:
    """SciPy's ``_ndim_coords_from_arrays``: a tuple of coordinate arrays (broadcast) or an
    array ``(..., ndim)`` (a flat one read as ``(-1, ndim)``), as a Tensor or array."""
    if isinstance(xi, tuple) and len(xi) == 1:
        xi = xi[0]
    if isinstance(xi, tuple):
        parts = [ops.astype(as_input(x), np.float64) for x in xi]
        return ops.stack(ops.broadcast_arrays(*parts), axis=-1)
    if isinstance(xi, list) and holds_tensor(xi):
        xi = ops.stack([as_input(x) for x in xi])
    x = as_input(xi)
    if len(shape_of(x)) == 1:
        x = ops.reshape(x, (-1, ndim))
    return ops.astype(x, np.float64)


def _linear(points: np.ndarray, values: Any, xi: Any, fill_value: Any, rescale: bool) -> Any:
    """SciPy's LinearNDInterpolator, with the barycentric weights on the tape."""
    import scipy.interpolate

    n, ndim = points.shape
    found = scipy.interpolate.LinearNDInterpolator(points, np.zeros(n), rescale=rescale)
    x = ops.reshape(xi, (-1, ndim))
    if rescale:
        x = (x - found.offset) / found.scale
    simplex = found.tri.find_simplex(_host(x, "the simplex each point lies in"))
    outside = simplex < 0
    simplex = np.where(outside, 0, simplex)
    transform = found.tri.transform[simplex]  # (m, ndim + 1, ndim): T, then r
    vertices = found.tri.simplices[simplex]  # (m, ndim + 1)
    if outside.any():  # a finite stand-in: no NaN reaches the gradient of the filled points
        x = ops.where(outside[:, None], transform[:, ndim, :], x)
    weights: list[Any] = []
    last: Any = 1.0
    for i in range(ndim):  # c_i = sum_j T_ij (x_j - r_j), c_ndim = 1 - sum_i c_i
        c: Any = 0.0
        for j in range(ndim):
            c = c + transform[:, i, j] * (x[:, j] - transform[:, ndim, j])
        weights.append(c)
        last = last - c
    weights.append(last)
    total: Any = 0.0
    for j, c in enumerate(weights):
        total = total + ops.expand_dims(c, 1) * ops.take(values, vertices[:, j], axis=0)
    if outside.any():
        total = ops.where(outside[:, None], fill_value, total)
    return total


@plain_calls_scipy("interpolate")
def griddata(
    points: ArrayLike,
    values: ArrayLike,
    xi: ArrayLike,
    method: str = "linear",
    fill_value: float = np.nan,
    rescale: bool = False,
) -> Tensor:
    """``values`` given at scattered ``points`` (shape ``(n, ndim)`` or a tuple of
    ``ndim`` arrays), interpolated at ``xi``, as SciPy's: ``method`` ``linear``
    (Delaunay, barycentric), ``nearest`` or ``cubic`` (2-d Clough-Tocher; 1-d cubic
    spline); points outside the convex hull take ``fill_value`` (not ``nearest``);
    ``rescale`` scales the points to the unit cube first. Differentiable in ``values``
    and, for ``linear``, in ``xi`` (``nearest`` is piecewise constant in ``xi``); ``cubic``
    in 2-d gives SciPy's values with no gradient (NotImplementedError under a tape).

    Args:
        points: The data points, ``(n, ndim)`` or a tuple of ``ndim`` arrays of length n.
        values: The data values, ``(n, ...)``, real or complex.
        xi: Where to interpolate: ``(..., ndim)`` or a tuple of ``ndim`` broadcastable
            arrays.
        method: ``linear``, ``nearest`` or ``cubic``.
        fill_value: The value outside the convex hull.
        rescale: Whether to rescale the points to the unit cube before triangulating.

    Returns:
        The interpolated values, of shape ``xi.shape[:-1] + values.shape[1:]``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.interpolate import griddata
    >>> points = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]]
    >>> griddata(points, tg.tensor([0.0, 1.0, 2.0]), tg.tensor([[0.25, 0.25]])).numpy()
    array([0.75])
    """
    refuse_gradient("griddata", "points", points, "the triangulation is decided from them")
    refuse_gradient("griddata", "fill_value", fill_value, "a constant fill")
    host_points = _host(points, "the points")
    if host_points.ndim == 1:
        host_points = host_points.reshape(-1, 1)
    if host_points.ndim != 2:
        raise ValueError(f"griddata: invalid shape for input data points {host_points.shape}")
    n, ndim = host_points.shape
    values = as_input(values)
    value_shape = tuple(shape_of(values))
    if not value_shape or value_shape[0] != n:
        raise ValueError(
            f"griddata: different number of values and points (values {value_shape}, "
            f"points {host_points.shape})"
        )
    complex_values = np.dtype(values.dtype).kind == "c"
    values = ops.astype(values, np.complex128 if complex_values else np.float64)
    if ndim == 1 and method in ("nearest", "linear", "cubic"):
        if isinstance(xi, tuple):
            if len(xi) != 1:
                raise ValueError("griddata: invalid number of dimensions in xi")
            (xi,) = xi
        order = np.argsort(host_points.ravel())
        fill = "extrapolate" if method == "nearest" else fill_value
        spline = interp1d(host_points.ravel()[order], ops.take(values, order, axis=0),
                          kind=method, axis=0, bounds_error=False, fill_value=fill)  # fmt: skip
        return spline(xi)
    if method not in ("nearest", "linear") and not (method == "cubic" and ndim == 2):
        raise ValueError(
            f"griddata: Unknown interpolation method {method!r} for {ndim} dimensional data"
        )
    x = _coordinates(xi, ndim)
    shape = tuple(shape_of(x))
    if shape[-1] != ndim:
        raise ValueError(
            f"griddata: number of dimensions in xi ({shape[-1]}) does not match the points' "
            f"({ndim})"
        )
    flat_values = ops.reshape(values, (n, -1))
    if method == "cubic":
        if is_recorded(values) or is_recorded(x):
            raise NotImplementedError(
                "griddata: method='cubic' in 2-d has no gradient (Clough-Tocher's node "
                "gradients come from an iteration stopped at a tolerance, not an exact "
                "linear map of the values); use method='linear', or pass constants for "
                "SciPy's values"
            )
        import scipy.interpolate

        host_values = np.asarray(host_value(values, "griddata: cubic values"))
        result = scipy.interpolate.griddata(host_points, host_values, _host(x, "xi"),
                                            "cubic", fill_value, rescale)  # fmt: skip
        return ops.asarray(result, like=values if isinstance(values, Tensor) else x)
    if method == "nearest":
        import scipy.interpolate

        nearest = scipy.interpolate.NearestNDInterpolator(
            host_points, np.arange(n, dtype=float), rescale=rescale
        )
        index = nearest(_host(ops.reshape(x, (-1, ndim)), "xi")).astype(np.intp)
        out = ops.take(flat_values, index, axis=0)
    else:
        fill = complex(fill_value) if complex_values else float(fill_value)
        out = _linear(host_points, flat_values, x, fill, bool(rescale))
    return ops.reshape(out, shape[:-1] + value_shape[1:])
