"""Parts of complex numbers: real imag conj angle.

Rules in TensorFlow's and PyTorch's convention (the cotangent of z = x + iy is
dL/dx + i dL/dy): ``real`` passes ``g`` (as ``g + 0j``), ``imag`` gives ``i g``,
``conj`` gives ``conj(g)`` and ``angle`` gives ``i g / conj(z)``. On real inputs real
and conj are the input itself, imag is 0 and angle is 0 or pi (no gradient).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.ops.primitive import Primitive
from tapegrad.ops.rule_helpers import conj as conj_of_value
from tapegrad.ops.rule_helpers import is_complex
from tapegrad.tensor import Tensor

ArrayLike = Any

_real = Primitive("real", lambda xp, x: xp.real(x), numpy=np.real).defvjp(lambda g, ans, x: g)
_imag = Primitive("imag", lambda xp, x: xp.imag(x), numpy=np.imag).defvjp(lambda g, ans, x: g * 1j)


def real(x: ArrayLike) -> Any:
    """The real part (a real input itself).

    >>> import tapegrad as tg
    >>> tg.real(tg.tensor([1.0 + 2.0j])).numpy()
    array([1.])
    """
    if not is_complex(x):
        return x if isinstance(x, Tensor) else ops.asarray(np.asarray(x))
    return _real._unary(x)


def imag(x: ArrayLike) -> Tensor:
    """The imaginary part (zeros for a real input)."""
    if not is_complex(x):
        return ops.zeros_like(x)
    return _imag._unary(x)


def conj(x: ArrayLike) -> Any:
    """The complex conjugate (a real input itself); ``np.conjugate``."""
    if not is_complex(x):
        return x if isinstance(x, Tensor) else ops.asarray(np.asarray(x))
    return conj_of_value(x)


def _angle_vjp(g: Any, ans: Any, z: Any) -> Any:
    # angle = atan2(y, x): dL/dz = g (-y + i x) / |z|^2 = i g / conj(z)
    return g * 1j / conj_of_value(z)


_angle = Primitive("angle", lambda xp, z: xp.atan2(xp.imag(z), xp.real(z))).defvjp(_angle_vjp)


def angle(z: ArrayLike, deg: bool = False) -> Tensor:
    """The counterclockwise angle from the positive real axis (radians, or degrees).

    >>> import tapegrad as tg
    >>> tg.angle(tg.tensor([-1.0, 1.0])).numpy()
    array([3.14159265, 0.        ])
    """
    if is_complex(z):
        out = _angle._unary(z)
    else:  # 0 or pi: piecewise constant, no gradient
        out = ops.where(ops.less(z, 0), math.pi, ops.zeros_like(z, dtype=_float_of(z)))
    return out * (180.0 / math.pi) if deg else out


def _float_of(x: Any) -> Any:
    dtype = getattr(x, "dtype", None)
    kind = getattr(dtype, "kind", "f")
    return dtype if kind == "f" else np.float64
