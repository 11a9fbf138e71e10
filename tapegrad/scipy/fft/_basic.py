"""SciPy's versions of the discrete Fourier transforms (1-d, 2-d, n-d), over
:mod:`tapegrad.fft` (whose VJPs are the adjoint transforms): SciPy's names and keywords, with
``overwrite_x`` and ``workers`` accepted and ignored; a ``plan`` raises NotImplementedError,
as SciPy's own functions do."""

from __future__ import annotations

import operator
from typing import Any, Protocol

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


class _OneAxis(Protocol):
    def __call__(
        self,
        x: ArrayLike,
        n: int | None = None,
        axis: int = -1,
        norm: str | None = None,
        overwrite_x: bool = False,
        workers: int | None = None,
        *,
        plan: Any = None,
    ) -> Tensor: ...


class _ManyAxes(Protocol):
    def __call__(
        self,
        x: ArrayLike,
        s: Any = None,
        axes: Any = ...,
        norm: str | None = None,
        overwrite_x: bool = False,
        workers: int | None = None,
        *,
        plan: Any = None,
    ) -> Tensor: ...


def _named(name: str, doc: str, f: Any) -> Any:
    f.__name__ = f.__qualname__ = name
    f.__doc__ = doc
    return plain_calls_scipy("fft")(f)


def _one_axis(name: str, doc: str) -> _OneAxis:
    """SciPy's 1-d transform ``name``: :mod:`tapegrad.fft`'s, after the SciPy-only keywords."""
    transform = getattr(_fft, name)

    def call(
        x: ArrayLike,
        n: int | None = None,
        axis: int = -1,
        norm: str | None = None,
        overwrite_x: bool = False,
        workers: int | None = None,
        *,
        plan: Any = None,
    ) -> Tensor:
        _check(name, workers, plan)
        return transform(x, n, axis, norm)

    return _named(name, doc, call)


def _many_axes(name: str, doc: str, default_axes: Any) -> _ManyAxes:
    """SciPy's 2-d or n-d transform ``name`` (``axes`` defaulting to ``default_axes``)."""
    transform = getattr(_fft, name)

    def call(
        x: ArrayLike,
        s: Any = None,
        axes: Any = default_axes,
        norm: str | None = None,
        overwrite_x: bool = False,
        workers: int | None = None,
        *,
        plan: Any = None,
    ) -> Tensor:
        _check(name, workers, plan)
        return transform(x, s, axes, norm)

    return _named(name, doc, call)


fft = _one_axis(
    "fft",
    """The discrete Fourier transform along ``axis``, as ``scipy.fft.fft``
    (:func:`tapegrad.fft.fft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.fft(tg.tensor([1.0, 0.0, -1.0, 0.0])).numpy()
    array([0.+0.j, 2.+0.j, 0.+0.j, 2.+0.j])
    """,
)

ifft = _one_axis(
    "ifft",
    """The inverse discrete Fourier transform along ``axis``, as ``scipy.fft.ifft``
    (:func:`tapegrad.fft.ifft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.ifft(tg.tensor([0j, 2, 0, 2])).numpy().real
    array([ 1.,  0., -1.,  0.])
    """,
)

rfft = _one_axis(
    "rfft",
    """The transform of a real input, bins 0 .. n // 2, as ``scipy.fft.rfft``
    (:func:`tapegrad.fft.rfft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.rfft(tg.tensor([1.0, 0.0, -1.0, 0.0])).numpy()
    array([0.+0.j, 2.+0.j, 0.+0.j])
    """,
)

irfft = _one_axis(
    "irfft",
    """The real signal of length ``n`` whose ``rfft`` is ``x``, as ``scipy.fft.irfft``
    (:func:`tapegrad.fft.irfft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.irfft(tg.tensor([0j, 2, 0])).numpy()
    array([ 1.,  0., -1.,  0.])
    """,
)

hfft = _one_axis(
    "hfft",
    """The real spectrum of a Hermitian-symmetric signal given its first half, as ``scipy.fft.hfft``
    (:func:`tapegrad.fft.hfft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.hfft(tg.tensor([1.0, 2.0, 3.0])).numpy()
    array([ 8., -2.,  0., -2.])
    """,
)

ihfft = _one_axis(
    "ihfft",
    """The inverse of :func:`hfft`, as ``scipy.fft.ihfft``
    (:func:`tapegrad.fft.ihfft`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.ihfft(tg.tensor([8.0, -2.0, 0.0, -2.0])).numpy().real
    array([1., 2., 3.])
    """,
)

fft2 = _many_axes(
    "fft2",
    """The 2-d discrete Fourier transform, as ``scipy.fft.fft2``
    (:func:`tapegrad.fft.fft2`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.fft2(tg.ones((2, 2))).shape
    (2, 2)
    """,
    (-2, -1),
)

ifft2 = _many_axes(
    "ifft2",
    """The 2-d inverse transform, as ``scipy.fft.ifft2``
    (:func:`tapegrad.fft.ifft2`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.ifft2(tg.ones((2, 2))).shape
    (2, 2)
    """,
    (-2, -1),
)

rfft2 = _many_axes(
    "rfft2",
    """The 2-d transform of a real input, as ``scipy.fft.rfft2``
    (:func:`tapegrad.fft.rfft2`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.rfft2(tg.ones((2, 2))).shape
    (2, 2)
    """,
    (-2, -1),
)

irfft2 = _many_axes(
    "irfft2",
    """The inverse of :func:`rfft2`, as ``scipy.fft.irfft2``
    (:func:`tapegrad.fft.irfft2`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.irfft2(tg.ones((2, 2))).shape
    (2, 2)
    """,
    (-2, -1),
)

fftn = _many_axes(
    "fftn",
    """The n-d discrete Fourier transform, as ``scipy.fft.fftn``
    (:func:`tapegrad.fft.fftn`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.fftn(tg.ones((2, 2))).shape
    (2, 2)
    """,
    None,
)

ifftn = _many_axes(
    "ifftn",
    """The n-d inverse transform, as ``scipy.fft.ifftn``
    (:func:`tapegrad.fft.ifftn`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.ifftn(tg.ones((2, 2))).shape
    (2, 2)
    """,
    None,
)

rfftn = _many_axes(
    "rfftn",
    """The n-d transform of a real input, as ``scipy.fft.rfftn``
    (:func:`tapegrad.fft.rfftn`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.rfftn(tg.ones((2, 2))).shape
    (2, 2)
    """,
    None,
)

irfftn = _many_axes(
    "irfftn",
    """The inverse of :func:`rfftn`, as ``scipy.fft.irfftn``
    (:func:`tapegrad.fft.irfftn`).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.irfftn(tg.ones((2, 2))).shape
    (2, 2)
    """,
    None,
)
