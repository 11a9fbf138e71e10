"""The modified Bessel function of the first kind, order 0: i0 (with i1 for its derivative).

``d i0 = i1`` and ``d i1 = i0 - i1 / x``, so every order of derivative comes from the two
primitives, which tapegrad.scipy.special.i0 and i1 are too. NumPy has no i1: SciPy's kernel
computes it when installed, else its power series here for ``|x| <= 20`` and its
asymptotic expansion beyond (both to about 1e-15 relative).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive

ArrayLike = Any


def _i1_numpy(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x)
    if x.dtype.kind == "c":  # as np.i0 (casting would drop the imaginary part silently)
        raise TypeError("i1 not supported for complex values")
    dtype = x.dtype if x.dtype.kind == "f" else np.dtype(np.float64)
    a = np.abs(x.astype(np.float64))
    out = np.zeros_like(a)
    small = a <= 20.0
    # I1(x) = sum_k (x/2)^(2k+1) / (k! (k+1)!)
    half = a[small] / 2.0
    term = half.copy()
    total = term.copy()
    for k in range(1, 60):
        term = term * half * half / (k * (k + 1))
        total = total + term
    out[small] = total
    # I1(x) ~ e^x / sqrt(2 pi x) sum_j (-1)^j prod_{i<=j} (4 - (2i-1)^2) / (i 8 x)
    big = a[~small]
    term = np.ones_like(big)
    series = term.copy()
    for j in range(1, 30):
        term = term * -(4.0 - (2 * j - 1) ** 2) / (j * 8.0 * big)
        series = series + term
    out[~small] = np.exp(big) / np.sqrt(2 * math.pi * big) * series
    return (np.sign(x) * out).astype(dtype)


def _i0_forward(xp: Any, x: Any) -> Any:
    if backend.is_cupy(x):
        import cupyx.scipy.special

        return cupyx.scipy.special.i0(x)
    return backend.via_numpy(np.i0, xp, x)


def _i1_kernel(x: np.ndarray) -> np.ndarray:
    """SciPy's i1 when installed (the same to rounding), else the series above."""
    try:
        from scipy.special import i1 as scipy_i1
    except ImportError:
        return _i1_numpy(x)
    if np.asarray(x).dtype.kind == "c":
        raise TypeError("i1 not supported for complex values")  # as _i1_numpy, and np.i0
    return scipy_i1(x)


def _i1_forward(xp: Any, x: Any) -> Any:
    if backend.is_cupy(x):
        import cupyx.scipy.special

        return cupyx.scipy.special.i1(x)
    return backend.via_numpy(_i1_kernel, xp, x)


# Real-only, as NumPy's i0 and SciPy's i1 (they refuse complex input). One primitive each
# for tg.i0/tg.i1 (np.i0 on Tensors) and tapegrad.scipy.special.i0/i1.
_i0 = Primitive("i0", _i0_forward, numpy=np.i0, complex_rules=False).defvjp(
    lambda g, ans, x: g * i1(x)
)


def _i1_derivative(x: Any) -> Any:
    # d i1 = i0 - i1 / x, which tends to 1/2 at 0 (its series there: 1/2 + 3 x^2 / 16 + ...)
    small = ops.less(ops.abs(x), 1e-3)
    safe = ops.where(small, 1.0, x)
    series = 0.5 + x * x * (3.0 / 16.0)
    return ops.where(small, series, i0(x) - i1(safe) / safe)


_i1 = Primitive("i1", _i1_forward, numpy=_i1_kernel, complex_rules=False).defvjp(
    lambda g, ans, x: g * _i1_derivative(x)
)


def i0(x: ArrayLike) -> Tensor:
    """The modified Bessel function of the first kind, order 0 (``np.i0``).

    >>> import tapegrad as tg
    >>> round(tg.i0(tg.tensor(1.0)).item(), 6)
    1.266066
    """
    return _i0._unary(x)


def i1(x: ArrayLike) -> Tensor:
    """The modified Bessel function of the first kind, order 1 (i0's derivative).

    >>> import tapegrad as tg
    >>> round(tg.i1(tg.tensor(1.0)).item(), 6)
    0.565159
    """
    return _i1._unary(x)
