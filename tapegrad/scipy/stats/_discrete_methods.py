"""The methods of a :class:`~tapegrad.scipy.stats._spec.Discrete` distribution (mass,
distribution function, statistics) from its formulas in ``k``, refusing gradients in its
counts.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.scipy._dispatch import refuse_gradient
from tapegrad.scipy.stats._spec import INF, NAN, Discrete, _fill, _not, _parse


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
