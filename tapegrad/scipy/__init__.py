"""SciPy with gradients: ``special``, ``stats``, ``linalg``, ``signal``, ``integrate``, ``fft``,
``optimize``.

The submodules mirror SciPy's names and signatures for the functions that have
gradients, as ``jax.scipy`` does; each is imported on first use. SciPy is an
optional dependency: ``pip install 'tapegrad[scipy]'``.

Layer: built on the engine, the op library, ``tapegrad.linalg`` and ``tapegrad.numpy``
(its ufuncs join NumPy's protocol); nothing below imports it.

>>> import tapegrad as tg
>>> from tapegrad.scipy import special
>>> round(tg.grad(special.gammaln)(3.0), 12)  # digamma(3)
0.922784335098
"""

from __future__ import annotations

import importlib
from types import ModuleType

_INSTALL = "pip install 'tapegrad[scipy]' (or pip install 'scipy>=1.15')"
try:
    import scipy
    import scipy.special  # a directory named scipy on sys.path is not SciPy
except ImportError as exc:
    raise ImportError(f"tapegrad.scipy needs SciPy: {_INSTALL}") from exc

_MINIMUM = (1, 15)  # batched scipy.linalg kernels
if tuple(int(part) for part in scipy.__version__.split(".")[:2]) < _MINIMUM:
    raise ImportError(f"tapegrad.scipy needs SciPy >= 1.15, found {scipy.__version__}: {_INSTALL}")

_SUBMODULES = (
    "cluster", "spatial", "fft", "integrate", "interpolate", "linalg", "ndimage", "optimize",
    "signal", "sparse", "special",
    "stats",
)  # fmt: skip

__all__ = list(_SUBMODULES)


def __getattr__(name: str) -> ModuleType:
    if name in _SUBMODULES:
        return importlib.import_module(f"tapegrad.scipy.{name}")
    raise AttributeError(f"module 'tapegrad.scipy' has no attribute {name!r}")
