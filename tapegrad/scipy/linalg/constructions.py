"""Matrices built from others, differentiably: diagsvd (the Σ of an SVD), matmul_toeplitz
(a Toeplitz matrix times x), clarkson_woodruff_transform (a random sketch).

- ``clarkson_woodruff_transform`` is linear in the matrix: its sketch is SciPy's (drawn
  once from ``rng``, as SciPy draws it), applied as a dense product.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import (
    as_input,
    constant_like,
    describe,
    diag_embed,
)
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.linalg._reference import _check_finite, _scipy, host
from tapegrad.scipy.linalg.special_matrices import toeplitz

__all__ = [
    "clarkson_woodruff_transform", "diagsvd", "matmul_toeplitz",
]  # fmt: skip

ArrayLike = Any


@plain_calls_scipy("linalg")
def diagsvd(s: ArrayLike, M: int, N: int) -> Tensor:  # noqa: N803 - SciPy's names
    """The (M, N) matrix with ``s`` on its diagonal (``len(s)`` must be M or N), the ``Σ``
    of an SVD; batched over ``s``'s leading axes. Differentiable in ``s``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import diagsvd
    >>> diagsvd(tg.tensor([1.0, 2.0]), 2, 3).numpy()
    array([[1., 0., 0.],
           [0., 2., 0.]])
    """
    s = as_input(s)
    if len(shape_of(s)) == 0:
        raise ValueError(f"diagsvd: s must have at least one axis, got {describe(s)}")
    k = shape_of(s)[-1]
    part = diag_embed(s)
    batch = [(0, 0)] * (len(shape_of(s)) - 1)
    if k == M:
        return ops.pad(part, [*batch, (0, 0), (0, N - M)])
    if k == N:
        return ops.pad(part, [*batch, (0, M - N), (0, 0)])
    raise ValueError("Length of s must be M or N.")


@plain_calls_scipy("linalg")
def matmul_toeplitz(
    c_or_cr: Any, x: ArrayLike, check_finite: bool = False, workers: int | None = None
) -> Tensor:
    """``toeplitz(c, r) @ x`` (``c_or_cr`` is ``c`` or ``(c, r)``; ``r`` defaults to
    ``conj(c)``), ``x`` ``(m,)`` or ``(m, k)``: SciPy's FFT product, here the dense
    Toeplitz matrix (a fixed gather) times ``x``, the same values to rounding.
    Differentiable in ``c``, ``r`` and ``x``; ``workers`` (SciPy's FFT threads) changes
    nothing.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import matmul_toeplitz
    >>> matmul_toeplitz(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 1.0])).numpy()
    array([3., 3.])
    """
    if isinstance(c_or_cr, tuple):
        c, r = as_input(c_or_cr[0]), as_input(c_or_cr[1])
    else:
        c = as_input(c_or_cr)
        r = ops.conj(c)
    x = as_input(x)
    if check_finite:
        _check_finite("matmul_toeplitz", True, c, r, x)
    c, r = ops.ravel(c), ops.ravel(r)
    m = shape_of(r)[0]
    if len(shape_of(x)) not in (1, 2) or shape_of(x)[0] != m:
        raise ValueError(
            f"matmul_toeplitz: x must be (m,) or (m, k) with r's length m = {m}, got {describe(x)}"
        )
    dtype = np.result_type(*(host(v).dtype for v in (c, r, x)), np.float64)
    c, r, x = (ops.astype(v, dtype) for v in (c, r, x))
    return toeplitz(c, r) @ x


@plain_calls_scipy("linalg")
def clarkson_woodruff_transform(
    input_matrix: ArrayLike, sketch_size: int, rng: Any = None, *, seed: Any = None
) -> Tensor:
    """The Clarkson-Woodruff sketch ``S @ input_matrix``, ``S`` (``sketch_size``, n)
    SciPy's sparse sign matrix drawn from ``rng`` (or the legacy ``seed``), drawn once, as
    SciPy draws it, and applied densely: linear, so differentiable in the matrix.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import clarkson_woodruff_transform
    >>> clarkson_woodruff_transform(tg.ones((4, 2)), 2, rng=0).shape
    (2, 2)
    """
    a = as_input(input_matrix)
    if len(shape_of(a)) != 2:
        raise ValueError(
            f"clarkson_woodruff_transform: input_matrix must be 2-d on Tensors, got {describe(a)}"
        )
    n = shape_of(a)[0]
    dtype = host(a).dtype
    keywords = {"rng": rng} if seed is None else {"seed": seed}
    sketch = _scipy("clarkson_woodruff_transform")(np.eye(n, dtype=dtype), sketch_size, **keywords)
    return constant_like(np.asarray(sketch), a) @ a
