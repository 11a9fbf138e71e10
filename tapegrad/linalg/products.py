"""Chains of products: matrix_power multi_dot, built from ``matmul`` (and ``inv``), so their
gradients are matmul's."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import as_input, check_matrices, describe
from tapegrad.linalg.solvers import inv
from tapegrad.ops.primitive import raw, shape_of

ArrayLike = Any


def matrix_power(a: ArrayLike, n: int) -> Tensor:
    """``a`` (square, or a stack) raised to the integer power ``n``, as
    ``np.linalg.matrix_power``: repeated squaring; ``n < 0`` inverts first; ``n = 0`` gives
    the identity, a constant (no gradient).

    >>> import tapegrad as tg
    >>> tg.linalg.matrix_power(tg.tensor([[1.0, 1.0], [0.0, 1.0]]), 3).numpy()
    array([[1., 3.],
           [0., 1.]])
    """
    a = as_input(a)
    check_matrices("matrix_power", a, square=True)
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"matrix_power: the exponent must be an integer, got {n!r}") from None
    if n == 0:
        eye = ops.eye(shape_of(a)[-1], dtype=raw(a).dtype, like=a)
        return ops.broadcast_to(eye, shape_of(a))
    if n < 0:
        a, n = inv(a), -n
    # NumPy's order of products, so the values agree to the last bit
    if n == 1:
        return a if isinstance(a, Tensor) else ops.asarray(a)
    if n <= 3:
        square = ops.matmul(a, a)
        return square if n == 2 else ops.matmul(square, a)
    power, result = None, None
    while n > 0:
        power = a if power is None else ops.matmul(power, power)
        n, bit = divmod(n, 2)
        if bit:
            result = power if result is None else ops.matmul(result, power)
    assert result is not None  # n > 0 had a bit set
    return result


def _chain_order(shapes: list[tuple[int, ...]]) -> list[list[int]]:
    """``split[i][j]``: where the cheapest product of matrices i..j splits (the classic
    dynamic programme over the chain, as NumPy's ``multi_dot`` does)."""
    dims = [shapes[0][0]] + [s[1] for s in shapes]
    count = len(shapes)
    cost = [[0] * count for _ in range(count)]
    split = [[0] * count for _ in range(count)]
    for length in range(1, count):
        for i in range(count - length):
            j = i + length
            cost[i][j] = np.iinfo(np.int64).max
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(arrays: list[Any], split: list[list[int]], i: int, j: int) -> Any:
    if i == j:
        return arrays[i]
    k = split[i][j]
    return ops.matmul(_chain(arrays, split, i, k), _chain(arrays, split, k + 1, j))


def multi_dot(arrays: Any, *, out: Any = None) -> Tensor:
    """The product of two or more arrays in the cheapest order, as ``np.linalg.multi_dot``:
    the first may be a vector (a row), the last a vector (a column), the others 2-d.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> tg.linalg.multi_dot([tg.tensor(np.ones((2, 3))), np.ones((3, 4)), np.ones(4)]).numpy()
    array([12., 12.])
    """
    if out is not None:
        raise TypeError("multi_dot(out=...) is not supported: Tensors are immutable")
    arrays = [as_input(a) for a in arrays]
    if len(arrays) < 2:
        raise ValueError(f"multi_dot: expecting at least two arrays, got {len(arrays)}")
    if len(arrays) == 2:
        return ops.dot(arrays[0], arrays[1])
    row, column = len(shape_of(arrays[0])) == 1, len(shape_of(arrays[-1])) == 1
    if row:
        arrays[0] = ops.expand_dims(arrays[0], 0)
    if column:
        arrays[-1] = ops.expand_dims(arrays[-1], -1)
    for a in arrays:
        if len(shape_of(a)) != 2:
            raise ValueError(
                f"multi_dot: the arrays must be 2-d (the ends may be 1-d), got {describe(a)}"
            )
    result = _chain(arrays, _chain_order([tuple(shape_of(a)) for a in arrays]), 0, len(arrays) - 1)
    if row and column:
        return ops.reshape(result, ())
    if row:
        return ops.squeeze(result, 0)
    return ops.squeeze(result, -1) if column else result
