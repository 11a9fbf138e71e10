"""scipy.sparse with gradients: SciPy's sparse matrices (every format, ``*_matrix`` and
``*_array``) as constants in products with Tensors, sparse matrices with Tensor values
(:func:`csr`, :func:`csc`, :func:`coo`: a :class:`SparseTensor`), and the solvers of
``tapegrad.scipy.sparse.linalg``.

Importing this package makes ``A @ t``, ``t @ A``, ``A.dot(t)``, ``A.multiply(t)`` and
``A * t`` record for SciPy's sparse ``A`` and a Tensor ``t`` (tapegrad/scipy/sparse/_tensor.py
explains how); :func:`matmul` and :func:`multiply` are the same products as functions.
Every name not defined here is SciPy's own (``csr_array``, ``eye``, ``diags``...).

>>> import numpy as np, scipy.sparse as sp, tapegrad as tg
>>> from tapegrad.scipy import sparse
>>> a = sp.csr_array(np.array([[1.0, 2.0], [0.0, 3.0]]))
>>> tg.grad(lambda t: tg.sum(a @ t))(tg.tensor([1.0, 1.0])).tolist()  # aᵀ 1
[1.0, 5.0]
"""

from __future__ import annotations

from tapegrad.scipy._dispatch import scipy_getattr
from tapegrad.scipy.sparse import _tensor
from tapegrad.scipy.sparse._tensor import SparseTensor, coo, csc, csr, matmul, multiply

__all__ = ["SparseTensor", "coo", "csc", "csr", "linalg", "matmul", "multiply"]

_tensor.install()

from tapegrad.scipy.sparse import linalg  # noqa: E402 - after install: linalg uses products

__getattr__ = scipy_getattr(__name__, "scipy.sparse")
