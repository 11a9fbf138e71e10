"""scipy.linalg's basic functions: solve inv det lstsq pinv pinvh norm solve_banded
solveh_banded solve_circulant solve_toeplitz, SciPy's signatures over tapegrad.linalg's
differentiable ops (real and complex).

Each reads what SciPy reads: ``assume_a`` ``"diagonal"``, ``"tridiagonal"``, ``"upper
triangular"``, ``"lower triangular"`` read only those entries of ``a``, ``"sym"``, ``"her"``
and ``"pos"`` only the ``lower`` (else upper) triangle, the Hermitian ones with a real
diagonal; the banded solvers build the dense matrix from the band storage with a fixed index
pattern, so the unused corners of ``ab`` get a zero gradient.
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
    eye_like,
    is_complex,
    mH,
    mT,
    real_dtype,
    triangle,
)
from tapegrad.linalg._spectral import host
from tapegrad.linalg.solvers import solve_triangular as _solve_triangular
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = [
    "det", "inv", "lstsq", "norm", "pinv", "pinvh", "solve", "solve_banded",
    "solve_circulant", "solve_toeplitz", "solveh_banded",
]  # fmt: skip

ArrayLike = Any

# SciPy's names for the structure of ``a`` (solve's; inv takes the ones in _INV_ASSUMED).
_ASSUMED = {None, "gen", "general", "sym", "symmetric", "her", "hermitian", "pos",
            "positive definite", "diagonal", "tridiagonal", "banded", "upper triangular",
            "lower triangular"}  # fmt: skip
_INV_ASSUMED = {None, "gen", "general", "diagonal", "upper triangular", "lower triangular",
                "pos", "sym", "her"}  # fmt: skip
# the names that read one triangle -> whether the mirror is conjugated (diagonal real)
_ONE_TRIANGLE = {"sym": False, "symmetric": False, "her": True, "hermitian": True,
                 "pos": True, "positive definite": True}  # fmt: skip
_POSITIVE = {"pos", "positive definite"}


def _check_finite(name: str, *arrays: Any) -> None:
    for x in arrays:
        if not bool(ops.all(ops.isfinite(x))):
            raise ValueError(f"{name}: array must not contain infs or NaNs")


def _mask(x: Any, mask: np.ndarray) -> Any:
    return x * constant_like(mask.astype(float), x)


def _hermitian(strict: Any, diagonal: Any, conjugate: bool) -> Any:
    """The matrix with the strict triangle ``strict`` mirrored (conjugated when
    ``conjugate``, the diagonal then real) and ``diagonal`` (a diagonal matrix) on it."""
    if conjugate and is_complex(diagonal):
        return strict + mH(strict) + ops.astype(ops.real(diagonal), raw(strict).dtype)
    return strict + (mH(strict) if conjugate else mT(strict)) + diagonal


def _structured(a: Any, assume_a: str | None, lower: bool) -> Any:
    """The matrix SciPy's solver for ``assume_a`` reads from ``a``."""
    n = shape_of(a)[-1]
    if assume_a == "diagonal":
        return a * eye_like(a)
    if assume_a == "tridiagonal":
        return _mask(a, np.triu(np.tril(np.ones((n, n)), 1), -1))
    if assume_a in ("upper triangular", "lower triangular"):
        return triangle(a, assume_a == "lower triangular")
    if assume_a in _ONE_TRIANGLE:
        strict = triangle(a, lower, k=-1 if lower else 1)
        return _hermitian(strict, a * eye_like(a), _ONE_TRIANGLE[assume_a])
    return a  # general, banded (its band found from a's zeros) and None read all of a


def _positive_solve(h: Any, column: Any) -> Any:
    """``h⁻¹ column`` for Hermitian ``h`` by its Cholesky factor: LinAlgError, as SciPy,
    when ``h`` is not positive definite."""
    factor = linalg.cholesky(h)  # h = L Lᴴ
    inner = _solve_triangular(factor, column, True)
    return _solve_triangular(factor, inner, True, adjoint=True)


def _columns(name: str, n: int, b: Any) -> tuple[Any, bool]:
    """``b`` as a stack of columns ``(..., n, k)`` and whether it was a vector ``(n,)``."""
    shape = shape_of(b)
    vector = len(shape) == 1
    if (vector and shape[0] != n) or (not vector and (len(shape) < 2 or shape[-2] != n)):
        raise ValueError(
            f"{name}: b must be (n,) or (n, k) with n = {n} (a's size; or a stack "
            f"(..., n, k)), got {describe(b)}"
        )
    return (ops.expand_dims(b, -1) if vector else b), vector


