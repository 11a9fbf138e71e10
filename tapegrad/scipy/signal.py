"""SciPy's convolution with gradients: convolve correlate fftconvolve convolve2d correlate2d.

One primitive, the n-d ``full`` convolution; the other modes are slices of it, and a
correlation is a convolution with the second input flipped. The full convolution's VJP is
a ``valid`` correlation with the other input, itself a slice of a full convolution with
that input flipped (for input 1: ``convolve(ḡ, flip(in2))[M-1 : M-1+N]`` along each axis),
so every order of derivative is available. Complex inputs too: the correlation in the VJP
conjugates the other input (docs/complex.md).
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, shape_of
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy

ArrayLike = Any
_MODES = ("full", "valid", "same")
_METHODS = ("auto", "direct", "fft")


def _full_vjp(argnum: int) -> Any:
    def rule(g: Any, ans: Any, in1: Any, in2: Any, method: str) -> Any:
        mine, other = (in1, in2) if argnum == 0 else (in2, in1)
        flipped = ops.flip(ops.conj(other)) if shape_of(other) else ops.conj(other)
        starts = [m - 1 for m in shape_of(other)]
        return _slice(_full(g, flipped, method), starts, shape_of(mine))

    return rule


_convolve_full = Primitive(
    "convolve",
    lambda xp, in1, in2, method: kernel(xp, "signal", "convolve")(
        in1, in2, mode="full", method=method
    ),
    complex_rules=True,
).defvjp(_full_vjp(0), _full_vjp(1))


def _full(in1: Any, in2: Any, method: str) -> Tensor:
    return _convolve_full(in1, in2, method=method)


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
    full = _full(in1, in2, method)
    if mode == "full":
        return full
    if mode == "valid":
        return _slice(full, [min(a, b) - 1 for a, b in zip(s1, s2)],
                      tuple(abs(a - b) + 1 for a, b in zip(s1, s2)))  # fmt: skip
    return _slice(full, [(b - 1) // 2 for b in s2], s1)  # same: centered on in1


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
    kernel = ops.conj(in2)
    return convolve(in1, ops.flip(kernel) if shape_of(in2) else kernel, mode, method)


@plain_calls_scipy("signal")
def fftconvolve(in1: ArrayLike, in2: ArrayLike, mode: str = "full", axes: Any = None) -> Tensor:
    """:func:`convolve` computed by FFT (over every axis; ``axes`` is not supported).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import fftconvolve
    >>> fftconvolve(tg.tensor([1.0, 1.0]), tg.tensor([1.0, 1.0])).numpy().round(12)
    array([1., 2., 1.])
    """
    if axes is not None:
        raise NotImplementedError("fftconvolve: axes is not supported; it convolves every axis")
    return convolve(in1, in2, mode, method="fft")


def _check_2d(op: str, in1: Any, in2: Any, boundary: str, fillvalue: float) -> None:
    if len(shape_of(in1)) != 2 or len(shape_of(in2)) != 2:
        raise ValueError(f"{op}: inputs must be 2-d, got {shape_of(in1)} and {shape_of(in2)}")
    if boundary != "fill" or fillvalue != 0:
        raise NotImplementedError(
            f"{op}: only boundary='fill' with fillvalue=0 is supported, got "
            f"boundary={boundary!r}, fillvalue={fillvalue!r}"
        )


@plain_calls_scipy("signal")
def convolve2d(
    in1: ArrayLike, in2: ArrayLike, mode: str = "full", boundary: str = "fill", fillvalue: float = 0
) -> Tensor:
    """The 2-d convolution (zero fill at the boundary).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import convolve2d
    >>> convolve2d(tg.tensor([[1.0, 2.0]]), tg.tensor([[1.0], [1.0]])).numpy()
    array([[1., 2.],
           [1., 2.]])
    """
    _check_2d("convolve2d", in1, in2, boundary, fillvalue)
    return convolve(in1, in2, mode)


@plain_calls_scipy("signal")
def correlate2d(
    in1: ArrayLike, in2: ArrayLike, mode: str = "full", boundary: str = "fill", fillvalue: float = 0
) -> Tensor:
    """The 2-d cross-correlation (zero fill at the boundary; its ``same`` output is centred
    as SciPy centres it, one place off ``correlate``'s for even kernels).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.signal import correlate2d
    >>> correlate2d(tg.tensor([[1.0, 2.0]]), tg.tensor([[1.0, 1.0]]), "valid").numpy()
    array([[3.]])
    """
    _check_2d("correlate2d", in1, in2, boundary, fillvalue)
    if mode != "same":
        return correlate(in1, in2, mode)
    # SciPy centres correlate2d's 'same' output at M // 2, not correlate's (M - 1) // 2
    full = correlate(in1, in2, "full")
    return _slice(full, [m // 2 for m in shape_of(in2)], tuple(shape_of(in1)))
