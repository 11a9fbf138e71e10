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

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, shape_of, unbroadcast
from tapegrad.scipy._dispatch import kernel, plain_calls_scipy, refuse_gradient

NAN, INF = math.nan, math.inf
Formula = Callable[..., Any]
CONTINUOUS_METHODS = (
    "logpdf", "pdf", "logcdf", "cdf", "logsf", "sf", "ppf", "isf", "mean", "var", "std",
    "entropy",
)  # fmt: skip
DISCRETE_METHODS = ("logpmf", "pmf", "logcdf", "cdf", "logsf", "sf", "mean", "var", "std")
# The methods of no point: a frozen distribution calls them with its parameters alone.
STATISTICS = ("mean", "var", "std", "entropy")


def _positive(*shapes: Any) -> Any:
    """SciPy's default argument check: every shape parameter positive."""
    ok: Any = True
    for s in shapes:
        ok = ops.logical_and(ok, ops.greater(s, 0.0))
    return ok


@dataclass
class Continuous:
    """A continuous distribution by its standardized formulas (``z`` standardized, then
    the shapes). Formulas are evaluated only at points of the support (others stand in
    elsewhere), so they need not guard against points outside it.

    Args:
        name: SciPy's name (``scipy.stats.<name>``).
        shapes: The shape parameters' names, in SciPy's order.
        logpdf: ``logpdf(z, *shapes)``.
        support: ``support(*shapes) -> (lower, upper)`` of ``z``.
        inner: ``inner(*shapes)``: a point inside the support (a harmless stand-in).
        argcheck: ``argcheck(*shapes)``: where the shapes are valid (all positive if None).
        logcdf, cdf, logsf, sf: closed forms, where there are.
        ppf, isf: closed-form quantiles in ``q`` and the shapes; SciPy's kernel
            differentiated implicitly where None.
        mean, var, entropy: the standardized distribution's, in the shapes.
    """

    name: str
    shapes: tuple[str, ...]
    logpdf: Formula
    support: Formula = lambda *shapes: (-INF, INF)
    inner: Formula | None = None
    argcheck: Formula = _positive
    logcdf: Formula | None = None
    cdf: Formula | None = None
    logsf: Formula | None = None
    sf: Formula | None = None
    ppf: Formula | None = None
    isf: Formula | None = None
    mean: Formula | None = None
    var: Formula | None = None
    entropy: Formula | None = None
    doc: str = ""
    _quantiles: dict[str, Primitive] = field(default_factory=dict, repr=False)


def _parse(
    spec_name: str,
    method: str,
    names: tuple[str, ...],
    defaults: dict[str, Any],
    args: Any,
    kwds: Any,
) -> list[Any]:
    """The values of ``names`` from SciPy-style ``*args, **kwds`` (``loc``/``scale``
    defaulting), with SciPy's TypeErrors for missing, doubled or unknown ones."""
    where = f"{spec_name}.{method}"
    if len(args) > len(names):
        raise TypeError(f"{where}: too many arguments: takes at most {len(names)} parameters")
    values = dict(zip(names, args))
    for key, value in kwds.items():
        if key not in names:
            raise TypeError(f"{where}() got an unexpected keyword argument {key!r}")
        if key in values:
            raise TypeError(f"{where}() got multiple values for argument {key!r}")
        values[key] = value
    for key, value in defaults.items():
        values.setdefault(key, value)
    missing = [n for n in names if n not in values]
    if missing:
        raise TypeError(f"{where}() missing required argument(s): {', '.join(missing)}")
    return [values[n] for n in names]


def _fill(condition: Any, value: Any, outside: float) -> Any:
    return ops.where(condition, value, outside)


def _not(a: Any) -> Any:
    return ops.logical_not(a)


# --- continuous ---------------------------------------------------------------------------


