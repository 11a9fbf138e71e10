"""The array backends the suite runs on, chosen with ``--backend``.

Tests that take a ``backend`` argument run once per selected backend; they
build their inputs with ``backend.tensor(numpy_array)``.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np

import tapegrad as tg


class Backend:
    name = "numpy"

    def available(self) -> bool:
        return True

    def tensor(self, x: Any) -> tg.Tensor:
        """A Tensor holding ``x`` (a NumPy array, Tensor or scalar) in this backend."""
        data = x.numpy() if isinstance(x, tg.Tensor) else np.asarray(x)
        return tg.Tensor(self.array(data))

    def array(self, data: np.ndarray) -> Any:
        return np.array(data)

    def __repr__(self) -> str:
        return self.name


class StrictBackend(Backend):
    name = "strict"

    def available(self) -> bool:
        return importlib.util.find_spec("array_api_strict") is not None

    def array(self, data: np.ndarray) -> Any:
        import array_api_strict

        return array_api_strict.asarray(data)


class CupyBackend(Backend):
    name = "cupy"

    def available(self) -> bool:
        try:
            import cupy

            return cupy.cuda.runtime.getDeviceCount() > 0
        except Exception:
            return False

    def array(self, data: np.ndarray) -> Any:
        import cupy

        return cupy.asarray(data)


BACKENDS = {b.name: b for b in (Backend(), StrictBackend(), CupyBackend())}
DEFAULT = ("numpy",)


def select(option: str | None) -> list[Backend]:
    """The backends named by ``--backend`` (``numpy``, ``strict``, ``cupy``, ``all``)."""
    if option is None:
        names = [n for n in DEFAULT if BACKENDS[n].available()]
    elif option == "all":
        names = [n for n, b in BACKENDS.items() if b.available()]
    else:
        names = [n.strip() for n in option.split(",")]
        for n in names:
            if n not in BACKENDS:
                raise ValueError(f"--backend: unknown backend {n!r}; use {sorted(BACKENDS)} or all")
            if not BACKENDS[n].available():
                raise RuntimeError(f"--backend {n}: that backend is not available here")
    return [BACKENDS[n] for n in names]
