"""Norms, condition numbers and rank: norm vector_norm matrix_norm cond matrix_rank.

Every ``ord`` of ``np.linalg.norm``. The 2-norm (and any p-norm) is a primitive whose
gradient x |x|^(p-2) / ‖x‖^(p-1) is 0 at the zero vector (the smallest subgradient, as
``abs`` at 0; composing ``sqrt(sum(x**2))`` would give NaN there). The others are built
from ops: ``inf``/``-inf``/``1``/``-1`` from ``abs``, ``sum``, ``max``/``min`` (ties share
the gradient), the spectral (2, -2) and nuclear norms from :func:`svdvals`, whose rule
divides by no gap (repeated singular values are fine). ``ord=0`` counts nonzeros: no
gradient.
"""

from __future__ import annotations

import math
import operator
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import LinAlgError, as_input, check_matrices, eps, real_dtype
from tapegrad.linalg._spectral import host
from tapegrad.linalg.singular import svdvals
from tapegrad.linalg.solvers import inv
from tapegrad.ops.primitive import Primitive, normalize_axis, shape_of
from tapegrad.ops.reductions import expand_reduced

ArrayLike = Any


def _where(condition: np.ndarray, value: float, like: Any) -> Any:
    """``value`` where the host mask ``condition`` holds, 0 elsewhere, in ``like``'s real
    dtype and namespace."""
    values = np.where(condition, value, 0.0)
    return ops.asarray(values, dtype=real_dtype(like), like=like)


def _p_norm_vjp(g: Any, ans: Any, x: Any, ord: float, axis: tuple, keepdims: bool) -> Any:
    # d‖x‖_p = Re(conj(x) |x|^(p-2) dx) / ‖x‖^(p-1): the gradient (x / ‖x‖) (|x| / ‖x‖)^(p-2)
    shape = shape_of(x)
    norm = expand_reduced(ans, shape, axis, keepdims)
    norm = norm + _where(host(norm) == 0, 1.0, norm)  # x = 0 wherever the norm is 0
    scaled = expand_reduced(g, shape, axis, keepdims) * x / norm
    if ord == 2:
        return scaled
    magnitude = ops.abs(x)
    zero = host(magnitude) == 0
    grad = scaled * ((magnitude + _where(zero, 1.0, magnitude)) / norm) ** (ord - 2)
    if ord < 1 and zero.any():
        # 0 at zero entries is right for ord >= 1; for ord < 1, |x|^ord has an infinite
        # slope at 0: no gradient
        grad = grad + _where(zero, np.nan, x)
    return grad


_p_norm = Primitive(
    "vector_norm",
    lambda xp, x, ord, axis, keepdims: xp.linalg.vector_norm(
        x, axis=axis, keepdims=keepdims, ord=ord
    ),
    complex_rules=True,
).defvjp(_p_norm_vjp)


def _vector_norm(x: Any, ord: Any, axis: tuple[int, ...], keepdims: bool) -> Tensor:
    if isinstance(ord, str):
        raise ValueError(f"norm: invalid norm order {ord!r} for vectors")
    if ord is None:
        ord = 2
    if ord == math.inf:
        return ops.max(ops.abs(x), axis=axis, keepdims=keepdims)
    if ord == -math.inf:
        return ops.min(ops.abs(x), axis=axis, keepdims=keepdims)
    if ord == 0:  # a count: no gradient
        nonzero = ops.astype(ops.not_equal(x, 0), real_dtype(x))
        return ops.sum(nonzero, axis=axis, keepdims=keepdims)
    if ord == 1:
        return ops.sum(ops.abs(x), axis=axis, keepdims=keepdims)
    return _p_norm(x, ord=float(ord), axis=axis, keepdims=keepdims)


