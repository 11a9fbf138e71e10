"""scipy.ndimage's linear filters with gradients, and the machinery they share:
correlate1d convolve1d correlate convolve here; the smoothing filters are in smoothing.py,
the derivative filters in derivatives.py.

Each extends the input past its edges as ``mode`` says (a gather of host indices,
``cval`` for the constant modes: tapegrad/scipy/ndimage/_boundary.py) and takes the
``valid`` correlation with the weights (tapegrad.scipy.signal.correlate), so each is
linear in the input, differentiable to every order, and ``correlate``/``convolve`` are
differentiable in ``weights`` too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.ndimage._boundary import check_mode, take_extended

__all__ = ["convolve", "convolve1d", "correlate", "correlate1d"]

ArrayLike = Any


def _start(name: str, input: Any, output: Any, cval: Any) -> Any:  # noqa: A002
    if output is not None:
        raise NotImplementedError(
            f"{name}: output= is not supported on Tensors (a Tensor is never written in "
            "place); use the returned value"
        )
    refuse_gradient(name, "cval", cval, "the fill value of the constant modes")
    x = as_input(input)
    if np.dtype(x.dtype).kind == "c":
        raise NotImplementedError(f"{name}: complex input is not supported on Tensors yet")
    if np.dtype(x.dtype).kind != "f":
        x = ops.astype(x, np.float64)
    return x


def _axes(name: str, axes: Any, rank: int) -> list[int]:
    if axes is None:
        return list(range(rank))
    found = [int(axes)] if np.ndim(axes) == 0 else [int(a) for a in axes]
    out = []
    for a in found:
        if not -rank <= a < rank:
            raise ValueError(f"{name}: axis {a} is out of bounds for an input of rank {rank}")
        out.append(a % rank)
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: axes must be unique, got {axes!r}")
    return out


def _per_axis(value: Any, count: int) -> list[Any]:
    """SciPy's ``_normalize_sequence``: a string or number for every axis, or one each."""
    if isinstance(value, str) or not isinstance(value, (Sequence, np.ndarray)):
        return [value] * count
    value = list(value)
    if len(value) != count:
        raise RuntimeError("sequence argument must have length equal to input rank")
    return value


def _extend(name: str, x: Any, axis: int, left: int, right: int, mode: str, cval: float) -> Any:
    n = shape_of(x)[axis]
    index = np.arange(-left, n + right)
    return take_extended(x, axis, index, check_mode(name, mode), cval)


