"""The error function, ``erf``: one primitive for tg.nn's exact GELU (which must work with
NumPy alone) and ``tapegrad.scipy.special.erf``.

Its forward is SciPy's kernel when SciPy is installed (complex values too), else the C
library's ``math.erf`` per element (real values); ``cupyx.scipy.special.erf`` on CuPy
arrays. ``d erf(z) / dz = 2/sqrt(pi) exp(-z**2)``, holomorphic: the rule takes its
conjugate (docs/complex.md).
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
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


def _erf_numpy(x: np.ndarray) -> np.ndarray:
    """erf to double precision: SciPy's when installed, else the C library's through math.erf."""
    try:
        from scipy.special import erf as scipy_erf
    except ImportError:  # SciPy is optional; math.erf is exact but runs per element
        x = np.asarray(x)
        if x.dtype.kind == "c":
            raise TypeError("erf of complex values needs SciPy (math.erf is real)") from None
        return np.asarray(np.frompyfunc(math.erf, 1, 1)(x), dtype=x.dtype)
    return scipy_erf(x)


def _erf_forward(xp: Any, x: Any) -> Any:
    if xp is np:
        return _erf_numpy(x)
    if backend.is_cupy(x):
        import cupyx.scipy.special

        return cupyx.scipy.special.erf(x)
    # Another array library: through the host, back to where x lives.
    return backend.move(_erf_numpy(backend.to_host(x)), backend.placement_of(x))


_erf = Primitive("erf", _erf_forward, numpy=_erf_numpy, complex_rules=True).defvjp(
    lambda g, ans, x: g * ops.conj(_TWO_OVER_SQRT_PI * ops.exp(-ops.square(x)))
)


def erf(x: ArrayLike) -> Tensor:
    """The error function ``2/sqrt(pi) * integral_0^x exp(-t**2) dt``, elementwise.

    >>> import tapegrad as tg
    >>> from tapegrad.ops.erf import erf
    >>> round(erf(tg.tensor(1.0)).item(), 12)
    0.84270079295
    """
    return _erf._unary(x)
