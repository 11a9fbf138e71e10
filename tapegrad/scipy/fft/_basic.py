"""SciPy's versions of the discrete Fourier transforms (1-d, 2-d, n-d), over
:mod:`tapegrad.fft` (whose VJPs are the adjoint transforms): SciPy's names and keywords, with
``overwrite_x`` and ``workers`` accepted and ignored; a ``plan`` raises NotImplementedError,
as SciPy's own functions do."""

from __future__ import annotations

import operator
from typing import Any

from tapegrad import fft as _fft
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = [
    "fft", "fft2", "fftn", "hfft", "ifft", "ifft2", "ifftn", "ihfft", "irfft", "irfft2",
    "irfftn", "rfft", "rfft2", "rfftn",
]  # fmt: skip

ArrayLike = Any


def _check(op: str, workers: Any, plan: Any) -> None:
    if plan is not None:
        raise NotImplementedError(
            f"{op}: plan is not supported (nor by SciPy's own functions): pass plan=None"
        )
    if workers is not None:
        operator.index(workers)  # SciPy's thread count: accepted and ignored


@plain_calls_scipy("fft")
def fft(
    x: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The discrete Fourier transform along ``axis``, as ``scipy.fft.fft``
    (:func:`tapegrad.fft.fft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.fft(tg.tensor([1.0, 0.0, -1.0, 0.0])).numpy()
    array([0.+0.j, 2.+0.j, 0.+0.j, 2.+0.j])
    """
    _check("fft", workers, plan)
    return _fft.fft(x, n, axis, norm)


@plain_calls_scipy("fft")
def ifft(
    x: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The inverse discrete Fourier transform along ``axis``, as ``scipy.fft.ifft``
    (:func:`tapegrad.fft.ifft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.ifft(tg.tensor([0j, 2, 0, 2])).numpy().real
    array([ 1.,  0., -1.,  0.])
    """
    _check("ifft", workers, plan)
    return _fft.ifft(x, n, axis, norm)


@plain_calls_scipy("fft")
def rfft(
    x: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The transform of a real input, bins 0 .. n // 2, as ``scipy.fft.rfft``
    (:func:`tapegrad.fft.rfft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.rfft(tg.tensor([1.0, 0.0, -1.0, 0.0])).numpy()
    array([0.+0.j, 2.+0.j, 0.+0.j])
    """
    _check("rfft", workers, plan)
    return _fft.rfft(x, n, axis, norm)


@plain_calls_scipy("fft")
def irfft(
    x: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The real signal of length ``n`` whose ``rfft`` is ``x``, as ``scipy.fft.irfft``
    (:func:`tapegrad.fft.irfft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.irfft(tg.tensor([0j, 2, 0])).numpy()
    array([ 1.,  0., -1.,  0.])
    """
    _check("irfft", workers, plan)
    return _fft.irfft(x, n, axis, norm)


@plain_calls_scipy("fft")
def hfft(
    x: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The real spectrum of a Hermitian-symmetric signal given its first half, as ``scipy.fft.hfft``
    (:func:`tapegrad.fft.hfft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.hfft(tg.tensor([1.0, 2.0, 3.0])).numpy()
    array([ 8., -2.,  0., -2.])
    """
    _check("hfft", workers, plan)
    return _fft.hfft(x, n, axis, norm)


@plain_calls_scipy("fft")
def ihfft(
    x: ArrayLike,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The inverse of :func:`hfft`, as ``scipy.fft.ihfft``
    (:func:`tapegrad.fft.ihfft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.ihfft(tg.tensor([8.0, -2.0, 0.0, -2.0])).numpy().real
    array([1., 2., 3.])
    """
    _check("ihfft", workers, plan)
    return _fft.ihfft(x, n, axis, norm)


@plain_calls_scipy("fft")
def fft2(
    x: ArrayLike,
    s: Any = None,
    axes: Any = (-2, -1),
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The 2-d discrete Fourier transform, as ``scipy.fft.fft2``
    (:func:`tapegrad.fft.fft2`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.fft2(tg.ones((2, 2))).shape
    (2, 2)
    """
    _check("fft2", workers, plan)
    return _fft.fft2(x, s, axes, norm)


@plain_calls_scipy("fft")
def ifft2(
    x: ArrayLike,
    s: Any = None,
    axes: Any = (-2, -1),
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The 2-d inverse transform, as ``scipy.fft.ifft2``
    (:func:`tapegrad.fft.ifft2`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.ifft2(tg.ones((2, 2))).shape
    (2, 2)
    """
    _check("ifft2", workers, plan)
    return _fft.ifft2(x, s, axes, norm)


@plain_calls_scipy("fft")
def rfft2(
    x: ArrayLike,
    s: Any = None,
    axes: Any = (-2, -1),
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The 2-d transform of a real input, as ``scipy.fft.rfft2``
    (:func:`tapegrad.fft.rfft2`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.rfft2(tg.ones((2, 2))).shape
    (2, 2)
    """
    _check("rfft2", workers, plan)
    return _fft.rfft2(x, s, axes, norm)


@plain_calls_scipy("fft")
def irfft2(
    x: ArrayLike,
    s: Any = None,
    axes: Any = (-2, -1),
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The inverse of :func:`rfft2`, as ``scipy.fft.irfft2``
    (:func:`tapegrad.fft.irfft2`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.irfft2(tg.ones((2, 2))).shape
    (2, 2)
    """
    _check("irfft2", workers, plan)
    return _fft.irfft2(x, s, axes, norm)


@plain_calls_scipy("fft")
def fftn(
    x: ArrayLike,
    s: Any = None,
    axes: Any = None,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The n-d discrete Fourier transform, as ``scipy.fft.fftn``
    (:func:`tapegrad.fft.fftn`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.fftn(tg.ones((2, 2))).shape
    (2, 2)
    """
    _check("fftn", workers, plan)
    return _fft.fftn(x, s, axes, norm)


@plain_calls_scipy("fft")
def ifftn(
    x: ArrayLike,
    s: Any = None,
    axes: Any = None,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The n-d inverse transform, as ``scipy.fft.ifftn``
    (:func:`tapegrad.fft.ifftn`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.ifftn(tg.ones((2, 2))).shape
    (2, 2)
    """
    _check("ifftn", workers, plan)
    return _fft.ifftn(x, s, axes, norm)


@plain_calls_scipy("fft")
def rfftn(
    x: ArrayLike,
    s: Any = None,
    axes: Any = None,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The n-d transform of a real input, as ``scipy.fft.rfftn``
    (:func:`tapegrad.fft.rfftn`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.rfftn(tg.ones((2, 2))).shape
    (2, 2)
    """
    _check("rfftn", workers, plan)
    return _fft.rfftn(x, s, axes, norm)


@plain_calls_scipy("fft")
def irfftn(
    x: ArrayLike,
    s: Any = None,
    axes: Any = None,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    plan: Any = None,
) -> Tensor:
    """The inverse of :func:`rfftn`, as ``scipy.fft.irfftn``
    (:func:`tapegrad.fft.irfftn`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.irfftn(tg.ones((2, 2))).shape
    (2, 2)
    """
    _check("irfftn", workers, plan)
    return _fft.irfftn(x, s, axes, norm)
