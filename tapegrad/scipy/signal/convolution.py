"""SciPy's convolutions with gradients: convolve correlate fftconvolve oaconvolve
convolve2d correlate2d.

One primitive, the n-d ``full`` convolution (over every axis, or over ``axes`` with the
others broadcast, as fftconvolve's); the other modes are slices of it, and a correlation
is a convolution with the second input flipped. The full convolution's VJP is a ``valid``
correlation with the other input, itself a slice of a full convolution with that input
flipped (for input 1: ``convolve(ḡ, flip(in2))[M-1 : M-1+N]`` along each axis), so every
order of derivative is available. Complex inputs too: the correlation in the VJP
conjugates the other input (docs/complex.md). convolve2d's ``wrap``/``symm``/``fill``
boundaries pad ``in1`` and take a ``valid`` convolution.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, shape_of, unbroadcast
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy, refuse_gradient

__all__ = ["convolve", "convolve2d", "correlate", "correlate2d", "fftconvolve", "oaconvolve"]

ArrayLike = Any
_MODES = ("full", "valid", "same")
_METHODS = ("auto", "direct", "fft")


def _forward(xp: Any, in1: Any, in2: Any, method: str, axes: tuple[int, ...] | None) -> Any:
    if method in _METHODS:
        return kernel(xp, "signal", "convolve")(in1, in2, mode="full", method=method)
    # "fftconvolve" or "oaconvolve": over ``axes``, the others broadcast
    return kernel(xp, "signal", method)(in1, in2, mode="full", axes=axes)


def _full_vjp(argnum: int) -> Any:
    def rule(g: Any, ans: Any, in1: Any, in2: Any, method: str, axes: Any) -> Any:
        mine, other = (in1, in2) if argnum == 0 else (in2, in1)
        along = tuple(range(len(shape_of(mine)))) if axes is None else axes
        flipped = ops.flip(ops.conj(other), along) if along else ops.conj(other)
        full = _full(g, flipped, method, axes)
        index = tuple(
            slice(shape_of(other)[k] - 1, shape_of(other)[k] - 1 + n) if k in along
            else slice(None)
            for k, n in enumerate(shape_of(mine))
        )  # fmt: skip
        return unbroadcast(full[index] if index else full, tuple(shape_of(mine)))

    return rule


_convolve_full = Primitive("convolve", _forward, complex_rules=True).defvjp(
    _full_vjp(0), _full_vjp(1)
)


def _full(in1: Any, in2: Any, method: str, axes: tuple[int, ...] | None = None) -> Tensor:
    return _convolve_full(in1, in2, method=method, axes=axes)


def _slice(x: Any, starts: list[int], lengths: tuple[int, ...]) -> Any:
    index = tuple(slice(s, s + n) for s, n in zip(starts, lengths))
    return x[index] if index else x


def _check(op: str, in1: Any, in2: Any, mode: str, method: str) -> tuple[tuple, tuple]:
    if mode not in _MODES:
        raise ValueError(f"{op}: mode must be one of {_MODES}, got {mode!r}")
    if method not in _METHODS:
        raise ValueError(f"{op}: method must be one of {_METHODS}, got {method!r}")
    s1, s2 = tuple(shape_of(in1)), tuple(shape_of(in2))
    if len(s1) != len(s2):
        raise ValueError(
            f"{op}: in1 and in2 should have the same dimensionality, got {s1} and {s2}"
        )
    if 0 in s1 or 0 in s2:
        raise ValueError(f"{op}: inputs cannot be empty, got shapes {s1} and {s2}")
    if mode == "valid" and not (
        all(a >= b for a, b in zip(s1, s2)) or all(b >= a for a, b in zip(s1, s2))
    ):
        raise ValueError(
            f"{op}: for 'valid' mode, one input must be at least as large as the other in "
            f"every dimension, got {s1} and {s2}"
        )
    return s1, s2


def _mode(full: Any, s1: tuple, s2: tuple, mode: str) -> Any:
    """``full``'s slice for ``mode`` (convolve's conventions: ``same`` centred on in1)."""
    if mode == "full":
        return full
    if mode == "valid":
        return _slice(full, [min(a, b) - 1 for a, b in zip(s1, s2)],
                      tuple(abs(a - b) + 1 for a, b in zip(s1, s2)))  # fmt: skip
    return _slice(full, [(b - 1) // 2 for b in s2], s1)  # same: centered on in1


@plain_calls_scipy("signal")
def convolve(in1: ArrayLike, in2: ArrayLike, mode: str = "full", method: str = "auto") -> Tensor:
    """The n-d convolution of ``in1`` and ``in2`` (same number of dimensions): ``full``,
    ``valid`` (where they overlap completely) or ``same`` (``in1``'s shape, centered).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import convolve
    >>> convolve(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([0.0, 1.0, 0.5])).numpy()
    array([0. , 1. , 2.5, 4. , 1.5])
    """
    s1, s2 = _check("convolve", in1, in2, mode, method)
    if not s1:
        return ops.multiply(in1, in2)
    return _mode(_full(in1, in2, method), s1, s2, mode)


@plain_calls_scipy("signal")
def correlate(in1: ArrayLike, in2: ArrayLike, mode: str = "full", method: str = "auto") -> Tensor:
    """The n-d cross-correlation: ``convolve(in1, conj(in2) flipped along every axis, mode)``
    (the conjugate, as SciPy's, for complex ``in2``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import correlate
    >>> correlate(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([0.0, 1.0, 0.5]), "valid").numpy()
    array([3.5])
    """
    _check("correlate", in1, in2, mode, method)
    conj = ops.conj(in2)
    return convolve(in1, ops.flip(conj) if shape_of(in2) else conj, mode, method)


def _axes(op: str, s1: tuple, s2: tuple, axes: Any) -> tuple[int, ...]:
    """fftconvolve's ``axes``, non-negative and sorted; the other axes must broadcast."""
    ndim = len(s1)
    if axes is None:
        chosen = list(range(ndim))
    else:
        listed = [axes] if isinstance(axes, int) else list(axes)
        if any(not -ndim <= a < ndim for a in listed):
            raise ValueError(f"{op}: axes {axes!r} out of range for {ndim}-d inputs")
        chosen = sorted({a % ndim for a in listed})
        if len(chosen) != len(listed):
            raise ValueError(f"{op}: axes {axes!r} has repeated entries")
    for k in range(ndim):
        if k not in chosen and s1[k] != s2[k] and 1 not in (s1[k], s2[k]):
            raise ValueError(
                f"{op}: in1 and in2 must broadcast along the axes not convolved, got "
                f"shapes {s1} and {s2} with axes {tuple(chosen)}"
            )
    return tuple(chosen)


def _freq_convolve(op: str, in1: Any, in2: Any, mode: str, axes: Any) -> Tensor:
    s1, s2 = tuple(shape_of(in1)), tuple(shape_of(in2))
    if mode not in _MODES:
        raise ValueError(f"{op}: mode must be one of {_MODES}, got {mode!r}")
    if len(s1) != len(s2):
        raise ValueError(
            f"{op}: in1 and in2 should have the same dimensionality, got {s1} and {s2}"
        )
    if not s1:
        return ops.multiply(in1, in2)
    if 0 in s1 or 0 in s2:
        raise ValueError(f"{op}: inputs cannot be empty, got shapes {s1} and {s2}")
    along = _axes(op, s1, s2, axes)
    if mode == "valid":
        if not all(s1[a] >= s2[a] for a in along):
            if not all(s2[a] >= s1[a] for a in along):
                raise ValueError(
                    f"{op}: for 'valid' mode, one input must be at least as large as the "
                    f"other in every dimension, got {s1} and {s2}"
                )
            in1, in2, s1, s2 = in2, in1, s2, s1
    full = _full(in1, in2, op, along)
    shape = tuple(shape_of(full))
    if mode == "full":
        return full
    if mode == "same":  # SciPy centres every axis on in1's shape
        return _slice(full, [(n - m) // 2 for n, m in zip(shape, s1)], s1)
    lengths = tuple(s1[k] - s2[k] + 1 if k in along else shape[k] for k in range(len(s1)))
    return _slice(full, [(n - m) // 2 for n, m in zip(shape, lengths)], lengths)


@plain_calls_scipy("signal")
def fftconvolve(in1: ArrayLike, in2: ArrayLike, mode: str = "full", axes: Any = None) -> Tensor:
    """:func:`convolve` computed by FFT, over ``axes`` (default every axis); along the
    other axes the inputs broadcast, as SciPy's.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import fftconvolve
    >>> fftconvolve(tg.tensor([1.0, 1.0]), tg.tensor([1.0, 1.0])).numpy().round(12)
    array([1., 2., 1.])
    """
    return _freq_convolve("fftconvolve", in1, in2, mode, axes)


@plain_calls_scipy("signal")
def oaconvolve(in1: ArrayLike, in2: ArrayLike, mode: str = "full", axes: Any = None) -> Tensor:
    """:func:`fftconvolve` by the overlap-add method (SciPy's kernel forward and back).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import oaconvolve
    >>> oaconvolve(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([1.0, 1.0]), "same").numpy().round(12)
    array([1., 3., 5.])
    """
    return _freq_convolve("oaconvolve", in1, in2, mode, axes)


_BOUNDARIES = {"fill": "constant", "pad": "constant", "wrap": "wrap", "circular": "wrap",
               "symm": "symmetric", "symmetric": "symmetric"}  # fmt: skip


def _check_2d(op: str, in1: Any, in2: Any, mode: str, boundary: str, fillvalue: Any) -> None:
    if len(shape_of(in1)) != 2 or len(shape_of(in2)) != 2:
        raise ValueError(f"{op}: inputs must be 2-d, got {shape_of(in1)} and {shape_of(in2)}")
    if boundary not in _BOUNDARIES:
        raise ValueError(f"{op}: boundary must be 'fill', 'wrap' or 'symm', got {boundary!r}")
    refuse_gradient(op, "fillvalue", fillvalue, "a constant of the boundary")
    if shape_of(fillvalue):
        raise ValueError(f"{op}: fillvalue must be a scalar, got shape {shape_of(fillvalue)}")


def _boundary_full(in1: Any, in2: Any, boundary: str, fillvalue: Any) -> Any:
    """The full convolution of ``in1`` extended by ``boundary`` (zeros: the plain one)."""
    if _BOUNDARIES[boundary] == "constant" and not _nonzero(fillvalue):
        return _full(in1, in2, "auto")
    widths = [(m - 1, m - 1) for m in shape_of(in2)]
    if _BOUNDARIES[boundary] == "constant":
        padded = ops.pad(in1, widths, mode="constant", constant_values=_scalar(fillvalue))
    else:
        padded = ops.pad(in1, widths, mode=_BOUNDARIES[boundary])
    return convolve(padded, in2, "valid")


def _scalar(value: Any) -> Any:
    return value.item() if hasattr(value, "item") else value


def _nonzero(value: Any) -> bool:
    return bool(_scalar(value) != 0)


@plain_calls_scipy("signal")
def convolve2d(
    in1: ArrayLike, in2: ArrayLike, mode: str = "full", boundary: str = "fill", fillvalue: float = 0
) -> Tensor:
    """The 2-d convolution, ``in1`` extended by ``boundary``: ``fill`` (with
    ``fillvalue``), ``wrap`` (periodic) or ``symm`` (mirrored, the edge repeated).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import convolve2d
    >>> convolve2d(tg.tensor([[1.0, 2.0]]), tg.tensor([[1.0], [1.0]])).numpy()
    array([[1., 2.],
           [1., 2.]])
    >>> convolve2d(tg.tensor([[1.0, 2.0]]), tg.tensor([[1.0, 1.0]]), boundary="wrap").numpy()
    array([[3., 3., 3.]])
    """
    _check_2d("convolve2d", in1, in2, mode, boundary, fillvalue)
    s1, s2 = _check("convolve2d", in1, in2, mode, "auto")
    if mode == "valid":  # no boundary enters
        return convolve(in1, in2, mode)
    return _mode(_boundary_full(in1, in2, boundary, fillvalue), s1, s2, mode)


@plain_calls_scipy("signal")
def correlate2d(
    in1: ArrayLike, in2: ArrayLike, mode: str = "full", boundary: str = "fill", fillvalue: float = 0
) -> Tensor:
    """The 2-d cross-correlation, ``in1`` extended by ``boundary`` as in
    :func:`convolve2d` (its ``same`` output is centred as SciPy centres it, one place off
    ``correlate``'s for even kernels).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import correlate2d
    >>> correlate2d(tg.tensor([[1.0, 2.0]]), tg.tensor([[1.0, 1.0]]), "valid").numpy()
    array([[3.]])
    """
    _check_2d("correlate2d", in1, in2, mode, boundary, fillvalue)
    s1, s2 = _check("correlate2d", in1, in2, mode, "auto")
    if mode == "valid":
        return correlate(in1, in2, mode)
    full = _boundary_full(in1, ops.flip(ops.conj(in2)), boundary, fillvalue)
    if mode == "full":
        return full
    # SciPy centres correlate2d's 'same' output at M // 2, not correlate's (M - 1) // 2
    return _slice(full, [m // 2 for m in s2], s1)
