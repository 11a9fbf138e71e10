"""scipy.special: the gamma, beta, error, Bessel, hypergeometric and information families, with
their arguments and complex inputs (complex results as one real array, ``z.real + 2 z.imag``).

SciPy's ufuncs have only the ufunc machinery's keywords (out, where, casting, ...), which
tapegrad takes as NumPy's ufuncs do, so :data:`FUNCTIONS` lists the Python functions with
keywords of their own.
"""

from __future__ import annotations

from typing import Any

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "special.factorial", "special.comb", "special.logsumexp", "special.softmax",
    "special.log_softmax", "special.lambertw", "special.spherical_jn", "special.spherical_yn",
    "special.spherical_in", "special.spherical_kn", "special.jvp", "special.yvp",
    "special.ivp", "special.kvp", "special.h1vp", "special.h2vp",
]  # fmt: skip


def _real(z: Any) -> Any:  # one real array from a complex one
    return z.real + 2.0 * z.imag


def _watched(f: Any, *args: Any) -> Any:
    """``f(*args)`` with its Tensor arguments watched by a tape (for refusals that only a
    gradient raises)."""
    from tapegrad.core.tape import GradientTape
    from tapegrad.core.tensor import Tensor

    with GradientTape() as tape:
        for a in args:
            if isinstance(a, Tensor):
                tape.watch(a)
        return f(*args)


def _second(f: Any, x: Any) -> Any:
    """The second derivative of ``sum(f(x))`` in ``x`` (for refusals only it raises)."""
    from tapegrad import ops
    from tapegrad.core.tape import GradientTape

    with GradientTape() as outer:
        outer.watch(x)
        with GradientTape() as inner:
            inner.watch(x)
            first = ops.sum(f(x))
        slope = inner.gradient(first, x)
    return outer.gradient(ops.sum(slope), x)


def _third(f: Any, x: Any) -> Any:
    """The gradient of ``sum(f(x))``, taken where ``f`` is already a second derivative."""
    from tapegrad import ops
    from tapegrad.core.tape import GradientTape

    with GradientTape() as tape:
        tape.watch(x)
        value = ops.sum(f(x))
    return tape.gradient(value, x)


def _poly(name: str, *params: Any, scale: float = 1.0, shift: float = 0.0) -> list[Sample]:
    """Rows of an orthogonal polynomial in x: integer degrees, a non-integer degree, complex."""

    def call(n: Any, complex_x: bool = False) -> Any:
        def row(m: Any, x: Any, y: Any) -> Any:
            f = getattr(m.special, name)
            arg = scale * x + shift
            if complex_x:
                return _real(f(n, *params, arg + 0.3j * y))
            return f(n, *params, arg)

        return row

    rows = [
        Sample(f"special.{name}", "x, degree 3", call(3)),
        Sample(f"special.{name}", "x, degrees 0..3 (array n)", call([0, 1, 2, 3])),
    ]
    if name not in ("eval_hermite", "eval_hermitenorm"):  # integer degrees, real x in SciPy
        rows.append(Sample(f"special.{name}", "x, non-integer degree 2.5", call(2.5)))
        rows.append(Sample(f"special.{name}", "complex x", call(4, complex_x=True)))
    return rows


