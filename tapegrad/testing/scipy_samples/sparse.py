"""scipy.sparse and scipy.sparse.linalg: products of constant sparse matrices with Tensors,
and the solvers with Tensor right-hand sides (``permc_spec``, ``rtol``, ``M``, ``x0``,
``restart``, ``shift``, ``damp``, ``traceA``...)."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "sparse.linalg.spsolve", "sparse.linalg.cg", "sparse.linalg.gmres",
    "sparse.linalg.bicgstab", "sparse.linalg.minres", "sparse.linalg.lsqr",
    "sparse.linalg.expm_multiply",
]  # fmt: skip

_SPD = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]])
_A = sp.csr_array(_SPD)  # symmetric positive definite: every solver's
_GENERAL = sp.csc_matrix(_SPD + np.array([[0.0, 0.5, 0.0], [0.0, 0.0, 0.0], [0.3, 0.0, 0.0]]))
_WIDE = sp.coo_array(np.array([[1.0, 0.0, 2.0, 0.0], [0.0, 3.0, 0.0, 1.0], [1.0, 0.0, 0.0, 4.0]]))
_TALL = sp.csr_array(np.vstack([_SPD, [[1.0, 1.0, 0.0]]]))
_JACOBI = sp.diags_array(1 / np.diag(_SPD))  # a preconditioner
_START = np.array([0.1, 0.2, 0.3])
_TIGHT = 1e-13


def _none(xk: object) -> None:
    return None


def _krylov_rows(name: str, a: object, atol: bool = True, **extra: object) -> list[Sample]:
    """The rows every Krylov solver shares: rtol, atol, maxiter, M, x0, callback."""

    def row(option: str, **kw: object) -> Sample:
        def call(m, x, y):  # type: ignore[no-untyped-def]
            solver = getattr(m.sparse.linalg, name)
            return solver(a, y[:, 0] + x[:, 1], **{"rtol": _TIGHT, **kw})[0]

        return Sample(f"sparse.linalg.{name}", option, call)

    return [
        row("rtol=1e-13"),
        row("atol=1e-14", atol=1e-14) if atol else row("default"),
        row("maxiter=200", maxiter=200),
        row("M=Jacobi", M=_JACOBI),
        row("x0=start", x0=_START),
        row("callback=noop", callback=_none),
        *(row(f"{k}={v!r}", **{k: v}) for k, v in extra.items()),
    ]


ROWS: list[Sample] = [
    Sample("sparse.csr_array", "A @ t", lambda m, x, y: m.sparse.csr_array(_SPD) @ x),
    Sample("sparse.csr_array", "t @ A (dia)", lambda m, x, y: x.T @ m.sparse.dia_array(_SPD)),
    Sample(
        "sparse.csr_matrix",
        "A.dot(t) (bsr)",
        lambda m, x, y: m.sparse.bsr_matrix(_SPD).dot(x[:, 0]),
    ),
    Sample(
        "sparse.linalg.spsolve", "default", lambda m, x, y: m.sparse.linalg.spsolve(_A, y[:, 0])
    ),
    Sample(
        "sparse.linalg.spsolve",
        "b (n, k)",
        lambda m, x, y: m.sparse.linalg.spsolve(sp.csc_array(_GENERAL), x[:, :2] * y[:, 1:3]),
    ),
    Sample(
        "sparse.linalg.spsolve",
        "permc_spec=NATURAL",
        lambda m, x, y: m.sparse.linalg.spsolve(_GENERAL, y[:, 0], permc_spec="NATURAL"),
    ),
    Sample(
        "sparse.linalg.spsolve",
        "use_umfpack=False",
        lambda m, x, y: m.sparse.linalg.spsolve(_A, y[:, 0] * x[:, 0], use_umfpack=False),
    ),
    Sample(
        "sparse.linalg.splu",
        "solve",
        lambda m, x, y: m.sparse.linalg.splu(sp.csc_array(_GENERAL)).solve(y[:, 0]),
    ),
    Sample(
        "sparse.linalg.splu",
        "solve trans=T",
        lambda m, x, y: m.sparse.linalg.splu(sp.csc_array(_GENERAL)).solve(y[:, 0], trans="T"),
    ),
    *_krylov_rows("cg", _A),
    *_krylov_rows("bicgstab", _GENERAL),
    *_krylov_rows("gmres", _GENERAL, restart=2, callback_type="x"),
    *_krylov_rows("minres", _A, atol=False, shift=0.5, show=False, check=True),
    Sample(
        "sparse.linalg.lsqr",
        "square",
        lambda m, x, y: m.sparse.linalg.lsqr(_A, y[:, 0], atol=_TIGHT, btol=_TIGHT)[0],
        twice=False,
    ),
    Sample(
        "sparse.linalg.lsqr",
        "tall, damp=0.5, conlim, iter_lim",
        lambda m, x, y: m.sparse.linalg.lsqr(
            _TALL,
            np.concatenate([y[:, 1], x[:, 0]])[:4],
            damp=0.5,
            atol=_TIGHT,
            btol=_TIGHT,
            conlim=1e12,
            iter_lim=100,
        )[0],  # fmt: skip
        twice=False,
    ),
    Sample(
        "sparse.linalg.lsqr",
        "show=False, calc_var=True, x0",
        lambda m, x, y: m.sparse.linalg.lsqr(
            _A, y[:, 0], atol=_TIGHT, btol=_TIGHT, show=False, calc_var=True, x0=_START
        )[0],
        twice=False,
    ),
    Sample(
        "sparse.linalg.expm_multiply",
        "default",
        lambda m, x, y: m.sparse.linalg.expm_multiply(_A * -0.3, x[:, :2] * y[:, :2]),
    ),
    Sample(
        "sparse.linalg.expm_multiply",
        "traceA",
        lambda m, x, y: m.sparse.linalg.expm_multiply(_A * -0.3, y[:, 0], traceA=-2.7),
    ),
    Sample(
        "sparse.linalg.expm_multiply",
        "wide pattern",
        lambda m, x, y: m.sparse.linalg.expm_multiply(sp.csr_array(_WIDE[:, :3]), x[:, 3]),
    ),
]

ROWS += [
    Sample(
        "sparse.linalg.expm_multiply",
        "start, stop, num",
        lambda m, x, y: m.sparse.linalg.expm_multiply(
            _A * -0.3, x[:, :2] * y[:, :2], start=0.0, stop=1.5, num=4
        ),
    ),
    Sample(
        "sparse.linalg.expm_multiply",
        "start, stop, num, endpoint=False, traceA",
        lambda m, x, y: m.sparse.linalg.expm_multiply(
            _A * -0.3, y[:, 0], start=0.5, stop=2.0, num=3, endpoint=False, traceA=-2.7
        ),
    ),
]

REFUSALS: list[Refusal] = []