class _ContinuousMethods:
    """The methods of one :class:`Continuous`, as plain functions of SciPy's arguments."""

    def __init__(self, spec: Continuous) -> None:
        self.spec = spec

    # the pieces
    def parse(self, method: str, args: Any, kwds: Any) -> tuple[list[Any], Any, Any]:
        names = (*self.spec.shapes, "loc", "scale")
        *shapes, loc, scale = _parse(
            self.spec.name, method, names, {"loc": 0.0, "scale": 1.0}, args, kwds
        )
        return shapes, loc, scale

    def valid(self, value: Any, shapes: list[Any], scale: Any) -> Any:
        """``value``, NaN where a shape or the scale is invalid."""
        ok = ops.logical_and(self.spec.argcheck(*shapes), ops.greater(scale, 0.0))
        return ops.where(ok, value, NAN)

    def inner(self, shapes: list[Any]) -> Any:
        if self.spec.inner is not None:
            return self.spec.inner(*shapes)
        lower, upper = self.spec.support(*shapes)
        low_finite = not (isinstance(lower, float) and math.isinf(lower))
        high_finite = not (isinstance(upper, float) and math.isinf(upper))
        if low_finite and high_finite:
            return 0.5 * (lower + upper) if isinstance(lower, float) else (lower + upper) * 0.5
        if low_finite:
            return lower + 1.0
        if high_finite:
            return upper - 1.0
        return 0.0

    def where_z(self, x: Any, shapes: list[Any], loc: Any, scale: Any) -> tuple[Any, ...]:
        """``z``, masks below / inside / above the (closed) support, and ``z`` with a point
        of the support standing in outside it (the formulas' argument)."""
        z = ops.divide(ops.subtract(x, loc), scale)
        lower, upper = self.spec.support(*shapes)
        below, above = ops.less(z, lower), ops.greater(z, upper)
        inside = _not(ops.logical_or(ops.logical_or(below, above), ops.isnan(z)))
        return z, below, inside, above, ops.where(inside, z, self.inner(shapes))

    def nan_at_nan(self, value: Any, z: Any) -> Any:
        return ops.where(ops.isnan(z), NAN, value)

    # the density
    def logpdf(self, x: Any, *args: Any, **kwds: Any) -> Any:
        shapes, loc, scale = self.parse("logpdf", args, kwds)
        z, _, inside, _, safe = self.where_z(x, shapes, loc, scale)
        value = ops.subtract(self.spec.logpdf(safe, *shapes), ops.log(scale))
        return self.valid(self.nan_at_nan(_fill(inside, value, -INF), z), shapes, scale)

    def pdf(self, x: Any, *args: Any, **kwds: Any) -> Any:
        return ops.exp(self.logpdf(x, *args, **kwds))

    # the distribution function, from whichever closed forms there are
    def _standard(self, which: str, safe: Any, shapes: list[Any]) -> Any:
        s = self.spec
        given = getattr(s, which)
        if given is not None:
            return given(safe, *shapes)
        if which == "cdf":
            if s.logcdf is not None:
                return ops.exp(s.logcdf(safe, *shapes))
            if s.sf is not None or s.logsf is not None:
                return 1.0 - self._standard("sf", safe, shapes)
            return self._kernel("cdf")(safe, *shapes)
        if which == "sf":
            if s.logsf is not None:
                return ops.exp(s.logsf(safe, *shapes))
            if s.cdf is not None or s.logcdf is not None:
                return 1.0 - self._standard("cdf", safe, shapes)
            return self._kernel("sf")(safe, *shapes)
        if which == "logcdf":
            if s.cdf is None and (s.sf is not None or s.logsf is not None):
                return ops.log1p(-self._standard("sf", safe, shapes))
            return ops.log(self._standard("cdf", safe, shapes))
        # logsf
        if s.sf is None and (s.cdf is not None or s.logcdf is not None):
            return ops.log1p(-self._standard("cdf", safe, shapes))
        return ops.log(self._standard("sf", safe, shapes))

    def _distribution(self, which: str, x: Any, args: Any, kwds: Any) -> Any:
        shapes, loc, scale = self.parse(which, args, kwds)
        z, below, inside, above, safe = self.where_z(x, shapes, loc, scale)
        value = self._standard(which, safe, shapes)
        low, high = {"cdf": (0.0, 1.0), "sf": (1.0, 0.0), "logcdf": (-INF, 0.0)}.get(
            which, (0.0, -INF)
        )
        value = ops.where(below, low, ops.where(above, high, value))
        return self.valid(self.nan_at_nan(value, z), shapes, scale)

    def cdf(self, x: Any, *args: Any, **kwds: Any) -> Any:
        return self._distribution("cdf", x, args, kwds)

    def logcdf(self, x: Any, *args: Any, **kwds: Any) -> Any:
        return self._distribution("logcdf", x, args, kwds)

    def sf(self, x: Any, *args: Any, **kwds: Any) -> Any:
        return self._distribution("sf", x, args, kwds)

    def logsf(self, x: Any, *args: Any, **kwds: Any) -> Any:
        return self._distribution("logsf", x, args, kwds)

    def _kernel(self, which: str) -> Primitive:
        """SciPy's standardized ``cdf``/``sf`` as a primitive: the density is its derivative
        in ``z``; the shapes' derivatives are not built."""
        key = f"kernel_{which}"
        if key not in self.spec._quantiles:
            name, spec = self.spec.name, self.spec
            sign = 1.0 if which == "cdf" else -1.0

            def forward(xp: Any, z: Any, *shapes: Any) -> Any:
                return np.asarray(getattr(kernel(xp, "stats", name), which)(z, *shapes), float)

            def rule_z(g: Any, ans: Any, z: Any, *shapes: Any) -> Any:
                return unbroadcast(sign * g * ops.exp(spec.logpdf(z, *shapes)), shape_of(z))

            def rule_shape(k: int) -> Any:
                def rule(g: Any, ans: Any, z: Any, *shapes: Any) -> Any:
                    raise NotImplementedError(
                        f"scipy.stats.{name}.{which}: no gradient in the shape "
                        f"{spec.shapes[k]!r} (SciPy has no closed form to differentiate)"
                    )

                return rule

            rules = [rule_z, *(rule_shape(k) for k in range(len(spec.shapes)))]
            self.spec._quantiles[key] = Primitive(
                f"{name}.{which}", forward, complex_rules=False
            ).defvjp(*rules)
        return self.spec._quantiles[key]

    # the quantiles
    def _quantile(self, which: str) -> Primitive:
        """SciPy's standardized ``ppf``/``isf``, differentiated implicitly."""
        if which not in self.spec._quantiles:
            name, spec, methods = self.spec.name, self.spec, self
            sign = 1.0 if which == "ppf" else -1.0

            def forward(xp: Any, q: Any, *shapes: Any) -> Any:
                return np.asarray(getattr(kernel(xp, "stats", name), which)(q, *shapes), float)

            def density(ans: Any, shapes: tuple[Any, ...]) -> Any:
                return ops.exp(spec.logpdf(ans, *shapes))

            def rule_q(g: Any, ans: Any, q: Any, *shapes: Any) -> Any:
                return unbroadcast(sign * g / density(ans, shapes), shape_of(q))

            def rule_shape(k: int) -> Any:
                def rule(g: Any, ans: Any, q: Any, *shapes: Any) -> Any:
                    weight = -g / density(ans, shapes)
                    given = list(shapes)
                    source = ops.asarray(shapes[k])  # a Tensor, watched for the VJP
                    with GradientTape(watch_accessed_variables=False) as tape:
                        tape.watch(source)
                        given[k] = source
                        cdf = methods._standard("cdf", ans, given)
                    seed = ops.broadcast_to(weight, shape_of(cdf))
                    return tape.gradient(
                        cdf, source, output_gradients=seed, unconnected_gradients="zero"
                    )

                return rule

            rules = [rule_q, *(rule_shape(k) for k in range(len(spec.shapes)))]
            self.spec._quantiles[which] = Primitive(
                f"{name}.{which}", forward, complex_rules=False
            ).defvjp(*rules)
        return self.spec._quantiles[which]

    def _quantiles(self, which: str, q: Any, args: Any, kwds: Any) -> Any:
        shapes, loc, scale = self.parse(which, args, kwds)
        closed = getattr(self.spec, which)
        if closed is not None:
            inside = ops.logical_and(ops.greater_equal(q, 0.0), ops.less_equal(q, 1.0))
            z = closed(ops.where(inside, q, 0.5), *shapes)
            z = ops.where(inside, z, NAN)
        else:
            z = self._quantile(which)(q, *shapes)
        return self.valid(ops.add(loc, ops.multiply(scale, z)), shapes, scale)

    def ppf(self, q: Any, *args: Any, **kwds: Any) -> Any:
        return self._quantiles("ppf", q, args, kwds)

    def isf(self, q: Any, *args: Any, **kwds: Any) -> Any:
        return self._quantiles("isf", q, args, kwds)

    # the statistics
    def _statistic(self, which: str, args: Any, kwds: Any) -> Any:
        shapes, loc, scale = self.parse(which, args, kwds)
        formula = getattr(self.spec, "var" if which == "std" else which)
        if formula is None:
            raise NotImplementedError(
                f"scipy.stats.{self.spec.name}.{which}: no closed form in tapegrad; pass "
                "plain arrays for SciPy's own"
            )
        # broadcast with loc, as SciPy's statistics broadcast every parameter
        value = ops.where(ops.equal(loc, loc), formula(*shapes), NAN)
        if which == "mean":
            value = ops.add(loc, ops.multiply(scale, value))
        elif which == "entropy":
            value = ops.add(value, ops.log(scale))
        else:
            value = ops.multiply(ops.square(scale), value)
            if which == "std":
                value = ops.sqrt(value)
        return self.valid(value, shapes, scale)

    def mean(self, *args: Any, **kwds: Any) -> Any:
        return self._statistic("mean", args, kwds)

    def var(self, *args: Any, **kwds: Any) -> Any:
        return self._statistic("var", args, kwds)

    def std(self, *args: Any, **kwds: Any) -> Any:
        return self._statistic("std", args, kwds)

    def entropy(self, *args: Any, **kwds: Any) -> Any:
        return self._statistic("entropy", args, kwds)


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


