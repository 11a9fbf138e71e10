"""Factorizations and updates with no gradient yet: ldl, qz, ordqz, cossin, qr_update,
qr_insert, qr_delete are SciPy's own on plain arrays; on a Tensor they raise
NotImplementedError.
"""

from __future__ import annotations

from typing import Any

from tapegrad.scipy._dispatch import plain_calls_scipy

__all__ = [
    "cossin", "ldl", "ordqz", "qr_delete", "qr_insert", "qr_update", "qz",
]  # fmt: skip

ArrayLike = Any


# ---------------------------------------------------------------------------------------
# On plain arrays only


def _plain_only(op: str, why: str) -> NotImplementedError:
    return NotImplementedError(
        f"{op}: no gradient on Tensors ({why}); call it on NumPy arrays (SciPy's own), or "
        "stop the gradient"
    )


@plain_calls_scipy("linalg")
def ldl(
    A: ArrayLike,  # noqa: N803 - SciPy's name
    lower: bool = True,
    hermitian: bool = True,
    overwrite_a: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's Bunch-Kaufman ``LDLᵀ`` on plain arrays; a Tensor raises NotImplementedError
    (its 1x1/2x2 pivot blocks have no rule yet, for any ``lower`` or ``hermitian``).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import ldl
    >>> ldl(np.array([[2.0, 1.0], [1.0, 2.0]]))[1]
    array([[2. , 0. ],
           [0. , 1.5]])
    """
    raise _plain_only("ldl", "Bunch-Kaufman pivot blocks; lower, hermitian")


@plain_calls_scipy("linalg")
def qz(
    A: ArrayLike,  # noqa: N803 - SciPy's names
    B: ArrayLike,  # noqa: N803
    output: str = "real",
    lwork: int | None = None,
    sort: Any = None,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's generalized Schur (QZ) decomposition on plain arrays; a Tensor raises
    NotImplementedError (for any ``output``, ``lwork`` or ``sort``).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import qz
    >>> len(qz(np.eye(2), np.eye(2)))
    4
    """
    raise _plain_only("qz", "no rule for the generalized Schur form yet")


@plain_calls_scipy("linalg")
def ordqz(
    A: ArrayLike,  # noqa: N803 - SciPy's names
    B: ArrayLike,  # noqa: N803
    sort: Any = "lhp",
    output: str = "real",
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's reordered QZ decomposition on plain arrays; a Tensor raises
    NotImplementedError.

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import ordqz
    >>> len(ordqz(np.eye(2), np.eye(2)))
    6
    """
    raise _plain_only("ordqz", "no rule for the generalized Schur form yet")


@plain_calls_scipy("linalg")
def cossin(
    X: ArrayLike,  # noqa: N803 - SciPy's name
    p: int | None = None,
    q: int | None = None,
    separate: bool = False,
    swap_sign: bool = False,
    compute_u: bool = True,
    compute_vh: bool = True,
) -> Any:
    """SciPy's cosine-sine decomposition of a unitary matrix on plain arrays; a Tensor
    raises NotImplementedError.

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import cossin
    >>> len(cossin(np.eye(2), p=1, q=1))
    3
    """
    raise _plain_only("cossin", "no rule for the CS decomposition yet")


@plain_calls_scipy("linalg")
def qr_update(
    Q: ArrayLike,  # noqa: N803 - SciPy's names
    R: ArrayLike,  # noqa: N803
    u: ArrayLike,
    v: ArrayLike,
    overwrite_qruv: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's rank-k QR update on plain arrays; a Tensor raises NotImplementedError
    (differentiate :func:`qr` of the updated matrix instead).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import qr_update
    >>> q, r = qr_update(np.eye(2), np.eye(2), np.ones(2), np.zeros(2))
    >>> r.round(12)
    array([[ 1., -0.],
           [ 0.,  1.]])
    """
    raise _plain_only("qr_update", "differentiate qr of the updated matrix")


@plain_calls_scipy("linalg")
def qr_insert(
    Q: ArrayLike,  # noqa: N803 - SciPy's names
    R: ArrayLike,  # noqa: N803
    u: ArrayLike,
    k: int,
    which: str = "row",
    rcond: float | None = None,
    overwrite_qru: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's QR row/column insertion on plain arrays; a Tensor raises
    NotImplementedError (differentiate :func:`qr` of the new matrix instead).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import qr_insert
    >>> qr_insert(np.eye(2), np.eye(2), np.ones(2), 0)[0].shape
    (3, 3)
    """
    raise _plain_only("qr_insert", "differentiate qr of the new matrix")


@plain_calls_scipy("linalg")
def qr_delete(
    Q: ArrayLike,  # noqa: N803 - SciPy's names
    R: ArrayLike,  # noqa: N803
    k: int,
    p: int = 1,
    which: str = "row",
    overwrite_qr: bool = False,
    check_finite: bool = True,
) -> Any:
    """SciPy's QR row/column deletion on plain arrays; a Tensor raises
    NotImplementedError (differentiate :func:`qr` of the new matrix instead).

    >>> import numpy as np
    >>> from tapegrad.scipy.linalg import qr_delete
    >>> qr_delete(np.eye(3), np.eye(3), 0)[0].shape
    (2, 2)
    """
    raise _plain_only("qr_delete", "differentiate qr of the new matrix")
