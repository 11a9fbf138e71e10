"""How scipy.ndimage extends an array beyond its edges, on host index arrays: the
filters' extension of integer indices, and the interpolators' mapping of coordinates
(SciPy's ``map_coordinate`` of ni_interpolation.c) with its slope (+1, -1 or 0), so
that the mapped coordinate is an affine function of the given one, differentiable."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops

INTERPOLATION_MODES = ("constant", "nearest", "reflect", "mirror", "wrap", "grid-wrap",
                       "grid-constant", "grid-mirror")  # fmt: skip
FILTER_MODES = ("constant", "nearest", "reflect", "mirror", "wrap", "grid-wrap",
                "grid-constant", "grid-mirror")  # fmt: skip


def check_mode(name: str, mode: Any) -> str:
    """``mode`` when it is one of SciPy's names, else ValueError naming ``name``."""
    if not isinstance(mode, str) or mode not in INTERPOLATION_MODES:
        raise ValueError(f"{name}: mode must be one of {INTERPOLATION_MODES}, got {mode!r}")
    return mode


def extend_indices(index: np.ndarray, n: int, mode: str) -> tuple[np.ndarray, np.ndarray]:
    """``(indices into 0..n-1, whether each is inside)``: where ``mode`` reads integer
    position ``index`` of a line of ``n`` (``inside`` false: the constant ``cval``)."""
    index = np.asarray(index, dtype=np.intp)
    inside = (index >= 0) & (index < n)
    if mode in ("constant", "grid-constant"):
        return np.clip(index, 0, n - 1), inside
    if n <= 1 or mode == "nearest":
        return np.clip(index, 0, n - 1), np.ones_like(inside)
    if mode in ("reflect", "grid-mirror"):  # d c b a | a b c d | d c b a
        k = np.mod(index, 2 * n)
        return np.where(k >= n, 2 * n - 1 - k, k), np.ones_like(inside)
    if mode == "mirror":  # d c b | a b c d | c b a
        k = np.mod(index, 2 * n - 2)
        return np.where(k >= n, 2 * n - 2 - k, k), np.ones_like(inside)
    return np.mod(index, n), np.ones_like(inside)  # wrap, grid-wrap


def _trunc(value: np.ndarray) -> np.ndarray:
    return np.trunc(value)


def map_coordinate(c: np.ndarray, n: int, mode: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SciPy's ``map_coordinate``: ``(mapped, slope, outside)`` for coordinates ``c`` of
    an axis of length ``n``; ``mapped = slope * c + an integer`` and ``outside`` marks
    the points that take ``cval`` (mode ``constant``)."""
    c = np.asarray(c, dtype=np.float64)
    out, slope = c.copy(), np.ones_like(c)
    outside = np.zeros(c.shape, dtype=bool)
    low, high = c < 0, c > n - 1
    if mode == "constant":
        outside = low | high
    elif mode == "nearest":
        out = np.clip(c, 0, n - 1)
        slope = np.where(low | high, 0.0, 1.0)
    elif mode in ("grid-constant",):
        pass
    elif n <= 1:
        out = np.where(low | high, 0.0, c)
        slope = np.where(low | high, 0.0, 1.0)
    elif mode == "mirror":
        s2 = 2 * n - 2
        lo = s2 * _trunc(-c / s2) + c
        lo_flip = ~(lo <= 1 - n)
        lo = np.where(lo_flip, -lo, lo + s2)
        hi = c - s2 * _trunc(c / s2)
        hi_flip = hi >= n
        hi = np.where(hi_flip, s2 - hi, hi)
        out = np.where(low, lo, np.where(high, hi, c))
        slope = np.where((low & lo_flip) | (high & hi_flip), -1.0, 1.0)
    elif mode in ("reflect", "grid-mirror"):
        s2 = 2 * n
        lo = np.where(c < -s2, s2 * _trunc(-c / s2) + c, c)
        lo_flip = ~(lo < -n)
        lo = np.where(lo_flip, -lo - 1, lo + s2)
        hi = c - s2 * _trunc(c / s2)
        hi_flip = hi >= n
        hi = np.where(hi_flip, s2 - hi - 1, hi)
        out = np.where(low, lo, np.where(high, hi, c))
        slope = np.where((low & lo_flip) | (high & hi_flip), -1.0, 1.0)
    elif mode == "wrap":
        sz = n - 1
        lo = c + sz * (_trunc(-c / sz) + 1)
        hi = c - sz * _trunc(c / sz)
        out = np.where(low, lo, np.where(high, hi, c))
    elif mode == "grid-wrap":
        lo = c + n * (_trunc((-1 - c) / n) + 1)
        hi = c - n * _trunc(c / n)
        out = np.where(low, lo, np.where(high, hi, c))
    return out, slope, outside


def take_extended(x: Any, axis: int, index: np.ndarray, mode: str, cval: float) -> Any:
    """``x`` read along ``axis`` at integer positions ``index`` (1-d) as ``mode`` extends
    it: a gather (differentiable in ``x``), ``cval`` where the extension is constant."""
    n = x.shape[axis]
    found, inside = extend_indices(index, n, mode)
    taken = ops.take(x, found, axis=axis)
    if inside.all():
        return taken
    shape = [1] * len(x.shape)
    shape[axis] = len(index)
    mask = inside.reshape(shape)
    return ops.where(mask, taken, cval)
