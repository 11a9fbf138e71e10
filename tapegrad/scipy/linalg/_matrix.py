"""Matrix helpers for tapegrad.scipy.linalg's rules: transposes and triangles of the last two
axes, written with tapegrad ops (so rules built from them differentiate again)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.ops.primitive import raw, shape_of


def mT(x: Any) -> Any:  # noqa: N802 - the array API's name for the matrix transpose
    """The transpose of the last two axes."""
    return ops.swapaxes(x, -1, -2)


def constant_like(values: np.ndarray, x: Any) -> Any:
    """The NumPy constant ``values`` in ``x``'s dtype, namespace and device."""
    return ops.asarray(values, dtype=raw(x).dtype, like=x)


def triangle(x: Any, lower: bool, k: int = 0, diagonal: float = 1.0) -> Any:
    """``tril(x, k)`` (``lower``) or ``triu(x, k)`` of the last two axes, with the main
    diagonal scaled by ``diagonal`` when ``k == 0``: the mask Φ of the Cholesky rule is
    ``triangle(x, lower, diagonal=0.5)``."""
    n, m = shape_of(x)[-2:]
    mask = np.tril(np.ones((n, m)), k) if lower else np.triu(np.ones((n, m)), k)
    if k == 0 and diagonal != 1.0:
        mask[np.diag_indices(min(n, m))] = diagonal
    return x * constant_like(mask, x)


def eye_like(x: Any) -> Any:
    """The identity matrix of ``x``'s last axis, in ``x``'s dtype and namespace."""
    return constant_like(np.eye(shape_of(x)[-1]), x)


def triangle_read(g: Any, lower: bool) -> Any:
    """The gradient with respect to a symmetric matrix of which only the ``lower`` (or
    upper) triangle is read: off the diagonal both halves of ``g`` land on the triangle
    read, the other triangle gets none (finite differences agree)."""
    return triangle(g + mT(g), lower, diagonal=0.5)
