"""SciPy's helpers of the discrete Fourier transforms, over :mod:`tapegrad.fft`: the shifts
fftshift ifftshift and the sample frequencies fftfreq rfftfreq (``xp`` and ``device`` as
SciPy takes them).
"""

from __future__ import annotations

from typing import Any

from tapegrad import fft as _fft
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = [
    "fftfreq", "fftshift", "ifftshift", "rfftfreq",
]  # fmt: skip

ArrayLike = Any


@plain_calls_scipy("fft")
def fftshift(x: ArrayLike, axes: Any = None) -> Tensor:
    """The zero-frequency bin moved to the centre, as ``scipy.fft.fftshift``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.fftshift(tg.tensor([0.0, 1.0, 2.0, -2.0, -1.0])).numpy()
    array([-2., -1.,  0.,  1.,  2.])
    """
    return _fft.fftshift(x, axes)


@plain_calls_scipy("fft")
def ifftshift(x: ArrayLike, axes: Any = None) -> Tensor:
    """The inverse of :func:`fftshift`, as ``scipy.fft.ifftshift``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.ifftshift(tg.tensor([-2.0, -1.0, 0.0, 1.0, 2.0])).numpy()
    array([ 0.,  1.,  2., -2., -1.])
    """
    return _fft.ifftshift(x, axes)


def _namespace(op: str, xp: Any, device: Any) -> None:
    for name, value in (("xp", xp), ("device", device)):
        if value is not None:  # SciPy refuses device for NumPy arrays too
            raise NotImplementedError(
                f"{op}: {name} is not supported with a Tensor spacing d (the result is a "
                f"Tensor on d's device); pass {name}=None"
            )


@plain_calls_scipy("fft")
def fftfreq(n: int, d: Any = 1.0, *, xp: Any = None, device: Any = None) -> Tensor:
    """The sample frequencies of :func:`fft`'s bins, as ``scipy.fft.fftfreq``;
    differentiable in a Tensor ``d``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.fftfreq(4, d=tg.tensor(0.5)).numpy()
    array([ 0. ,  0.5, -1. , -0.5])
    """
    _namespace("fftfreq", xp, device)
    return _fft.fftfreq(n, d)


@plain_calls_scipy("fft")
def rfftfreq(n: int, d: Any = 1.0, *, xp: Any = None, device: Any = None) -> Tensor:
    """The sample frequencies of :func:`rfft`'s bins, as ``scipy.fft.rfftfreq``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.rfftfreq(4, d=tg.tensor(0.5)).numpy()
    array([0. , 0.5, 1. ])
    """
    _namespace("rfftfreq", xp, device)
    return _fft.rfftfreq(n, d)
