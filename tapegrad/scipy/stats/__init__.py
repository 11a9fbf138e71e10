"""SciPy's distributions with gradients: one module per distribution, named as in
``scipy.stats``, holding its methods as functions (``norm.logpdf(x, loc, scale)``), as
``jax.scipy.stats`` does. Every continuous parameter is differentiable; counts (a
Poisson's ``k``, a binomial's ``n``) raise LookupError when differentiated.

>>> import tapegrad as tg
>>> from tapegrad.scipy.stats import norm
>>> loc = tg.tensor(0.5)
>>> with tg.GradientTape() as tape:
...     tape.watch(loc)
...     y = norm.logpdf(2.0, loc=loc, scale=1.0)
>>> tape.gradient(y, loc).item()  # (x - loc) / scale²
1.5
"""

from tapegrad.scipy.stats import (
    bernoulli,
    beta,
    binom,
    chi2,
    dirichlet,
    gamma,
    multivariate_normal,
    norm,
    poisson,
    t,
)

__all__ = [
    "bernoulli", "beta", "binom", "chi2", "dirichlet", "gamma", "multivariate_normal", "norm",
    "poisson", "t",
]  # fmt: skip
