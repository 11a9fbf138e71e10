"""Seeded random Tensors: a Generator wrapping ``numpy.random.Generator``.

Numbers are drawn on the host and then moved to the target device, so one seed
gives the same values on every device. The module-level functions use a
default Generator that :func:`seed` resets.

>>> import tapegrad as tg
>>> g = tg.random.Generator(0)
>>> g.uniform(size=(2,)).shape
(2,)
>>> tg.random.seed(1); a = tg.random.normal(size=3)
>>> tg.random.seed(1); b = tg.random.normal(size=3)
>>> bool((a == b).numpy().all())
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import devices
from tapegrad.tensor import Tensor

Size = int | tuple[int, ...] | None


class Generator:
    """A source of random Tensors, reproducible from ``seed`` (fresh entropy when None).

    >>> import tapegrad as tg
    >>> g = tg.random.Generator(42)
    >>> g.integers(0, 10, size=4).dtype
    dtype('int64')
    """

    def __init__(self, seed: int | None = None) -> None:
        self.numpy_generator = np.random.default_rng(seed)

    def _tensor(self, values: Any, dtype: Any, device: str | None) -> Tensor:
        return Tensor(devices.make_array(values, dtype, device))

    def normal(
        self,
        loc: float = 0.0,
        scale: float = 1.0,
        size: Size = None,
        dtype: Any = np.float64,
        device: str | None = None,
    ) -> Tensor:
        """Samples of N(loc, scale**2) of shape ``size``."""
        return self._tensor(self.numpy_generator.normal(loc, scale, size), dtype, device)

    def uniform(
        self,
        low: float = 0.0,
        high: float = 1.0,
        size: Size = None,
        dtype: Any = np.float64,
        device: str | None = None,
    ) -> Tensor:
        """Samples of the uniform distribution on ``[low, high)``."""
        return self._tensor(self.numpy_generator.uniform(low, high, size), dtype, device)

    def integers(
        self,
        low: int,
        high: int | None = None,
        size: Size = None,
        dtype: Any = np.int64,
        device: str | None = None,
    ) -> Tensor:
        """Integers in ``[low, high)`` (``[0, low)`` when ``high`` is None)."""
        return self._tensor(self.numpy_generator.integers(low, high, size), dtype, device)

    def bernoulli(self, p: float, size: Size = None, device: str | None = None) -> Tensor:
        """A boolean Tensor, each element True with probability ``p``."""
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"bernoulli: p must be in [0, 1], got {p}")
        return self._tensor(self.numpy_generator.random(size) < p, bool, device)

    def permutation(self, n: int, device: str | None = None) -> Tensor:
        """A random ordering of ``0 .. n-1`` as an int64 Tensor."""
        return self._tensor(self.numpy_generator.permutation(n), np.int64, device)

    def __repr__(self) -> str:
        return f"Generator({type(self.numpy_generator.bit_generator).__name__})"


_default = Generator()


def default_generator() -> Generator:
    """The Generator behind the module-level functions."""
    return _default


def seed(value: int | None) -> None:
    """Reset the default Generator to ``value`` (fresh entropy when None)."""
    global _default
    _default = Generator(value)


def normal(
    loc: float = 0.0,
    scale: float = 1.0,
    size: Size = None,
    dtype: Any = np.float64,
    device: str | None = None,
) -> Tensor:
    """N(loc, scale**2) samples from the default Generator; see :meth:`Generator.normal`."""
    return _default.normal(loc, scale, size, dtype, device)


def uniform(
    low: float = 0.0,
    high: float = 1.0,
    size: Size = None,
    dtype: Any = np.float64,
    device: str | None = None,
) -> Tensor:
    """Uniform samples on ``[low, high)`` from the default Generator."""
    return _default.uniform(low, high, size, dtype, device)


def integers(
    low: int,
    high: int | None = None,
    size: Size = None,
    dtype: Any = np.int64,
    device: str | None = None,
) -> Tensor:
    """Random integers in ``[low, high)`` from the default Generator."""
    return _default.integers(low, high, size, dtype, device)


def bernoulli(p: float, size: Size = None, device: str | None = None) -> Tensor:
    """A boolean Tensor of coin flips with probability ``p``, from the default Generator."""
    return _default.bernoulli(p, size, device)


def permutation(n: int, device: str | None = None) -> Tensor:
    """A random ordering of ``0 .. n-1`` from the default Generator."""
    return _default.permutation(n, device)
