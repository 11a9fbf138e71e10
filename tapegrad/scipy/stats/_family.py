"""The machinery every distribution of tapegrad.scipy.stats shares: a distribution is
declared by its few standardized formulas, and gets SciPy's whole set of methods from them.

A continuous distribution (:class:`Continuous`) gives its log density in the standardized
variable ``z = (x - loc) / scale`` and its shape parameters, its support, and whatever
closed forms it has (CDF, survival function and their logs, quantiles, mean, variance,
entropy). :func:`methods` turns it into SciPy's methods, parsed as SciPy parses them
(``logpdf(x, *shapes, loc=0, scale=1)``, shapes by name too), each differentiable in ``x``
and every parameter:

- ``logpdf pdf logcdf cdf logsf sf``: ``-inf`` (0, 1) outside the support, SciPy's NaN
  for an invalid shape or ``scale <= 0``; a missing closed form comes from the others
  (``cdf = exp(logcdf)``, ``sf = 1 - cdf`` ...), or, where none exists, from SciPy's own
  kernel with the density as its derivative in ``x`` (a shape's derivative then raises
  NotImplementedError naming it);
- ``ppf isf``: the closed form, or SciPy's quantile differentiated by the implicit
  function theorem: ``d ppf/dq = 1 / pdf(ppf(q))`` and ``d ppf/dθ = -(dcdf/dθ) / pdf``,
  ``dcdf/dθ`` taken by recording the CDF at the quantile;
- ``mean var std entropy``: the formulas in the shapes, with ``loc`` and ``scale``.

A discrete distribution (:class:`Discrete`) gives its log mass on the integers of its
support and its CDF and survival function at ``floor(k)``; its counts (``k``, ``loc`` and
integer shapes such as a binomial's ``n``) raise LookupError when differentiated.

>>> import tapegrad as tg
>>> from tapegrad.scipy.stats import expon
>>> scale = tg.tensor(2.0)
>>> tg.grad(lambda s: expon.logpdf(3.0, loc=1.0, scale=s))(scale).item()  # (z - 1) / s
0.0
>>> round(tg.grad(lambda q: expon.ppf(q, scale=2.0))(tg.tensor(0.5)).item(), 12)  # 1 / pdf
4.0
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.stats._continuous_methods import _ContinuousMethods
from tapegrad.scipy.stats._discrete_methods import _DiscreteMethods
from tapegrad.scipy.stats._spec import INF, NAN, Continuous, Discrete, Formula

# The declarations are _spec.py's, the methods _continuous_methods.py's and
# _discrete_methods.py's; the distributions' modules import them from here.
__all__ = [
    "CONTINUOUS_METHODS", "DISCRETE_METHODS", "INF", "NAN", "STATISTICS", "Continuous",
    "Discrete", "Formula", "methods",
]  # fmt: skip

CONTINUOUS_METHODS = (
    "logpdf", "pdf", "logcdf", "cdf", "logsf", "sf", "ppf", "isf", "mean", "var", "std",
    "entropy",
)  # fmt: skip
DISCRETE_METHODS = ("logpmf", "pmf", "logcdf", "cdf", "logsf", "sf", "mean", "var", "std")
# The methods of no point: a frozen distribution calls them with its parameters alone.
STATISTICS = ("mean", "var", "std", "entropy")


def _publish(name: str, method: str, f: Callable[..., Any], doc: str) -> Callable[..., Any]:
    """``f`` as the public method ``method`` of ``scipy.stats.<name>``: SciPy's own on plain
    arrays, recorded on Tensors."""

    def call(*args: Any, **kwds: Any) -> Tensor:
        return f(*args, **kwds)

    call.__name__ = call.__qualname__ = method
    call.__module__ = f"tapegrad.scipy.stats.{name}"
    call.__doc__ = doc
    return plain_calls_scipy(f"stats.{name}")(call)


_DOCS = {
    "logpdf": "The log density at ``x``: -inf outside the support.",
    "pdf": "The density at ``x``.",
    "logcdf": "The log of the cumulative distribution function.",
    "cdf": "The cumulative distribution function.",
    "logsf": "The log of the survival function.",
    "sf": "The survival function ``1 - cdf``.",
    "ppf": "The quantile function (inverse of ``cdf``), differentiable in ``q`` and the "
    "parameters (implicitly where SciPy computes it).",
    "isf": "The inverse of the survival function.",
    "mean": "The mean, in the parameters.",
    "var": "The variance, in the parameters.",
    "std": "The standard deviation, in the parameters.",
    "entropy": "The differential entropy, in the parameters.",
    "logpmf": "The log probability mass at ``k``: -inf off the support's integers.",
    "pmf": "The probability mass at ``k``.",
}


def methods(spec: Continuous | Discrete) -> dict[str, Callable[..., Any]]:
    """The public methods of a declared distribution, by name."""
    impl: Any
    if isinstance(spec, Continuous):
        impl, names = _ContinuousMethods(spec), CONTINUOUS_METHODS
        signature = f"({', '.join(('x', *spec.shapes, 'loc=0', 'scale=1'))})"
    else:
        impl, names = _DiscreteMethods(spec), DISCRETE_METHODS
        signature = f"({', '.join(('k', *spec.shapes, 'loc=0'))})"
    out = {}
    for method in names:
        formula = "var" if method == "std" else method
        if method in STATISTICS and getattr(spec, formula, None) is None:
            continue  # no closed form: SciPy's own (plain arrays)
        doc = (
            f"{_DOCS[method]}\n\n``scipy.stats.{spec.name}.{method}{signature}``, recorded "
            "on Tensors (SciPy's own on plain arrays)."
        )
        out[method] = _publish(spec.name, method, getattr(impl, method), doc)
    return out
