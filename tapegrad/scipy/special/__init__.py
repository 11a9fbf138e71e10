"""SciPy's special functions with gradients, under SciPy's names and signatures.

Each function records on the active tapes and differentiates in every argument that
has a derivative; where SciPy has none (the order of a Bessel function, polygamma's
``n``, zeta's ``x``) a gradient raises LookupError naming the argument. SciPy's own
ufuncs called on Tensors (``scipy.special.gammaln(t)``) land here too: the table at the
end registers them with tapegrad's NumPy protocol.

>>> import tapegrad as tg
>>> from tapegrad.scipy import special
>>> x = tg.tensor(2.0)
>>> with tg.GradientTape() as tape:
...     tape.watch(x)
...     y = special.gammaln(x)
>>> print(f"{tape.gradient(y, x).item():.12f}")  # digamma(2) = 1 - Euler's constant
0.422784335098
"""

import scipy.special as _scipy_special

from tapegrad.numpy import protocol as _numpy_protocol

# One primitive each with tg.i0, tg.i1, tg.sinc and tg.nn's GELU: tapegrad.ops's (i0 and i1
# real-only; sinc and erf with complex rules; erf is SciPy's kernel when installed)
from tapegrad.ops import bessel as _bessel
from tapegrad.ops import erf as _erf
from tapegrad.ops.trigonometric import sinc
from tapegrad.scipy._dispatch import plain_calls_scipy as _plain_calls_scipy
from tapegrad.scipy.special import distribution_cdfs as _cdfs
from tapegrad.scipy.special.bessel import (
    hankel1,
    hankel1e,
    hankel2,
    hankel2e,
    j0,
    j1,
    jn,
    jv,
    jve,
    y0,
    y1,
    yn,
    yv,
    yve,
)
from tapegrad.scipy.special.bessel_modified import (
    i0e,
    i1e,
    iv,
    ive,
    k0,
    k0e,
    k1,
    k1e,
    kn,
    kv,
    kve,
)
from tapegrad.scipy.special.bessel_more import (
    airy,
    airye,
    h1vp,
    h2vp,
    ivp,
    jvp,
    kvp,
    modstruve,
    spherical_in,
    spherical_jn,
    spherical_kn,
    spherical_yn,
    struve,
    yvp,
)
from tapegrad.scipy.special.combinatorics import (
    bernoulli,
    binom,
    boxcox,
    boxcox1p,
    comb,
    factorial,
    gammasgn,
    inv_boxcox,
    inv_boxcox1p,
    loggamma,
)
from tapegrad.scipy.special.distribution_cdfs import (
    bdtr,
    bdtrc,
    chdtr,
    chdtrc,
    chdtri,
    fdtr,
    fdtrc,
    fdtri,
    gdtr,
    gdtrc,
    nbdtr,
    nbdtrc,
    pdtr,
    pdtrc,
)
from tapegrad.scipy.special.elementary import (
    cbrt,
    cosdg,
    cosm1,
    cotdg,
    exp2,
    exp10,
    expm1,
    exprel,
    huber,
    log1p,
    powm1,
    pseudo_huber,
    radian,
    round,  # noqa: A004  (SciPy's name)
    sindg,
    tandg,
)
from tapegrad.scipy.special.elliptic import (
    ellipe,
    ellipeinc,
    ellipk,
    ellipkinc,
    ellipkm1,
    lambertw,
)
from tapegrad.scipy.special.error import (
    erfc,
    erfcinv,
    erfcx,
    erfi,
    erfinv,
    exp1,
    expi,
    log_ndtr,
    ndtr,
    ndtri,
    ndtri_exp,
    wrightomega,
)
from tapegrad.scipy.special.gamma import (
    beta,
    betaln,
    digamma,
    gamma,
    gammaln,
    multigammaln,
    poch,
    polygamma,
    psi,
    rgamma,
    zeta,
)
from tapegrad.scipy.special.hypergeometric import hyp1f1, hyp2f1
from tapegrad.scipy.special.incomplete import (
    betainc,
    betaincc,
    betainccinv,
    betaincinv,
    gammainc,
    gammaincc,
    gammainccinv,
    gammaincinv,
    stdtr,
    stdtrit,
)
from tapegrad.scipy.special.information import entr, kl_div, rel_entr, xlog1py, xlogy
from tapegrad.scipy.special.integrals import (
    dawsn,
    expn,
    fresnel,
    owens_t,
    shichi,
    sici,
    spence,
    wofz,
)
from tapegrad.scipy.special.legendre import legendre_p
from tapegrad.scipy.special.logistic import (
    expit,
    log_expit,
    log_softmax,
    logit,
    logsumexp,
    softmax,
    softplus,
)
from tapegrad.scipy.special.polynomials import (
    eval_chebyc,
    eval_chebys,
    eval_chebyt,
    eval_chebyu,
    eval_gegenbauer,
    eval_genlaguerre,
    eval_hermite,
    eval_hermitenorm,
    eval_jacobi,
    eval_laguerre,
    eval_legendre,
    eval_sh_chebyt,
    eval_sh_chebyu,
    eval_sh_legendre,
    sph_harm_y,
)

