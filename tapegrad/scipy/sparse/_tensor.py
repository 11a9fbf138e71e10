"""Sparse matrices in products with Tensors, and sparse matrices with Tensor values.

A SciPy sparse matrix (any format, ``*_matrix`` or ``*_array``) is a constant: ``A @ t``,
``t @ A``, ``A.dot(t)``, ``A.multiply(t)`` and ``A * t`` record, with the gradient
``Aᴴ ḡ`` for ``t``. A :class:`SparseTensor` (made by :func:`csr`, :func:`csc` or
:func:`coo`) is a sparse matrix whose stored values are a Tensor on a fixed pattern: its
products, its solves (``tapegrad.scipy.sparse.linalg``) and ``toarray()`` differentiate in
the values only, and only on the pattern.

Every product is one primitive, ``S @ x`` for ``S`` of values ``data`` on a pattern,
computed by SciPy's kernel; its rules are the same primitive on the transposed pattern
(``x̄ = Sᴴ ȳ``) and ``data̅_k = Σ ȳ[row_k] conj(x[col_k])``, so every order of derivative
works.

Importing this module makes SciPy's sparse classes and ``Tensor.__matmul__`` hand a Tensor
operand to these primitives (SciPy's own ``A @ t`` would read the Tensor as a NumPy array
and leave the tape); nothing changes for operands that are not Tensors.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import scipy.sparse as sp

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import mT
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import Primitive, conjugated, raw, shape_of

__all__ = ["SparseTensor", "coo", "csc", "csr", "matmul", "multiply"]

ArrayLike = Any


class Pattern:
    """A fixed sparsity pattern: the coordinates ``row``, ``col`` of the stored values (in
    their order) in a matrix of ``shape``; ``original``, the SciPy matrix whose ``.data``
    (in COO order) the pattern came from, is used as it is for those values."""

    __slots__ = ("row", "col", "shape", "original", "original_data", "_transpose")

    def __init__(
        self,
        row: np.ndarray,
        col: np.ndarray,
        shape: tuple[int, int],
        original: Any = None,
        original_data: Any = None,
    ) -> None:
        self.row = np.asarray(row, dtype=np.int64)
        self.col = np.asarray(col, dtype=np.int64)
        self.shape = (int(shape[0]), int(shape[1]))
        self.original = original
        self.original_data = original_data
        self._transpose: Pattern | None = None

    @property
    def T(self) -> Pattern:  # noqa: N802 - NumPy's name
        if self._transpose is None:
            self._transpose = Pattern(self.col, self.row, self.shape[::-1])
            self._transpose._transpose = self
        return self._transpose

    def matrix(self, data: Any) -> Any:
        """The SciPy matrix (CSR, or the original) of values ``data`` on the pattern."""
        if data is self.original_data and self.original is not None:
            return self.original
        return sp.csr_array((np.asarray(data), (self.row, self.col)), shape=self.shape)

    def __repr__(self) -> str:
        return f"<Pattern {self.shape[0]}x{self.shape[1]}, {self.row.size} stored>"


def constant(a: Any) -> tuple[np.ndarray, Pattern]:
    """The values (COO order) and the pattern of a SciPy sparse matrix."""
    if a.ndim != 2:
        raise ValueError(f"tapegrad.scipy.sparse: a 2-d sparse matrix is due, got shape {a.shape}")
    c = a.tocoo()
    data = np.asarray(c.data)
    return data, Pattern(c.coords[0], c.coords[1], c.shape, original=a, original_data=data)


# --- S @ x ---------------------------------------------------------------------------


def _spmm_forward(xp: Any, data: Any, x: Any, *, pattern: Pattern) -> Any:
    return np.asarray(pattern.matrix(data) @ x)


def _spmm_data(g: Any, ans: Any, data: Any, x: Any, *, pattern: Pattern) -> Any:
    picked = ops.take(g, pattern.row, axis=0) * conjugated(ops.take(x, pattern.col, axis=0))
    return ops.sum(picked, axis=1) if len(shape_of(x)) == 2 else picked


def _spmm_x(g: Any, ans: Any, data: Any, x: Any, *, pattern: Pattern) -> Any:
    return _spmm(conjugated(data), g, pattern=pattern.T)


_spmm = Primitive("sparse_matmul", _spmm_forward, complex_rules=True).defvjp(_spmm_data, _spmm_x)


def _check_operand(op: str, shape: tuple[int, ...], n: int, side: str) -> None:
    if len(shape) not in (1, 2) or shape[0 if side == "right" else -1] != n:
        raise ValueError(
            f"{op}: the dense operand must be 1-d or 2-d with {n} "
            f"{'rows' if side == 'right' else 'columns'}, got shape {shape}"
        )


def apply(data: Any, pattern: Pattern, x: Any) -> Tensor:
    """``S @ x`` for ``S`` of values ``data`` on ``pattern``; ``x`` 1-d or 2-d."""
    x = ops.asarray(x) if not isinstance(x, Tensor) else x
    _check_operand("sparse @", shape_of(x), pattern.shape[1], "right")
    return _spmm(data, x, pattern=pattern)


def apply_left(data: Any, pattern: Pattern, x: Any) -> Tensor:
    """``x @ S``: ``(Sᵀ xᵀ)ᵀ``."""
    x = ops.asarray(x) if not isinstance(x, Tensor) else x
    shape = shape_of(x)
    _check_operand("@ sparse", shape, pattern.shape[0], "left")
    if len(shape) == 1:
        return _spmm(data, x, pattern=pattern.T)
    return mT(_spmm(data, mT(x), pattern=pattern.T))


def on_pattern(data: Any, pattern: Pattern, t: Any) -> Any:
    """The values of ``S.multiply(t)``: each stored value times ``t`` (broadcast to the
    matrix's shape) at its place."""
    if isinstance(t, (int, float, complex)) or len(shape_of(t)) == 0:
        return data * t
    full = ops.broadcast_to(t, pattern.shape)
    flat = pattern.row * pattern.shape[1] + pattern.col
    return data * ops.take(ops.reshape(full, (-1,)), flat)


# --- SparseTensor ----------------------------------------------------------------------


class SparseTensor:
    """A sparse matrix whose stored values are a Tensor (``data``, 1-d) on a fixed pattern.

    Products with dense Tensors or arrays (``S @ x``, ``x @ S``, ``S.dot(x)``),
    ``S.multiply(t)`` and ``S * scalar`` (a SparseTensor on the same pattern), ``S.T``,
    ``toarray()`` (a dense Tensor) record; so do the solvers of
    ``tapegrad.scipy.sparse.linalg`` given one. The gradient is in the values only.
    ``to_scipy()`` is SciPy's matrix of the current values (a constant).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import sparse
    >>> s = sparse.csr(tg.tensor([2.0, 3.0]), [0, 1], [0, 1, 2], (2, 2))
    >>> (s @ tg.tensor([1.0, 1.0])).tolist()
    [2.0, 3.0]
    """

    __array_priority__ = 10000  # above SciPy's sparse classes and Tensor

    def __init__(self, data: Any, pattern: Pattern, format: str = "csr") -> None:  # noqa: A002
        self.data = data if isinstance(data, Tensor) else ops.asarray(data)
        if shape_of(self.data) != pattern.row.shape:
            raise ValueError(
                f"SparseTensor: {pattern.row.size} positions but values of shape "
                f"{shape_of(self.data)}"
            )
        self.pattern = pattern
        self.format = format

    # --- SciPy's attributes
    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)``."""
        return self.pattern.shape

    @property
    def ndim(self) -> int:
        """2: a sparse matrix."""
        return 2

    @property
    def nnz(self) -> int:
        """The number of stored values (SciPy's name)."""
        return int(self.pattern.row.size)

    @property
    def dtype(self) -> Any:
        """The stored values' dtype."""
        return self.data.dtype

    @property
    def row(self) -> np.ndarray:
        """The row index of each stored value (COO order; constants)."""
        return self.pattern.row

    @property
    def col(self) -> np.ndarray:
        """The column index of each stored value (COO order; constants)."""
        return self.pattern.col

    @property
    def T(self) -> SparseTensor:  # noqa: N802 - SciPy's name
        """:meth:`transpose`."""
        return self.transpose()

    def transpose(self) -> SparseTensor:
        """The transpose: the same values on the transposed pattern."""
        return SparseTensor(self.data, self.pattern.T, "csc" if self.format == "csr" else "csr")

    def conj(self) -> SparseTensor:
        """The complex conjugate (of the values; the pattern is kept)."""
        return SparseTensor(ops.conj(self.data), self.pattern, self.format)

    conjugate = conj

    def __neg__(self) -> SparseTensor:
        return SparseTensor(-self.data, self.pattern, self.format)

    def to_scipy(self) -> Any:
        """SciPy's CSR array of the current values (no gradient flows through it)."""
        return self.pattern.matrix(raw(self.data))

    def toarray(self) -> Tensor:
        """The dense matrix, a Tensor (differentiable in the values)."""
        m, n = self.shape
        flat = self.pattern.row * n + self.pattern.col
        return ops.reshape(ops.index_add(self.data, (m * n,), flat), (m, n))

    todense = toarray

    # --- products
    def __matmul__(self, other: Any) -> Any:
        if isinstance(other, SparseTensor):
            return NotImplemented
        return apply(self.data, self.pattern, _dense(other))

    def __rmatmul__(self, other: Any) -> Any:
        return apply_left(self.data, self.pattern, _dense(other))

    def dot(self, other: Any) -> Any:
        """``self @ other`` (``self * other`` for a scalar), as SciPy's ``dot``."""
        if np.isscalar(other):
            return self * other
        return self @ other

    def multiply(self, other: Any) -> SparseTensor:
        """Element-wise product on the pattern (``other`` broadcasts to the shape)."""
        other = _dense(other)
        return SparseTensor(on_pattern(self.data, self.pattern, other), self.pattern, self.format)

    def __mul__(self, other: Any) -> SparseTensor:
        return self.multiply(other)

    __rmul__ = __mul__

    def __repr__(self) -> str:
        m, n = self.shape
        return f"<SparseTensor {m}x{n} ({self.format}), {self.nnz} stored values>"


def _dense(x: Any) -> Any:
    if sp.issparse(x):
        raise TypeError(
            "tapegrad.scipy.sparse: products of two sparse matrices are not differentiable; "
            "convert one with .toarray()"
        )
    return x


def _index(name: str, values: Any, n: int, a: ArrayLike) -> np.ndarray:
    out = np.asarray(raw(a))
    if out.ndim != 1 or not np.issubdtype(out.dtype, np.integer):
        raise ValueError(
            f"{name}: an index array must be 1-d integers, got {out.dtype} {out.shape}"
        )
    return out.astype(np.int64)


def _values(name: str, values: ArrayLike) -> Any:
    data = values if isinstance(values, Tensor) else ops.asarray(values)
    if len(shape_of(data)) != 1:
        raise ValueError(f"{name}: values must be 1-d, got shape {shape_of(data)}")
    return data


def csr(values: ArrayLike, indices: ArrayLike, indptr: ArrayLike, shape: Any) -> SparseTensor:
    """A CSR matrix with differentiable values (SciPy's ``csr_array((values, indices,
    indptr), shape)``): row ``i`` holds ``values[indptr[i]:indptr[i+1]]`` in the columns
    ``indices[indptr[i]:indptr[i+1]]``. Gradients flow to ``values`` only.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import sparse
    >>> s = sparse.csr(tg.tensor([1.0, 2.0, 3.0]), [0, 2, 1], [0, 2, 3], (2, 3))
    >>> s.toarray().tolist()
    [[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]
    """
    data = _values("csr", values)
    cols = _index("csr", data, 0, indices)
    ptr = _index("csr", data, 0, indptr)
    m, n = (int(s) for s in shape)
    if ptr.size != m + 1 or ptr[-1] != cols.size or cols.size != shape_of(data)[0]:
        raise ValueError(
            f"csr: indptr must have {m + 1} entries ending at len(indices) = len(values); got "
            f"{ptr.size} entries, {cols.size} indices, {shape_of(data)[0]} values"
        )
    if cols.size and (cols.min() < 0 or cols.max() >= n):
        raise ValueError(f"csr: column indices must lie in [0, {n})")
    rows = np.repeat(np.arange(m, dtype=np.int64), np.diff(ptr))
    return SparseTensor(data, Pattern(rows, cols, (m, n)), "csr")


def csc(values: ArrayLike, indices: ArrayLike, indptr: ArrayLike, shape: Any) -> SparseTensor:
    """A CSC matrix with differentiable values: column ``j`` holds
    ``values[indptr[j]:indptr[j+1]]`` in the rows ``indices[indptr[j]:indptr[j+1]]``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import sparse
    >>> sparse.csc(tg.tensor([1.0, 2.0]), [1, 0], [0, 1, 2], (2, 2)).toarray().tolist()
    [[0.0, 2.0], [1.0, 0.0]]
    """
    m, n = (int(s) for s in shape)
    t = csr(values, indices, indptr, (n, m)).T
    t.format = "csc"
    return t


def coo(values: ArrayLike, row: ArrayLike, col: ArrayLike, shape: Any) -> SparseTensor:
    """A COO matrix with differentiable values: ``values[k]`` at ``(row[k], col[k])``
    (repeated positions add, as SciPy's ``coo_array((values, (row, col)), shape)``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy import sparse
    >>> sparse.coo(tg.tensor([1.0, 2.0]), [0, 1], [1, 1], (2, 2)).toarray().tolist()
    [[0.0, 1.0], [0.0, 2.0]]
    """
    data = _values("coo", values)
    rows, cols = _index("coo", data, 0, row), _index("coo", data, 0, col)
    m, n = (int(s) for s in shape)
    if not rows.size == cols.size == shape_of(data)[0]:
        raise ValueError(
            f"coo: row, col and values must have one length, got {rows.size}, {cols.size}, "
            f"{shape_of(data)[0]}"
        )
    if rows.size and (rows.min() < 0 or rows.max() >= m or cols.min() < 0 or cols.max() >= n):
        raise ValueError(f"coo: positions must lie in the shape {(m, n)}")
    return SparseTensor(data, Pattern(rows, cols, (m, n)), "coo")


def as_sparse(name: str, a: Any) -> tuple[Any, Pattern]:
    """The values and pattern of a SparseTensor or of a SciPy sparse matrix (constant)."""
    if isinstance(a, SparseTensor):
        return a.data, a.pattern
    if sp.issparse(a):
        return constant(a)
    raise TypeError(
        f"{name}: A must be a SciPy sparse matrix or a tapegrad.scipy.sparse.SparseTensor, "
        f"got {type(a).__name__}"
    )


def matmul(a: Any, b: Any) -> Any:
    """``a @ b`` where one is sparse (a SciPy matrix or a SparseTensor), the other dense.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy import sparse
    >>> a = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
    >>> sparse.matmul(a, tg.tensor([1.0, 1.0])).tolist()
    [3.0, 3.0]
    """
    if sp.issparse(a) or isinstance(a, SparseTensor):
        data, pattern = as_sparse("matmul", a)
        return apply(data, pattern, _dense(b))
    data, pattern = as_sparse("matmul", b)
    return apply_left(data, pattern, a)


def multiply(a: Any, b: Any) -> SparseTensor:
    """``a.multiply(b)`` for sparse ``a``: a SparseTensor on ``a``'s pattern.

    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.sparse import multiply
    >>> multiply(sp.csr_array(np.eye(2)), tg.tensor([[2.0, 5.0], [7.0, 3.0]])).toarray().numpy()
    array([[2., 0.],
           [0., 3.]])
    """
    data, pattern = as_sparse("multiply", a)
    return SparseTensor(on_pattern(data, pattern, _dense(b)), pattern, getattr(a, "format", "csr"))


# --- SciPy's classes and Tensor's operator hand Tensors over ---------------------------


def _takes(other: Any) -> bool:
    return isinstance(other, Tensor) or (isinstance(other, (list, tuple)) and holds_tensor(other))


def _is_matrix(a: Any) -> bool:
    return isinstance(a, sp.spmatrix)


def _patched(name: str, original: Any) -> Any:
    @functools.wraps(original)
    def method(self: Any, other: Any, *args: Any, **kwargs: Any) -> Any:
        if not _takes(other) or args or kwargs or self.ndim != 2:
            return original(self, other, *args, **kwargs)
        if name == "__rmatmul__" or (name == "__rmul__" and _is_matrix(self)):
            return matmul(other, self)
        if name in ("__matmul__", "dot") or (name == "__mul__" and _is_matrix(self)):
            if name == "dot" and len(shape_of(other)) == 0:
                return multiply(self, other)
            return matmul(self, other)
        return multiply(self, other)  # multiply, and * of sparse arrays

    method._tapegrad_patched = True  # type: ignore[attr-defined]
    return method


_METHODS = ("__matmul__", "__rmatmul__", "dot", "multiply", "__mul__", "__rmul__")


def _subclasses(cls: type) -> list[type]:
    found: list[type] = [cls]
    sub: type
    for sub in cls.__subclasses__():
        found += _subclasses(sub)
    return found


def install() -> None:
    """Make SciPy's sparse classes record products with Tensors, and ``t @ A`` too."""
    for cls in [*_subclasses(sp._base._spbase), sp.spmatrix]:
        if not cls.__module__.startswith("scipy."):
            continue
        for name in _METHODS:
            original = cls.__dict__.get(name)
            if original is not None and not getattr(original, "_tapegrad_patched", False):
                setattr(cls, name, _patched(name, original))
    plain = Tensor.__matmul__
    if not getattr(plain, "_tapegrad_patched", False):

        def __matmul__(self: Tensor, other: Any) -> Any:  # noqa: N807
            kind = type(other)
            if (
                kind is not Tensor
                and kind is not np.ndarray
                and (sp.issparse(other) or isinstance(other, SparseTensor))
            ):
                return matmul(self, other)
            return plain(self, other)

        __matmul__._tapegrad_patched = True  # type: ignore[attr-defined]
        Tensor.__matmul__ = __matmul__
