"""scipy.sparse.linalg's solvers with gradients in the right-hand side and the matrix's values.

``A`` is a SciPy sparse matrix (a constant), a dense array or LinearOperator (a constant),
or a :class:`~tapegrad.scipy.sparse.SparseTensor` (gradients in its values, on its pattern
only). For ``x = A⁻¹ b`` the adjoint system gives ``b̄ = A⁻ᴴ x̄``, solved by the same solver
(the same factor for ``splu``; for the iterative ones the same keywords, the tolerance
tightened to at most 1e-8, ``x0`` and ``callback`` dropped, ``M`` replaced by ``Mᴴ``),
and ``Ā_ij = -b̄_i conj(x_j)`` on the pattern. ``x0`` is a starting point: no gradient.

- ``spsolve``, ``splu(...).solve``, ``cg``, ``gmres``, ``minres``, ``bicgstab``: the solve
  and its rules are one primitive, so every order of derivative works.
- ``lsqr``: ``x = (AᴴA + d²I)⁻¹ Aᴴ b`` is the plain least-squares solution of
  ``[A; dI] x ≈ [b; 0]``; with ``z = (ÃᴴÃ)⁻¹ x̄`` (two lsqr solves, on Ãᴴ then Ã),
  ``b̄ = A z`` and ``Ā = r zᴴ - b̄ xᴴ`` (``r = b - A x``). First order.
- ``eigsh``: a simple eigenpair (λ, v): ``Ā = λ̄ v vᴴ`` on the pattern; for ``v̄``,
  ``u`` solves ``(A - λI) u = -(I - v vᴴ) v̄`` by minres, projected off ``v``, and
  ``Ā = u vᴴ``. First order for the eigenvectors.
- ``expm_multiply(A, B)``: ``B̄ = expm_multiply(Aᴴ, Ȳ)`` (every order), ``Ā`` the Fréchet
  derivative ``L(Aᴴ, Ȳ Bᴴ)`` on the pattern, the upper block of
  ``expm_multiply([[Aᴴ, Ȳ Bᴴ], [0, Aᴴ]], [0; I])`` (first order).
"""

from __future__ import annotations

from tapegrad.scipy._dispatch import scipy_getattr
from tapegrad.scipy.sparse.linalg import direct, exponential, iterative, symmetric_eigen
from tapegrad.scipy.sparse.linalg.direct import *  # noqa: F403
from tapegrad.scipy.sparse.linalg.exponential import *  # noqa: F403
from tapegrad.scipy.sparse.linalg.iterative import *  # noqa: F403
from tapegrad.scipy.sparse.linalg.symmetric_eigen import *  # noqa: F403

__all__ = sorted(direct.__all__ + exponential.__all__ + iterative.__all__ + symmetric_eigen.__all__)

__getattr__ = scipy_getattr(__name__, "scipy.sparse.linalg")
