"""Inputs for the tg.linalg tests, well conditioned by construction (spectra and singular
values chosen, then rotated by random unitary matrices), and the checks they share."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from hypothesis import strategies as st

from tapegrad.testing import gradcheck, gradgradcheck

DTYPES = (np.float64, np.complex128)


@dataclass
class Problem:
    """A seeded generator, a batch shape (maybe empty), a matrix size and a dtype."""

    rng: np.random.Generator
    batch: tuple[int, ...]
    n: int
    dtype: Any

    @property
    def complex(self) -> bool:
        return np.dtype(self.dtype).kind == "c"

    @property
    def small(self) -> bool:
        """Second derivatives (finite differences of a gradient) run on these."""
        return self.batch == () and self.n <= 2

    def random(self, *shape: int) -> np.ndarray:
        """Standard normal values of ``batch + shape`` in the dtype."""
        full = self.batch + shape
        values = self.rng.standard_normal(full)
        if self.complex:
            values = values + 1j * self.rng.standard_normal(full)
        return values

    def unitary(self, n: int) -> np.ndarray:
        q, r = np.linalg.qr(self.random(n, n))
        return (
            q
            * (np.diagonal(r, axis1=-2, axis2=-1) / abs(np.diagonal(r, axis1=-2, axis2=-1)))[
                ..., None, :
            ]
        )

    def spread(self, k: int, low: float = 1.0, gap: float = 0.4) -> np.ndarray:
        """``k`` distinct values from ``low`` up, at least ``gap`` apart, per matrix."""
        steps = gap + self.rng.uniform(0, 0.3, self.batch + (k,))
        return low + np.cumsum(steps, axis=-1) - steps[..., :1]

    def general(self, m: int | None = None, n: int | None = None) -> np.ndarray:
        """A matrix with distinct singular values in [1, ~3]: U diag(s) Vᴴ."""
        m, n = m or self.n, n or self.n
        k = min(m, n)
        s = self.spread(k)[..., ::-1]
        u, v = self.unitary(m)[..., :k], self.unitary(n)[..., :k]
        return (u * s[..., None, :]) @ np.conj(np.swapaxes(v, -1, -2))

    def hermitian(self, low: float = -1.5) -> np.ndarray:
        """A Hermitian matrix with distinct eigenvalues from ``low`` up: Q diag(w) Qᴴ."""
        q = self.unitary(self.n)
        w = self.spread(self.n, low=low)
        return (q * w[..., None, :]) @ np.conj(np.swapaxes(q, -1, -2))

    def positive_definite(self) -> np.ndarray:
        return self.hermitian(low=1.0)

    def diagonalizable(self) -> np.ndarray:
        """P diag(w) P⁻¹ with distinct w (complex ones for complex dtypes) and P close to I."""
        p = np.eye(self.n) + 0.3 * self.random(self.n, self.n)
        w = self.spread(self.n, low=-1.0).astype(self.dtype)
        if self.complex:
            w = w + 1j * self.rng.uniform(-1, 1, w.shape)
        return (p * w[..., None, :]) @ np.linalg.inv(p)


@st.composite
def problems(draw: Any, max_n: int = 3, batch: bool = True, dtypes: Any = DTYPES) -> Problem:
    seed = draw(st.integers(0, 2**32 - 1), label="seed")
    n = draw(st.integers(1, max_n), label="n")
    shape = draw(st.sampled_from([(), (), (2,)] if batch else [()]), label="batch")
    dtype = draw(st.sampled_from(dtypes), label="dtype")
    return Problem(np.random.default_rng(seed), shape, n, dtype)


def check(f: Any, inputs: list[Any], second: bool, atol: float = 1e-5) -> None:
    """First derivatives against finite differences, and second when ``second``."""
    gradcheck(f, inputs, atol=atol)
    if second:
        gradgradcheck(f, inputs, atol=1e-4)


def mh(x: Any) -> Any:
    """The conjugate transpose of the last two axes (NumPy arrays or Tensors)."""
    return np.conj(np.swapaxes(x, -1, -2))
