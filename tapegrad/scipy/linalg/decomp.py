"""The Hermitian eigendecomposition: eigh eigvalsh, SciPy's signatures over
:func:`tapegrad.linalg.eigh` (whose rule, and its conventions for repeated eigenvalues,
docs/linalg.md describes); the gradient lands on the triangle SciPy reads.
"""

from __future__ import annotations

from typing import Any

from tapegrad import linalg
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = ["eigh", "eigvalsh"]

ArrayLike = Any


@plain_calls_scipy("linalg")
def eigh(
    a: ArrayLike,
    b: ArrayLike | None = None,
    *,
    lower: bool = True,
    eigvals_only: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    type: int = 1,  # noqa: A002 - SciPy's name
    check_finite: bool = True,
    subset_by_index: Any = None,
    subset_by_value: Any = None,
    driver: str | None = None,
) -> Any:
    """Eigenvalues ``w`` (ascending) and eigenvectors ``v`` (columns) of a Hermitian (real
    symmetric) ``a``, reading its ``lower`` (or upper) triangle; ``w`` alone when
    ``eigvals_only``. The generalized problem (``b``) and subsets are not supported.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eigh
    >>> eigh(tg.tensor([[2.0, 1.0], [1.0, 2.0]]), eigvals_only=True).numpy()
    array([1., 3.])
    """
    if b is not None or subset_by_index is not None or subset_by_value is not None:
        raise NotImplementedError(
            "eigh: the generalized problem (b) and eigenvalue subsets are not supported"
        )
    uplo = "L" if lower else "U"
    if eigvals_only:
        return linalg.eigvalsh(a, UPLO=uplo)
    return tuple(linalg.eigh(a, UPLO=uplo))


@plain_calls_scipy("linalg")
def eigvalsh(a: ArrayLike, lower: bool = True) -> Tensor:
    """The eigenvalues of a Hermitian ``a``, ascending.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.linalg import eigvalsh
    >>> eigvalsh(tg.tensor([[2.0, 0.0], [0.0, 1.0]])).numpy()
    array([1., 2.])
    """
    return linalg.eigvalsh(a, UPLO="L" if lower else "U")
