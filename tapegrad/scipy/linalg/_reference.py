"""What tapegrad.scipy.linalg's factorizations share: SciPy's own result on the same input
(computed on the host), and the constants that turn a composed factorization into SciPy's.

Each differentiable factorization is composed from tapegrad.linalg's (whose rules, and
their conventions for repeated values, docs/linalg.md describes), and SciPy's own result on
the same input fixes what a factorization leaves free: the sign (the phase, for complex
values) of each eigen- or singular vector, the order of eigenvalues, the basis of a
complement. These are constants (a sign flip, a permutation, an orthogonal rotation), so
the values are SciPy's and the gradient is that of the composed factorization.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.linalg import _spectral
from tapegrad.linalg._matrix import (
    as_input,
    constant_like,
    is_complex,
    mH,
    triangle,
)
from tapegrad.ops.primitive import shape_of

__all__: list[str] = []  # private: helpers only


# ---------------------------------------------------------------------------------------
# What the compositions share: SciPy's result on the host, and the constants that turn a
# composed factorization into SciPy's.


def _scipy(name: str) -> Any:
    import scipy.linalg

    return getattr(scipy.linalg, name)


def host(x: Any) -> np.ndarray:
    """``x``'s values as a NumPy array (what SciPy's reference call is made on)."""
    return _spectral.host(as_input(x))


def phases(ours: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """Per column, the unit factor (a sign for real values) that turns ``ours`` into
    ``reference``: the phase of ``⟨ours_i, reference_i⟩``; 1 where that is 0."""
    inner = np.sum(np.conj(ours) * reference, axis=-2)
    size = np.abs(inner)
    if not np.iscomplexobj(inner):
        return np.where(inner < 0, -1.0, 1.0)
    return np.where(size > 0, inner / np.where(size > 0, size, 1.0), 1.0)


def align_columns(ours: Any, reference: np.ndarray, k: int | None = None) -> tuple[Any, Any]:
    """``ours`` (a Tensor of columns ``(..., m, c)``) with SciPy's signs: its first ``k``
    columns (all by default) times constant phases, the others (an orthonormal basis of a
    complement, defined up to rotation) times the constant rotation onto ``reference``'s.
    Returns the aligned Tensor and the phases (for a partner factor)."""
    c = shape_of(ours)[-1]
    k = c if k is None else k
    values = _spectral.host(ours)
    if np.iscomplexobj(reference) and not np.iscomplexobj(values):
        ours = ops.astype(ours, reference.dtype)
        values = values.astype(reference.dtype)
    p = phases(values[..., :k], reference[..., :k])
    if not np.iscomplexobj(values):
        p = np.real(p)
    head = ours[..., :k] * constant_like(p[..., None, :], ours)
    if k == c:
        return head, p
    rotation = np.conj(np.swapaxes(values[..., k:], -1, -2)) @ reference[..., k:]
    if not np.iscomplexobj(values):
        rotation = np.real(rotation)
    tail = ours[..., k:] @ constant_like(rotation, ours)
    return ops.concatenate([head, tail], axis=-1), p


def _check_finite(op: str, check: bool, *arrays: Any) -> None:
    if check and not builtins.all(np.all(np.isfinite(host(a))) for a in arrays if a is not None):
        raise ValueError(f"{op}: array must not contain infs or NaNs")


def _hermitian(a: Any, lower: bool) -> Any:
    """The Hermitian matrix of ``a``'s ``lower`` (or upper) triangle."""
    strict = triangle(a, lower, k=-1 if lower else 1)
    diagonal = triangle(triangle(a, True), False)
    if is_complex(a):
        diagonal = (diagonal + ops.conj(diagonal)) / 2
    return strict + mH(strict) + diagonal


def _select(count: int, w: np.ndarray, by_index: Any, by_value: Any, op: str) -> np.ndarray:
    """The indices of the eigenvalues ``w`` (ascending) kept: ``by_index`` ``[lo, hi]``
    (inclusive), ``by_value`` the half-open ``(lo, hi]``."""
    if by_index is not None and by_value is not None:
        raise ValueError(f"{op}: give subset_by_index or subset_by_value, not both")
    if by_index is not None:
        lo, hi = (int(i) for i in by_index)
        return np.arange(lo, hi + 1)
    if by_value is not None:
        if w.ndim > 1:
            raise NotImplementedError(
                f"{op}: subset_by_value on a stack of matrices (each may keep a different "
                "number of eigenvalues)"
            )
        lo, hi = (float(v) for v in by_value)
        return np.flatnonzero((w > lo) & (w <= hi))
    return np.arange(count)