ROWS: list[Sample] = [
    # Box-Cox
    Sample("special.boxcox", "x and lmbda", lambda m, x, y: m.special.boxcox(x + 0.5, y - 0.5)),
    Sample("special.boxcox", "lmbda=0 (log x)", lambda m, x, y: m.special.boxcox(x + 0.5, 0.0 * y)),
    Sample(
        "special.boxcox",
        "lmbda near 0 (series)",
        lambda m, x, y: m.special.boxcox(x + 0.5, 1e-5 * y),
    ),
    Sample(
        "special.boxcox", "broadcast lmbda", lambda m, x, y: m.special.boxcox(x + 0.5, y[:1] - 0.5)
    ),
    Sample("special.boxcox1p", "x and lmbda", lambda m, x, y: m.special.boxcox1p(x, y - 0.5)),
    Sample("special.boxcox1p", "lmbda=0 (log1p x)", lambda m, x, y: m.special.boxcox1p(x, 0.0 * y)),
    # Dawson, Faddeeva
    Sample("special.dawsn", "real", lambda m, x, y: m.special.dawsn(3 * x - 1.5)),
    Sample("special.dawsn", "complex", lambda m, x, y: _real(m.special.dawsn(x + 1j * y))),
    Sample("special.wofz", "complex", lambda m, x, y: _real(m.special.wofz(x - 1j * y))),
    Sample("special.wofz", "real z (complex values)", lambda m, x, y: _real(m.special.wofz(x))),
    # exponential integrals
    Sample("special.expn", "n=0", lambda m, x, y: m.special.expn(0, x)),
    Sample("special.expn", "n=1", lambda m, x, y: m.special.expn(1, x + y)),
    Sample("special.expn", "n=3, array n", lambda m, x, y: m.special.expn([1, 2, 3, 4], x)),
    Sample("special.exp1", "real", lambda m, x, y: m.special.exp1(x)),
    Sample("special.exp1", "complex", lambda m, x, y: _real(m.special.exp1(x + 1j * y))),
    Sample("special.expi", "real", lambda m, x, y: m.special.expi(x)),
    Sample("special.expi", "complex", lambda m, x, y: _real(m.special.expi(x + 1j * y))),
    # error functions of complex arguments
    Sample("special.erf", "complex", lambda m, x, y: _real(m.special.erf(x + 1j * y))),
    Sample("special.erfc", "complex", lambda m, x, y: _real(m.special.erfc(x - 1j * y))),
    Sample("special.erfcx", "complex", lambda m, x, y: _real(m.special.erfcx(x + 1j * y))),
    # Fresnel, sine/cosine and hyperbolic integrals (two outputs)
    Sample("special.fresnel", "S", lambda m, x, y: m.special.fresnel(2 * x)[0]),
    Sample("special.fresnel", "C", lambda m, x, y: m.special.fresnel(2 * x)[1]),
    Sample("special.fresnel", "complex S", lambda m, x, y: _real(m.special.fresnel(x + 1j * y)[0])),
    Sample("special.sici", "Si", lambda m, x, y: m.special.sici(3 * x - 1.5)[0]),
    Sample("special.sici", "Ci", lambda m, x, y: m.special.sici(3 * x)[1]),
    Sample("special.sici", "complex Ci", lambda m, x, y: _real(m.special.sici(x + 1j * y)[1])),
    Sample("special.shichi", "Shi", lambda m, x, y: m.special.shichi(3 * x - 1.5)[0]),
    Sample("special.shichi", "Chi", lambda m, x, y: m.special.shichi(3 * x)[1]),
    Sample("special.shichi", "complex Shi", lambda m, x, y: _real(m.special.shichi(x - 1j * y)[0])),
    # Spence, Owen's T
    Sample("special.spence", "real", lambda m, x, y: m.special.spence(2 * x)),
    Sample("special.spence", "complex", lambda m, x, y: _real(m.special.spence(x + 1j * y))),
    Sample("special.owens_t", "h and a", lambda m, x, y: m.special.owens_t(2 * x - 1, 3 * y - 1)),
    Sample("special.owens_t", "broadcast a", lambda m, x, y: m.special.owens_t(x, y[0])),
    # hypergeometric: in the argument
    Sample("special.hyp1f1", "x", lambda m, x, y: m.special.hyp1f1(0.7, 1.3, 3 * x - 1)),
    Sample(
        "special.hyp1f1", "array a, b", lambda m, x, y: m.special.hyp1f1(x.shape[1] * [0.5], 2.5, y)
    ),
    Sample(
        "special.hyp1f1", "complex x", lambda m, x, y: _real(m.special.hyp1f1(0.7, 1.3, x + 1j * y))
    ),
    Sample("special.hyp2f1", "z", lambda m, x, y: m.special.hyp2f1(0.7, 1.3, 2.1, x - 0.4)),
    Sample(
        "special.hyp2f1",
        "complex z",
        lambda m, x, y: _real(m.special.hyp2f1(0.7, 1.3, 2.1, 0.6 * (x + 1j * y))),
    ),
    # the gamma function's extensions
    Sample("special.loggamma", "real", lambda m, x, y: m.special.loggamma(3 * x)),
    Sample(
        "special.loggamma",
        "complex (first order)",
        lambda m, x, y: _real(m.special.loggamma(3 * x + 1j * y)),
        twice=False,
    ),
    Sample("special.gammasgn", "zero gradient", lambda m, x, y: m.special.gammasgn(x - 1.5) * y),
    Sample("special.binom", "x and y", lambda m, x, y: m.special.binom(x + 3, y)),
    Sample(
        "special.factorial", "exact=False", lambda m, x, y: m.special.factorial(3 * x, exact=False)
    ),
    Sample(
        "special.factorial", "extend=zero, n < 0", lambda m, x, y: m.special.factorial(3 * x - 1.5)
    ),
    Sample(
        "special.factorial",
        "extend=complex, real n",
        lambda m, x, y: m.special.factorial(3 * x - 1.5, extend="complex"),
    ),
    Sample(
        "special.factorial",
        "extend=complex, complex n (first order)",
        lambda m, x, y: _real(m.special.factorial(x + 1j * y, extend="complex")),
        twice=False,
    ),
    Sample("special.comb", "exact=False", lambda m, x, y: m.special.comb(x + 3, y, exact=False)),
    # the gamma family
    Sample("special.polygamma", "x, n=3", lambda m, x, y: m.special.polygamma(3, x + y)),
    Sample("special.polygamma", "x, array n", lambda m, x, y: m.special.polygamma([0, 1, 2, 3], x)),
    Sample("special.psi", "x", lambda m, x, y: m.special.psi(x + y)),
    Sample("special.multigammaln", "a, d=3", lambda m, x, y: m.special.multigammaln(x + 1.5, 3)),
    Sample("special.zeta", "q", lambda m, x, y: m.special.zeta(3.5, x + y)),
    Sample("special.zeta", "q, array x", lambda m, x, y: m.special.zeta([2.0, 2.5, 3.0, 4.5], x)),
    Sample(
        "special.zeta", "q=None (Riemann), no gradient", lambda m, x, y: m.special.zeta(2.0) * x
    ),
    # inverses of the incomplete gamma and beta functions
    Sample("special.gammaincinv", "y", lambda m, x, y: m.special.gammaincinv(1.7, y)),
    Sample(
        "special.gammaincinv",
        "a and y (first order)",
        lambda m, x, y: m.special.gammaincinv(3 * x, y),
        twice=False,
    ),
    Sample("special.gammainccinv", "y", lambda m, x, y: m.special.gammainccinv(0.8, y)),
    Sample(
        "special.gammainccinv",
        "a and y (first order)",
        lambda m, x, y: m.special.gammainccinv(3 * x, y),
        twice=False,
    ),
    Sample("special.betaincinv", "y", lambda m, x, y: m.special.betaincinv(1.5, 2.5, y)),
    Sample(
        "special.betaincinv",
        "a, b and y (first order)",
        lambda m, x, y: m.special.betaincinv(3 * x, 2 * y, y),
        twice=False,
    ),
    Sample("special.betainccinv", "y", lambda m, x, y: m.special.betainccinv(0.7, 1.4, y)),
    Sample(
        "special.betainccinv",
        "a, b and y (first order)",
        lambda m, x, y: m.special.betainccinv(2 * y, 3 * x, x),
        twice=False,
    ),
    # spherical harmonics
    Sample(
        "special.sph_harm_y",
        "theta and phi",
        lambda m, x, y: _real(m.special.sph_harm_y(3, 2, 3 * x, 6 * y)),
    ),
    Sample(
        "special.sph_harm_y",
        "array n, m (broadcast)",
        lambda m, x, y: _real(m.special.sph_harm_y([1, 2, 3, 4], [1, -1, 2, 0], 3 * x, 6 * y)),
    ),
    Sample(
        "special.sph_harm_y",
        "diff_n=1, the gradient (first order)",
        lambda m, x, y: _real(m.special.sph_harm_y(2, 1, 3 * x, 6 * y, diff_n=1)[1]),
        twice=False,
    ),
    Sample(
        "special.sph_harm_y",
        "diff_n=2, the value",
        lambda m, x, y: _real(m.special.sph_harm_y(2, -1, 3 * x, 6 * y, diff_n=2)[0]),
    ),
    # Bessel: scaled, Hankel, spherical, Airy, Struve
    Sample("special.jve", "real z", lambda m, x, y: m.special.jve(1.5, 5 * x)),
    Sample("special.yve", "real z", lambda m, x, y: m.special.yve([0, 1, 2.5, 3], 5 * x)),
    Sample("special.hankel1", "real z", lambda m, x, y: _real(m.special.hankel1(1.5, 5 * x))),
    Sample(
        "special.hankel1", "complex z", lambda m, x, y: _real(m.special.hankel1(0.5, x + 1j * y))
    ),
    Sample("special.hankel2", "real z", lambda m, x, y: _real(m.special.hankel2(2.0, 5 * x))),
    Sample(
        "special.hankel2", "complex z", lambda m, x, y: _real(m.special.hankel2(1.0, x - 1j * y))
    ),
    Sample("special.hankel1e", "real z", lambda m, x, y: _real(m.special.hankel1e(1.5, 5 * x))),
    Sample(
        "special.hankel1e",
        "complex z",
        lambda m, x, y: _real(m.special.hankel1e(0.5, x + 1j * y)),
    ),
    Sample("special.hankel2e", "real z", lambda m, x, y: _real(m.special.hankel2e(0.0, 5 * x))),
    Sample(
        "special.hankel2e",
        "complex z",
        lambda m, x, y: _real(m.special.hankel2e(2.5, x - 1j * y)),
    ),
    *[
        Sample(f"special.{name}", option, call)
        for name in ("spherical_jn", "spherical_yn", "spherical_in", "spherical_kn")
        for option, call in (
            ("z, n=2", lambda m, x, y, f=name: getattr(m.special, f)(2, 4 * x)),
            (
                "derivative=True",
                lambda m, x, y, f=name: getattr(m.special, f)(1, 4 * x, derivative=True),
            ),
            ("array n", lambda m, x, y, f=name: getattr(m.special, f)([0, 1, 2, 3], 4 * x)),
            (
                "complex z",
                lambda m, x, y, f=name: _real(getattr(m.special, f)(2, x + 1j * y)),
            ),
        )
    ],
    *[
        Sample(
            "special.airy", f"{label}, real z", lambda m, x, y, k=k: m.special.airy(4 * x - 2)[k]
        )
        for k, label in enumerate(("Ai", "Aip", "Bi", "Bip"))
    ],
    *[
        Sample(
            "special.airy",
            f"{label}, complex z",
            lambda m, x, y, k=k: _real(m.special.airy(x + 1j * y)[k]),
        )
        for k, label in enumerate(("Ai", "Aip", "Bi", "Bip"))
    ],
    *[
        Sample("special.airye", f"{label}, z > 0", lambda m, x, y, k=k: m.special.airye(4 * x)[k])
        for k, label in enumerate(("eAi", "eAip", "eBi", "eBip"))
    ],
    Sample("special.struve", "x", lambda m, x, y: m.special.struve(1.5, 4 * x)),
    Sample("special.struve", "array v", lambda m, x, y: m.special.struve([0, 1, 2.5, 4], 4 * x)),
    Sample("special.modstruve", "x", lambda m, x, y: m.special.modstruve(0.5, 4 * x)),
    Sample(
        "special.modstruve", "array v", lambda m, x, y: m.special.modstruve([0, 1, 2.5, 4], 4 * x)
    ),
    # elliptic integrals, Lambert W
    Sample("special.ellipk", "m", lambda m, x, y: m.special.ellipk(x)),
    Sample("special.ellipk", "m < 0", lambda m, x, y: m.special.ellipk(-x)),
    Sample("special.ellipkm1", "p", lambda m, x, y: m.special.ellipkm1(x)),
    Sample("special.ellipe", "m", lambda m, x, y: m.special.ellipe(x)),
    Sample("special.ellipe", "m < 0", lambda m, x, y: m.special.ellipe(-x)),
    Sample("special.ellipkinc", "phi and m", lambda m, x, y: m.special.ellipkinc(2 * x, y)),
    Sample("special.ellipkinc", "m < 0", lambda m, x, y: m.special.ellipkinc(2 * x, -y)),
    Sample("special.ellipeinc", "phi and m", lambda m, x, y: m.special.ellipeinc(2 * x, y)),
    Sample("special.ellipeinc", "m < 0", lambda m, x, y: m.special.ellipeinc(2 * x, -y)),
    Sample("special.lambertw", "k=0, real z", lambda m, x, y: _real(m.special.lambertw(3 * x))),
    Sample(
        "special.lambertw",
        "k=-1, z in (-1/e, 0)",
        lambda m, x, y: _real(m.special.lambertw(-0.35 * x, k=-1)),
    ),
    Sample(
        "special.lambertw",
        "k=1, complex z",
        lambda m, x, y: _real(m.special.lambertw(x + 1j * y, k=1)),
    ),
    Sample(
        "special.lambertw",
        "tol=1e-12",
        lambda m, x, y: _real(m.special.lambertw(x + 1j * y, tol=1e-12)),
    ),
    # orthogonal polynomials
    *_poly("eval_jacobi", 0.5, 1.5, scale=2.0, shift=-1.0),
    *_poly("eval_legendre", scale=2.0, shift=-1.0),
    *_poly("eval_gegenbauer", 0.7, scale=2.0, shift=-1.0),
    *_poly("eval_chebyt", scale=2.0, shift=-1.0),
    *_poly("eval_chebyu", scale=2.0, shift=-1.0),
    *_poly("eval_chebyc", scale=4.0, shift=-2.0),
    *_poly("eval_chebys", scale=4.0, shift=-2.0),
    *_poly("eval_sh_legendre"),
    *_poly("eval_sh_chebyt"),
    *_poly("eval_sh_chebyu"),
    *_poly("eval_hermite", scale=3.0, shift=-1.5),
    *_poly("eval_hermitenorm", scale=3.0, shift=-1.5),
    *_poly("eval_laguerre", scale=3.0),
    *_poly("eval_genlaguerre", 1.5, scale=3.0),
    # elementary
    Sample("special.cbrt", "x", lambda m, x, y: m.special.cbrt(x - y)),
    Sample("special.exp10", "x", lambda m, x, y: m.special.exp10(x - y)),
    Sample("special.exp2", "x", lambda m, x, y: m.special.exp2(x - y)),
    Sample("special.expm1", "x", lambda m, x, y: m.special.expm1(x - y)),
    Sample("special.log1p", "x", lambda m, x, y: m.special.log1p(x - y)),
    Sample("special.exprel", "x", lambda m, x, y: m.special.exprel(3 * (x - y))),
    Sample("special.exprel", "x near 0 (series)", lambda m, x, y: m.special.exprel(1e-3 * (x - y))),
    Sample("special.cosm1", "x", lambda m, x, y: m.special.cosm1(3 * (x - y))),
    Sample("special.powm1", "x and y", lambda m, x, y: m.special.powm1(x + 0.5, 3 * y - 1)),
    Sample("special.cosdg", "x", lambda m, x, y: m.special.cosdg(200 * x)),
    Sample("special.sindg", "x", lambda m, x, y: m.special.sindg(200 * x)),
    Sample("special.tandg", "x", lambda m, x, y: m.special.tandg(100 * x - 30)),
    Sample("special.cotdg", "x", lambda m, x, y: m.special.cotdg(100 * x)),
    Sample("special.radian", "d, m, s", lambda m, x, y: m.special.radian(30 * x, 60 * y, 3600 * x)),
    Sample("special.round", "zero gradient", lambda m, x, y: m.special.round(5 * x) * y),
    Sample("special.huber", "delta and r", lambda m, x, y: m.special.huber(y, 3 * x - 1.4)),
    Sample(
        "special.pseudo_huber",
        "delta and r",
        lambda m, x, y: m.special.pseudo_huber(y, 3 * x - 1.5),
    ),
    # derivatives of Bessel functions (n=: the order of the derivative)
    *[
        Sample(f"special.{name}", option, call)
        for name, wrap in (
            ("jvp", None),
            ("yvp", None),
            ("ivp", None),
            ("kvp", None),
            ("h1vp", _real),
            ("h2vp", _real),
        )  # fmt: skip
        for option, call in (
            (
                "n=1 (default)",
                lambda m, x, y, f=name, w=wrap: (w or (lambda a: a))(
                    getattr(m.special, f)(1.5, 4 * x)
                ),
            ),
            (
                "n=0",
                lambda m, x, y, f=name, w=wrap: (w or (lambda a: a))(
                    getattr(m.special, f)(2.0, 4 * x, n=0)
                ),
            ),
            (
                "n=3, array v",
                lambda m, x, y, f=name, w=wrap: (w or (lambda a: a))(
                    getattr(m.special, f)([0.0, 1.0, 1.5, 4.0], 4 * x, n=3)
                ),
            ),
        )
    ],
    Sample("special.kn", "x", lambda m, x, y: m.special.kn([0, 1, 2, 5], 3 * x)),
    # more inverses and relatives
    Sample("special.erfi", "real", lambda m, x, y: m.special.erfi(2 * x - 1)),
    Sample("special.erfi", "complex", lambda m, x, y: _real(m.special.erfi(x + 1j * y))),
    Sample("special.ndtri_exp", "y", lambda m, x, y: m.special.ndtri_exp(-3 * x)),
    Sample("special.wrightomega", "real", lambda m, x, y: m.special.wrightomega(4 * x - 2)),
    Sample(
        "special.wrightomega", "complex", lambda m, x, y: _real(m.special.wrightomega(x + 1j * y))
    ),
    Sample("special.inv_boxcox", "y and lmbda", lambda m, x, y: m.special.inv_boxcox(x, y - 0.5)),
    Sample(
        "special.inv_boxcox", "lmbda=0 (exp y)", lambda m, x, y: m.special.inv_boxcox(x, 0.0 * y)
    ),
    Sample(
        "special.inv_boxcox1p", "y and lmbda", lambda m, x, y: m.special.inv_boxcox1p(x, y - 0.5)
    ),
    Sample(
        "special.betaincc",
        "a, b and x (first order)",
        lambda m, x, y: m.special.betaincc(3 * x, 2 * y, y),
        twice=False,
    ),
    Sample("special.betaincc", "x", lambda m, x, y: m.special.betaincc(1.5, 0.8, y)),
    Sample(
        "special.stdtrit",
        "df and p (first order)",
        lambda m, x, y: m.special.stdtrit(5 * x, y),
        twice=False,
    ),
    Sample("special.stdtrit", "p", lambda m, x, y: m.special.stdtrit(4.0, y)),
    Sample("special.softplus", "x", lambda m, x, y: m.special.softplus(10 * (x - y))),
    # log-sum-exp, softmax
    Sample("special.logsumexp", "axis=None", lambda m, x, y: m.special.logsumexp(x * y)),
    Sample("special.logsumexp", "axis=1", lambda m, x, y: m.special.logsumexp(x, axis=1)),
    Sample(
        "special.logsumexp",
        "axis=0, keepdims=True",
        lambda m, x, y: m.special.logsumexp(x, axis=0, keepdims=True),
    ),
    Sample(
        "special.logsumexp", "b= (weights)", lambda m, x, y: m.special.logsumexp(x, axis=1, b=y)
    ),
    Sample(
        "special.logsumexp",
        "return_sign=True, negative b",
        lambda m, x, y: m.special.logsumexp(x, axis=(0, 1), b=y - 0.8, return_sign=True)[0],
    ),
    Sample(
        "special.logsumexp",
        "return_sign=True, the sign (zero gradient)",
        lambda m, x, y: m.special.logsumexp(x, axis=0, b=y - 0.6, return_sign=True)[1] * x,
    ),
    Sample("special.softmax", "axis=None", lambda m, x, y: m.special.softmax(x * y)),
    Sample("special.softmax", "axis=1", lambda m, x, y: m.special.softmax(x - y, axis=1)),
    Sample("special.log_softmax", "axis=None", lambda m, x, y: m.special.log_softmax(x * y)),
    Sample("special.log_softmax", "axis=0", lambda m, x, y: m.special.log_softmax(x - y, axis=0)),
    Sample("special.comb", "k > N gives 0", lambda m, x, y: m.special.comb(x, y + 0.5)),
    Sample(
        "special.comb", "repetition=True", lambda m, x, y: m.special.comb(x + 3, y, repetition=True)
    ),
]

