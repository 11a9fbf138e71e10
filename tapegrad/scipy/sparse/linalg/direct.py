"""scipy.sparse.linalg's direct solvers with gradients: ``spsolve`` and ``splu`` (whose
``solve`` reuses the factor for the adjoint, ``Aᴴ`` by ``trans``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw
from tapegrad.scipy.sparse.linalg.solve_rule import (
    ArrayLike,
    _Method,
    _operand,
    _Operator,
    _plain_calls_scipy,
    _rhs,
    _solve,
    _solved,
    _square,
)

__all__ = ["SuperLU", "splu", "spsolve"]


@_plain_calls_scipy
def spsolve(A: Any, b: ArrayLike, permc_spec: Any = None, use_umfpack: bool = True) -> Tensor:  # noqa: N803
    """Solve ``A x = b`` for sparse square ``A`` (b ``(n,)`` or ``(n, k)``; ``(n, 1)`` gives
    ``(n,)`` as SciPy). The adjoint is spsolve on ``Aᴴ`` with the same options.

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import spsolve
    >>> a = sp.csc_array(np.array([[2.0, 0.0], [1.0, 4.0]]))
    >>> spsolve(a, tg.tensor([2.0, 9.0])).tolist()
    [1.0, 2.0]
    """
    if sp.issparse(b):
        raise TypeError("spsolve: a sparse b has no gradient; pass it dense")

    def run(matrix: Any, rhs: Any) -> tuple[Any, Any]:
        return spla.spsolve(matrix, rhs, permc_spec=permc_spec, use_umfpack=use_umfpack), 0

    method = _Method("spsolve", run, lambda: method)
    return _solved("spsolve", A, b, method)


class SuperLU:
    """tapegrad's ``splu(A)``: SciPy's SuperLU factor (``L``, ``U``, ``perm_r``, ``perm_c``,
    ``shape``, ``nnz`` are its own), whose ``solve`` records for Tensor right-hand sides
    (and, for a SparseTensor ``A``, differentiates in ``A``'s values). The adjoint system
    is solved with the same factor (``trans="H"``).

    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import splu
    >>> splu(sp.csc_array(np.diag([2.0, 4.0]))).solve(tg.tensor([2.0, 2.0])).numpy()
    array([1. , 0.5])
    """

    def __init__(self, factor: Any, data: Any, structure: Any) -> None:
        self._factor = factor
        self._data = data
        self._structure = structure

    def __getattr__(self, name: str) -> Any:
        return getattr(self._factor, name)

    def solve(self, rhs: ArrayLike, trans: str = "N") -> Any:
        """``A x = rhs`` (``trans="T"``: ``Aᵀ x``, ``"H"``: ``Aᴴ x``).

        >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
        >>> from tapegrad.scipy.sparse.linalg import splu
        >>> lu = splu(sp.csc_array(np.array([[2.0, 0.0], [1.0, 4.0]])))
        >>> lu.solve(tg.tensor([2.0, 9.0])).tolist()
        [1.0, 2.0]
        """
        if trans not in ("N", "T", "H"):
            raise ValueError(f"SuperLU.solve: trans must be 'N', 'T' or 'H', got {trans!r}")
        if not isinstance(rhs, Tensor) and not isinstance(self._data, Tensor):
            return self._factor.solve(rhs, trans=trans)
        data, structure = self._data, self._structure
        if trans != "N":  # Aᵀ: the transposed pattern; Aᴴ: conjugated values too
            structure = structure.T
            data = ops.conj(data) if trans == "H" and data is not None else data
        factor = self._factor
        back = {"N": "H", "T": "C", "H": "N"}[trans]

        def method_for(t: str) -> _Method:
            def run(matrix: Any, b: Any) -> tuple[Any, Any]:
                if t == "C":  # conj(A)⁻¹ b = conj(A⁻¹ conj(b))
                    return np.conj(factor.solve(np.conj(b))), 0
                return factor.solve(np.ascontiguousarray(b), trans=t), 0

            return _Method("splu.solve", run, lambda: method_for({"N": "H", "H": "N", "T": "C",
                                                                  "C": "T"}[t]))  # fmt: skip

        method = method_for(trans)
        method._adjoint = method_for(back)
        n = int(structure.shape[0])
        b = _rhs("SuperLU.solve", rhs, n, True)
        return _solve(data, b, structure=structure, method=method)


def splu(
    A: Any,  # noqa: N803
    permc_spec: Any = None,
    diag_pivot_thresh: Any = None,
    relax: Any = None,
    panel_size: Any = None,
    options: Any = None,
) -> SuperLU:
    """SciPy's sparse LU factorization of ``A`` (a SparseTensor: of its current values),
    wrapped so that ``.solve`` records (:class:`SuperLU`).

    >>> import numpy as np, scipy.sparse as sp
    >>> from tapegrad.scipy.sparse.linalg import splu
    >>> splu(sp.csc_array(np.array([[2.0, 0.0], [1.0, 4.0]]))).solve(np.array([2.0, 9.0]))
    array([1., 2.])
    """
    data, structure = _operand("splu", A)
    if isinstance(structure, _Operator):
        raise TypeError("splu: A must be a sparse matrix or a SparseTensor")
    _square("splu", structure)
    matrix = sp.csc_array(structure.matrix(raw(data)))
    factor = spla.splu(matrix, permc_spec=permc_spec, diag_pivot_thresh=diag_pivot_thresh,
                       relax=relax, panel_size=panel_size, options=options)  # fmt: skip
    return SuperLU(factor, data, structure)