def _matrix_norm(x: Any, ord: Any, row: int, col: int, keepdims: bool) -> Tensor:
    if row == col:
        raise ValueError("norm: duplicate axes given")
    if ord in (None, "fro", "f"):
        result = _p_norm(x, ord=2.0, axis=tuple(sorted((row, col))), keepdims=False)
    elif ord in (2, -2, "nuc"):
        ndim = len(shape_of(x))
        order = [k for k in range(ndim) if k not in (row, col)] + [row, col]
        s = svdvals(ops.transpose(x, tuple(order)))
        reduce = {2: ops.max, -2: ops.min, "nuc": ops.sum}[ord]
        result = reduce(s, axis=-1)
    elif ord in (1, -1, math.inf, -math.inf):
        # 1: the largest column sum of |x| (sum over rows); inf: the largest row sum
        summed, kept = (row, col) if ord in (1, -1) else (col, row)
        sums = ops.sum(ops.abs(x), axis=summed)
        reduce = ops.max if ord > 0 else ops.min
        result = reduce(sums, axis=kept - 1 if kept > summed else kept)
    else:
        raise ValueError(f"norm: invalid norm order {ord!r} for matrices")
    if keepdims:
        shape = list(shape_of(x))
        shape[row] = shape[col] = 1
        result = ops.reshape(result, tuple(shape))
    return result


