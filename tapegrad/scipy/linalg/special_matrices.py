"""Matrices built from vectors and from other matrices: block_diag, toeplitz, circulant,
hankel, companion, convolution_matrix, fiedler, fiedler_companion and leslie.

Each is a gather of its inputs' entries by a fixed index pattern (``ops.take`` of a
concatenation, ``ops.pad``, ``ops.concatenate``), so they run on every backend and
differentiate to any order, in real and complex inputs alike. Batches over leading axes
follow SciPy (>= 1.15): the batch shapes of ``toeplitz``'s ``c`` and ``r`` and of
``leslie``'s ``f`` and ``s`` broadcast."""

from __future__ import annotations

import operator
import warnings
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import constant_like
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = [
    "block_diag",
    "circulant",
    "companion",
    "convolution_matrix",
    "fiedler",
    "fiedler_companion",
    "hankel",
    "leslie",
    "toeplitz",
]

ArrayLike = Any


def _array(x: ArrayLike, least_1d: bool = True) -> Any:
    """A Tensor or backend array as it is, anything else as a NumPy array (its dtype kept,
    as SciPy keeps it); with at least one axis when ``least_1d``."""
    if not isinstance(x, Tensor) and not hasattr(x, "__array_namespace__"):
        x = np.asarray(x)
    if least_1d and len(shape_of(x)) == 0:
        x = ops.reshape(x, (1,))
    return x


def _broadcast_batches(op: str, names: tuple[str, str], a: Any, b: Any) -> tuple[Any, Any]:
    """``a`` and ``b`` with their batch shapes (all axes but the last) broadcast together,
    as SciPy's batched functions broadcast them."""
    sa, sb = tuple(shape_of(a)), tuple(shape_of(b))
    if sa[:-1] == sb[:-1]:
        return a, b
    try:
        batch = np.broadcast_shapes(sa[:-1], sb[:-1])
    except ValueError:
        raise ValueError(
            f"{op}: the batch shapes of {names[0]} (shape {sa}) and {names[1]} (shape {sb}) "
            "do not broadcast"
        ) from None
    if 0 in batch:
        raise ValueError(f"{op}: zero-size batches are not supported, as in SciPy")
    return ops.broadcast_to(a, batch + sa[-1:]), ops.broadcast_to(b, batch + sb[-1:])


def _gather(values: Any, index: np.ndarray) -> Tensor:
    """``values[..., index]``: the last axis of ``values`` read by the integer ``index``."""
    return ops.take(values, index, axis=-1)


@plain_calls_scipy("linalg")
def block_diag(*arrs: ArrayLike) -> Tensor:
    """The block-diagonal matrix of ``arrs`` (0-d and 1-d inputs are 1-row blocks, as in
    SciPy).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import block_diag
    >>> block_diag(tg.tensor([[1.0]]), tg.tensor([2.0, 3.0])).numpy()
    array([[1., 0., 0.],
           [0., 2., 3.]])
    """
    if not arrs:
        return ops.zeros((1, 0))
    blocks = []
    for k, a in enumerate(arrs):
        shape = shape_of(a)
        if len(shape) > 2:
            raise ValueError(
                f"block_diag: arguments must have at most 2 dimensions, argument {k} has "
                f"shape {tuple(shape)}"
            )
        blocks.append(ops.reshape(a, (1, -1)) if len(shape) < 2 else a)
    widths = [shape_of(b)[1] for b in blocks]
    total = sum(widths)
    rows, start = [], 0
    for block, width in zip(blocks, widths):
        rows.append(ops.pad(block, ((0, 0), (start, total - start - width))))
        start += width
    return ops.concatenate(rows, axis=0)


@plain_calls_scipy("linalg")
def toeplitz(c: ArrayLike, r: ArrayLike | None = None) -> Tensor:
    """The Toeplitz matrix with first column ``c`` and first row ``[c[0], r[1:]]``
    (``r = conj(c)`` when None: Hermitian for real ``c[0]``). ``c`` ``(..., n)`` and ``r``
    ``(..., m)`` batch, their batch shapes broadcasting, to ``(..., n, m)``. The gradient
    of each entry goes back to the element of ``c`` or ``r`` it was read from.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import toeplitz
    >>> toeplitz(tg.tensor([1.0, 2.0, 3.0]), tg.tensor([0.0, 4.0])).numpy()
    array([[1., 4.],
           [2., 1.],
           [3., 2.]])
    >>> tg.grad(lambda c: tg.sum(toeplitz(c)))(tg.tensor([1.0, 2.0, 3.0])).tolist()
    [3.0, 4.0, 2.0]
    """
    c = _array(c)
    r = ops.conj(c) if r is None else _array(r)
    c, r = _broadcast_batches("toeplitz", ("c", "r"), c, r)
    n, m = shape_of(c)[-1], shape_of(r)[-1]
    values = ops.concatenate([ops.flip(c, -1), r[..., 1:]], axis=-1)
    index = (n - 1) - np.arange(n)[:, None] + np.arange(m)[None, :]
    return _gather(values, index)