REFUSALS: list[Refusal] = [
    Refusal(
        "special.sph_harm_y",
        "diff_n=2, a third derivative",
        lambda m, x, y: _third(lambda t: m.special.sph_harm_y(2, 1, t, y, diff_n=2)[2].real, x),
        LookupError,
    ),
    Refusal(
        "special.sph_harm_y",
        "degree n",
        lambda m, x, y: _watched(lambda t: m.special.sph_harm_y(t, 1, y, y), x),
        LookupError,
    ),
    Refusal(
        "special.gammaincinv",
        "a at second order",
        lambda m, x, y: _second(lambda t: m.special.gammaincinv(t, y), x),
        LookupError,
    ),
    Refusal(
        "special.betaincinv",
        "b at second order",
        lambda m, x, y: _second(lambda t: m.special.betaincinv(1.5, t, y), x),
        LookupError,
    ),
    Refusal(
        "special.zeta",
        "x",
        lambda m, x, y: _watched(lambda t: m.special.zeta(t + 2, y), x),
        LookupError,
    ),
    Refusal(
        "special.polygamma",
        "order n",
        lambda m, x, y: _watched(lambda t: m.special.polygamma(t, y), x),
        LookupError,
    ),
    Refusal(
        "special.lambertw",
        "branch k",
        lambda m, x, y: _watched(lambda t: m.special.lambertw(y, k=t), x),
        LookupError,
    ),
    Refusal(
        "special.spherical_jn",
        "order",
        lambda m, x, y: _watched(lambda t: m.special.spherical_jn(t, y), x),
        LookupError,
    ),
    Refusal(
        "special.struve",
        "order",
        lambda m, x, y: _watched(lambda t: m.special.struve(t, y), x),
        LookupError,
    ),
    Refusal(
        "special.eval_jacobi",
        "alpha",
        lambda m, x, y: _watched(lambda t: m.special.eval_jacobi(2, t, 0.5, y), x),
        LookupError,
    ),
    Refusal(
        "special.eval_legendre",
        "degree n",
        lambda m, x, y: _watched(lambda t: m.special.eval_legendre(t, y), x),
        LookupError,
    ),
    Refusal(
        "special.jvp",
        "derivative order n",
        lambda m, x, y: _watched(lambda t: m.special.jvp(1.0, y, n=t), x),
        LookupError,
    ),
    Refusal(
        "special.softplus",
        "where=",
        lambda m, x, y: m.special.softplus(x, where=y > 0.5),
        NotImplementedError,
    ),
    Refusal(
        "special.jve",
        "order v",
        lambda m, x, y: _watched(lambda t: m.special.jve(t, y), x),
        LookupError,
    ),
    Refusal(
        "special.factorial",
        "exact=True",
        lambda m, x, y: _watched(lambda t: m.special.factorial(t, exact=True), x),
        LookupError,
    ),
    Refusal(
        "special.comb",
        "exact=True",
        lambda m, x, y: _watched(lambda t: m.special.comb(t[0, 0], 2, exact=True), x),
        LookupError,
    ),
    Refusal(
        "special.hyp1f1",
        "parameter a",
        lambda m, x, y: _watched(lambda t: m.special.hyp1f1(t, 1.5, y), x),
        LookupError,
    ),
    Refusal(
        "special.hyp2f1",
        "parameter c",
        lambda m, x, y: _watched(lambda t: m.special.hyp2f1(0.5, 1.0, t + 1, y), x),
        LookupError,
    ),
    Refusal(
        "special.expn",
        "order n",
        lambda m, x, y: _watched(lambda t: m.special.expn(t, y), x),
        LookupError,
    ),
]
