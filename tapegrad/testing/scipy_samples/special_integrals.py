"""scipy.special: the Box-Cox transforms and the functions defined by integrals (Dawson,
Faddeeva, exponential, error, Fresnel, sine/cosine and hyperbolic integrals, Spence,
Owen's T, hypergeometric), with complex inputs where SciPy takes them.
"""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample
from tapegrad.testing.scipy_samples.special_calls import _real, _watched

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below: none
# (ufuncs only).
FUNCTIONS: list[str] = []

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
]


REFUSALS: list[Refusal] = [
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