@plain_calls_scipy("linalg")
def circulant(c: ArrayLike) -> Tensor:
    """The circulant matrix with first column ``c``: ``A[i, j] = c[(i - j) % n]``;
    ``(..., n)`` gives ``(..., n, n)``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import circulant
    >>> circulant(tg.tensor([1.0, 2.0, 3.0])).numpy()
    array([[1., 3., 2.],
           [2., 1., 3.],
           [3., 2., 1.]])
    """
    c = _array(c)
    n = shape_of(c)[-1]
    if 0 in shape_of(c)[:-1]:
        raise ValueError("circulant: zero-size batches are not supported, as in SciPy")
    index = (np.arange(n)[:, None] - np.arange(n)[None, :]) % max(n, 1)
    return _gather(c, index)


@plain_calls_scipy("linalg")
def hankel(c: ArrayLike, r: ArrayLike | None = None) -> Tensor:
    """The Hankel matrix with first column ``c`` and last row ``[c[-1], r[1:]]`` (``r``
    zeros when None): ``A[i, j] = [c, r[1:]][i + j]``. As in SciPy, inputs of more than one
    axis are raveled, with SciPy's FutureWarning (SciPy 1.19 batches them).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import hankel
    >>> hankel(tg.tensor([1.0, 2.0]), tg.tensor([9.0, 3.0, 4.0])).numpy()
    array([[1., 2., 3.],
           [2., 3., 4.]])
    """
    c = _array(c, least_1d=False)
    r = ops.zeros_like(c) if r is None else _array(r, least_1d=False)
    if len(shape_of(c)) == 0 or len(shape_of(r)) == 0:
        raise ValueError(
            f"hankel: c and r must have at least one axis, got shapes {tuple(shape_of(c))} "
            f"and {tuple(shape_of(r))}"
        )
    if len(shape_of(c)) > 1 or len(shape_of(r)) > 1:
        warnings.warn(
            "Beginning in SciPy 1.19, multidimensional input will be treated as a batch, "
            "not `ravel`ed. To preserve the existing behavior and silence this warning, "
            "`ravel` arguments before passing them to `hankel`.",
            FutureWarning,
            stacklevel=3,
        )
        c, r = ops.ravel(c), ops.ravel(r)
    n, m = shape_of(c)[0], shape_of(r)[0]
    values = ops.concatenate([c, r[1:]])
    return _gather(values, np.arange(n)[:, None] + np.arange(m)[None, :])


@plain_calls_scipy("linalg")
def companion(a: ArrayLike) -> Tensor:
    """The companion matrix of the polynomial with coefficients ``a`` (highest degree
    first): first row ``-a[1:] / a[0]``, ones on the first subdiagonal. ``(..., n)`` gives
    ``(..., n - 1, n - 1)``; the gradient flows through the first row.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import companion
    >>> companion(tg.tensor([2.0, -6.0, 4.0])).numpy()
    array([[ 3., -2.],
           [ 1.,  0.]])
    """
    a = _array(a)
    shape = tuple(shape_of(a))
    n = shape[-1]
    if n < 2:
        raise ValueError(
            f"companion: the length of a along the last axis must be at least 2, got shape {shape}"
        )
    if bool(ops.any(a[..., 0] == 0)):
        raise ValueError("companion: the first coefficient(s) of a (a[..., 0]) must not be zero")
    first_row = -a[..., 1:] / (1.0 * a[..., 0:1])
    ones = constant_like(np.eye(n - 2, n - 1), first_row)
    ones = ops.broadcast_to(ones, shape[:-1] + (n - 2, n - 1))
    return ops.concatenate([ops.expand_dims(first_row, -2), ones], axis=-2)


@plain_calls_scipy("linalg")
def convolution_matrix(a: ArrayLike, n: int, mode: str = "full") -> Tensor:
    """The Toeplitz matrix ``A`` with ``A @ v == numpy.convolve(a, v, mode)`` for ``v`` of
    length ``n``: ``(m + n - 1, n)`` for ``mode="full"``, ``(max(m, n), n)`` for
    ``"same"``, ``(max(m, n) - min(m, n) + 1, n)`` for ``"valid"``; ``a`` ``(..., m)``
    batches.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import convolution_matrix
    >>> convolution_matrix(tg.tensor([1.0, 2.0]), 3, mode="valid").numpy()
    array([[2., 1., 0.],
           [0., 2., 1.]])
    """
    if isinstance(n, Tensor):
        n = n.item()
    try:
        n = operator.index(n)
    except TypeError:
        raise TypeError(f"convolution_matrix: n must be an integer, got {n!r}") from None
    if n <= 0:
        raise ValueError(f"convolution_matrix: n must be a positive integer, got {n}")
    a = _array(a, least_1d=False)
    shape = tuple(shape_of(a))
    if len(shape) == 0 or shape[-1] == 0 or 0 in shape:
        raise ValueError(f"convolution_matrix: len(a) must be at least 1, got shape {shape}")
    if mode not in ("full", "valid", "same"):
        raise ValueError(
            f"convolution_matrix: mode must be one of ('full', 'valid', 'same'), got {mode!r}"
        )
    m = shape[-1]
    width = ((0, 0),) * (len(shape) - 1) + ((0, n - 1),)
    az = ops.pad(a, width)
    raz = ops.pad(ops.flip(a, -1), width)
    length = m + n - 1
    if mode == "full":
        col0, row0 = az, raz[..., length - n :]
    else:
        tb = min(n, m) - 1
        te = tb
        if mode == "same":
            tb = tb // 2
            te = min(n, m) - 1 - tb
        col0 = az[..., tb : length - te]
        row0 = raz[..., length - n - tb : length - tb]
    return toeplitz(col0, row0)


