"""Helpers of the linear-algebra functions and their rules: transposes and triangles of the
last two axes (written with tapegrad ops, so rules built from them differentiate again),
input checks, kernels of the inputs' namespace, and several results packed into the one
output a primitive has.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw, shape_of

LinAlgError = np.linalg.LinAlgError  # a ValueError: Primitive names the op in its message


def mT(x: Any) -> Any:  # noqa: N802 - the array API's name for the matrix transpose
    """The transpose of the last two axes."""
    return ops.swapaxes(x, -1, -2)


def mH(x: Any) -> Any:  # noqa: N802 - as mT
    """The conjugate transpose of the last two axes (the transpose of a real ``x``)."""
    return ops.conj(ops.swapaxes(x, -1, -2))


def constant_like(values: np.ndarray, x: Any) -> Any:
    """The NumPy constant ``values`` in ``x``'s dtype, namespace and device."""
    return ops.asarray(values, dtype=raw(x).dtype, like=x)


def eye_like(x: Any) -> Any:
    """The identity matrix of ``x``'s last axis, in ``x``'s dtype and namespace."""
    return constant_like(np.eye(shape_of(x)[-1]), x)


def diag_embed(v: Any) -> Any:
    """Matrices with ``v``'s last axis on the diagonal: ``(..., n) -> (..., n, n)``."""
    return ops.expand_dims(v, -1) * eye_like(v)


def diagonal(x: Any) -> Any:
    """The main diagonal of the last two axes of a square ``x``: ``(..., n, n) -> (..., n)``."""
    return ops.sum(x * eye_like(x), axis=-1)


def triangle(x: Any, lower: bool, k: int = 0, diagonal: float = 1.0) -> Any:
    """``tril(x, k)`` (``lower``) or ``triu(x, k)`` of the last two axes, with the main
    diagonal scaled by ``diagonal`` when ``k == 0``: the mask Φ of the Cholesky rule is
    ``triangle(x, lower, diagonal=0.5)``."""
    n, m = shape_of(x)[-2:]
    mask = np.tril(np.ones((n, m)), k) if lower else np.triu(np.ones((n, m)), k)
    if k == 0 and diagonal != 1.0:
        mask[np.diag_indices(min(n, m))] = diagonal
    return x * constant_like(mask, x)


def hermitian_read(g: Any, lower: bool = True) -> Any:
    """The gradient with respect to a matrix of which only the ``lower`` (or upper) triangle
    is read, as the Hermitian matrix it stands for: off the diagonal ``g`` and ``g^H`` both
    land on the triangle read, the diagonal keeps its real part (the imaginary part of a
    Hermitian matrix's diagonal is not read), the other triangle gets nothing."""
    return triangle(g + mH(g), lower, diagonal=0.5)


def hermitian_from_lower(xp: Any, a: Any) -> Any:
    """The Hermitian matrix whose lower triangle is ``a``'s (real diagonal), on raw arrays:
    what NumPy's ``eigh``/``cholesky`` read, made explicit so that every backend's kernel
    sees the same matrix whichever triangle it reads."""
    strict = xp.tril(a, k=-1)
    n = a.shape[-1]
    eye = xp.eye(n, dtype=a.dtype) if xp is np else xp.eye(n, dtype=a.dtype, device=a.device)
    return strict + xp.conj(xp.matrix_transpose(strict)) + (a + xp.conj(a)) / 2 * eye


def as_input(x: Any) -> Any:
    """A Tensor or backend array as it is; anything else (lists, scalars) as a NumPy array,
    integers and booleans as float64 (what ``numpy.linalg`` computes them in)."""
    if not isinstance(x, Tensor) and not backend.is_foreign(x):
        x = np.asarray(x)
    dtype = raw(x).dtype
    if not backend.is_floating(dtype) and backend.namespace(raw(x)) is np:
        return np.asarray(raw(x), dtype=np.float64)
    return x


def describe(x: Any) -> str:
    """``shape (2, 3) float64``."""
    return f"shape {tuple(shape_of(x))} {backend.dtype_name(raw(x).dtype)}"


def check_matrices(op: str, *arrays: Any, square: bool = False) -> None:
    """LinAlgError naming ``op`` unless each array is a matrix (or a stack of them, the
    matrices in the last two axes), square when ``square``."""
    for a in arrays:
        shape = shape_of(a)
        if len(shape) < 2:
            raise LinAlgError(
                f"{op}: expected a matrix or a stack of them (..., M, N), got {describe(a)}"
            )
        if square and shape[-1] != shape[-2]:
            raise LinAlgError(
                f"{op}: expected a square matrix or a stack of them (..., N, N), got {describe(a)}"
            )


def is_complex(x: Any) -> bool:
    return backend.is_complex(raw(x).dtype)


def real_dtype(x: Any) -> np.dtype:
    """The NumPy dtype of ``x``'s real values (float64 for complex128), read without
    moving ``x``'s data."""
    return np.finfo(backend.dtype_name(raw(x).dtype)).dtype


def eps(x: Any) -> float:
    """The machine epsilon of ``x``'s precision."""
    return float(np.finfo(real_dtype(x)).eps)


def kernel(xp: Any, module: str, name: str) -> Any:
    """``xp.<module>.<name>`` (``np.linalg.eig``, ``array_api_strict.fft.rfft`` ...); a
    TypeError that says which namespace lacks it."""
    found = getattr(getattr(xp, module, None), name, None)
    if found is None:
        library = xp.__name__.removeprefix("array_api_compat.")
        raise TypeError(f"{library} has no {module}.{name}; move the Tensor with .to('cpu')")
    return found


def pack(xp: Any, batch: tuple[int, ...], *arrays: Any) -> Any:
    """Several results of one kernel call as one array ``batch + (total,)``: each flattened
    after the batch axes, in their common dtype (a primitive has one output)."""
    dtype = xp.result_type(*(a.dtype for a in arrays))
    flat = [
        xp.reshape(xp.astype(a, dtype), (*batch, math.prod(a.shape[len(batch) :]))) for a in arrays
    ]
    return xp.concat(flat, axis=-1)


def unpack(packed: Any, *cores: tuple[int, ...]) -> list[Any]:
    """The arrays :func:`pack` joined, given their shapes after the batch axes (the packed
    output or its cotangent, a Tensor or a raw array)."""
    batch = tuple(shape_of(packed)[:-1])
    out, start = [], 0
    for core in cores:
        size = math.prod(core)
        out.append(ops.reshape(packed[..., start : start + size], (*batch, *core)))
        start += size
    return out
