"""scipy.special: the gamma and beta families (the gamma function's extensions, factorial
and comb, polygamma and zeta, the inverses of the incomplete gamma and beta functions).
"""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample
from tapegrad.testing.scipy_samples.special_calls import _real, _second, _watched

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "special.factorial", "special.comb",
]  # fmt: skip

ROWS: list[Sample] = [
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
]


REFUSALS: list[Refusal] = [
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
]