@plain_calls_scipy("linalg")
def fiedler(a: ArrayLike) -> Tensor:
    """The symmetric Fiedler matrix ``F[i, j] = |a[i] - a[j]|``; ``(..., n)`` gives
    ``(..., n, n)``. As SciPy, an empty ``a`` gives an empty float64 vector and a
    one-element ``a`` the float64 ``[[0.]]``. The gradient of ``|a[i] - a[j]|`` is
    ``sign(a[i] - a[j])`` (0 on the diagonal).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import fiedler
    >>> fiedler(tg.tensor([1.0, 4.0, 2.0])).numpy()
    array([[0., 3., 1.],
           [3., 0., 2.],
           [1., 2., 0.]])
    """
    a = _array(a)
    size = int(np.prod(shape_of(a)))
    if size == 0:
        return ops.asarray(np.zeros(0), like=a)
    if size == 1:
        return ops.astype(ops.real(ops.reshape(a - a, (1, 1))), np.float64)
    return ops.abs(ops.expand_dims(a, -1) - ops.expand_dims(a, -2))


def _fiedler_companion_index(n: int) -> np.ndarray:
    """Where each entry of the ``(n, n)`` Fiedler companion matrix is read from in
    ``[0, 1, -a[0], -a[1], ...]`` (``a`` normalized by its leading coefficient)."""
    index = np.zeros((n, n), dtype=np.intp)  # 0: a zero
    index[range(3, n, 2), range(1, n - 2, 2)] = 1  # 1: a one
    index[range(2, n, 2), range(1, n - 1, 2)] = 2 + np.arange(3, n + 1, 2)
    index[range(0, n - 2, 2), range(2, n, 2)] = 1
    index[range(0, n - 1, 2), range(1, n, 2)] = 2 + np.arange(2, n + 1, 2)
    index[[0, 1], 0] = [2 + 1, 1]
    return index


@plain_calls_scipy("linalg")
def fiedler_companion(a: ArrayLike) -> Tensor:
    """Fiedler's pentadiagonal companion matrix of the polynomial with coefficients ``a``
    (highest degree first, rescaled by ``a[0]``): its eigenvalues are the polynomial's
    roots. ``(..., n)`` gives ``(..., n - 1, n - 1)``; for ``n < 2`` an empty array, as
    SciPy.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import fiedler_companion
    >>> fiedler_companion(tg.tensor([1.0, -6.0, 11.0, -6.0])).numpy()
    array([[  6., -11.,   1.],
           [  1.,   0.,   0.],
           [  0.,   6.,   0.]])
    """
    a = _array(a)
    shape = tuple(shape_of(a))
    n = shape[-1]
    if n <= 1:
        return a[..., :0]
    if n == 2:
        return ops.expand_dims(-(a[..., 1:] / a[..., :1]), -1)
    if bool(ops.any(a[..., 0] == 0)):
        raise ValueError("fiedler_companion: leading coefficient is zero")
    negated = -(a / a[..., :1])
    values = ops.concatenate(
        [ops.zeros_like(negated[..., :1]), ops.ones_like(negated[..., :1]), negated], axis=-1
    )
    return _gather(values, _fiedler_companion_index(n - 1))


@plain_calls_scipy("linalg")
def leslie(f: ArrayLike, s: ArrayLike) -> Tensor:
    """The Leslie matrix: fecundities ``f`` ``(..., n)`` in the first row, survivals ``s``
    ``(..., n - 1)`` on the first subdiagonal, zeros elsewhere; batch shapes broadcast.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import leslie
    >>> leslie(tg.tensor([0.1, 2.0, 1.0]), tg.tensor([0.2, 0.8])).numpy()
    array([[0.1, 2. , 1. ],
           [0.2, 0. , 0. ],
           [0. , 0.8, 0. ]])
    """
    f, s = _array(f), _array(s)
    sf, ss = tuple(shape_of(f)), tuple(shape_of(s))
    if sf[-1] != ss[-1] + 1:
        raise ValueError(
            f"leslie: the length of s along the last axis must be one less than that of f, "
            f"got shapes {sf} and {ss}"
        )
    if ss[-1] == 0:
        raise ValueError(f"leslie: the length of s must be at least 1, got shape {ss}")
    f, s = _broadcast_batches("leslie", ("f", "s"), f, s)
    n = sf[-1]
    values = ops.concatenate([ops.zeros_like(f[..., :1]), f, s], axis=-1)
    index = np.zeros((n, n), dtype=np.intp)
    index[0] = 1 + np.arange(n)
    index[np.arange(1, n), np.arange(n - 1)] = 1 + n + np.arange(n - 1)
    return _gather(values, index)