def _check_origin(name: str, origin: int, size: int) -> None:
    if not -(size // 2) <= origin <= (size - 1) // 2:
        raise ValueError(
            f"{name}: invalid origin {origin} for a filter of size {size}; origin must "
            "satisfy -(size // 2) <= origin <= (size - 1) // 2"
        )


def _correlate_valid(x: Any, w: Any) -> Tensor:
    from tapegrad.scipy import signal

    return signal.correlate(x, w, mode="valid")


@plain_calls_scipy("ndimage")
def correlate1d(
    input: ArrayLike,  # noqa: A002 - SciPy's name
    weights: ArrayLike,
    axis: int = -1,
    output: Any = None,
    mode: str = "reflect",
    cval: float = 0.0,
    origin: int = 0,
) -> Tensor:
    """The correlation of ``input`` with the 1-d ``weights`` along ``axis``, the input
    extended past its edges by ``mode``, as SciPy's; differentiable in both.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.correlate1d(tg.tensor([1.0, 2.0, 4.0]), [1.0, -1.0], mode="nearest").numpy()
    array([ 0., -1., -2.])
    """
    x = _start("correlate1d", input, output, cval)
    w = as_input(weights)
    if len(shape_of(w)) != 1 or shape_of(w)[0] < 1:
        raise RuntimeError(f"correlate1d: weights must be 1-d and not empty, got {shape_of(w)}")
    rank = len(shape_of(x))
    (axis,) = _axes("correlate1d", axis, rank)
    return _along(x, w, axis, mode, cval, int(origin), "correlate1d")


def _along(x: Any, w: Any, axis: int, mode: str, cval: float, origin: int, name: str) -> Tensor:
    size = shape_of(w)[0]
    _check_origin(name, origin, size)
    left = size // 2 + origin
    padded = _extend(name, x, axis, left, size - 1 - left, mode, cval)
    shape = [1] * len(shape_of(x))
    shape[axis] = size
    return _correlate_valid(padded, ops.reshape(w, tuple(shape)))


@plain_calls_scipy("ndimage")
def convolve1d(
    input: ArrayLike,  # noqa: A002
    weights: ArrayLike,
    axis: int = -1,
    output: Any = None,
    mode: str = "reflect",
    cval: float = 0.0,
    origin: int = 0,
) -> Tensor:
    """The convolution of ``input`` with the 1-d ``weights`` along ``axis``, as SciPy's
    (a correlation with the flipped weights); differentiable in both.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> ndimage.convolve1d(tg.tensor([1.0, 2.0, 4.0]), [1.0, -1.0], mode="nearest").numpy()
    array([1., 2., 0.])
    """
    x = _start("convolve1d", input, output, cval)
    w = as_input(weights)
    if len(shape_of(w)) != 1 or shape_of(w)[0] < 1:
        raise RuntimeError(f"convolve1d: weights must be 1-d and not empty, got {shape_of(w)}")
    (axis,) = _axes("convolve1d", axis, len(shape_of(x)))
    size = shape_of(w)[0]
    origin = -int(origin)
    if not size & 1:
        origin -= 1
    return _along(x, ops.flip(w, 0), axis, mode, cval, origin, "convolve1d")


def _nd(
    name: str, input: Any, weights: Any, output: Any, mode: Any, cval: Any, origin: Any,  # noqa: A002
    axes: Any, convolution: bool,
) -> Tensor:  # fmt: skip
    x = _start(name, input, output, cval)
    if not isinstance(mode, str):
        raise RuntimeError(f"{name}: a sequence of modes is not supported")
    w = as_input(weights)
    rank = len(shape_of(x))
    along = _axes(name, axes, rank)
    if len(shape_of(w)) != len(along):
        raise RuntimeError(
            f"{name}: weights.ndim ({len(shape_of(w))}) must match len(axes) ({len(along)})"
        )
    origins = [int(o) for o in _per_axis(origin, len(along))]
    wshape = [1] * rank
    full_origin = [0] * rank
    for k, a in enumerate(sorted(along)):  # SciPy's: the weights' axes in axis order
        wshape[a] = shape_of(w)[k]
        full_origin[a] = origins[k]
    w = ops.reshape(w, tuple(wshape))
    if convolution:
        w = ops.flip(w, tuple(range(rank)))
        full_origin = [-o - (0 if wshape[k] & 1 else 1) for k, o in enumerate(full_origin)]
    padded = x
    for a in range(rank):
        size = wshape[a]
        if size == 1 and full_origin[a] == 0:
            continue
        _check_origin(name, full_origin[a], size)
        left = size // 2 + full_origin[a]
        padded = _extend(name, padded, a, left, size - 1 - left, mode, cval)
    return _correlate_valid(padded, w)


@plain_calls_scipy("ndimage")
def correlate(
    input: ArrayLike,  # noqa: A002
    weights: ArrayLike,
    output: Any = None,
    mode: str = "reflect",
    cval: float = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> Tensor:
    """The n-d correlation of ``input`` with ``weights`` (over ``axes``, all by default),
    the input extended by ``mode``, as SciPy's; differentiable in both.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> a = tg.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ndimage.correlate(a, [[0.0, 1.0], [1.0, 0.0]], mode="constant").numpy()
    array([[0., 1.],
           [1., 5.]])
    """
    return _nd("correlate", input, weights, output, mode, cval, origin, axes, False)


@plain_calls_scipy("ndimage")
def convolve(
    input: ArrayLike,  # noqa: A002
    weights: ArrayLike,
    output: Any = None,
    mode: str = "reflect",
    cval: float = 0.0,
    origin: Any = 0,
    *,
    axes: Any = None,
) -> Tensor:
    """The n-d convolution of ``input`` with ``weights`` (over ``axes``), as SciPy's: a
    correlation with the weights flipped and the origin mirrored; differentiable in both.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import ndimage
    >>> a = tg.tensor([[1.0, 2.0], [3.0, 4.0]])
    >>> ndimage.convolve(a, [[0.0, 1.0], [1.0, 0.0]], mode="constant").numpy()
    array([[5., 4.],
           [4., 0.]])
    """
    return _nd("convolve", input, weights, output, mode, cval, origin, axes, True)
