"""scipy.ndimage's smoothing filters with gradients: gaussian_filter1d gaussian_filter
uniform_filter1d uniform_filter, each a 1-d correlation per axis (filters.py), linear in
the input and differentiable to every order. The Gaussian and uniform weights come from
``sigma``, ``truncate``, ``radius`` and ``size``: constants (refused on a tape).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.ndimage.filters import _along, _axes, _per_axis, _start

__all__ = ["gaussian_filter", "gaussian_filter1d", "uniform_filter", "uniform_filter1d"]

ArrayLike = Any


def _gaussian_weights(sigma: float, order: int, truncate: float, radius: Any) -> np.ndarray:
    from scipy.ndimage._filters import _gaussian_kernel1d

    lw = int(truncate * float(sigma) + 0.5) if radius is None else radius
    if not isinstance(lw, (int, np.integer)) or lw < 0:
        raise ValueError("Radius must be a nonnegative integer.")
    return np.ascontiguousarray(_gaussian_kernel1d(sigma, order, int(lw))[::-1])


@plain_calls_scipy("ndimage")
def gaussian_filter1d(
    input: ArrayLike,  # noqa: A002
    sigma: float,
    axis: int = -1,
    order: int = 0,
    output: Any = None,
    mode: str = "reflect",
    cval: float = 0.0,
    truncate: float = 4.0,
    *,
    radius: Any = None,
) -> Tensor:
    """The 1-d Gaussian filter (``order``: of the Gaussian's derivative) of ``input``
    along ``axis``, as SciPy's; linear, differentiable in ``input``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.gaussian_filter1d(tg.tensor([0.0, 1.0, 0.0]), 1.0, radius=1).numpy().round(4)
    array([0.2741, 0.4519, 0.2741])
    """
    x = _start("gaussian_filter1d", input, output, cval)
    refuse_gradient("gaussian_filter1d", "sigma", sigma, "it sets the weights")
    (axis,) = _axes("gaussian_filter1d", axis, len(shape_of(x)))
    w = _gaussian_weights(sigma, int(order), truncate, radius)
    return _along(x, w, axis, mode, cval, 0, "gaussian_filter1d")


@plain_calls_scipy("ndimage")
def gaussian_filter(
    input: ArrayLike,  # noqa: A002
    sigma: Any,
    order: Any = 0,
    output: Any = None,
    mode: Any = "reflect",
    cval: float = 0.0,
    truncate: float = 4.0,
    *,
    radius: Any = None,
    axes: Any = None,
) -> Tensor:
    """The Gaussian filter of ``input``: one 1-d filter per axis of ``axes`` (``sigma``,
    ``order``, ``mode`` and ``radius`` one each or one for all), as SciPy's;
    differentiable in ``input``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.gaussian_filter(tg.tensor([0.0, 1.0, 0.0]), 1.0, radius=1).numpy().round(4)
    array([0.2741, 0.4519, 0.2741])
    """
    x = _start("gaussian_filter", input, output, cval)
    refuse_gradient("gaussian_filter", "sigma", sigma, "it sets the weights")
    along = _axes("gaussian_filter", axes, len(shape_of(x)))
    count = len(along)
    orders, sigmas = _per_axis(order, count), _per_axis(sigma, count)
    modes, radii = _per_axis(mode, count), _per_axis(radius, count)
    out = x
    for k, a in enumerate(along):
        if sigmas[k] > 1e-15:
            w = _gaussian_weights(sigmas[k], int(orders[k]), truncate, radii[k])
            out = _along(out, w, a, modes[k], cval, 0, "gaussian_filter")
    return out if out is not x else x * 1.0


@plain_calls_scipy("ndimage")
def uniform_filter1d(
    input: ArrayLike,  # noqa: A002
    size: int,
    axis: int = -1,
    output: Any = None,
    mode: str = "reflect",
    cval: float = 0.0,
    origin: int = 0,
) -> Tensor:
    """The mean over a window of ``size`` along ``axis`` (placed by ``origin``), the
    input extended by ``mode``, as SciPy's; differentiable in ``input``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.uniform_filter1d(tg.tensor([0.0, 3.0, 6.0]), 3, mode="nearest").numpy()
    array([1., 3., 5.])
    """
    x = _start("uniform_filter1d", input, output, cval)
    if int(size) < 1:
        raise RuntimeError("uniform_filter1d: incorrect filter size")
    (axis,) = _axes("uniform_filter1d", axis, len(shape_of(x)))
    w = np.full(int(size), 1.0 / int(size))
    return _along(x, w, axis, mode, cval, int(origin), "uniform_filter1d")


@plain_calls_scipy("ndimage")
def uniform_filter(
    input: ArrayLike,  # noqa: A002
    size: Any = 3,
    output: Any = None,
    mode: Any = "reflect",
    cval: float = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> Tensor:
    """The mean over a window of ``size`` (one per axis of ``axes``, or one for all), as
    SciPy's: a 1-d uniform filter per axis; differentiable in ``input``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.uniform_filter(tg.tensor([0.0, 3.0, 6.0]), mode="nearest").numpy()
    array([1., 3., 5.])
    """
    x = _start("uniform_filter", input, output, cval)
    along = _axes("uniform_filter", axes, len(shape_of(x)))
    count = len(along)
    sizes, origins = _per_axis(size, count), _per_axis(origin, count)
    modes = _per_axis(mode, count)
    out = x
    for k, a in enumerate(along):
        if sizes[k] > 1:
            w = np.full(int(sizes[k]), 1.0 / int(sizes[k]))
            out = _along(out, w, a, modes[k], cval, int(origins[k]), "uniform_filter")
    return out if out is not x else x * 1.0