# tapegrad.ops's i0, i1 and erf (tg.i0 ...), SciPy's own for plain arrays as the rest here.
i0 = _plain_calls_scipy("special")(_bessel.i0)
i1 = _plain_calls_scipy("special")(_bessel.i1)
erf = _plain_calls_scipy("special")(_erf.erf)

__all__ = [
    "bernoulli", "beta", "betainc", "betaln", "binom", "boxcox", "boxcox1p", "comb", "dawsn",
    "digamma", "entr", "erf", "erfc", "erfcinv", "erfcx", "erfinv", "exp1", "expi", "expit",
    "expn", "factorial", "fresnel", "gamma", "gammainc", "gammaincc", "gammaln", "gammasgn",
    "hyp1f1", "hyp2f1", "i0", "i0e", "i1", "i1e", "iv", "ive", "j0", "j1", "jn", "jv", "k0",
    "k0e", "k1", "k1e", "kl_div", "kv", "kve", "log_expit", "log_ndtr", "log_softmax",
    "loggamma", "logit", "logsumexp", "multigammaln", "ndtr", "ndtri", "owens_t", "poch",
    "polygamma", "psi", "rel_entr", "rgamma", "shichi", "sici", "sinc", "softmax", "spence",
    "stdtr", "wofz", "xlog1py", "xlogy", "y0", "y1", "yn", "yv", "zeta",
    # elementary and Huber (elementary.py), elliptic and Lambert W (elliptic.py)
    "cbrt", "cosdg", "cosm1", "cotdg", "exp10", "exp2", "expm1", "exprel", "huber", "log1p",
    "powm1", "pseudo_huber", "radian", "round", "sindg", "tandg",
    "ellipe", "ellipeinc", "ellipk", "ellipkinc", "ellipkm1", "lambertw",
    # inverses of the incomplete gamma and beta functions (incomplete.py)
    "betainccinv", "betaincinv", "gammainccinv", "gammaincinv",
    # Bessel, Hankel, spherical Bessel, Airy, Struve (bessel.py, bessel_more.py)
    "hankel1", "hankel1e", "hankel2", "hankel2e", "jve", "yve", "airy", "airye", "modstruve",
    "spherical_in", "spherical_jn", "spherical_kn", "spherical_yn", "struve",
    # orthogonal polynomials and spherical harmonics (polynomials.py)
    "eval_chebyc", "eval_chebys", "eval_chebyt", "eval_chebyu", "eval_gegenbauer",
    "eval_genlaguerre", "eval_hermite", "eval_hermitenorm", "eval_jacobi", "eval_laguerre",
    "eval_legendre", "eval_sh_chebyt", "eval_sh_chebyu", "eval_sh_legendre", "sph_harm_y",
    "legendre_p",
    # distribution functions in the incomplete gamma and beta (distribution_cdfs.py)
    "bdtr", "bdtrc", "chdtr", "chdtrc", "chdtri", "fdtr", "fdtrc", "fdtri", "gdtr", "gdtrc",
    "nbdtr", "nbdtrc", "pdtr", "pdtrc",
    # derivatives of Bessel functions, kn, and the rest
    "h1vp", "h2vp", "ivp", "jvp", "kvp", "yvp", "kn", "erfi", "ndtri_exp", "wrightomega",
    "inv_boxcox", "inv_boxcox1p", "betaincc", "stdtrit", "softplus",
]  # fmt: skip

