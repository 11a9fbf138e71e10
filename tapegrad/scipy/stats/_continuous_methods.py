"""The methods of a :class:`~tapegrad.scipy.stats._spec.Continuous` distribution (density,
distribution function, quantiles, statistics) from its standardized formulas, with SciPy's
own kernels as primitives where a closed form is missing: the quantile differentiated
implicitly, the CDF with the density as its derivative.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tape import GradientTape
from tapegrad.ops.primitive import Primitive, shape_of, unbroadcast
from tapegrad.scipy._dispatch import kernel
from tapegrad.scipy.stats._spec import INF, NAN, Continuous, _fill, _not, _parse


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
