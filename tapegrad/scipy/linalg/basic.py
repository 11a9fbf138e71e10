"""``scipy.linalg.solve``: a square system ``a x = b``, with SciPy's ``assume_a``, ``lower``
and ``transposed``, over tapegrad.linalg's differentiable solver (real and complex)."""

from __future__ import annotations

from typing import Any

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import as_input, mH, triangle
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = ["solve"]

ArrayLike = Any

# SciPy's names for the structure of ``a``; the ones that read one triangle of it.
_ASSUMED = {None, "gen", "general", "sym", "symmetric", "her", "hermitian", "pos",
            "positive definite", "diagonal", "tridiagonal", "banded", "upper triangular",
            "lower triangular"}  # fmt: skip
_ONE_TRIANGLE = {"sym": False, "symmetric": False, "her": True, "hermitian": True,
                 "pos": True, "positive definite": True}  # name -> conjugated mirror  # fmt: skip


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
    """Solve ``a x = b`` (``aᵀ x = b`` with ``transposed``) for square ``a``; ``b`` is a vector
    ``(n,)`` or a matrix ``(n, k)``. With ``assume_a`` ``"sym"``, ``"her"`` or ``"pos"`` only
    the ``lower`` (else upper) triangle of ``a`` is read, as SciPy reads it, and the whole
    gradient goes to that triangle; the other structures read all of ``a``.
    ``check_finite`` raises ValueError on NaN or inf, as SciPy; ``overwrite_*`` are
    accepted and ignored. The gradient is ``-aᵀ⁻¹ g xᵀ`` for ``a`` and ``aᵀ⁻¹ g`` for ``b``.

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
    shape, rhs = shape_of(a), shape_of(b)
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"solve: a must be a square matrix, got shape {shape}")
    if len(rhs) not in (1, 2) or rhs[0] != shape[0]:
        raise ValueError(
            f"solve: b must be (n,) or (n, k) with n = {shape[0]} (a's size), got shape {rhs}"
        )
    if check_finite and not bool(ops.all(ops.isfinite(a)) & ops.all(ops.isfinite(b))):
        raise ValueError("solve: array must not contain infs or NaNs")
    if assume_a in _ONE_TRIANGLE:  # the triangle read, mirrored (conjugated for "her", "pos")
        part = triangle(a, lower)
        mirror = mH(triangle(a, lower, k=-1 if lower else 1))
        if not _ONE_TRIANGLE[assume_a]:
            mirror = ops.conj(mirror)
        a = part + mirror
    if transposed:
        a = ops.swapaxes(a, -1, -2)
    return linalg.solve(a, b)