# --- discrete -----------------------------------------------------------------------------


@dataclass
class Discrete:
    """A discrete distribution on the integers by its formulas in ``k`` (``k - loc``) and
    the shapes.

    Args:
        name: SciPy's name.
        shapes: The shape parameters' names, in SciPy's order.
        logpmf: ``logpmf(k, *shapes)`` at integers of the support.
        support: ``support(*shapes) -> (lower, upper)``.
        argcheck: where the shapes are valid.
        cdf, sf: ``P(K <= k)`` and ``P(K > k)`` at integers ``k`` of the support.
        counts: the shapes that are counts (no gradient: LookupError).
        mean, var: in the shapes.
    """

    name: str
    shapes: tuple[str, ...]
    logpmf: Formula
    support: Formula
    argcheck: Formula
    cdf: Formula | None = None
    sf: Formula | None = None
    counts: tuple[str, ...] = ()
    mean: Formula | None = None
    var: Formula | None = None
    doc: str = ""


class _DiscreteMethods:
    def __init__(self, spec: Discrete) -> None:
        self.spec = spec

    def parse(self, method: str, k: Any, args: Any, kwds: Any) -> tuple[list[Any], Any]:
        *shapes, loc = _parse(
            self.spec.name, method, (*self.spec.shapes, "loc"), {"loc": 0}, args, kwds
        )
        op = f"{self.spec.name}.{method}"
        if k is not None:
            refuse_gradient(op, "k", k, "it is discrete")
        refuse_gradient(op, "loc", loc, "it is discrete")
        for name, value in zip(self.spec.shapes, shapes):
            if name in self.spec.counts:
                refuse_gradient(op, name, value, "it is discrete")
        return shapes, loc

    def valid(self, value: Any, shapes: list[Any]) -> Any:
        return ops.where(self.spec.argcheck(*shapes), value, NAN)

    def logpmf(self, k: Any, *args: Any, **kwds: Any) -> Any:
        shapes, loc = self.parse("logpmf", k, args, kwds)
        k = ops.subtract(k, loc)
        lower, upper = self.spec.support(*shapes)
        inside = ops.logical_and(ops.greater_equal(k, lower), ops.less_equal(k, upper))
        inside = ops.logical_and(inside, ops.equal(ops.floor(k), k))
        safe = ops.where(inside, k, lower)
        value = _fill(inside, self.spec.logpmf(safe, *shapes), -INF)
        return self.valid(ops.where(ops.isnan(k), NAN, value), shapes)

    def pmf(self, k: Any, *args: Any, **kwds: Any) -> Any:
        return ops.exp(self.logpmf(k, *args, **kwds))

    def _distribution(self, which: str, k: Any, args: Any, kwds: Any) -> Any:
        shapes, loc = self.parse(which, k, args, kwds)
        k = ops.floor(ops.subtract(k, loc))
        lower, upper = self.spec.support(*shapes)
        below, above = ops.less(k, lower), ops.greater_equal(k, upper)
        middle = _not(ops.logical_or(below, above))
        safe = ops.where(middle, k, lower)
        base = "cdf" if which in ("cdf", "logcdf") else "sf"
        given = getattr(self.spec, base)
        if given is not None:
            value = given(safe, *shapes)
        else:
            other = self.spec.sf if base == "cdf" else self.spec.cdf
            assert other is not None, f"{self.spec.name} declares neither cdf nor sf"
            value = 1.0 - other(safe, *shapes)
        low, high = (0.0, 1.0) if base == "cdf" else (1.0, 0.0)
        value = ops.where(below, low, ops.where(above, high, value))
        if which.startswith("log"):
            value = ops.log(value)
        return self.valid(ops.where(ops.isnan(k), NAN, value), shapes)

    def cdf(self, k: Any, *args: Any, **kwds: Any) -> Any:
        return self._distribution("cdf", k, args, kwds)

    def logcdf(self, k: Any, *args: Any, **kwds: Any) -> Any:
        return self._distribution("logcdf", k, args, kwds)

    def sf(self, k: Any, *args: Any, **kwds: Any) -> Any:
        return self._distribution("sf", k, args, kwds)

    def logsf(self, k: Any, *args: Any, **kwds: Any) -> Any:
        return self._distribution("logsf", k, args, kwds)

    def _statistic(self, which: str, args: Any, kwds: Any) -> Any:
        shapes, loc = self.parse(which, None, args, kwds)
        formula = getattr(self.spec, "var" if which == "std" else which)
        if formula is None:
            raise NotImplementedError(
                f"scipy.stats.{self.spec.name}.{which}: no closed form in tapegrad; pass "
                "plain arrays for SciPy's own"
            )
        value = formula(*shapes)
        if which == "mean":
            value = ops.add(value, loc)
        elif which == "std":
            value = ops.sqrt(value)
        return self.valid(value, shapes)

    def mean(self, *args: Any, **kwds: Any) -> Any:
        return self._statistic("mean", args, kwds)

    def var(self, *args: Any, **kwds: Any) -> Any:
        return self._statistic("var", args, kwds)

    def std(self, *args: Any, **kwds: Any) -> Any:
        return self._statistic("std", args, kwds)
