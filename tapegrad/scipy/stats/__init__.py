"""SciPy's distributions with gradients, named as in ``scipy.stats``: each univariate one
is declared by its standardized formulas (_continuous.py, _discrete.py, on the machinery of
_family.py), which give its differentiable methods (``norm.logpdf(x, loc, scale)``), as
``jax.scipy.stats`` has them; ``tapegrad.scipy.stats.norm`` is a
:class:`Distribution` that adds the rest of SciPy's interface (``rvs``, ``entropy``,
``interval``, ``fit``, frozen distributions ``norm(loc, scale)``), as SciPy's own.
Every continuous parameter is differentiable; counts (a Poisson's ``k``, a binomial's
``n``) raise LookupError when differentiated.

>>> import tapegrad as tg
>>> from tapegrad.scipy.stats import norm
>>> loc = tg.tensor(0.5)
>>> with tg.GradientTape() as tape:
...     tape.watch(loc)
...     y = norm.logpdf(2.0, loc=loc, scale=1.0)
>>> tape.gradient(y, loc).item()  # (x - loc) / scale²
1.5
"""

from tapegrad.scipy.stats import _matrix_variate as _matrices
from tapegrad.scipy.stats import _multivariate_counts as _counts
from tapegrad.scipy.stats import _multivariate_t as _t
from tapegrad.scipy.stats import dirichlet as _dirichlet
from tapegrad.scipy.stats import multivariate_normal as _multivariate_normal
from tapegrad.scipy.stats._continuous import DECLARED as _CONTINUOUS
from tapegrad.scipy.stats._discrete import DECLARED as _DISCRETE
from tapegrad.scipy.stats._distribution import Distribution, Frozen
from tapegrad.scipy.stats._family import Continuous as _Continuous
from tapegrad.scipy.stats._family import Discrete as _Discrete
from tapegrad.scipy.stats._family import methods as _methods
from tapegrad.scipy.stats._kde import gaussian_kde
from tapegrad.scipy.stats._moments import (
    describe,
    gmean,
    hmean,
    kurtosis,
    moment,
    pearsonr,
    pmean,
    skew,
    variation,
)
from tapegrad.scipy.stats._robust import (
    gstd,
    iqr,
    median_abs_deviation,
    trim1,
    trim_mean,
    trimboth,
)
from tapegrad.scipy.stats._statistics import entropy, sem, zscore
from tapegrad.scipy.stats._trimmed import tmax, tmean, tmin, tsem, tstd, tvar

# Each distribution: its module's functions record, the rest of SciPy's interface is SciPy's.
dirichlet = Distribution("dirichlet", _dirichlet)
multivariate_normal = Distribution("multivariate_normal", _multivariate_normal)
multinomial = Distribution("multinomial", _counts.MULTINOMIAL, "The multinomial distribution.")
dirichlet_multinomial = Distribution(
    "dirichlet_multinomial",
    _counts.DIRICHLET_MULTINOMIAL,
    "The Dirichlet-multinomial distribution.",
)
multivariate_t = Distribution("multivariate_t", _t.MULTIVARIATE_T, "The multivariate t.")
wishart = Distribution("wishart", _matrices.WISHART, "The Wishart distribution.")
invwishart = Distribution("invwishart", _matrices.INVWISHART, "The inverse Wishart distribution.")
matrix_normal = Distribution("matrix_normal", _matrices.MATRIX_NORMAL, "The matrix normal.")

# The declared ones (tapegrad/scipy/stats/_family.py): their formulas give every method.
_SPECS: list[_Continuous | _Discrete] = [*_CONTINUOUS, *_DISCRETE]
_DECLARED = {spec.name: Distribution(spec.name, _methods(spec), spec.doc) for spec in _SPECS}
globals().update(_DECLARED)

__all__ = [
    "Distribution", "Frozen", "dirichlet", "multivariate_normal", "entropy", "sem", "zscore",
    "gaussian_kde", "multinomial", "dirichlet_multinomial", "multivariate_t", "wishart",
    "invwishart", "matrix_normal", "describe", "gmean", "hmean", "kurtosis", "moment",
    "pearsonr", "pmean", "skew", "variation", "gstd", "iqr", "median_abs_deviation", "tmax",
    "tmean", "tmin", "trim1", "trim_mean", "trimboth", "tsem", "tstd", "tvar",
    *_DECLARED,
]  # fmt: skip


def __getattr__(name: str) -> object:
    """SciPy's own object for a name tapegrad does not define (it takes plain arrays)."""
    if name.startswith("__"):
        raise AttributeError(name)
    import scipy.stats

    try:
        return getattr(scipy.stats, name)
    except AttributeError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
