"""scipy.stats: each declared distribution's methods in x and every parameter (loc,
scale, shapes).

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
FUNCTIONS: list[str] = []
ROWS: list[Sample] = []
REFUSALS: list[Refusal] = []

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
    "nct": (
        lambda x: 4.0 * x - 2.2,
        {"df": (4.5, lambda y: 2.5 + 3.0 * y), "nc": (-0.7, lambda y: 3.0 * y - 2.0)},
    ),
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
# The same, refused with LookupError (a parameter with no derivative built, as Bessel orders).
REFUSED_LOOKUP = {("nct", method, "df") for method in (*POINT_METHODS, *QUANTILES)}


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
            if (_name, _method, _vary) in REFUSED_LOOKUP:
                REFUSALS.append(
                    Refusal(f"stats.{_name}.{_method}", _vary, _differentiated(call), LookupError)
                )
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
