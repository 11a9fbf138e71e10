"""scipy.linalg's matrices that take no array: dft, hadamard, helmert, hilbert, invhilbert,
pascal and invpascal. They are SciPy's own (plain in, plain out: NumPy arrays, never a
Tensor); an integer Tensor given as ``n`` is read as the Python int it holds."""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy

__all__ = ["dft", "hadamard", "helmert", "hilbert", "invhilbert", "invpascal", "pascal"]


def _size(op: str, n: Any) -> int:
    """``n`` as a Python int (an integer Tensor's value); TypeError naming ``op`` else."""
    if isinstance(n, Tensor):
        if n.ndim != 0:
            raise TypeError(f"{op}: n must be an integer, got a Tensor of shape {n.shape}")
        n = n.item()
    try:
        return operator.index(n)
    except TypeError:
        raise TypeError(f"{op}: n must be an integer, got {n!r}") from None


def _scipy(name: str) -> Any:
    return kernel(np, "linalg", name)


@plain_calls_scipy("linalg")
def dft(n: int, scale: str | None = None) -> np.ndarray:
    """SciPy's ``(n, n)`` discrete Fourier transform matrix (``scale`` None, ``"n"`` or
    ``"sqrtn"``).

    >>> from tapegrad.scipy.linalg.constant_matrices import dft
    >>> dft(2).real
    array([[ 1.,  1.],
           [ 1., -1.]])
    """
    return _scipy("dft")(_size("dft", n), scale=scale)


@plain_calls_scipy("linalg")
def hadamard(n: int, dtype: Any = int) -> np.ndarray:
    """SciPy's ``(n, n)`` Hadamard matrix, ``n`` a power of 2.

    >>> from tapegrad.scipy.linalg.constant_matrices import hadamard
    >>> hadamard(2)
    array([[ 1,  1],
           [ 1, -1]])
    """
    return _scipy("hadamard")(_size("hadamard", n), dtype=dtype)


@plain_calls_scipy("linalg")
def helmert(n: int, full: bool = False) -> np.ndarray:
    """SciPy's Helmert matrix: ``(n - 1, n)``, or ``(n, n)`` with ``full``.

    >>> from tapegrad.scipy.linalg.constant_matrices import helmert
    >>> helmert(2).round(6)
    array([[ 0.707107, -0.707107]])
    """
    return _scipy("helmert")(_size("helmert", n), full=full)


@plain_calls_scipy("linalg")
def hilbert(n: int) -> np.ndarray:
    """SciPy's ``(n, n)`` Hilbert matrix ``1 / (i + j + 1)``.

    >>> from tapegrad.scipy.linalg.constant_matrices import hilbert
    >>> hilbert(2)
    array([[1.        , 0.5       ],
           [0.5       , 0.33333333]])
    """
    return _scipy("hilbert")(_size("hilbert", n))


@plain_calls_scipy("linalg")
def invhilbert(n: int, exact: bool = False) -> np.ndarray:
    """SciPy's inverse of the ``(n, n)`` Hilbert matrix (integers with ``exact``).

    >>> from tapegrad.scipy.linalg.constant_matrices import invhilbert
    >>> invhilbert(2, exact=True)
    array([[ 4, -6],
           [-6, 12]])
    """
    return _scipy("invhilbert")(_size("invhilbert", n), exact=exact)


@plain_calls_scipy("linalg")
def pascal(n: int, kind: str = "symmetric", exact: bool = True) -> np.ndarray:
    """SciPy's ``(n, n)`` Pascal matrix (``kind`` ``"symmetric"``, ``"lower"`` or
    ``"upper"``).

    >>> from tapegrad.scipy.linalg.constant_matrices import pascal
    >>> pascal(3, kind="lower")
    array([[1, 0, 0],
           [1, 1, 0],
           [1, 2, 1]], dtype=uint64)
    """
    return _scipy("pascal")(_size("pascal", n), kind=kind, exact=exact)


@plain_calls_scipy("linalg")
def invpascal(n: int, kind: str = "symmetric", exact: bool = True) -> np.ndarray:
    """SciPy's inverse of the ``(n, n)`` Pascal matrix.

    >>> from tapegrad.scipy.linalg.constant_matrices import invpascal
    >>> invpascal(2)
    array([[ 2, -1],
           [-1,  1]])
    """
    return _scipy("invpascal")(_size("invpascal", n), kind=kind, exact=exact)
