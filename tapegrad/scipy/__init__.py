"""SciPy with gradients: ``special``, ``stats``, ``linalg``, ``signal``, ``integrate``.

The submodules mirror SciPy's names and signatures for the functions that have
gradients, as ``jax.scipy`` does; each is imported on first use. SciPy is an
optional dependency: ``pip install 'tapegrad[scipy]'``.

>>> import tapegrad as tg
>>> from tapegrad.scipy import special
>>> round(tg.grad(special.gammaln)(3.0).item(), 12)  # digamma(3)
0.922784335098
"""

from __future__ import annotations

import importlib
from types import ModuleType

try:
    import scipy
except ImportError as exc:  # pragma: no cover - exercised in a subprocess test
    raise ImportError(
        "tapegrad.scipy needs SciPy: pip install 'tapegrad[scipy]' (or pip install 'scipy>=1.15')"
    ) from exc

_MINIMUM = (1, 15)  # batched scipy.linalg kernels
if tuple(int(part) for part in scipy.__version__.split(".")[:2]) < _MINIMUM:  # pragma: no cover
    raise ImportError(
        f"tapegrad.scipy needs SciPy >= 1.15, found {scipy.__version__}: "
        "pip install -U 'tapegrad[scipy]'"
    )

_SUBMODULES = ("integrate", "linalg", "signal", "special", "stats")

__all__ = list(_SUBMODULES)


def __getattr__(name: str) -> ModuleType:
    if name in _SUBMODULES:
        return importlib.import_module(f"tapegrad.scipy.{name}")
    raise AttributeError(f"module 'tapegrad.scipy' has no attribute {name!r}")
