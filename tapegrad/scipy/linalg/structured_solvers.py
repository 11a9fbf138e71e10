"""Solvers for structured matrices: solve_banded solveh_banded solve_circulant
solve_toeplitz, SciPy's signatures over tapegrad.linalg's differentiable solves.

The banded solvers build the dense matrix from the band storage with a fixed index pattern,
so the unused corners of ``ab`` get a zero gradient.
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tapegrad import fft, linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import (
    LinAlgError,
    as_input,
    constant_like,
    describe,
    is_complex,
)
from tapegrad.linalg._spectral import host
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg.basic import _check_finite, _columns, _hermitian, _mask, _positive_solve

__all__ = [
    "solve_banded", "solve_circulant", "solve_toeplitz", "solveh_banded",
]  # fmt: skip

ArrayLike = Any


def _band_matrix(ab: Any, rows: np.ndarray) -> Any:
    """The ``(n, n)`` matrix with ``ab[rows[i, j], j]`` at ``(i, j)`` where ``rows`` is in
    range (0 elsewhere): a gather with a fixed index pattern, so the gradient reaches the
    band entries used and no other."""
    depth, n = shape_of(ab)
    j = np.broadcast_to(np.arange(n), (n, n))
    used = (rows >= 0) & (rows < depth)
    flat = np.where(used, rows * n + j, 0)
    return _mask(ops.take(ops.reshape(ab, (-1,)), flat), used)


def _banded_inputs(name: str, ab: Any, b: Any, check_finite: bool) -> tuple[Any, Any, bool]:
    ab, b = as_input(ab), as_input(b)
    if len(shape_of(ab)) != 2:
        raise ValueError(f"{name}: ab must be 2-d (diagonals, n), got {describe(ab)}")
    n = shape_of(ab)[-1]
    if len(shape_of(b)) not in (1, 2) or shape_of(b)[0] != n:
        raise ValueError(
            f"{name}: shapes of ab and b are not compatible: ab of {describe(ab)}, "
            f"b of {describe(b)} (b must be (n,) or (n, k))"
        )
    if check_finite:
        _check_finite(name, ab, b)
    column, vector = _columns(name, n, b)
    return ab, column, vector


@plain_calls_scipy("linalg")
def solve_banded(
    l_and_u: tuple[int, int],
    ab: ArrayLike,
    b: ArrayLike,
    overwrite_ab: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Tensor:
    """Solve ``a x = b`` for the banded ``a`` with ``l`` diagonals below and ``u`` above
    the main one, stored as SciPy stores it: ``a[i, j] = ab[u + i - j, j]``. ``b`` is
    ``(n,)`` or ``(n, k)``. Differentiable in ``ab`` (the entries of the band; the unused
    corners get 0) and ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve_banded
    >>> ab = tg.tensor([[0.0, 1.0], [2.0, 2.0], [1.0, 0.0]])  # [[2, 1], [1, 2]]
    >>> solve_banded((1, 1), ab, [3.0, 3.0]).numpy()
    array([1., 1.])
    """
    lower, upper = (operator.index(k) for k in l_and_u)
    ab, column, vector = _banded_inputs("solve_banded", ab, b, check_finite)
    depth, n = shape_of(ab)
    if lower < 0 or upper < 0 or lower + upper + 1 != depth:
        raise ValueError(
            f"solve_banded: invalid values for the number of lower and upper diagonals: "
            f"l+u+1 ({lower + upper + 1}) does not equal ab.shape[0] ({depth})"
        )
    i, j = np.indices((n, n))
    a = _band_matrix(ab, upper + i - j)
    x = linalg.solve(a, column)
    return ops.squeeze(x, -1) if vector else x


@plain_calls_scipy("linalg")
def solveh_banded(
    ab: ArrayLike,
    b: ArrayLike,
    overwrite_ab: bool = False,
    overwrite_b: bool = False,
    lower: bool = False,
    check_finite: bool = True,
) -> Tensor:
    """Solve ``a x = b`` for the Hermitian positive definite banded ``a`` with ``u``
    diagonals off the main one (``ab`` of shape ``(u + 1, n)``), stored as SciPy stores it:
    upper form ``a[i, j] = ab[u + i - j, j]`` (``i <= j``), ``lower`` form
    ``a[i, j] = ab[i - j, j]`` (``i >= j``); the diagonal's imaginary part is not read.
    Factored by Cholesky: LinAlgError when ``a`` is not positive definite, as SciPy.
    Differentiable in ``ab`` (the band entries; unused corners get 0) and ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solveh_banded
    >>> ab = tg.tensor([[0.0, 1.0], [2.0, 2.0]])  # [[2, 1], [1, 2]]
    >>> solveh_banded(ab, [3.0, 3.0]).numpy()
    array([1., 1.])
    """
    ab, column, vector = _banded_inputs("solveh_banded", ab, b, check_finite)
    depth, n = shape_of(ab)
    i, j = np.indices((n, n))
    lower = bool(lower)
    if lower:
        rows = np.where(i > j, i - j, -1)
        diagonal_row = 0
    else:
        rows = np.where(i < j, depth - 1 + i - j, -1)
        diagonal_row = depth - 1
    strict = _band_matrix(ab, rows)
    diagonal = _band_matrix(ab, np.where(i == j, diagonal_row, -1))
    a = _hermitian(strict, diagonal, True)
    x = _positive_solve(a, column)
    return ops.squeeze(x, -1) if vector else x


def _axis_length(name: str, x: Any, axis: int) -> int:
    shape = shape_of(x)
    if not -len(shape) <= axis < len(shape):
        raise ValueError(
            f"solve_circulant: axis {axis} is out of bounds for {name} of shape {shape}"
        )
    return int(shape[axis])


@plain_calls_scipy("linalg")
def solve_circulant(
    c: ArrayLike,
    b: ArrayLike,
    singular: str = "raise",
    tol: float | None = None,
    caxis: int = -1,
    baxis: int = 0,
    outaxis: int = 0,
) -> Tensor:
    """Solve ``C x = b`` for the circulant ``C`` whose first column is ``c`` (along
    ``caxis``; other axes: a batch), ``b`` along ``baxis``, the result's solution axis at
    ``outaxis``, by FFTs as SciPy: ``x = ifft(fft(b) / fft(c))``. Eigenvalues with
    ``|fft(c)| <= tol`` (default ``max|fft(c)| n eps``) make ``C`` near singular:
    LinAlgError for ``singular="raise"``, else (``"lstsq"``, as SciPy any other value) those
    frequencies of the solution are 0, the least-squares solution. Real for real inputs;
    differentiable in ``c`` and ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve_circulant
    >>> solve_circulant(tg.tensor([2.0, 1.0, 0.0]), [3.0, 3.0, 3.0]).numpy().round(12)
    array([1., 1., 1.])
    """
    c, b = as_input(c), as_input(b)
    if len(shape_of(c)) == 0:
        c = ops.reshape(c, (1,))
    if len(shape_of(b)) == 0:
        b = ops.reshape(b, (1,))
    nc, nb = _axis_length("c", c, caxis), _axis_length("b", b, baxis)
    if nc != nb:
        raise ValueError(
            f"solve_circulant: shapes of c {tuple(shape_of(c))} and b {tuple(shape_of(b))} "
            f"are incompatible (c's axis {caxis} and b's axis {baxis} differ in length)"
        )
    real = not (is_complex(c) or is_complex(b))
    fc = fft.fft(ops.moveaxis(c, caxis, -1), axis=-1)
    magnitude = np.abs(host(fc))
    if tol is None:
        bound = magnitude.max(axis=-1) * nc * float(np.finfo(np.float64).eps)
        bound = bound[..., None] if bound.shape != () else np.atleast_1d(bound)
    else:
        bound = np.asarray(tol)
    near_zeros = magnitude <= bound
    near_singular = bool(np.any(near_zeros))
    if near_singular:
        if singular == "raise":
            raise LinAlgError("solve_circulant: near singular circulant matrix.")
        fc = ops.where(constant_like(near_zeros, fc) != 0, constant_like(np.ones(()), fc), fc)
    fb = fft.fft(ops.moveaxis(b, baxis, -1), axis=-1)
    q = fb / fc
    if near_singular:
        q = ops.where(constant_like(near_zeros, q) != 0, constant_like(np.zeros(()), q), q)
    x = fft.ifft(q, axis=-1)
    if real:
        x = ops.real(x)
    if outaxis != -1:
        x = ops.moveaxis(x, -1, outaxis)
    return x


@plain_calls_scipy("linalg")
def solve_toeplitz(c_or_cr: Any, b: ArrayLike, check_finite: bool = True) -> Tensor:
    """Solve ``T x = b`` for the Toeplitz ``T`` with first column ``c`` and first row ``r``
    (``c_or_cr`` is ``c`` or the tuple ``(c, r)``; ``r`` defaults to ``conj(c)``, and
    ``r[0]`` is not read), as SciPy (in float64 or complex128); ``b`` is ``(n,)`` or
    ``(n, k)``. Built as the dense Toeplitz matrix (a fixed gather) and solved:
    differentiable in ``c``, ``r`` and ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve_toeplitz
    >>> solve_toeplitz(tg.tensor([2.0, 1.0]), [3.0, 3.0]).numpy()
    array([1., 1.])
    """
    if isinstance(c_or_cr, tuple):
        c, r = as_input(c_or_cr[0]), as_input(c_or_cr[1])
    else:
        c = as_input(c_or_cr)
        r = ops.conj(c)
    b = as_input(b)
    if check_finite:
        _check_finite("solve_toeplitz", c, r, b)
    if len(shape_of(c)) != 1 or len(shape_of(r)) != 1:
        raise ValueError(
            f"solve_toeplitz: c and r must be 1-d, got c of {describe(c)} and r of {describe(r)}"
        )
    n = shape_of(c)[0]
    b_shape = tuple(shape_of(b))
    if shape_of(r)[0] != n or len(b_shape) not in (1, 2) or b_shape[0] != n:
        raise ValueError(
            f"solve_toeplitz: incompatible dimensions: c of {describe(c)}, r of "
            f"{describe(r)}, b of {describe(b)}"
        )
    dtype = np.complex128 if is_complex(c) or is_complex(r) or is_complex(b) else np.float64
    c, r, b = (ops.astype(v, dtype) for v in (c, r, b))
    values = ops.concatenate([ops.flip(r[1:], axis=0), c])  # T[i, j] = values[n-1 + i - j]
    i, j = np.indices((n, n))
    t = ops.take(values, n - 1 + i - j)
    return linalg.solve(t, b)
