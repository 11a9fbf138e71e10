"""The discrete cosine and sine transforms: dct idct dst idst dctn idctn dstn idstn, every
type 1-4, every ``norm`` and ``orthogonalize``; the forward is SciPy's own kernel.

Each transform is a real linear map ``y = A x`` along one axis, so its VJP is ``Aᵀ ḡ``
(also for complex values: ``A`` is real). With ``B_t`` the unnormalised ("backward") type-t
matrix of SciPy's definitions, every variant is ``A = s O_out B_t O_in``: ``s`` the scalar of
``norm`` and ``O_in``, ``O_out`` the diagonal end-term factors of ``orthogonalize`` (√2 on the
inputs and 1/√2 on the outputs that the orthogonalized variant rescales: both ends for
DCT-I, the first output of DCT-II, the first input of DCT-III, the last ones for DST-II
and DST-III; none for types 4 and DST-I). The transposes of the ``B_t`` follow from the
definitions, ``c`` being 1/2 on the end terms the type-I/III sums weigh by half:

- DCT-I: ``B₁ = C diag(c)`` with ``C`` symmetric (c = 1/2 at both ends), so
  ``B₁ᵀ = diag(c) B₁ diag(1/c)``; DST-I and both type-IV matrices are symmetric.
- type II/III: ``B₃ = B₂ᵀ diag(c)`` (c = 1/2 on the first term for the DCT, the last for
  the DST), so ``B₂ᵀ = B₃ diag(1/c)`` and ``B₃ᵀ = diag(c) B₂``.

Hence ``Aᵀ ḡ = L ⊙ T(R ⊙ ḡ)`` with ``T`` the transform of the dual type (1↔1, 2↔3, 4↔4) with
the same ``norm`` and no orthogonalization, and ``L``, ``R`` end-term vectors: recorded
with the same primitive, so the VJP is differentiable again. The inverse transforms are
forward ones: ``idct(x, t, norm, orthogonalize)`` is ``dct`` of the dual type with the dual
norm ("backward" and "forward" swap). tests/scipy/test_scipy_fft.py checks every case
against the explicit matrices ``scipy.fft.dct(np.eye(n), ..., axis=0)``.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, normalize_axis, raw, shape_of
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy

__all__ = ["dct", "dctn", "dst", "dstn", "idct", "idctn", "idst", "idstn"]

ArrayLike = Any

_NORMS = ("backward", "ortho", "forward")
_DUAL_NORM = {"backward": "forward", "ortho": "ortho", "forward": "backward"}
_DUAL_TYPE = {1: 1, 2: 3, 3: 2, 4: 4}
_ROOT2 = math.sqrt(2.0)


def _forward(
    xp: Any, x: Any, kind: str, type: int, axis: int, norm: str, orthogonalize: bool
) -> Any:
    transform = kernel(xp, "fft", kind)
    if backend.is_complex(x.dtype):  # SciPy would drop orthogonalize here (see _one)
        real = transform(xp.real(x), type=type, axis=axis, norm=norm, orthogonalize=orthogonalize)
        imag = transform(xp.imag(x), type=type, axis=axis, norm=norm, orthogonalize=orthogonalize)
        return real + 1j * imag
    return transform(x, type=type, axis=axis, norm=norm, orthogonalize=orthogonalize)


def _ends(
    kind: str, type: int, orthogonalize: bool, n: int
) -> tuple[np.ndarray | None, np.ndarray | None]:
    """``(L, R)`` of ``Aᵀ ḡ = L ⊙ T(R ⊙ ḡ)`` for the forward transform ``kind`` of ``type``
    (None: all ones)."""
    if type == 4 or (kind == "dst" and type == 1):
        return None, None
    end = [0, n - 1] if type == 1 else [0] if kind == "dct" else [n - 1]
    left, right = np.ones(n), np.ones(n)
    if type == 1:  # L = O_in diag(c), R = diag(1/c) O_out
        left[end], right[end] = (1 / _ROOT2, _ROOT2) if orthogonalize else (0.5, 2.0)
    elif type == 2:  # L = O_in = 1, R = diag(1/c) O_out
        right[end] = _ROOT2 if orthogonalize else 2.0
    else:  # type 3: L = O_in diag(c), R = O_out = 1
        left[end] = 1 / _ROOT2 if orthogonalize else 0.5
    return left, right


def _scale(v: Any, weights: np.ndarray | None, axis: int) -> Any:
    if weights is None:
        return v
    shape = [1] * len(shape_of(v))
    shape[axis] = weights.size
    dtype = backend.dtype_name(raw(v).dtype)
    return v * ops.asarray(weights.reshape(shape), dtype=dtype, like=v)


def _vjp(
    g: Any, ans: Any, x: Any, kind: str, type: int, axis: int, norm: str, orthogonalize: bool
) -> Any:
    inverse = kind.startswith("i")
    forward_kind = kind[1:] if inverse else kind
    if inverse:  # the forward transform it is
        type, norm = _DUAL_TYPE[type], _DUAL_NORM[norm]
    left, right = _ends(forward_kind, type, orthogonalize, shape_of(g)[axis])
    out = _r2r(
        _scale(g, right, axis),
        kind=forward_kind,
        type=_DUAL_TYPE[type],
        axis=axis,
        norm=norm,
        orthogonalize=False,
    )
    return _scale(out, left, axis)


_r2r = Primitive("dct", _forward, complex_rules=True).defvjp(_vjp)


def _options(op: str, type: Any, norm: Any, orthogonalize: Any, workers: Any) -> tuple:
    if type not in (1, 2, 3, 4):
        raise ValueError(f"{op}: type must be 1, 2, 3 or 4, got {type!r}")
    norm = "backward" if norm is None else norm
    if norm not in _NORMS:
        raise ValueError(f'{op}: norm must be "backward", "ortho", "forward" or None, got {norm!r}')
    if workers is not None:
        operator.index(workers)  # accepted (SciPy's thread count) and ignored
    orthogonalize = norm == "ortho" if orthogonalize is None else bool(orthogonalize)
    return int(type), norm, orthogonalize


def _input(x: Any) -> Any:
    if not isinstance(x, Tensor) and not backend.is_foreign(x):
        x = np.asarray(x)
    return x


def _resize(op: str, x: Any, axis: int, n: Any) -> Any:
    """``x`` cropped or zero-padded to length ``n`` along ``axis``."""
    if n is None:
        return x
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"{op}: invalid number of data points ({n}) specified")
    size = shape_of(x)[axis]
    if n < size:
        return ops.getitem(x, (slice(None),) * axis + (slice(0, n),))
    if n > size:
        widths = [(0, 0)] * len(shape_of(x))
        widths[axis] = (0, n - size)
        return ops.pad(x, widths)
    return x


def _one(op: str, x: Any, type: Any, n: Any, axis: Any, norm: Any, workers: Any,
         orthogonalize: Any) -> Tensor:  # fmt: skip
    type, norm, orthogonalize = _options(op, type, norm, orthogonalize, workers)
    x = _input(x)
    if backend.is_complex(raw(x).dtype) and orthogonalize != (norm == "ortho"):
        raise NotImplementedError(
            f"{op}: orthogonalize={orthogonalize} with norm={norm!r} on complex input: SciPy "
            "(1.17) ignores orthogonalize for complex input (it transforms the real and "
            "imaginary parts with the norm's default), so tapegrad refuses rather than "
            "disagree with it; transform the real and imaginary parts separately"
        )
    if len(shape_of(x)) == 0:
        raise ValueError(f"{op}: the input must have at least one axis, got a scalar")
    (axis,) = normalize_axis(axis, len(shape_of(x)), op)
    x = _resize(op, x, axis, n)
    if op.endswith("dct") and type == 1 and shape_of(x)[axis] < 2:
        raise ValueError(f"{op}: type 1 needs at least 2 points along axis {axis}")
    dtype = raw(x).dtype
    if not (backend.is_real_floating(dtype) or backend.is_complex(dtype)):
        x = ops.astype(x, np.float64)  # integers and booleans, as SciPy
    return _r2r(x, kind=op, type=type, axis=axis, norm=norm, orthogonalize=orthogonalize)


def _many(op: str, x: Any, type: Any, s: Any, axes: Any, norm: Any, workers: Any,
          orthogonalize: Any) -> Tensor:  # fmt: skip
    """The n-d transform: the 1-d one along each of ``axes`` (the last ``len(s)``, or all,
    by default), after cropping or padding to ``s`` (-1 or None: as it is)."""
    x = _input(x)
    ndim = len(shape_of(x))
    if s is not None and not isinstance(s, (list, tuple)):
        s = [s]
    if axes is not None and not isinstance(axes, (list, tuple)):
        axes = [axes]
    if axes is None:
        axes = list(range(ndim - len(s), ndim)) if s is not None else list(range(ndim))
    axes = [normalize_axis(ax, ndim, op)[0] for ax in axes]
    if len(set(axes)) != len(axes):
        raise ValueError(f"{op}: all axes must be unique, got {axes}")
    if s is None:
        s = [None] * len(axes)
    if len(s) != len(axes):
        raise ValueError(f"{op}: s and axes have different lengths ({len(s)} and {len(axes)})")
    one = op[:-1]
    if not axes:
        return x if isinstance(x, Tensor) else ops.asarray(x)
    for size, axis in zip(s, axes):
        size = None if size is None or size == -1 else size
        x = _one(one, x, type, size, axis, norm, workers, orthogonalize)
    return x


@plain_calls_scipy("fft")
def dct(
    x: ArrayLike,
    type: int = 2,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    orthogonalize: bool | None = None,
) -> Tensor:
    """The discrete cosine transform of ``type`` 1-4 along ``axis``, as ``scipy.fft.dct``:
    ``n`` crops or zero-pads first; ``norm`` "backward" (None), "ortho" or "forward";
    ``orthogonalize`` (default: ``norm == "ortho"``) rescales the end terms so that with
    "ortho" the matrix is orthogonal. ``overwrite_x`` and ``workers`` are ignored.
    Differentiable in ``x`` (real or complex) to every order.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.dct(tg.tensor([1.0, 2.0, 3.0])).numpy().round(6) + 0.0  # no -0.
    array([12.      , -3.464102,  0.      ])
    """
    return _one("dct", x, type, n, axis, norm, workers, orthogonalize)


@plain_calls_scipy("fft")
def idct(
    x: ArrayLike,
    type: int = 2,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    orthogonalize: bool | None = None,
) -> Tensor:
    """The inverse of :func:`dct` (of the same ``type``, ``norm`` and ``orthogonalize``),
    as ``scipy.fft.idct``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.idct(fft.dct(tg.tensor([1.0, 2.0, 3.0]), type=3), type=3).numpy().round(12)
    array([1., 2., 3.])
    """
    return _one("idct", x, type, n, axis, norm, workers, orthogonalize)


@plain_calls_scipy("fft")
def dst(
    x: ArrayLike,
    type: int = 2,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    orthogonalize: bool | None = None,
) -> Tensor:
    """The discrete sine transform of ``type`` 1-4 along ``axis``, as ``scipy.fft.dst``
    (keywords as :func:`dct`'s).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.dst(tg.tensor([1.0, 2.0, 3.0])).numpy().round(6)
    array([ 8.      , -3.464102,  4.      ])
    """
    return _one("dst", x, type, n, axis, norm, workers, orthogonalize)


@plain_calls_scipy("fft")
def idst(
    x: ArrayLike,
    type: int = 2,
    n: int | None = None,
    axis: int = -1,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    orthogonalize: bool | None = None,
) -> Tensor:
    """The inverse of :func:`dst`, as ``scipy.fft.idst``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.idst(fft.dst(tg.tensor([1.0, 2.0, 3.0]))).numpy().round(12)
    array([1., 2., 3.])
    """
    return _one("idst", x, type, n, axis, norm, workers, orthogonalize)


@plain_calls_scipy("fft")
def dctn(
    x: ArrayLike,
    type: int = 2,
    s: Any = None,
    axes: Any = None,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    *,
    orthogonalize: bool | None = None,
) -> Tensor:
    """The n-d discrete cosine transform over ``axes`` (every axis, or the last ``len(s)``,
    by default), ``s`` cropping or padding each first, as ``scipy.fft.dctn``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.dctn(tg.ones((2, 2)), norm="ortho").numpy().round(12)
    array([[2., 0.],
           [0., 0.]])
    """
    return _many("dctn", x, type, s, axes, norm, workers, orthogonalize)


@plain_calls_scipy("fft")
def idctn(
    x: ArrayLike,
    type: int = 2,
    s: Any = None,
    axes: Any = None,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    orthogonalize: bool | None = None,
) -> Tensor:
    """The inverse of :func:`dctn`, as ``scipy.fft.idctn``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.idctn(tg.tensor([[2.0, 0.0], [0.0, 0.0]]), norm="ortho").numpy().round(12)
    array([[1., 1.],
           [1., 1.]])
    """
    return _many("idctn", x, type, s, axes, norm, workers, orthogonalize)


@plain_calls_scipy("fft")
def dstn(
    x: ArrayLike,
    type: int = 2,
    s: Any = None,
    axes: Any = None,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    orthogonalize: bool | None = None,
) -> Tensor:
    """The n-d discrete sine transform, as ``scipy.fft.dstn``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.dstn(tg.ones((2, 2)), type=1).numpy().round(12) + 0.0
    array([[12.,  0.],
           [ 0.,  0.]])
    """
    return _many("dstn", x, type, s, axes, norm, workers, orthogonalize)


@plain_calls_scipy("fft")
def idstn(
    x: ArrayLike,
    type: int = 2,
    s: Any = None,
    axes: Any = None,
    norm: str | None = None,
    overwrite_x: bool = False,
    workers: int | None = None,
    orthogonalize: bool | None = None,
) -> Tensor:
    """The inverse of :func:`dstn`, as ``scipy.fft.idstn``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import fft
    >>> fft.idstn(tg.tensor([[12.0, 0.0], [0.0, 0.0]]), type=1).numpy().round(12)
    array([[1., 1.],
           [1., 1.]])
    """
    return _many("idstn", x, type, s, axes, norm, workers, orthogonalize)
