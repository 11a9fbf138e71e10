"""The noncentral t distribution (``scipy.stats.nct``), declared on
tapegrad/scipy/stats/_family.py: SciPy's own kernels (Boost's) give the values, and the
derivatives come from nct densities at other degrees of freedom.

With ``T = (Z + nc) / S``, ``S = sqrt(V / df)``, ``V ~ chi2(df)``, every expectation
``E[S^k φ(t S - nc)]`` is a rescaled noncentral t density (substitute ``s = r sqrt(m/df)``):

    E[S^k φ(t S - nc)] = K(df, k) pdf(t sqrt(m / df); m, nc),   m = df + k - 1,
    K(df, k) = c(df) / c(m) (m / df)^((m + 1) / 2),   c(n) = 2 (n/2)^(n/2) / Γ(n/2).

Since ``pdf = E[S φ(t S - nc)]`` and ``cdf = E[Φ(t S - nc)]``:

    d pdf / dt  = -t K(df, 3) pdf(t'; df + 2, nc) + nc K(df, 2) pdf(t''; df + 1, nc)
    d pdf / dnc =  t K(df, 2) pdf(t''; df + 1, nc) - nc pdf(t; df, nc)
    d cdf / dnc = -K(df, 0) pdf(t sqrt((df - 1) / df); df - 1, nc)     (df > 1; NaN else)

each of them SciPy's density again, so they hold to SciPy's precision and to every order in
``t`` and ``nc``. The derivative in ``df`` (a derivative of ``E[S φ]`` in the law of ``S``,
with no such closed form) is not built: LookupError naming ``df``. The mean and variance are
closed forms in both shapes.

>>> import tapegrad as tg
>>> from tapegrad.scipy.stats import nct
>>> round(nct.cdf(tg.tensor(0.0), 4.0, 0.0).item(), 12)
0.5
>>> x = tg.tensor(0.7)
>>> round(tg.grad(lambda x: nct.cdf(x, 4.5, 1.2))(x).item(), 10) == round(
...     nct.pdf(0.7, 4.5, 1.2).item(), 10)
True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.ops.primitive import Primitive, shape_of, unbroadcast
from tapegrad.scipy._dispatch import kernel, refuse_gradient
from tapegrad.scipy.special import gammaln
from tapegrad.scipy.stats._family import NAN, Continuous

_WHY = "no closed form: the derivative in the chi-squared mixing law is not built"


def _log_c(n: Any) -> Any:
    """``log c(n)``: ``S = sqrt(chi2(n) / n)`` has the density ``c s^(n-1) e^(-n s²/2)``."""
    return math.log(2.0) + 0.5 * n * ops.log(0.5 * n) - gammaln(0.5 * n)


def _moment_density(t: Any, df: Any, nc: Any, k: int) -> Any:
    """``E[S^k φ(t S - nc)]`` as ``K(df, k) pdf(t sqrt(m / df); m, nc)``, ``m = df + k - 1``."""
    m = df + (k - 1.0)
    log_k = _log_c(df) - _log_c(m) + 0.5 * (m + 1.0) * ops.log(m / df)
    return ops.exp(log_k) * _PDF(t * ops.sqrt(m / df), m, nc)


def _forward(method: str) -> Any:
    def forward(xp: Any, z: Any, df: Any, nc: Any) -> Any:
        return np.asarray(getattr(kernel(xp, "stats", "nct"), method)(z, df, nc), float)

    return forward


def _no_df(g: Any, ans: Any, z: Any, df: Any, nc: Any) -> Any:
    raise LookupError(f"scipy.stats.nct: no gradient with respect to df ({_WHY})")


def _pdf_z(g: Any, ans: Any, z: Any, df: Any, nc: Any) -> Any:
    slope = -z * _moment_density(z, df, nc, 3) + nc * _moment_density(z, df, nc, 2)
    return unbroadcast(g * slope, shape_of(z))


def _pdf_nc(g: Any, ans: Any, z: Any, df: Any, nc: Any) -> Any:
    slope = z * _moment_density(z, df, nc, 2) - nc * _PDF(z, df, nc)
    return unbroadcast(g * slope, shape_of(nc))


_PDF = Primitive("nct.pdf", _forward("pdf"), complex_rules=False).defvjp(_pdf_z, _no_df, _pdf_nc)


def _cdf_rules(sign: float) -> tuple[Any, Any, Any]:
    def rule_z(g: Any, ans: Any, z: Any, df: Any, nc: Any) -> Any:
        return unbroadcast(sign * g * _PDF(z, df, nc), shape_of(z))

    def rule_nc(g: Any, ans: Any, z: Any, df: Any, nc: Any) -> Any:
        above = ops.greater(df, 1.0)
        safe = ops.where(above, df, 2.0)
        slope = ops.where(above, -_moment_density(z, safe, nc, 0), NAN)
        return unbroadcast(sign * g * slope, shape_of(nc))

    return rule_z, _no_df, rule_nc


_CDF = Primitive("nct.cdf", _forward("cdf"), complex_rules=False).defvjp(*_cdf_rules(1.0))
_SF = Primitive("nct.sf", _forward("sf"), complex_rules=False).defvjp(*_cdf_rules(-1.0))


def _refusing_df(f: Primitive) -> Any:
    def formula(z: Any, df: Any, nc: Any) -> Any:
        refuse_gradient("scipy.stats.nct", "df", df, _WHY)
        return f(z, df, nc)

    return formula


def _mean(df: Any, nc: Any) -> Any:
    ok = ops.greater(df, 1.0)
    n = ops.where(ok, df, 2.0)
    value = nc * ops.sqrt(0.5 * n) * ops.exp(gammaln(0.5 * (n - 1.0)) - gammaln(0.5 * n))
    return ops.where(ok, value, NAN)


def _var(df: Any, nc: Any) -> Any:
    ok = ops.greater(df, 2.0)
    n = ops.where(ok, df, 3.0)
    value = n * (1.0 + nc * nc) / (n - 2.0) - ops.square(_mean(n, nc))
    return ops.where(ok, value, NAN)


_pdf = _refusing_df(_PDF)

NCT = Continuous(
    "nct", ("df", "nc"),
    logpdf=lambda z, df, nc: ops.log(_pdf(z, df, nc)),
    argcheck=lambda df, nc: ops.logical_and(ops.greater(df, 0.0), ops.equal(nc, nc)),
    cdf=_refusing_df(_CDF),
    sf=_refusing_df(_SF),
    mean=_mean,
    var=_var,
    doc="The noncentral t distribution, ``df`` degrees of freedom and noncentrality ``nc`` "
    "(SciPy's Boost kernels; gradients in ``x``, ``loc``, ``scale`` and ``nc`` from nct "
    "densities at ``df + 2``, ``df + 1``, ``df - 1``; in ``df`` for ``mean``/``var`` only: "
    "the other methods raise LookupError naming ``df``).",
)  # fmt: skip
