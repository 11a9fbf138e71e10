"""scipy.sparse.linalg's ``expm_multiply(A, B)`` with gradients: ``B̄ = expm_multiply(Aᴴ, Ȳ)``
(every order), ``Ā`` the Fréchet derivative on the pattern (first order).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, conjugated, raw
from tapegrad.scipy._dispatch import refuse_gradient
from tapegrad.scipy.sparse._tensor import constant
from tapegrad.scipy.sparse.linalg.solve_rule import (
    ArrayLike,
    _first_order,
    _operand,
    _Operator,
    _plain_calls_scipy,
    _rhs,
    _square,
)

__all__ = ["expm_multiply"]


def _expm_forward(xp: Any, data: Any, b: Any, *, structure: Any, trace: Any) -> Any:
    return np.asarray(spla.expm_multiply(structure.matrix(data), b, traceA=trace))


def _expm_b(g: Any, ans: Any, data: Any, b: Any, *, structure: Any, trace: Any) -> Any:
    back = None if trace is None else np.conj(trace)
    return _expm(conjugated(data), g, structure=structure.T, trace=back)


def _expm_data(g: Any, ans: Any, data: Any, b: Any, *, structure: Any, trace: Any) -> Any:
    _first_order("expm_multiply (in A)", g, ans, data, b)
    ah = structure.T.matrix(np.conj(data))
    n = ah.shape[0]
    gb = np.reshape(g, (n, -1)) @ np.reshape(b, (n, -1)).conj().T  # Ȳ Bᴴ
    block = sp.block_array([[ah, sp.csr_array(gb)], [None, ah]], format="csr")
    stacked = np.vstack([np.zeros((n, n)), np.eye(n)])
    frechet = spla.expm_multiply(block, stacked)[:n]
    return frechet[structure.row, structure.col]


_expm = Primitive("expm_multiply", _expm_forward, complex_rules=True).defvjp(_expm_data, _expm_b)


@_plain_calls_scipy
def expm_multiply(
    A: Any,  # noqa: N803
    B: ArrayLike,  # noqa: N803
    start: Any = None,
    stop: Any = None,
    num: Any = None,
    endpoint: Any = None,
    traceA: Any = None,  # noqa: N803
) -> Tensor:
    """``expm(A) @ B`` without forming ``expm(A)``. Gradients in ``B`` (every order) and in
    ``A``'s values (first order). With a time grid (``start`` and ``stop``, and
    ``np.linspace``'s ``num`` and ``endpoint``), ``expm(t A) @ B`` stacked for each ``t``
    on it, as SciPy's: each a call on ``t A``, with the same gradients (the grid itself is
    a constant: a gradient in ``start`` or ``stop`` raises LookupError).

    >>> import numpy as np, scipy.sparse as sp, tapegrad as tg
    >>> from tapegrad.scipy.sparse.linalg import expm_multiply
    >>> a = sp.csr_array(np.array([[0.0, 1.0], [0.0, 0.0]]))
    >>> expm_multiply(a, tg.tensor([1.0, 1.0])).tolist()
    [2.0, 1.0]
    """
    refuse_gradient("expm_multiply", "traceA", traceA, "it is only a hint to the algorithm")
    times = None
    if any(v is not None for v in (start, stop, num, endpoint)):
        if start is None or stop is None:
            raise ValueError(
                "expm_multiply: a time grid needs start and stop (num and endpoint are "
                f"np.linspace's), got start={start!r}, stop={stop!r}"
            )
        for argument, value in (("start", start), ("stop", stop)):
            refuse_gradient("expm_multiply", argument, value, "the time grid is a constant")
        grid = {"num": num, "endpoint": endpoint}
        times = np.linspace(
            float(raw(start)), float(raw(stop)), **{k: v for k, v in grid.items() if v is not None}
        )
    data, structure = _operand("expm_multiply", A)
    if isinstance(structure, _Operator):
        if isinstance(structure.a, spla.LinearOperator):
            raise NotImplementedError("expm_multiply: A as a LinearOperator with Tensors")
        data, structure = constant(sp.csr_array(structure.a))
    n = _square("expm_multiply", structure)
    rhs = _rhs("expm_multiply", B, n, True)
    trace = None if traceA is None else raw(traceA)
    if times is None:
        return _expm(data, rhs, structure=structure, trace=trace)
    return ops.stack(
        [
            _expm(
                ops.multiply(data, t), rhs, structure=structure,
                trace=None if trace is None else trace * t,
            )
            for t in times
        ]
    )  # fmt: skip