@plain_calls_scipy("linalg")
def solve(
    a: ArrayLike,
    b: ArrayLike,
    lower: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
    assume_a: str | None = None,
    transposed: bool = False,
) -> Tensor:
    """Solve ``a x = b`` (``aᵀ x = b`` with ``transposed``) for square ``a`` (or a stack
    ``(..., n, n)``); ``b`` is a vector ``(n,)`` or a stack of matrices ``(..., n, k)``.
    ``assume_a`` reads what SciPy reads (module docstring): ``"sym"``, ``"her"`` and
    ``"pos"`` only the ``lower`` (else upper) triangle, ``"diagonal"``, ``"tridiagonal"``
    and the triangular ones only those entries, and the whole gradient goes to the entries
    read. ``"pos"`` factors by Cholesky (LinAlgError when not positive definite).
    ``check_finite`` raises ValueError on NaN or inf, as SciPy; ``overwrite_*`` are
    accepted and ignored; ``transposed`` with complex ``a`` raises NotImplementedError, as
    SciPy. The gradient is ``-aᵀ⁻¹ g xᵀ`` for ``a`` and ``aᵀ⁻¹ g`` for ``b``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import solve
    >>> a = tg.tensor([[3.0, 1.0], [1.0, 2.0]])
    >>> solve(a, tg.tensor([9.0, 8.0])).tolist()
    [2.0, 3.0]
    >>> g = tg.grad(lambda b: tg.sum(solve(a, b, assume_a="pos")))(tg.tensor([9.0, 8.0]))
    >>> g.numpy().round(12).tolist()  # a⁻ᵀ 1
    [0.2, 0.4]
    """
    if assume_a not in _ASSUMED:
        raise ValueError(f"solve: assume_a must be one of SciPy's names, got {assume_a!r}")
    a, b = as_input(a), as_input(b)
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"solve: a must be a square matrix (..., n, n), got shape {shape}")
    column, vector = _columns("solve", shape[-1], b)
    if check_finite:
        _check_finite("solve", a, b)
    if transposed and is_complex(a):
        raise NotImplementedError(
            "solve: transposed=True is not implemented for complex a (SciPy's too)"
        )
    a = _structured(a, assume_a, lower)
    if transposed:
        a = mT(a)
    try:
        np.broadcast_shapes(tuple(shape_of(a)[:-2]), tuple(shape_of(column)[:-2]))
    except ValueError:
        raise ValueError(
            f"solve: the batch axes of a ({describe(a)}) and b ({describe(b)}) do not broadcast"
        ) from None
    if assume_a in _POSITIVE:
        x = _positive_solve(a, column)
    else:
        x = linalg.solve(a, column)
    return ops.squeeze(x, -1) if vector else x


@plain_calls_scipy("linalg")
def inv(
    a: ArrayLike,
    overwrite_a: bool = False,
    check_finite: bool = True,
    *,
    assume_a: str | None = None,
    lower: bool = False,
) -> Tensor:
    """The inverse of a square matrix (or of each in a stack ``(..., n, n)``), reading what
    SciPy reads for ``assume_a``: ``"diagonal"`` the diagonal (the inverse is diagonal),
    ``"upper triangular"``/``"lower triangular"`` that triangle, ``"sym"``, ``"her"``,
    ``"pos"`` the ``lower`` (else upper) triangle. The gradient ``-Xᴴ g Xᴴ`` goes to the
    entries read.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import inv
    >>> inv(tg.tensor([[2.0, 9.0], [0.0, 4.0]]), assume_a="diagonal").numpy()
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    if assume_a not in _INV_ASSUMED:
        raise ValueError(f"inv: assume_a must be one of SciPy's names, got {assume_a!r}")
    a = as_input(a)
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"inv: a must be a square matrix (..., n, n), got shape {shape}")
    if check_finite:
        _check_finite("inv", a)
    a = _structured(a, assume_a, lower)
    if assume_a in _POSITIVE:
        return _positive_solve(a, eye_like(a))
    return linalg.inv(a)


@plain_calls_scipy("linalg")
def det(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Tensor:
    """The determinant of a square matrix (or of each in a stack); its gradient is the
    adjugate's transpose (exact at singular matrices too).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import det
    >>> round(det(tg.tensor([[2.0, 1.0], [1.0, 3.0]])).item(), 12)
    5.0
    """
    a = as_input(a)
    shape = shape_of(a)
    if len(shape) < 2 or shape[-1] != shape[-2]:
        raise ValueError(f"det: a must be a square matrix (..., n, n), got shape {shape}")
    if check_finite:
        _check_finite("det", a)
    return linalg.det(a)


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
