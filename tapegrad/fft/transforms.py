"""The discrete Fourier transforms: fft ifft fft2 ifft2 fftn ifftn rfft irfft rfft2 irfft2
rfftn irfftn hfft ihfft.

Three primitives along one axis, as NumPy computes the n-d transforms (one axis after the
other): the complex transform and its inverse, ``rfft`` and ``irfft``. All are linear, so
each VJP is the adjoint map, another transform with the dual normalisation ("backward"
and "forward" swap, "ortho" stays):

- complex: the adjoint of ``fft`` is ``n ifft``, that is ``ifft`` with the dual norm.
- ``rfft`` keeps bins 0 .. n/2 of ``fft`` of a real x: x̄ = Re(F^H [ḡ; 0]). ``irfft``
  of w ḡ, with w = 1/2 on the bins whose mirror image it adds (all but 0 and, for even n,
  n/2), computes exactly that (the Hermitian-symmetry correction).
- ``irfft`` reads bins 0 .. n/2 and their mirror images: ā = w' rfft(ḡ) with w' = 2 on the
  mirrored bins, 1 on bins 0 and n/2 (whose imaginary parts it ignores, and ``rfft`` of a
  real ḡ has none there).

``n``/``s`` zero-pad or truncate the input first (``pad`` and slicing, whose gradients
crop and pad back). ``hfft``/``ihfft`` are ``irfft``/``rfft`` of conjugates, as in NumPy.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, normalize_axis, raw, shape_of

ArrayLike = Any

_NORMS = ("backward", "ortho", "forward")
_DUAL = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _complex(xp: Any, x: Any) -> Any:
    """``x`` as complex (the array API's transforms take complex input only)."""
    if backend.is_complex(x.dtype):
        return x
    single = backend.dtype_name(x.dtype) == "float32"
    return xp.astype(x, xp.complex64 if single else xp.complex128)


def _c2c_forward(xp: Any, x: Any, axis: int, norm: str, inverse: bool) -> Any:
    transform = xp.fft.ifft if inverse else xp.fft.fft
    return transform(_complex(xp, x), axis=axis, norm=norm)


_c2c = Primitive("fft", _c2c_forward, complex_rules=True).defvjp(
    lambda g, ans, x, axis, norm, inverse: _c2c(g, axis=axis, norm=_DUAL[norm], inverse=not inverse)
)


def _weights(n: int, axis: int, ndim: int, mirrored: float, like: Any) -> Any:
    """Per-bin weights of the ``n // 2 + 1`` bins of a length-``n`` real transform along
    ``axis``: ``mirrored`` on the bins that stand for two (all but 0 and, for even n,
    n/2), 1 on the others."""
    w = np.full(n // 2 + 1, mirrored)
    w[0] = 1.0
    if n % 2 == 0:
        w[-1] = 1.0
    shape = [1] * ndim
    shape[axis] = n // 2 + 1
    return ops.asarray(w.reshape(shape), dtype=backend.dtype_name(raw(like).dtype), like=like)


def _r2c_vjp(g: Any, ans: Any, x: Any, axis: int, norm: str) -> Any:
    n = shape_of(x)[axis]
    half = _weights(n, axis, len(shape_of(x)), 0.5, g)
    return _c2r(g * half, axis=axis, norm=_DUAL[norm], n=n)


_r2c = Primitive(
    "rfft",
    lambda xp, x, axis, norm: xp.fft.rfft(x, axis=axis, norm=norm),
    complex_rules=True,
).defvjp(_r2c_vjp)


def _c2r_vjp(g: Any, ans: Any, x: Any, axis: int, norm: str, n: int) -> Any:
    spectrum = _r2c(g, axis=axis, norm=_DUAL[norm])
    return spectrum * _weights(n, axis, len(shape_of(g)), 2.0, spectrum)


_c2r = Primitive(
    "irfft",
    lambda xp, x, axis, norm, n: xp.fft.irfft(_complex(xp, x), n=n, axis=axis, norm=norm),
    complex_rules=True,
).defvjp(_c2r_vjp)


def _norm(op: str, norm: str | None) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise ValueError(f'{op}: norm must be "backward", "ortho", "forward" or None, got {norm!r}')
    return norm


def _prepare(op: str, a: Any, n: Any, axis: int, out: Any) -> tuple[Any, int, int]:
    """``a`` as an input, its axis normalized, and ``n`` (the axis' length when None)."""
    if out is not None:
        raise TypeError(f"{op}(out=...) is not supported: Tensors are immutable")
    if not isinstance(a, Tensor) and not backend.is_foreign(a):
        a = np.asarray(a)
    (axis,) = normalize_axis(axis, len(shape_of(a)), op)
    if n is None:
        return a, axis, shape_of(a)[axis]
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"{op}: invalid number of data points ({n}) specified")
    return a, axis, n


def _resize(a: Any, axis: int, n: int) -> Any:
    """``a`` cropped or zero-padded to length ``n`` along ``axis``."""
    size = shape_of(a)[axis]
    if n < size:
        return ops.getitem(a, (slice(None),) * axis + (slice(0, n),))
    if n > size:
        widths = [(0, 0)] * len(shape_of(a))
        widths[axis] = (0, n - size)
        return ops.pad(a, widths)
    return a


def fft(
    a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Tensor:
    """The discrete Fourier transform along ``axis``, as ``np.fft.fft``: ``n`` crops or
    zero-pads the input first; ``norm`` is ``"backward"`` (the default: no scaling),
    ``"ortho"`` or ``"forward"`` (1/n).

    >>> import tapegrad as tg
    >>> tg.fft.fft(tg.tensor([1.0, 0.0, -1.0, 0.0])).numpy()
    array([0.+0.j, 2.+0.j, 0.+0.j, 2.+0.j])
    """
    a, axis, n = _prepare("fft", a, n, axis, out)
    return _c2c(_resize(a, axis, n), axis=axis, norm=_norm("fft", norm), inverse=False)


def ifft(
    a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Tensor:
    """The inverse discrete Fourier transform along ``axis``, as ``np.fft.ifft``.

    >>> import tapegrad as tg
    >>> tg.fft.ifft(tg.tensor([0j, 2, 0, 2])).numpy().real
    array([ 1.,  0., -1.,  0.])
    """
    a, axis, n = _prepare("ifft", a, n, axis, out)
    return _c2c(_resize(a, axis, n), axis=axis, norm=_norm("ifft", norm), inverse=True)


def rfft(
    a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Tensor:
    """The transform of a real input, bins 0 .. n // 2 (the others are their conjugates),
    as ``np.fft.rfft``.

    >>> import tapegrad as tg
    >>> tg.fft.rfft(tg.tensor([1.0, 0.0, -1.0, 0.0])).numpy()
    array([0.+0.j, 2.+0.j, 0.+0.j])
    """
    a, axis, n = _prepare("rfft", a, n, axis, out)
    if backend.is_complex(raw(a).dtype):
        raise TypeError(f"rfft: the input must be real, got {backend.dtype_name(raw(a).dtype)}")
    return _r2c(_resize(a, axis, n), axis=axis, norm=_norm("rfft", norm))


def irfft(
    a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Tensor:
    """The real signal of length ``n`` (default ``2 (m - 1)`` for ``m`` input bins) whose
    ``rfft`` is ``a``, as ``np.fft.irfft``: ``a`` is cropped or zero-padded to ``n // 2 + 1``
    bins, and the imaginary parts of bin 0 (and of bin n/2 for even ``n``) are ignored.

    >>> import tapegrad as tg
    >>> tg.fft.irfft(tg.tensor([0j, 2, 0])).numpy()
    array([ 1.,  0., -1.,  0.])
    """
    a, axis, _ = _prepare("irfft", a, None, axis, out)
    n = 2 * (shape_of(a)[axis] - 1) if n is None else operator.index(n)
    if n < 1:
        raise ValueError(f"irfft: invalid number of data points ({n}) specified")
    return _c2r(_resize(a, axis, n // 2 + 1), axis=axis, norm=_norm("irfft", norm), n=n)


def _swap(op: str, norm: str | None) -> str:
    return _DUAL[_norm(op, norm)]


def hfft(
    a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Tensor:
    """The transform of a signal with Hermitian symmetry, given its first half: a real
    spectrum of length ``n``, as ``np.fft.hfft`` (``irfft`` of the conjugate, norm swapped).

    >>> import tapegrad as tg
    >>> tg.fft.hfft(tg.tensor([1.0, 2.0, 3.0])).numpy()
    array([ 8., -2.,  0., -2.])
    """
    if out is not None:
        raise TypeError("hfft(out=...) is not supported: Tensors are immutable")
    return irfft(ops.conj(_prepare("hfft", a, None, axis, None)[0]), n, axis, _swap("hfft", norm))


def ihfft(
    a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Tensor:
    """The inverse of :func:`hfft`: the first half of a Hermitian spectrum, as
    ``np.fft.ihfft`` (the conjugate of ``rfft``, norm swapped).

    >>> import tapegrad as tg
    >>> tg.fft.ihfft(tg.tensor([8.0, -2.0, 0.0, -2.0])).numpy().real
    array([1., 2., 3.])
    """
    if out is not None:
        raise TypeError("ihfft(out=...) is not supported: Tensors are immutable")
    return ops.conj(rfft(a, n, axis, _swap("ihfft", norm)))


def _cook(
    op: str, a: Any, s: Any, axes: Any, inverse_real: bool = False
) -> tuple[Any, list[int], list[int]]:
    """NumPy's ``s`` and ``axes`` for the n-d transforms: every axis (or the last
    ``len(s)``) by default, the input's lengths where ``s`` is None or -1; for ``irfftn``
    the last length defaults to ``2 (m - 1)``."""
    if not isinstance(a, Tensor) and not backend.is_foreign(a):
        a = np.asarray(a)
    shape = shape_of(a)
    if axes is None:
        axes = list(range(-(len(s) if s is not None else len(shape)), 0))
    axes = [normalize_axis(ax, len(shape), op)[0] for ax in axes]
    if s is None:
        s = [shape[ax] for ax in axes]
        if inverse_real and axes:
            s[-1] = 2 * (shape[axes[-1]] - 1)
    s = [shape[ax] if size is None or size == -1 else size for size, ax in zip(s, axes)]
    if len(s) != len(axes):
        raise ValueError(f"{op}: s and axes have different lengths ({len(s)} and {len(axes)})")
    return a, s, axes


def fftn(
    a: ArrayLike, s: Any = None, axes: Any = None, norm: str | None = None, out: Any = None
) -> Tensor:
    """The n-d discrete Fourier transform over ``axes`` (every axis by default), as
    ``np.fft.fftn``: one axis after the other, the last first.

    >>> import tapegrad as tg
    >>> tg.fft.fftn(tg.ones((2, 2))).numpy().real
    array([[4., 0.],
           [0., 0.]])
    """
    a, s, axes = _cook("fftn", a, s, axes)
    for size, axis in reversed(list(zip(s, axes))):
        a = fft(a, size, axis, norm, out)
    return a


def ifftn(
    a: ArrayLike, s: Any = None, axes: Any = None, norm: str | None = None, out: Any = None
) -> Tensor:
    """The n-d inverse discrete Fourier transform, as ``np.fft.ifftn``.

    >>> import tapegrad as tg
    >>> tg.fft.ifftn(tg.tensor([[4.0, 0.0], [0.0, 0.0]])).numpy().real
    array([[1., 1.],
           [1., 1.]])
    """
    a, s, axes = _cook("ifftn", a, s, axes)
    for size, axis in reversed(list(zip(s, axes))):
        a = ifft(a, size, axis, norm, out)
    return a


def fft2(
    a: ArrayLike, s: Any = None, axes: Any = (-2, -1), norm: str | None = None, out: Any = None
) -> Tensor:
    """The 2-d discrete Fourier transform, as ``np.fft.fft2``.

    >>> import tapegrad as tg
    >>> tg.fft.fft2(tg.ones((2, 2))).numpy().real
    array([[4., 0.],
           [0., 0.]])
    """
    return fftn(a, s, axes, norm, out)


def ifft2(
    a: ArrayLike, s: Any = None, axes: Any = (-2, -1), norm: str | None = None, out: Any = None
) -> Tensor:
    """The 2-d inverse discrete Fourier transform, as ``np.fft.ifft2``.

    >>> import tapegrad as tg
    >>> tg.fft.ifft2(tg.tensor([[4.0, 0.0], [0.0, 0.0]])).numpy().real
    array([[1., 1.],
           [1., 1.]])
    """
    return ifftn(a, s, axes, norm, out)


def rfftn(
    a: ArrayLike, s: Any = None, axes: Any = None, norm: str | None = None, out: Any = None
) -> Tensor:
    """The n-d transform of a real input (``rfft`` over the last axis, then ``fft`` over
    the others), as ``np.fft.rfftn``.

    >>> import tapegrad as tg
    >>> tg.fft.rfftn(tg.ones((2, 2))).numpy().real
    array([[4., 0.],
           [0., 0.]])
    """
    a, s, axes = _cook("rfftn", a, s, axes)
    a = rfft(a, s[-1], axes[-1], norm, out)
    for size, axis in reversed(list(zip(s[:-1], axes[:-1]))):
        a = fft(a, size, axis, norm, out)
    return a


def irfftn(
    a: ArrayLike, s: Any = None, axes: Any = None, norm: str | None = None, out: Any = None
) -> Tensor:
    """The inverse of :func:`rfftn` (``ifft`` over all axes but the last, then ``irfft``),
    as ``np.fft.irfftn``; ``s`` gives the real output's lengths.

    >>> import tapegrad as tg
    >>> tg.fft.irfftn(tg.tensor([[4.0, 0.0], [0.0, 0.0]])).numpy()
    array([[1., 1.],
           [1., 1.]])
    """
    a, s, axes = _cook("irfftn", a, s, axes, inverse_real=True)
    for size, axis in zip(s[:-1], axes[:-1]):
        a = ifft(a, size, axis, norm, out)
    return irfft(a, s[-1], axes[-1], norm, out)


def rfft2(
    a: ArrayLike, s: Any = None, axes: Any = (-2, -1), norm: str | None = None, out: Any = None
) -> Tensor:
    """The 2-d transform of a real input, as ``np.fft.rfft2``.

    >>> import tapegrad as tg
    >>> tg.fft.rfft2(tg.ones((2, 2))).shape
    (2, 2)
    """
    return rfftn(a, s, axes, norm, out)


def irfft2(
    a: ArrayLike, s: Any = None, axes: Any = (-2, -1), norm: str | None = None, out: Any = None
) -> Tensor:
    """The inverse of :func:`rfft2`, as ``np.fft.irfft2``.

    >>> import tapegrad as tg
    >>> tg.fft.irfft2(tg.tensor([[4.0, 0.0], [0.0, 0.0]])).numpy()
    array([[1., 1.],
           [1., 1.]])
    """
    return irfftn(a, s, axes, norm, out)
