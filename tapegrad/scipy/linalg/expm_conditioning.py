"""The condition number of the matrix exponential: expm_cond.

``expm_cond`` builds SciPy's Kronecker form of the Fréchet derivative from one batched
``expm`` of the block matrices ``[[A, E_ij], [0, A]]``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import (
    as_input,
    constant_like,
    describe,
    mT,
)
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg._reference import _check_finite
from tapegrad.scipy.linalg.matfuncs import expm

__all__ = [
    "expm_cond",
]  # fmt: skip

ArrayLike = Any


@plain_calls_scipy("linalg")
def expm_cond(A: ArrayLike, check_finite: bool = True) -> Tensor:  # noqa: N803 - SciPy's name
    """The relative condition number of the matrix exponential in the Frobenius norm,
    ``||K||_2 ||A||_F / ||expm(A)||_F`` with ``K`` the Kronecker form of its Fréchet
    derivative (SciPy's definition): ``K`` from one batched ``expm`` of the blocks
    ``[[A, E_ij], [0, A]]``. Differentiable in ``A`` where ``K``'s largest singular value
    is simple.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import expm_cond
    >>> round(expm_cond(tg.tensor([[1.0, 0.0], [0.0, 1.0]])).item(), 12)
    1.0
    """
    a = as_input(A)
    shape = tuple(shape_of(a))
    if len(shape) != 2 or shape[0] != shape[1]:
        raise ValueError(f"expm_cond: expected a square matrix, got {describe(a)}")
    _check_finite("expm_cond", check_finite, a)
    n = shape[0]
    basis = np.eye(n * n).reshape(n * n, n, n)  # E_ij = outer(e_i, e_j), row-major order
    stacked = ops.broadcast_to(a, (n * n, n, n))
    zeros = ops.zeros_like(stacked)
    top = ops.concatenate([stacked, constant_like(basis, a)], axis=-1)
    block = ops.concatenate([top, ops.concatenate([zeros, stacked], axis=-1)], axis=-2)
    frechet = expm(block)[:, :n, n:]  # L(A, E_ij)
    columns = ops.reshape(mT(frechet), (n * n, n * n))  # row (ij): vec(L(A, E_ij)), by column
    k_norm = linalg.matrix_norm(columns, ord=2)
    return k_norm * linalg.norm(a) / linalg.norm(expm(a))
