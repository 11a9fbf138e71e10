"""What tapegrad.scipy does with each public callable of ``scipy.linalg``, ``scipy.special``
and ``scipy.stats``: differentiable, no gradient, or not supported (with the reason). The
table of docs/scipy-coverage.md, as tapegrad/numpy/coverage.py is docs/numpy.md's.

A name is **differentiable** when tapegrad.scipy's module defines it (in its ``__all__``: a
function that records on the tape; on plain arrays it is SciPy's own), unless
:data:`PLAIN_ONLY` says it takes Tensors without a gradient; **no gradient** when SciPy's
function takes no array to differentiate or gives integers or booleans (:data:`NO_GRADIENT`,
and every ufunc of ``scipy.special`` whose loops all give integer or boolean outputs); **not
supported** otherwise: tapegrad.scipy's module hands out SciPy's own object, for plain
arrays. The sample calls listed beside each function live a layer up, in
tapegrad/testing/scipy_samples, which also writes the page::

    python -m tapegrad.testing.scipy_samples > docs/scipy-coverage.md
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import scipy

DIFFERENTIABLE = "differentiable"
NO_GRADIENT = "no gradient"
NOT_SUPPORTED = "not supported"

MODULES = (
    "cluster.vq",
    "spatial",
    "spatial.distance",
    "spatial.transform",
    "fft",
    "integrate",
    "interpolate",
    "linalg",
    "ndimage",
    "optimize",
    "signal",
    "sparse",
    "sparse.linalg",
    "special",
    "stats",
)

# "module.name" -> why tapegrad.scipy has the name but no gradient through it.
PLAIN_ONLY = {
    "linalg.funm": "SciPy's on plain arrays; NotImplementedError on Tensors (an arbitrary func)",
    **dict.fromkeys(
        ["linalg.signm", "linalg.schur", "linalg.hessenberg", "linalg.rsf2csf",
         "linalg.qr_multiply"],
        "SciPy's on plain arrays; NotImplementedError on Tensors (no rule yet)",
    ),
    "linalg.ldl": "SciPy's on plain arrays; NotImplementedError on Tensors (Bunch-Kaufman "
    "pivot blocks: no rule yet)",
    **dict.fromkeys(
        ["linalg.qz", "linalg.ordqz", "linalg.cossin"],
        "SciPy's on plain arrays; NotImplementedError on Tensors (no rule yet)",
    ),
    **dict.fromkeys(
        ["linalg.qr_update", "linalg.qr_insert", "linalg.qr_delete"],
        "SciPy's on plain arrays; NotImplementedError on Tensors (differentiate qr of the "
        "new matrix)",
    ),
}  # fmt: skip

# "module.name" -> note, for SciPy functions that take no array to differentiate.
NO_GRADIENT_NAMES = {
    **dict.fromkeys(
        [f"linalg.{n}" for n in ("dft", "hadamard", "helmert", "hilbert", "invhilbert",
                                 "invpascal", "pascal")],
        "a constant matrix of a given size",
    ),
    **dict.fromkeys(
        ["linalg.get_blas_funcs", "linalg.get_lapack_funcs", "linalg.find_best_blas_type",
         "linalg.matrix_balance", "linalg.bandwidth", "linalg.issymmetric", "linalg.ishermitian"],
        "LAPACK helpers and structure tests",
    ),
    **dict.fromkeys(
        [f"special.{n}" for n in ("ai_zeros", "bi_zeros", "jn_zeros", "jnp_zeros", "jnjnp_zeros",
                                  "jnyn_zeros", "yn_zeros", "ynp_zeros", "y0_zeros", "y1_zeros",
                                  "y1p_zeros", "kelvin_zeros", "fresnel_zeros",
                                  "fresnelc_zeros", "fresnels_zeros", "mathieu_even_coef",
                                  "mathieu_odd_coef", "roots_legendre", "roots_chebyt",
                                  "roots_hermite", "roots_laguerre", "roots_jacobi",
                                  "geterr", "seterr", "errstate", "bernoulli", "euler",
                                  "factorial2", "factorialk", "perm", "stirling2")],
        "zeros, roots, coefficients, integer counts and settings",
    ),
    **dict.fromkeys(
        [f"special.{n}" for n in ("roots_chebyc", "roots_chebys", "roots_chebyu",
                                  "roots_gegenbauer", "roots_genlaguerre", "roots_hermitenorm",
                                  "roots_sh_chebyt", "roots_sh_chebyu", "roots_sh_jacobi",
                                  "roots_sh_legendre", "c_roots", "cg_roots", "h_roots",
                                  "he_roots", "j_roots", "js_roots", "l_roots", "la_roots",
                                  "p_roots", "ps_roots", "s_roots", "t_roots", "ts_roots",
                                  "u_roots", "us_roots", "bei_zeros", "beip_zeros", "ber_zeros",
                                  "berp_zeros", "kei_zeros", "keip_zeros", "ker_zeros",
                                  "kerp_zeros", "erf_zeros")],
        "quadrature nodes and weights, and zeros, of an integer count",
    ),
    **dict.fromkeys(
        [f"special.{n}" for n in ("chebyc", "chebys", "chebyt", "chebyu", "gegenbauer",
                                  "genlaguerre", "hermite", "hermitenorm", "jacobi", "laguerre",
                                  "legendre", "sh_chebyt", "sh_chebyu", "sh_jacobi",
                                  "sh_legendre")],
        "a polynomial object (orthopoly1d) of an integer degree: eval_<name> differentiates "
        "its values",
    ),
    **dict.fromkeys(
        [f"signal.{n}" for n in ("get_window", "butter", "cheby1", "cheby2", "ellip", "bessel",
                                 "iirfilter", "iirdesign", "firwin", "firwin2", "remez",
                                 "buttord", "cheb1ord", "cheb2ord", "ellipord",
                                 "correlation_lags", "choose_conv_method", "check_COLA",
                                 "check_NOLA")],
        "windows, filter designs from orders and band edges, lags and method choices",
    ),
    **dict.fromkeys(
        ["stats.mode", "stats.rankdata", "stats.spearmanr"],
        "ranks, counts and rank correlations: piecewise constant in the data",
    ),
    **dict.fromkeys(
        [f"sparse.{f}_{k}" for f in ("bsr", "coo", "csc", "csr", "dia", "dok", "lil")
         for k in ("array", "matrix")],
        "a constant matrix: its products with Tensors record (@, .dot, .multiply, *); "
        "tapegrad.scipy.sparse.csr/csc/coo make one with differentiable values",
    ),
}  # fmt: skip


def _scipy(module: str) -> Any:
    return importlib.import_module(f"scipy.{module}")


def _ours(module: str) -> Any:
    return importlib.import_module(f"tapegrad.scipy.{module}")


def _integer_ufunc(value: Any) -> bool:
    """A ufunc whose every loop gives integers or booleans (no gradient to give)."""
    if not isinstance(value, np.ufunc):
        return False
    outputs = [types.split("->")[1] for types in value.types]
    return all(all(code in "?bBhHiIlLqQ" for code in out) for out in outputs)


def classify(module: str) -> dict[str, tuple[str, str]]:
    """``"module.name" -> (category, note)`` for every public callable of ``scipy.<module>``.

    >>> classify("linalg")["linalg.expm"]
    ('differentiable', '')
    """
    theirs, ours = _scipy(module), _ours(module)
    names = getattr(theirs, "__all__", None) or dir(theirs)
    out: dict[str, tuple[str, str]] = {}
    for name in sorted(set(names)):
        value = getattr(theirs, name, None)
        if name.startswith("_") or value is None or inspect.ismodule(value):
            continue
        if not callable(value) or (isinstance(value, type) and issubclass(value, Exception)):
            continue
        full = f"{module}.{name}"
        if full in PLAIN_ONLY:
            out[full] = (NO_GRADIENT, PLAIN_ONLY[full])
        elif full in NO_GRADIENT_NAMES:
            out[full] = (NO_GRADIENT, f"SciPy's own: {NO_GRADIENT_NAMES[full]}")
        elif name in ours.__all__:
            out[full] = (DIFFERENTIABLE, "")
        elif _integer_ufunc(value):
            out[full] = (NO_GRADIENT, "SciPy's own: integer or boolean values")
        elif isinstance(value, type):
            out[full] = (NOT_SUPPORTED, "a class: use SciPy's on plain arrays")
        else:
            out[full] = (NOT_SUPPORTED, "not built yet: SciPy's on plain arrays")
    return out


def counts(rows: Mapping[str, tuple[str, str]]) -> dict[str, int]:
    """How many names fall in each category."""
    totals = {DIFFERENTIABLE: 0, NO_GRADIENT: 0, NOT_SUPPORTED: 0}
    for kind, _ in rows.values():
        totals[kind] += 1
    return totals


def markdown(checked: Mapping[str, Sequence[str]] | None = None) -> str:
    """docs/scipy-coverage.md: counts, then one row per SciPy callable with the options its
    sample calls exercise (``checked``)."""
    checked = checked or {}
    version = ".".join(scipy.__version__.split(".")[:2])
    sections = [(module, classify(module)) for module in MODULES]
    lines = [
        "# SciPy coverage",
        "",
        f"What `tapegrad.scipy` does with each public callable of SciPy {version}'s `linalg`,",
        "`special` and `stats`: **differentiable** (records on the tape; on plain arrays it is",
        "SciPy's own function, with SciPy's values and types), **no gradient** (takes no array",
        "to differentiate, or gives integers) or **not supported** (not in `tapegrad.scipy`",
        "yet: call SciPy's on plain arrays). **Checked** lists the sample calls",
        "(`tapegrad.testing.scipy_samples`, one per keyword option or mode), each compared with",
        "SciPy's values and with central finite differences, to second order where smooth.",
        "Generated by `python -m tapegrad.testing.scipy_samples > docs/scipy-coverage.md`;",
        "`tests/scipy/test_scipy_coverage.py` fails when it is stale.",
        "",
        "| module | differentiable | no gradient | not supported |",
        "|---|---|---|---|",
    ]
    for module, rows in sections:
        c = counts(rows)
        lines.append(
            f"| `scipy.{module}` | {c[DIFFERENTIABLE]} | {c[NO_GRADIENT]} | {c[NOT_SUPPORTED]} |"
        )
    for module, rows in sections:
        lines += ["", f"## `scipy.{module}`", "", "| name | tapegrad | note | checked |"]
        lines += ["|---|---|---|---|"]
        lines += [
            f"| `{name}` | {kind} | {note} | {'; '.join(checked.get(name, ()))} |"
            for name, (kind, note) in rows.items()
        ]
    return "\n".join(lines) + "\n"