def norm(x: ArrayLike, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Tensor:
    """A vector or matrix norm, as ``np.linalg.norm``: every ``ord`` (``None``, ``"fro"``,
    ``"nuc"``, ``inf``, ``-inf``, ``0``, ``1``, ``-1``, ``2``, ``-2``, any real ``p`` for
    vectors), over ``axis`` (an int for vectors, a pair for matrices). Gradients: 0 at the
    zero vector, shared among ties (``inf``, ``1`` ...), exact at repeated singular values.

    >>> import tapegrad as tg
    >>> tg.linalg.norm(tg.tensor([[3.0, 0.0], [0.0, -4.0]]), "nuc").item()
    7.0
    """
    x = as_input(x)
    ndim = len(shape_of(x))
    if axis is None:
        if ord is None or (ord in ("f", "fro") and ndim == 2) or (ord == 2 and ndim == 1):
            result = _p_norm(x, ord=2.0, axis=tuple(range(ndim)), keepdims=False)
            return ops.reshape(result, (1,) * ndim) if keepdims else result
        axis = tuple(range(ndim))
    elif not isinstance(axis, tuple):
        try:
            axis = (operator.index(axis),)
        except TypeError:
            raise TypeError(
                f"norm: axis must be None, an integer or a tuple of integers, got {axis!r}"
            ) from None
    axes = tuple(normalize_axis(a, ndim, "norm")[0] for a in axis)
    if len(axes) == 1:
        return _vector_norm(x, ord, axes, keepdims)
    if len(axes) == 2:
        return _matrix_norm(x, ord, axes[0], axes[1], keepdims)
    raise ValueError(f"norm: improper number of dimensions to norm ({len(axes)} axes)")


def vector_norm(
    x: ArrayLike, /, *, axis: Any = None, keepdims: bool = False, ord: Any = 2
) -> Tensor:
    """The vector norm over ``axis`` (every axis when None, any number of them), as
    ``np.linalg.vector_norm``.

    >>> import tapegrad as tg
    >>> tg.linalg.vector_norm(tg.tensor([[3.0, 0.0], [0.0, -4.0]])).item()
    5.0
    """
    x = as_input(x)
    axes = normalize_axis(axis, len(shape_of(x)), "vector_norm")
    return _vector_norm(x, ord, axes, keepdims)


def matrix_norm(x: ArrayLike, /, *, keepdims: bool = False, ord: Any = "fro") -> Tensor:
    """The matrix norm of the last two axes, as ``np.linalg.matrix_norm``.

    >>> import tapegrad as tg
    >>> tg.linalg.matrix_norm(tg.tensor([[3.0, 0.0], [0.0, -4.0]]), ord=2).item()
    4.0
    """
    return norm(x, ord=ord, axis=(-2, -1), keepdims=keepdims)


def cond(x: ArrayLike, p: Any = None) -> Tensor:
    """The condition number of a matrix (or of each in a stack) in the norm ``p``, as
    ``np.linalg.cond``: ``inf`` for a singular one.

    >>> import tapegrad as tg
    >>> tg.linalg.cond(tg.tensor([[1.0, 0.0], [0.0, 4.0]])).item()
    4.0
    """
    x = as_input(x)
    check_matrices("cond", x)
    if p is None or p in (2, -2):
        s = svdvals(x)
        large, small = s[..., 0], s[..., -1]
        with np.errstate(divide="ignore", invalid="ignore"):  # inf at singular, as NumPy
            result = small / large if p == -2 else large / small
    else:
        check_matrices("cond", x, square=True)
        try:
            inverse = inv(x)
        except LinAlgError:  # NumPy's cond is inf there: one matrix at a time
            batch = shape_of(x)[:-2]
            if batch:
                return ops.stack([cond(x[k], p) for k in range(batch[0])])
            return ops.full((), np.inf, dtype=real_dtype(x), like=x)
        result = norm(x, p, axis=(-2, -1)) * norm(inverse, p, axis=(-2, -1))
    # NaN (0/0: a zero matrix) means inf too, unless x itself holds NaN (ops, not host
    # values, so that tg.compile replays it)
    nan_in_x = ops.sum(ops.astype(ops.not_equal(x, x), real_dtype(result)), axis=(-2, -1))
    inf_unless_x_nan = ops.where(ops.equal(nan_in_x, 0), np.inf, result)
    return ops.where(ops.not_equal(result, result), inf_unless_x_nan, result)


def _matrix_rank_forward(xp: Any, a: Any, tol: Any, rtol: Any, hermitian: bool) -> Any:
    if hermitian:
        s = xp.abs(xp.linalg.eigvalsh(a))
    else:
        s = xp.linalg.svdvals(a)
    if tol is None:
        if rtol is None:
            rtol = max(a.shape[-2:]) * eps(s)
        tol = xp.max(s, axis=-1, keepdims=True) * _on(xp, rtol, s)
    else:
        tol = _on(xp, tol, s)
    return xp.sum(xp.astype(s > tol, xp.int64), axis=-1)


def _on(xp: Any, value: Any, like: Any) -> Any:
    """A per-matrix tolerance (a NumPy array) in ``like``'s namespace; a number as it is."""
    if isinstance(value, np.ndarray) and xp is not np:
        return xp.asarray(value, dtype=like.dtype, device=like.device)
    return value


_matrix_rank = Primitive("matrix_rank", _matrix_rank_forward, differentiable=False)


def matrix_rank(
    A: ArrayLike,  # noqa: N803 - NumPy's name
    tol: Any = None,
    hermitian: bool = False,
    *,
    rtol: Any = None,
) -> Any:
    """The number of singular values above ``tol`` (default ``rtol`` times the largest,
    ``rtol`` defaulting to ``max(M, N) eps``), as ``np.linalg.matrix_rank``; an integer
    Tensor, with no gradient.

    >>> import tapegrad as tg
    >>> int(tg.linalg.matrix_rank(tg.tensor([[1.0, 2.0], [2.0, 4.0]])))
    1
    """
    if rtol is not None and tol is not None:
        raise ValueError("matrix_rank: tol and rtol cannot both be set")
    A = as_input(A)
    if len(shape_of(A)) < 2:  # NumPy's: 1 unless every entry is 0
        return int(ops.sum(ops.astype(ops.not_equal(A, 0), np.int64)) > 0)
    if tol is not None and np.ndim(tol):
        tol = np.asarray(tol)[..., None]
    if rtol is not None and np.ndim(rtol):
        rtol = np.asarray(rtol)[..., None]
    return _matrix_rank(A, tol=tol, rtol=rtol, hermitian=bool(hermitian))
