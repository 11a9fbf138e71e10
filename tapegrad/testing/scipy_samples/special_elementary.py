"""scipy.special: the elementary functions (cbrt, exp10, expm1, cosdg ..., huber), the
derivatives of Bessel functions, more inverses and relatives (erfi, ndtri_exp,
inv_boxcox, betaincc, stdtrit ...), and log-sum-exp and softmax.
"""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample
from tapegrad.testing.scipy_samples.special_calls import _real, _watched

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "special.logsumexp", "special.softmax", "special.log_softmax", "special.jvp", "special.yvp",
    "special.ivp", "special.kvp", "special.h1vp", "special.h2vp",
]  # fmt: skip

ROWS: list[Sample] = [
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
]
