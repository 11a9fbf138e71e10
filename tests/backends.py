"""The array backends the suite runs on, chosen with ``--backend``.

Tests that take a ``backend`` argument run once per selected backend; they
build their inputs with ``backend.tensor(numpy_array)``. By default the suite
runs on NumPy and, when it is installed, on array_api_strict: a second array
namespace that needs no GPU and rejects everything outside the array API
standard, so it proves that primitives use their inputs' namespace.

An op that cannot run on a backend is listed in :data:`UNSUPPORTED`, the one
place, with the reason; its tests call ``backend.require(name)`` to skip there.
"""

from __future__ import annotations

import importlib.util
from typing import Any

import numpy as np
import pytest

import tapegrad as tg

# backend name -> {op name: why it cannot run there}. Keep it empty where possible:
# every entry is a promise the op breaks on that backend.
UNSUPPORTED: dict[str, dict[str, str]] = {
    "numpy": {},
    "strict": {},
    "cupy": {},
}


class Backend:
    """NumPy: the reference backend."""

    name = "numpy"

    def available(self) -> bool:
        return True

    def tensor(self, x: Any) -> tg.Tensor:
        """A Tensor holding ``x`` (a NumPy array, Tensor or scalar) in this backend."""
        data = x.numpy() if isinstance(x, tg.Tensor) else np.asarray(x)
        return tg.Tensor(self.array(data))

    def array(self, data: np.ndarray) -> Any:
        return np.array(data)

    def owns(self, t: tg.Tensor) -> bool:
        """Whether ``t``'s data is an array of this backend's library."""
        return type(t.data) is np.ndarray

    def require(self, op: str) -> None:
        """Skip the calling test when ``op`` is listed as unsupported on this backend."""
        reason = UNSUPPORTED[self.name].get(op)
        if reason is not None:
            pytest.skip(f"{op} on {self.name}: {reason}")

    def __repr__(self) -> str:
        return self.name


class StrictBackend(Backend):
    """array_api_strict: the array API standard and nothing else, on the CPU."""

    name = "strict"

    def available(self) -> bool:
        return importlib.util.find_spec("array_api_strict") is not None

    def array(self, data: np.ndarray) -> Any:
        import array_api_strict

        return array_api_strict.asarray(data)

    def owns(self, t: tg.Tensor) -> bool:
        return type(t.data).__module__.startswith("array_api_strict")


class CupyBackend(Backend):
    """CuPy on the first GPU."""

    name = "cupy"

    def available(self) -> bool:
        from tapegrad.backends import devices

        return devices.gpu_count() > 0

    def array(self, data: np.ndarray) -> Any:
        import cupy

        return cupy.asarray(data)

    def owns(self, t: tg.Tensor) -> bool:
        return type(t.data).__module__.startswith("cupy")


BACKENDS = {b.name: b for b in (Backend(), StrictBackend(), CupyBackend())}
DEFAULT = ("numpy", "strict") if BACKENDS["strict"].available() else ("numpy",)


def select(option: str | None) -> list[Backend]:
    """The backends named by ``--backend`` (``numpy``, ``strict``, ``cupy``, ``all``)."""
    if option is None:
        names = list(DEFAULT)
    elif option == "all":
        names = [n for n, b in BACKENDS.items() if b.available()]
    else:
        names = [n.strip() for n in option.split(",")]
        for n in names:
            if n not in BACKENDS:
                raise ValueError(f"--backend: unknown backend {n!r}; use {sorted(BACKENDS)} or all")
            if not BACKENDS[n].available():
                hint = " (it needs CuPy and a GPU)" if n == "cupy" else ""
                raise RuntimeError(f"--backend {n}: that backend is not available here{hint}")
    return [BACKENDS[n] for n in names]
