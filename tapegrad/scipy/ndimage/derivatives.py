"""scipy.ndimage's derivative filters with gradients: sobel prewitt laplace, each a
[-1, 0, 1] (or [1, -2, 1]) correlation along an axis, smoothed on the others for sobel and
prewitt (filters.py); linear in the input and differentiable to every order.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.ndimage.filters import _along, _axes, _per_axis, _start

__all__ = ["laplace", "prewitt", "sobel"]

ArrayLike = Any


def _derivative(
    name: str, input: Any, axis: int, output: Any, mode: Any, cval: Any, smooth: list[float],  # noqa: A002
) -> Tensor:  # fmt: skip
    x = _start(name, input, output, cval)
    rank = len(shape_of(x))
    (axis,) = _axes(name, axis, rank)
    modes = _per_axis(mode, rank)
    out = _along(x, np.array([-1.0, 0.0, 1.0]), axis, modes[axis], cval, 0, name)
    for a in range(rank):
        if a != axis:
            out = _along(out, np.array(smooth), a, modes[a], cval, 0, name)
    return out


@plain_calls_scipy("ndimage")
def sobel(
    input: ArrayLike,  # noqa: A002
    axis: int = -1,
    output: Any = None,
    mode: Any = "reflect",
    cval: float = 0.0,
) -> Tensor:
    """The Sobel derivative of ``input`` along ``axis`` ([-1, 0, 1] there, [1, 2, 1] on
    the other axes), as SciPy's; differentiable in ``input``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.sobel(tg.tensor([0.0, 1.0, 4.0]), mode="nearest").numpy()
    array([1., 4., 3.])
    """
    return _derivative("sobel", input, axis, output, mode, cval, [1.0, 2.0, 1.0])


@plain_calls_scipy("ndimage")
def prewitt(
    input: ArrayLike,  # noqa: A002
    axis: int = -1,
    output: Any = None,
    mode: Any = "reflect",
    cval: float = 0.0,
) -> Tensor:
    """The Prewitt derivative of ``input`` along ``axis`` ([-1, 0, 1] there, [1, 1, 1] on
    the other axes), as SciPy's; differentiable in ``input``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.prewitt(tg.tensor([0.0, 1.0, 4.0]), mode="nearest").numpy()
    array([1., 4., 3.])
    """
    return _derivative("prewitt", input, axis, output, mode, cval, [1.0, 1.0, 1.0])


@plain_calls_scipy("ndimage")
def laplace(
    input: ArrayLike,  # noqa: A002
    output: Any = None,
    mode: Any = "reflect",
    cval: float = 0.0,
    *,
    axes: Any = None,
) -> Tensor:
    """The discrete Laplacian of ``input``: the sum over ``axes`` of [1, -2, 1]
    correlations, as SciPy's; differentiable in ``input``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.laplace(tg.tensor([0.0, 1.0, 4.0]), mode="nearest").numpy()
    array([ 1.,  2., -3.])
    """
    x = _start("laplace", input, output, cval)
    along = _axes("laplace", axes, len(shape_of(x)))
    modes = _per_axis(mode, len(along))
    total: Any = None
    for k, a in enumerate(along):
        term = _along(x, np.array([1.0, -2.0, 1.0]), a, modes[k], cval, 0, "laplace")
        total = term if total is None else total + term
    return total if total is not None else x * 1.0