# scipy.special's ufuncs -> these functions, for ``scipy.special.gammaln(tensor)``.
# (polygamma, zeta, logsumexp, softmax, multigammaln, factorial, comb, bernoulli, lambertw,
# softplus, spherical_jn/yn/in/kn, jvp/yvp/ivp/kvp/h1vp/h2vp are Python functions in SciPy,
# and sph_harm_y a MultiUFunc: they convert Tensors to arrays, which tapegrad refuses inside
# a recording tape.)
_numpy_protocol.register_ufuncs(
    {
        _scipy_special.beta: beta,
        _scipy_special.betainc: betainc,
        _scipy_special.betaln: betaln,
        _scipy_special.binom: binom,
        _scipy_special.boxcox: boxcox,
        _scipy_special.boxcox1p: boxcox1p,
        _scipy_special.dawsn: dawsn,
        _scipy_special.digamma: digamma,  # also scipy.special.psi
        _scipy_special.entr: entr,
        _scipy_special.erf: erf,
        _scipy_special.erfc: erfc,
        _scipy_special.erfcinv: erfcinv,
        _scipy_special.erfcx: erfcx,
        _scipy_special.erfinv: erfinv,
        _scipy_special.exp1: exp1,
        _scipy_special.expi: expi,
        _scipy_special.expit: expit,
        _scipy_special.expn: expn,
        _scipy_special.fresnel: fresnel,
        _scipy_special.gamma: gamma,
        _scipy_special.gammainc: gammainc,
        _scipy_special.gammaincc: gammaincc,
        _scipy_special.gammaln: gammaln,
        _scipy_special.gammasgn: gammasgn,
        _scipy_special.hyp1f1: hyp1f1,
        _scipy_special.hyp2f1: hyp2f1,
        _scipy_special.i0: i0,
        _scipy_special.i0e: i0e,
        _scipy_special.i1: i1,
        _scipy_special.i1e: i1e,
        _scipy_special.iv: iv,
        _scipy_special.ive: ive,
        _scipy_special.j0: j0,
        _scipy_special.j1: j1,
        _scipy_special.jv: jv,  # also scipy.special.jn
        _scipy_special.k0: k0,
        _scipy_special.k0e: k0e,
        _scipy_special.k1: k1,
        _scipy_special.k1e: k1e,
        _scipy_special.kl_div: kl_div,
        _scipy_special.kv: kv,
        _scipy_special.kve: kve,
        _scipy_special.log_expit: log_expit,
        _scipy_special.log_ndtr: log_ndtr,
        _scipy_special.logit: logit,
        _scipy_special.loggamma: loggamma,
        _scipy_special.ndtr: ndtr,
        _scipy_special.ndtri: ndtri,
        _scipy_special.owens_t: owens_t,
        _scipy_special.poch: poch,
        _scipy_special.rel_entr: rel_entr,
        _scipy_special.rgamma: rgamma,
        _scipy_special.shichi: shichi,
        _scipy_special.sici: sici,
        _scipy_special.spence: spence,
        _scipy_special.stdtr: stdtr,
        _scipy_special.xlog1py: xlog1py,
        _scipy_special.wofz: wofz,
        _scipy_special.xlogy: xlogy,
        _scipy_special.y0: y0,
        _scipy_special.y1: y1,
        _scipy_special.yn: yn,
        _scipy_special.yv: yv,
        # elementary, elliptic, inverses, Bessel, Airy, Struve, orthogonal polynomials
        _scipy_special.cbrt: cbrt,
        _scipy_special.cosdg: cosdg,
        _scipy_special.cosm1: cosm1,
        _scipy_special.cotdg: cotdg,
        _scipy_special.exp10: exp10,
        _scipy_special.exp2: exp2,
        _scipy_special.expm1: expm1,
        _scipy_special.exprel: exprel,
        _scipy_special.huber: huber,
        _scipy_special.log1p: log1p,
        _scipy_special.powm1: powm1,
        _scipy_special.pseudo_huber: pseudo_huber,
        _scipy_special.radian: radian,
        _scipy_special.round: round,
        _scipy_special.sindg: sindg,
        _scipy_special.tandg: tandg,
        _scipy_special.ellipe: ellipe,
        _scipy_special.ellipeinc: ellipeinc,
        _scipy_special.ellipk: ellipk,
        _scipy_special.ellipkinc: ellipkinc,
        _scipy_special.ellipkm1: ellipkm1,
        _scipy_special.betainccinv: betainccinv,
        _scipy_special.betaincinv: betaincinv,
        _scipy_special.gammainccinv: gammainccinv,
        _scipy_special.gammaincinv: gammaincinv,
        _scipy_special.hankel1: hankel1,
        _scipy_special.hankel1e: hankel1e,
        _scipy_special.hankel2: hankel2,
        _scipy_special.hankel2e: hankel2e,
        _scipy_special.jve: jve,
        _scipy_special.yve: yve,
        _scipy_special.airy: airy,
        _scipy_special.airye: airye,
        _scipy_special.modstruve: modstruve,
        _scipy_special.struve: struve,
        _scipy_special.eval_chebyc: eval_chebyc,
        _scipy_special.eval_chebys: eval_chebys,
        _scipy_special.eval_chebyt: eval_chebyt,
        _scipy_special.eval_chebyu: eval_chebyu,
        _scipy_special.eval_gegenbauer: eval_gegenbauer,
        _scipy_special.eval_genlaguerre: eval_genlaguerre,
        _scipy_special.eval_hermite: eval_hermite,
        _scipy_special.eval_hermitenorm: eval_hermitenorm,
        _scipy_special.eval_jacobi: eval_jacobi,
        _scipy_special.eval_laguerre: eval_laguerre,
        _scipy_special.eval_legendre: eval_legendre,
        _scipy_special.eval_sh_chebyt: eval_sh_chebyt,
        _scipy_special.eval_sh_chebyu: eval_sh_chebyu,
        _scipy_special.eval_sh_legendre: eval_sh_legendre,
        _scipy_special.kn: kn,
        _scipy_special.erfi: erfi,
        _scipy_special.ndtri_exp: ndtri_exp,
        _scipy_special.wrightomega: wrightomega,
        _scipy_special.inv_boxcox: inv_boxcox,
        _scipy_special.inv_boxcox1p: inv_boxcox1p,
        _scipy_special.betaincc: betaincc,
        _scipy_special.stdtrit: stdtrit,
        **{getattr(_scipy_special, name): getattr(_cdfs, name) for name in _cdfs.__all__},
    }
)


def __getattr__(name: str) -> object:
    """SciPy's own object for a name tapegrad does not define (it takes plain arrays)."""
    if name.startswith("__"):
        raise AttributeError(name)
    import scipy.special

    try:
        return getattr(scipy.special, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
