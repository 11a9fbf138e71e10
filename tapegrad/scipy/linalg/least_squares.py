"""Least squares, pseudo-inverses and norms: lstsq pinv pinvh norm, SciPy's signatures
over tapegrad.linalg's differentiable lstsq, pinv and norm (real and complex).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import (
    as_input,
    describe,
    eye_like,
    real_dtype,
    triangle,
)
from tapegrad.linalg._spectral import host
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg.basic import _check_finite, _hermitian

__all__ = [
    "lstsq", "norm", "pinv", "pinvh",
]  # fmt: skip

ArrayLike = Any


@plain_calls_scipy("linalg")
def lstsq(
    a: ArrayLike,
    b: ArrayLike,
    cond: float | None = None,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
    lapack_driver: str | None = None,
) -> tuple[Tensor, Tensor, int, Tensor | None]:
    """``(x, residues, rank, s)``: the minimum-norm least-squares solution of ``a x = b``
    (``a`` 2-d, ``b`` ``(m,)`` or ``(m, k)``), singular values below ``cond`` times the
    largest counting as 0 (default: the machine epsilon), as SciPy. ``residues`` are the
    squared residual norms of the columns (a scalar for a vector ``b``) when ``m > n`` and
    ``rank == n``, else (and always for ``lapack_driver="gelsy"``) an empty array; ``s`` the
    singular values (None for ``"gelsy"``), as SciPy. ``x``, ``residues`` and ``s`` are
    differentiable.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import lstsq
    >>> a = tg.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> x, residues, rank, s = lstsq(a, [1.0, 1.0, 3.0])
    >>> x.numpy().round(6), residues.numpy().round(6), rank
    (array([1.333333, 1.333333]), np.float64(0.333333), 2)
    """
    if lapack_driver not in (None, "gelsd", "gelsy", "gelss"):
        raise ValueError(f'lstsq: LAPACK driver "{lapack_driver}" is not found')
    a, b = as_input(a), as_input(b)
    if len(shape_of(a)) != 2:
        raise ValueError(f"lstsq: a must be 2-d, got {describe(a)}")
    m, n = shape_of(a)
    if len(shape_of(b)) not in (1, 2) or shape_of(b)[0] != m:
        raise ValueError(
            f"lstsq: b must be (m,) or (m, k) with a's m = {m} rows, got {describe(b)}"
        )
    if check_finite:
        _check_finite("lstsq", a, b)
    dtype = np.result_type(raw(a).dtype, raw(b).dtype)
    if cond is None or float(cond) < 0:  # LAPACK's: machine precision
        cond = float(np.finfo(dtype).eps)
    x, _, rank, s = linalg.lstsq(a, b, rcond=float(cond))
    rank = int(rank)
    if m > n and rank == n and lapack_driver != "gelsy":  # gelsy's are always empty
        residues = ops.sum(ops.abs(b - a @ x) ** 2, axis=0)
    else:
        residues = ops.zeros((0,), dtype=raw(x).dtype, like=x)
    return x, residues, rank, (None if lapack_driver == "gelsy" else s)


def _cutoff(name: str, s: np.ndarray, shape: tuple, dtype: Any, atol: Any, rtol: Any) -> Any:
    """SciPy's ``atol + max(s) rtol`` as numbers: the relative cutoff for
    tapegrad.linalg.pinv (per matrix) and the rank (per matrix)."""
    largest = np.max(s, axis=-1, initial=0.0)
    atol = 0.0 if atol is None else float(atol)
    rtol = max(shape[-2:]) * float(np.finfo(dtype).eps) if rtol is None else float(rtol)
    if atol < 0.0 or rtol < 0.0:
        raise ValueError(f"{name}: atol and rtol values must be positive.")
    value = atol + largest * rtol
    rank = np.sum(s > value[..., None], axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        relative = np.where(largest > 0, value / np.where(largest > 0, largest, 1.0), 1.0)
    return (float(relative) if relative.ndim == 0 else relative), rank


@plain_calls_scipy("linalg")
def pinv(
    a: ArrayLike,
    *,
    atol: float | None = None,
    rtol: float | None = None,
    return_rank: bool = False,
    check_finite: bool = True,
) -> Any:
    """The Moore-Penrose pseudo-inverse (of each matrix in a stack): singular values at or
    below ``atol + rtol * max(s)`` count as 0 (``atol`` 0, ``rtol`` ``max(m, n) eps`` by
    default), as SciPy; with ``return_rank``, ``(pinv, rank)``. The gradient is exact at
    full rank (tapegrad.linalg.pinv's rule).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import pinv
    >>> pinv(tg.tensor([[2.0, 0.0], [0.0, 0.0]])).numpy()
    array([[0.5, 0. ],
           [0. , 0. ]])
    """
    a = as_input(a)
    if len(shape_of(a)) < 2:
        raise ValueError(f"pinv: a must be a matrix (..., m, n), got {describe(a)}")
    if check_finite:
        _check_finite("pinv", a)
    s = np.linalg.svd(host(a), compute_uv=False)
    relative, rank = _cutoff("pinv", s, shape_of(a), real_dtype(a), atol, rtol)
    result = linalg.pinv(a, rtol=relative)
    if return_rank:
        return result, (int(rank) if np.ndim(rank) == 0 else rank)
    return result


@plain_calls_scipy("linalg")
def pinvh(
    a: ArrayLike,
    atol: float | None = None,
    rtol: float | None = None,
    lower: bool = True,
    return_rank: bool = False,
    check_finite: bool = True,
) -> Any:
    """The pseudo-inverse of a Hermitian matrix (or of each in a stack), reading its
    ``lower`` (else upper) triangle, with a real diagonal, as SciPy's ``eigh`` does:
    eigenvalues with ``|w|`` at or below ``atol + rtol * max|w|`` count as 0; with
    ``return_rank``, ``(pinvh, rank)``. The gradient lands on the triangle read.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import pinvh
    >>> pinvh(tg.tensor([[2.0, 0.0], [7.0, 0.0]]), lower=False).numpy()
    array([[0.5, 0. ],
           [0. , 0. ]])
    """
    a = as_input(a)
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"pinvh: a must be a square matrix (..., n, n), got shape {shape}")
    if check_finite:
        _check_finite("pinvh", a)
    lower = bool(lower)
    h = _hermitian(triangle(a, lower, k=-1 if lower else 1), a * eye_like(a), True)
    w = np.abs(np.linalg.eigvalsh(host(h)))
    relative, rank = _cutoff("pinvh", w, shape, real_dtype(a), atol, rtol)
    result = linalg.pinv(h, rtol=relative, hermitian=True)
    if return_rank:
        return result, (int(rank) if np.ndim(rank) == 0 else rank)
    return result


@plain_calls_scipy("linalg")
def norm(
    a: ArrayLike,
    ord: Any = None,
    axis: Any = None,
    keepdims: bool = False,
    check_finite: bool = True,
) -> Tensor:
    """A vector or matrix norm, as ``numpy.linalg.norm`` (every ``ord``: ``None``,
    ``"fro"``, ``"nuc"``, ``±inf``, ``0``, ``±1``, ``±2``, any real ``p`` for vectors; an
    ``axis`` int for vectors, a pair for matrices); ``check_finite`` raises ValueError on
    NaN or inf, as SciPy. Gradients are tapegrad.linalg.norm's: 0 at the zero vector, shared
    among ties, exact at repeated singular values; ``ord=0`` (a count) has none.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import norm
    >>> norm(tg.tensor([[3.0, 0.0], [0.0, -4.0]]), "nuc").item()
    7.0
    """
    a = as_input(a)
    if check_finite:
        _check_finite("norm", a)
    return linalg.norm(a, ord=ord, axis=axis, keepdims=keepdims)
