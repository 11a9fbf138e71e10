"""The pieces SciPy's multivariate distributions beyond the normal and the Dirichlet share:
plain values of the arguments, SciPy's squeeze of the output, the log-determinant from a
Cholesky factor, a scalar, vector or matrix argument as a matrix, and a method published
under SciPy's name.

Each distribution's log density is composed of recorded ops (each a
:class:`~tapegrad.scipy.stats.Distribution`: the rest of SciPy's interface, ``rvs`` and the
like, is SciPy's own): ``multinomial`` and ``dirichlet_multinomial`` in
_multivariate_counts.py, ``multivariate_t`` in _multivariate_t.py, ``wishart``,
``invwishart`` and ``matrix_normal`` in _matrix_variate.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import eye_like
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy

ArrayLike = Any


def _host(value: Any) -> np.ndarray:
    if isinstance(value, Tensor):
        return np.asarray(backend.to_host(raw(value)))
    return np.asarray(value)


def _squeeze(out: Any) -> Any:
    """SciPy's ``_squeeze_output``: every axis of length one dropped."""
    shape = shape_of(out)
    axes = tuple(i for i, n in enumerate(shape) if n == 1)
    return ops.squeeze(out, axes) if axes else out


def _log_det(factor: Any) -> Any:
    """``log det`` of ``L Lᵀ`` from its Cholesky factor ``L`` (batched)."""
    diagonal = ops.sum(ops.multiply(factor, eye_like(factor)), axis=-1)
    return 2.0 * ops.sum(ops.log(diagonal), axis=-1)


def _matrix(value: Any, dim: int, what: str) -> Any:
    """A scalar ``c I``, a vector's diagonal, or a (dim, dim) matrix."""
    value = ops.asarray(value, dtype="float64")
    shape = shape_of(value)
    if len(shape) == 0:
        return ops.multiply(value, np.eye(dim))
    if len(shape) == 1:
        if dim == 1:
            return ops.reshape(value, (1, 1))
        return ops.multiply(ops.expand_dims(value, -1), np.eye(dim))
    if tuple(shape) != (dim, dim):
        raise ValueError(f"{what} must be a ({dim}, {dim}) matrix, got shape {tuple(shape)}")
    return value


def _published(where: str, name: str, f: Any) -> Any:
    f.__name__ = f.__qualname__ = name
    return plain_calls_scipy(where)(f)
