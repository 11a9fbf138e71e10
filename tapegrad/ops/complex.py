"""Complex parts: real imag conj (conjugate) angle.

Gradients of complex values follow TensorFlow's and PyTorch's convention (see
docs/complex.md): for a real loss L and z = x + iy the gradient is dL/dx + i dL/dy,
so a rule for a holomorphic f returns ``g * conj(f'(z))``, and the cotangent of a real
input is the real part of its complex cotangent (the sweep takes it, see
:func:`tapegrad.ops.arithmetic.cast_cotangent`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, conjugated

ArrayLike = Any


def _is_complex(x: Any) -> bool:
    dtype = getattr(x, "dtype", None)
    if dtype is None:  # Python numbers and lists
        dtype = np.asarray(x).dtype
    return backend.is_complex(dtype)


def _itself(x: Any) -> Tensor:
    """``x`` as a Tensor: the same Tensor (so gradients pass) when it is one."""
    return x if isinstance(x, Tensor) else ops.asarray(x)


# real(z) = (z + conj z) / 2: a real cotangent g comes back as g + 0i (the sweep casts it
# to the input's complex dtype).
_real = Primitive("real", lambda xp, x: xp.real(x), numpy=np.real, complex_rules=True).defvjp(
    lambda g, ans, x: g
)


def real(x: ArrayLike) -> Tensor:
    """The real part of ``x`` (``x`` itself when it is real), as ``np.real``.

    >>> import tapegrad as tg
    >>> tg.real(tg.tensor([1 + 2j, 3 - 1j])).numpy().tolist()
    [1.0, 3.0]
    """
    return _real._unary(x) if _is_complex(x) else _itself(x)


# imag(z) = (z - conj z) / 2i: the gradient of L with respect to y is g, that is 0 + i g.
_imag = Primitive("imag", lambda xp, x: xp.imag(x), numpy=np.imag, complex_rules=True).defvjp(
    lambda g, ans, x: g * 1j
)


def imag(x: ArrayLike) -> Tensor:
    """The imaginary part of ``x`` (zeros, with no gradient, when ``x`` is real), as
    ``np.imag``.

    >>> import tapegrad as tg
    >>> tg.imag(tg.tensor([1 + 2j, 3 - 1j])).numpy().tolist()
    [2.0, -1.0]
    """
    return _imag._unary(x) if _is_complex(x) else ops.zeros_like(x)


# conj is antiholomorphic: d conj(z) = conj(dz), so the cotangent is conj(g).
_conj = Primitive("conj", lambda xp, x: xp.conj(x), numpy=np.conjugate, complex_rules=True).defvjp(
    lambda g, ans, x: conjugated(g)
)


def conj(x: ArrayLike) -> Tensor:
    """The complex conjugate of ``x`` (``x`` itself when it is real), as ``np.conj``.

    >>> import tapegrad as tg
    >>> tg.conj(tg.tensor([1 + 2j])).numpy().tolist()
    [(1-2j)]
    """
    return _conj._unary(x) if _is_complex(x) else _itself(x)


conjugate = conj


def _angle_forward(xp: Any, x: Any) -> Any:
    if backend.is_complex(x.dtype):
        return xp.atan2(xp.imag(x), xp.real(x))
    return xp.atan2(xp.zeros_like(x), x)  # 0 or pi, as np.angle


def _angle_vjp(g: Any, ans: Any, x: Any) -> Any:
    # d atan2(y, x) = (x dy - y dx) / |z|^2, so the gradient is g (-y + ix) / |z|^2
    # = g i z / |z|^2; taken as 0 at z = 0 (as abs's). A real input's angle is
    # piecewise constant.
    if not _is_complex(x):
        return ops.zeros_like(g)
    squared = ops.real(x * conjugated(x))
    return g * 1j * (x / ops.where(ops.equal(squared, 0.0), 1.0, squared))


_angle = Primitive("angle", _angle_forward, numpy=np.angle, complex_rules=True).defvjp(_angle_vjp)


def angle(x: ArrayLike, deg: bool = False) -> Tensor:
    """The argument of each complex element, in radians (degrees with ``deg=True``), in
    ``(-pi, pi]``, as ``np.angle``. Its gradient at 0 is 0.

    >>> import tapegrad as tg
    >>> tg.angle(tg.tensor([1j, -1.0]), deg=True).numpy().tolist()
    [90.0, 180.0]
    """
    out = _angle._unary(x)
    return out * (180.0 / math.pi) if deg else out
