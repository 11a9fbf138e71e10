"""scipy.stats: each distribution's methods in x and every parameter (loc, scale, shapes),
frozen distributions, and the statistics functions.

The declared distributions (tapegrad/scipy/stats/_family.py) get one row per method and
parameter: the point (or quantile) is ``x``, the parameter named in the label is ``y``
mapped into its domain, the others fixed. tests/scipy/test_scipy_stats_more.py checks that
every shape, ``loc`` and ``scale`` of every differentiable method has a row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below:
# none, distribution methods take ``(x, *args, **kwds)`` (see the module's docstring).
FUNCTIONS: list[str] = ["stats.zscore", "stats.sem", "stats.entropy", "stats.gaussian_kde"]


def _kde_cov(y: Any) -> Any:
    """An SPD 2x2 covariance from ``y``."""
    return y[:2, :2] @ y[:2, :2].T


ROWS: list[Sample] = [
    Sample("stats.zscore", "default", lambda m, x, y: m.stats.zscore(x)),
    Sample("stats.zscore", "axis=1, ddof=1", lambda m, x, y: m.stats.zscore(x, axis=1, ddof=1)),
    Sample("stats.zscore", "axis=None", lambda m, x, y: m.stats.zscore(x, axis=None)),
    Sample(
        "stats.zscore",
        "nan_policy='propagate'",
        lambda m, x, y: m.stats.zscore(x, nan_policy="propagate"),
    ),
    Sample(
        "stats.zscore",
        "nan_policy='omit'",
        lambda m, x, y: m.stats.zscore(x, axis=1, nan_policy="omit"),
    ),
    Sample("stats.sem", "default", lambda m, x, y: m.stats.sem(x)),
    Sample("stats.sem", "axis=1, ddof=0", lambda m, x, y: m.stats.sem(x, axis=1, ddof=0)),
    Sample(
        "stats.sem", "axis=None, keepdims", lambda m, x, y: m.stats.sem(x, axis=None, keepdims=True)
    ),
    Sample("stats.sem", "keepdims=True", lambda m, x, y: m.stats.sem(x, keepdims=True)),
    Sample("stats.sem", "nan_policy='omit'", lambda m, x, y: m.stats.sem(x, nan_policy="omit")),
    Sample("stats.entropy", "default", lambda m, x, y: m.stats.entropy(x)),
    Sample("stats.entropy", "qk", lambda m, x, y: m.stats.entropy(x, qk=y)),
    Sample("stats.entropy", "base=2, axis=1", lambda m, x, y: m.stats.entropy(x, base=2, axis=1)),
    Sample(
        "stats.entropy",
        "keepdims, nan_policy='propagate'",
        lambda m, x, y: m.stats.entropy(x, y, keepdims=True, nan_policy="propagate"),
    ),
]

ROWS += [
    Sample(
        "stats.gaussian_kde",
        "evaluate, default",
        lambda m, x, y: m.stats.gaussian_kde(x[:2]).evaluate(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "logpdf, bw_method='scott'",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], bw_method="scott").logpdf(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "pdf, bw_method='silverman'",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], bw_method="silverman").pdf(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "__call__, bw_method=scalar",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], bw_method=0.6)(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "bw_method=callable",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], bw_method=lambda k: k.neff**-0.3)(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "weights",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], weights=y[2]).logpdf(y[:2]),
    ),
    Sample(
        "stats.gaussian_kde",
        "1-d, weights, silverman",
        lambda m, x, y: m.stats.gaussian_kde(x[0], "silverman", weights=y[2])(y[1]),
    ),
    Sample(
        "stats.gaussian_kde",
        "one point (d,)",
        lambda m, x, y: m.stats.gaussian_kde(x[:2]).logpdf(y[:2, 1]),
    ),
    Sample(
        "stats.gaussian_kde",
        "integrate_gaussian",
        lambda m, x, y: m.stats.gaussian_kde(x[:2], weights=x[2]).integrate_gaussian(
            y[:2, 0], _kde_cov(y)
        ),
    ),
    Sample(
        "stats.gaussian_kde",
        "integrate_box_1d",
        lambda m, x, y: m.stats.gaussian_kde(x[0], weights=x[1]).integrate_box_1d(
            y[0, 0], y[0, 1] + 0.3
        ),
    ),
]

REFUSALS: list[Refusal] = [
    Refusal(
        "stats.entropy",
        "nan_policy='omit'",
        lambda m, x, y: m.stats.entropy(x, nan_policy="omit"),
        NotImplementedError,
    ),
]

Map = Callable[[Any], Any]
# name -> (the standardized point from x, {parameter: (fixed value, value from y)}); loc
# and scale follow for every continuous one.
CONTINUOUS: dict[str, tuple[Map, dict[str, tuple[float, Map]]]] = {
    "norm": (lambda x: 4.0 * x - 2.2, {}),
    "t": (lambda x: 4.0 * x - 2.2, {"df": (4.5, lambda y: 2.5 + 3.0 * y)}),
    "gamma": (lambda x: 3.0 * x, {"a": (2.5, lambda y: 1.5 + 2.0 * y)}),
    "chi2": (lambda x: 4.0 * x, {"df": (3.5, lambda y: 2.5 + 2.0 * y)}),
    "beta": (
        lambda x: x,
        {"a": (1.8, lambda y: 1.2 + 2.0 * y), "b": (2.4, lambda y: 1.5 + 2.0 * y)},
    ),
    "expon": (lambda x: x + 0.2, {}),
    "uniform": (lambda x: x, {}),
    "laplace": (lambda x: 4.0 * x - 2.2, {}),
    "cauchy": (lambda x: 4.0 * x - 2.2, {}),
    "logistic": (lambda x: 4.0 * x - 2.2, {}),
    "lognorm": (lambda x: 2.0 * x, {"s": (0.8, lambda y: 0.5 + y)}),
    "pareto": (lambda x: 1.0 + 2.0 * x, {"b": (2.5, lambda y: 2.0 + 2.0 * y)}),
    "gennorm": (lambda x: 4.0 * x - 2.2, {"beta": (2.2, lambda y: 1.5 + y)}),
    "truncnorm": (
        lambda x: 4.0 * x - 2.2,
        {"a": (-1.5, lambda y: -1.0 - y), "b": (1.6, lambda y: 1.3 + y)},
    ),
    "vonmises": (lambda x: 4.0 * x - 2.2, {"kappa": (1.3, lambda y: 0.5 + 2.0 * y)}),
    "wrapcauchy": (lambda x: 7.0 * x, {"c": (0.4, lambda y: 0.2 + 0.5 * y)}),
    "gumbel_l": (lambda x: 4.0 * x - 2.2, {}),
    "gumbel_r": (lambda x: 4.0 * x - 2.2, {}),
    "invgamma": (lambda x: 2.0 * x, {"a": (3.0, lambda y: 2.5 + y)}),
    "halfnorm": (lambda x: 2.0 * x, {}),
    "halfcauchy": (lambda x: 2.0 * x, {}),
    "weibull_min": (lambda x: 2.0 * x, {"c": (1.8, lambda y: 1.5 + y)}),
    "weibull_max": (lambda x: -2.0 * x, {"c": (1.8, lambda y: 1.5 + y)}),
    "chi": (lambda x: 2.0 * x, {"df": (2.5, lambda y: 1.5 + 2.0 * y)}),
    "rayleigh": (lambda x: 2.0 * x, {}),
    "rice": (lambda x: 3.0 * x, {"b": (1.2, lambda y: 0.5 + 2.0 * y)}),
    "skewnorm": (lambda x: 4.0 * x - 2.2, {"a": (1.7, lambda y: 3.0 * y - 1.2)}),
    "loggamma": (lambda x: 4.0 * x - 2.2, {"c": (2.3, lambda y: 1.0 + 3.0 * y)}),
    "gompertz": (lambda x: 2.0 * x, {"c": (0.8, lambda y: 0.4 + y)}),
    "genextreme": (lambda x: 3.0 * x - 1.2, {"c": (0.3, lambda y: y - 0.45)}),
}
LOC_SCALE = {"loc": (0.1, lambda y: y - 0.5), "scale": (1.3, lambda y: 0.5 + y)}
POINT_METHODS = ("logpdf", "pdf", "logcdf", "cdf", "logsf", "sf")
QUANTILES = ("ppf", "isf")
STATISTICS = ("mean", "var", "std", "entropy")

K = np.array([[0.0, 1.0, 2.0, 3.0], [4.0, 1.0, 2.0, 0.0], [3.0, 5.0, 1.0, 2.0]])
# name -> (the counts k, {parameter: (fixed value, value from y)}, counts' fixed values)
DISCRETE: dict[str, tuple[Any, dict[str, tuple[float, Map]], dict[str, float]]] = {
    "poisson": (K, {"mu": (2.5, lambda y: 1.0 + 3.0 * y)}, {}),
    "binom": (K, {"p": (0.4, lambda y: 0.2 + 0.5 * y)}, {"n": 6.0}),
    "bernoulli": (0.0 * K, {"p": (0.4, lambda y: 0.2 + 0.5 * y)}, {}),
    "geom": (K + 1.0, {"p": (0.3, lambda y: 0.2 + 0.5 * y)}, {}),
    "nbinom": (
        K,
        {"n": (2.5, lambda y: 1.5 + 2.0 * y), "p": (0.4, lambda y: 0.2 + 0.5 * y)},
        {},
    ),
    "betabinom": (
        K,
        {"a": (1.5, lambda y: 0.8 + 2.0 * y), "b": (2.5, lambda y: 1.2 + 2.0 * y)},
        {"n": 6.0},
    ),
}
DISCRETE_POINT_METHODS = ("logpmf", "pmf", "logcdf", "cdf", "logsf", "sf")

# (distribution, method, parameter) whose second derivative is not built: SciPy's quantile
# differentiated implicitly records the CDF's parameter derivative, which for the
# incomplete gamma and beta functions is first order only (tapegrad.scipy.special).
FIRST_ORDER_ONLY = {
    *{
        (name, method, shape)
        for name, shape in (("t", "df"), ("gamma", "a"), ("chi2", "df"), ("beta", "a"),
                            ("beta", "b"), ("loggamma", "c"))
        for method in ("cdf", "logcdf", "sf", "logsf", "ppf", "isf")
    },
    ("invgamma", "ppf", "a"), ("invgamma", "isf", "a"),
    ("chi", "ppf", "df"), ("chi", "isf", "df"),
    ("gennorm", "ppf", "beta"), ("gennorm", "isf", "beta"),
    ("gennorm", "cdf", "beta"), ("gennorm", "logcdf", "beta"),
    ("gennorm", "sf", "beta"), ("gennorm", "logsf", "beta"),
    ("invgamma", "cdf", "a"), ("invgamma", "logcdf", "a"),
    ("invgamma", "sf", "a"), ("invgamma", "logsf", "a"),
    ("chi", "cdf", "df"), ("chi", "logcdf", "df"), ("chi", "sf", "df"), ("chi", "logsf", "df"),
    ("nbinom", "cdf", "n"), ("nbinom", "logcdf", "n"), ("nbinom", "sf", "n"),
    ("nbinom", "logsf", "n"), ("nbinom", "cdf", "p"), ("nbinom", "logcdf", "p"),
    ("nbinom", "sf", "p"), ("nbinom", "logsf", "p"),
}  # fmt: skip
# (distribution, method, parameter) whose gradient tapegrad refuses (NotImplementedError):
# SciPy computes them with no closed form to differentiate.
REFUSED = {
    (name, method, shape)
    for name, shape in (("vonmises", "kappa"), ("rice", "b"))
    for method in ("logcdf", "cdf", "logsf", "sf", "ppf", "isf")
}


def _continuous_call(name: str, method: str, vary: str) -> Callable[..., Any]:
    point, shapes = CONTINUOUS[name]
    parameters = {**shapes, **LOC_SCALE}

    def call(m: Any, x: Any, y: Any) -> Any:
        values = {p: (f(y) if p == vary else fixed) for p, (fixed, f) in parameters.items()}
        args = [values[s] for s in shapes]
        loc, scale = values["loc"], values["scale"]
        distribution = getattr(m.stats, name)
        if method in STATISTICS:
            return getattr(distribution, method)(*args, loc=loc, scale=scale) + 0.0 * x
        if method in QUANTILES:
            return getattr(distribution, method)(x, *args, loc=loc, scale=scale)
        at = loc + scale * point(x)
        return getattr(distribution, method)(at, *args, loc=loc, scale=scale)

    return call


def _discrete_call(name: str, method: str, vary: str) -> Callable[..., Any]:
    k, shapes, counts = DISCRETE[name]

    def call(m: Any, x: Any, y: Any) -> Any:
        values = {p: (f(y) if p == vary else fixed) for p, (fixed, f) in shapes.items()}
        values.update(counts)
        args = [values[s] for s in getattr(m.stats, name).shapes.replace(" ", "").split(",")]
        distribution = getattr(m.stats, name)
        if method in ("mean", "var", "std"):
            return getattr(distribution, method)(*args) + 0.0 * x
        return getattr(distribution, method)(k, *args)

    return call


def _count_call(name: str, count: str) -> Callable[..., Any]:
    """``logpmf`` with the count ``count`` taken from ``y`` (a refusal: no gradient)."""
    k, shapes, counts = DISCRETE[name]

    def call(m: Any, x: Any, y: Any) -> Any:
        values = {p: fixed for p, (fixed, _) in shapes.items()}
        values.update(counts)
        values[count] = y * 0.0 + counts[count]
        names = getattr(m.stats, name).shapes.replace(" ", "").split(",")
        return getattr(m.stats, name).logpmf(k, *[values[s] for s in names])

    return call


def _differentiated(call: Callable[..., Any]) -> Callable[..., Any]:
    """The gradient of ``call`` in ``y``: a refusal raises when the tape differentiates."""

    def gradient(m: Any, x: Any, y: Any) -> Any:
        from tapegrad import ops
        from tapegrad.core.tape import GradientTape

        with GradientTape() as tape:
            tape.watch(y)
            total = ops.sum(call(m, x, y))
        return tape.gradient(total, y)

    return gradient


def _published() -> dict[str, tuple[str, ...]]:
    """Each declared distribution's methods that record (no closed form: SciPy's own)."""
    try:
        from tapegrad.scipy.stats._continuous import DECLARED as CONTINUOUS_SPECS
        from tapegrad.scipy.stats._family import methods
    except ImportError:  # no SciPy: the rows are skipped
        return {name: (*POINT_METHODS, *QUANTILES, *STATISTICS) for name in CONTINUOUS}

    return {spec.name: tuple(methods(spec)) for spec in CONTINUOUS_SPECS}


_PUBLISHED = _published()

for _name, (_point, _shapes) in CONTINUOUS.items():
    for _method in (*POINT_METHODS, *QUANTILES, *STATISTICS):
        for _vary in (*_shapes, *LOC_SCALE):
            if _method in STATISTICS and _method not in _PUBLISHED[_name]:
                continue  # SciPy computes them numerically: SciPy's own, plain arrays only
            label = f"in x and {_vary}"
            call = _continuous_call(_name, _method, _vary)
            if (_name, _method, _vary) in REFUSED:
                REFUSALS.append(Refusal(f"stats.{_name}.{_method}", _vary, _differentiated(call)))
                continue
            twice = (_name, _method, _vary) not in FIRST_ORDER_ONLY
            ROWS.append(Sample(f"stats.{_name}.{_method}", label, call, twice=twice))

for _name, (_k, _shapes, _counts) in DISCRETE.items():
    for _method in (*DISCRETE_POINT_METHODS, "mean", "var", "std"):
        for _vary in _shapes:
            twice = (_name, _method, _vary) not in FIRST_ORDER_ONLY
            ROWS.append(
                Sample(
                    f"stats.{_name}.{_method}",
                    f"in {_vary}",
                    _discrete_call(_name, _method, _vary),
                    twice=twice,
                )
            )
    for _count in _counts:
        REFUSALS.append(
            Refusal(
                f"stats.{_name}.logpmf",
                _count,
                _differentiated(_count_call(_name, _count)),
                LookupError,
            )
        )

# --- the multivariate distributions --------------------------------------------------------

FUNCTIONS += ["stats.multivariate_t.logpdf", "stats.matrix_normal.logpdf"]
COUNTS = np.array([[1, 2, 0, 3], [0, 0, 6, 0], [1, 1, 3, 1]])


def _simplex(y: Any) -> Any:
    return y[0] / y[0].sum()


def _spd(x: Any) -> Any:
    return x @ x.T + np.eye(3)


ROWS += [
    Sample(
        "stats.multinomial.logpmf",
        "in p",
        lambda m, x, y: m.stats.multinomial.logpmf(COUNTS, 6, _simplex(y)) + 0.0 * x[0, 0],
    ),
    Sample(
        "stats.multinomial.pmf",
        "in p, broadcast p",
        lambda m, x, y: m.stats.multinomial.pmf(COUNTS, 6, x / x.sum(axis=1, keepdims=True)),
    ),
    Sample(
        "stats.multinomial.mean", "in p", lambda m, x, y: m.stats.multinomial.mean(6, _simplex(y))
    ),
    Sample(
        "stats.multinomial.cov", "in p", lambda m, x, y: m.stats.multinomial.cov(6, _simplex(y))
    ),
    Sample(
        "stats.dirichlet_multinomial.logpmf",
        "in alpha",
        lambda m, x, y: m.stats.dirichlet_multinomial.logpmf(COUNTS, 1.0 + 2.0 * y[0], 6),
    ),
    Sample(
        "stats.dirichlet_multinomial.pmf",
        "in alpha",
        lambda m, x, y: m.stats.dirichlet_multinomial.pmf(COUNTS, 0.5 + x, 6),
    ),
    Sample(
        "stats.dirichlet_multinomial.mean",
        "in alpha",
        lambda m, x, y: m.stats.dirichlet_multinomial.mean(1.0 + y, 6),
    ),
    Sample(
        "stats.multivariate_t.logpdf",
        "loc, shape, df",
        lambda m, x, y: m.stats.multivariate_t.logpdf(
            x[:, :3], loc=y[0, :3], shape=_spd(y), df=2.5 + y[1, 0]
        ),
    ),
    Sample(
        "stats.multivariate_t.logpdf",
        "default (d = 1)",
        lambda m, x, y: m.stats.multivariate_t.logpdf(x[0]),
    ),
    Sample(
        "stats.multivariate_t.logpdf",
        "shape diagonal, df=inf",
        lambda m, x, y: m.stats.multivariate_t.logpdf(x, loc=y[0], shape=0.5 + y[1], df=np.inf),
    ),
    Sample(
        "stats.multivariate_t.pdf",
        "loc, shape, df",
        lambda m, x, y: m.stats.multivariate_t.pdf(
            x[:, :3], y[0, :3], _spd(y) * 0.3, 3.0 + y[1, 0]
        ),
    ),
    Sample(
        "stats.wishart.logpdf",
        "in x, df, scale",
        lambda m, x, y: m.stats.wishart.logpdf(_spd(x), 3.5 + y[0, 0], _spd(y)),
    ),
    Sample(
        "stats.wishart.pdf",
        "in x, df, scale",
        lambda m, x, y: m.stats.wishart.pdf(_spd(x) * 0.5, 4.5 + y[0, 0], _spd(y) * 0.3),
    ),
    Sample(
        "stats.invwishart.logpdf",
        "in x, df, scale",
        lambda m, x, y: m.stats.invwishart.logpdf(_spd(x), 3.5 + y[0, 0], _spd(y)),
    ),
    Sample(
        "stats.invwishart.pdf",
        "in x, df, scale",
        lambda m, x, y: m.stats.invwishart.pdf(_spd(x), 4.5 + y[0, 0], _spd(y)),
    ),
    Sample(
        "stats.matrix_normal.logpdf",
        "mean, rowcov, colcov",
        lambda m, x, y: m.stats.matrix_normal.logpdf(
            x, mean=y, rowcov=_spd(y), colcov=y.T @ y + np.eye(4)
        ),
    ),
    Sample(
        "stats.matrix_normal.pdf",
        "mean, scalar rowcov, colcov",
        lambda m, x, y: m.stats.matrix_normal.pdf(
            x[:2, :2], mean=y[:2, :2], rowcov=0.5 + y[2, 0], colcov=0.5 + y[2, 1:3]
        ),
    ),
]
REFUSALS += [
    Refusal(
        "stats.multinomial.logpmf",
        "x",
        _differentiated(
            lambda m, x, y: m.stats.multinomial.logpmf(y * 0.0 + COUNTS, 6, [0.25] * 4)
        ),
        LookupError,
    ),
    Refusal(
        "stats.dirichlet_multinomial.logpmf",
        "n",
        _differentiated(
            lambda m, x, y: m.stats.dirichlet_multinomial.logpmf(COUNTS, 1.0 + x, y[0, 0] * 0 + 6)
        ),
        LookupError,
    ),
]

# --- moment statistics ---------------------------------------------------------------------

FUNCTIONS += [
    "stats.moment", "stats.skew", "stats.kurtosis", "stats.variation", "stats.gmean",
    "stats.hmean", "stats.pmean", "stats.describe", "stats.pearsonr",
]  # fmt: skip
ROWS += [
    Sample("stats.moment", "order=3", lambda m, x, y: m.stats.moment(x, order=3)),
    Sample("stats.moment", "order=0", lambda m, x, y: m.stats.moment(x, 0) + y[0]),
    Sample(
        "stats.moment",
        "center, axis=1, keepdims",
        lambda m, x, y: m.stats.moment(x, 2, axis=1, center=0.5, keepdims=True),
    ),
    Sample(
        "stats.moment",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.moment(x, 4, axis=None, nan_policy="propagate"),
    ),
    Sample("stats.skew", "default", lambda m, x, y: m.stats.skew(x)),
    Sample(
        "stats.skew",
        "axis=1, bias=False, keepdims",
        lambda m, x, y: m.stats.skew(x, axis=1, bias=False, keepdims=True),
    ),
    Sample(
        "stats.skew",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.skew(x, axis=None, nan_policy="propagate"),
    ),
    Sample("stats.kurtosis", "default", lambda m, x, y: m.stats.kurtosis(x, axis=1)),
    Sample(
        "stats.kurtosis",
        "fisher=False, bias=False",
        lambda m, x, y: m.stats.kurtosis(x, axis=1, fisher=False, bias=False),
    ),
    Sample(
        "stats.kurtosis",
        "axis=None, keepdims, nan_policy='propagate'",
        lambda m, x, y: m.stats.kurtosis(x, axis=None, keepdims=True, nan_policy="propagate"),
    ),
    Sample("stats.variation", "default", lambda m, x, y: m.stats.variation(x)),
    Sample(
        "stats.variation",
        "axis=1, ddof=1, keepdims, nan_policy='propagate'",
        lambda m, x, y: m.stats.variation(x, axis=1, ddof=1, keepdims=True, nan_policy="propagate"),
    ),
    Sample("stats.gmean", "default", lambda m, x, y: m.stats.gmean(x)),
    Sample(
        "stats.gmean",
        "axis=1, weights, keepdims",
        lambda m, x, y: m.stats.gmean(x, axis=1, weights=y, keepdims=True),
    ),
    Sample(
        "stats.gmean",
        "axis=None, dtype=float64, nan_policy='propagate'",
        lambda m, x, y: m.stats.gmean(x, axis=None, dtype="float64", nan_policy="propagate"),
    ),
    Sample("stats.hmean", "default", lambda m, x, y: m.stats.hmean(x)),
    Sample(
        "stats.hmean",
        "axis=1, weights, keepdims, dtype=None",
        lambda m, x, y: m.stats.hmean(x, axis=1, dtype=None, weights=y, keepdims=True),
    ),
    Sample(
        "stats.hmean",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.hmean(x, axis=None, nan_policy="propagate"),
    ),
    Sample("stats.pmean", "p=2.5", lambda m, x, y: m.stats.pmean(x, 2.5)),
    Sample("stats.pmean", "p=0", lambda m, x, y: m.stats.pmean(x, 0, weights=y)),
    Sample(
        "stats.pmean",
        "p=-1.5, axis=1, weights, keepdims, dtype=None",
        lambda m, x, y: m.stats.pmean(x, -1.5, axis=1, dtype=None, weights=y, keepdims=True),
    ),
    Sample(
        "stats.pmean",
        "axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.pmean(x, 3.0, axis=None, nan_policy="propagate"),
    ),
    Sample("stats.describe", "mean", lambda m, x, y: m.stats.describe(x).mean),
    Sample("stats.describe", "minmax", lambda m, x, y: m.stats.describe(x).minmax[1]),
    Sample(
        "stats.describe",
        "variance, axis=1, ddof=0",
        lambda m, x, y: m.stats.describe(x, axis=1, ddof=0).variance,
    ),
    Sample(
        "stats.describe",
        "skewness, bias=False",
        lambda m, x, y: m.stats.describe(x, axis=1, bias=False).skewness,
    ),
    Sample(
        "stats.describe",
        "kurtosis, axis=None, nan_policy='propagate'",
        lambda m, x, y: m.stats.describe(x, axis=None, nan_policy="propagate").kurtosis,
    ),
    Sample("stats.pearsonr", "statistic", lambda m, x, y: m.stats.pearsonr(x, y, axis=1).statistic),
    Sample(
        "stats.pearsonr",
        "pvalue, alternative='two-sided'",
        lambda m, x, y: m.stats.pearsonr(x, y, alternative="two-sided", axis=1).pvalue,
    ),
    Sample(
        "stats.pearsonr",
        "pvalue, alternative='less', axis=None",
        lambda m, x, y: m.stats.pearsonr(x, y, alternative="less", axis=None).pvalue,
    ),
    Sample(
        "stats.pearsonr",
        "pvalue, alternative='greater', axis=0",
        lambda m, x, y: m.stats.pearsonr(x, y, alternative="greater", axis=0).pvalue,
    ),
]
REFUSALS += [
    Refusal(
        "stats.skew",
        "nan_policy='omit'",
        lambda m, x, y: m.stats.skew(x, nan_policy="omit"),
        NotImplementedError,
    ),
    Refusal(
        "stats.pearsonr",
        "method=PermutationMethod",
        lambda m, x, y: m.stats.pearsonr(
            x, y, method=__import__("scipy.stats").stats.PermutationMethod()
        ),
        NotImplementedError,
    ),
]
