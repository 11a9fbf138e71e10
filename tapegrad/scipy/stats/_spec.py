"""How a distribution is declared (:class:`Continuous`, :class:`Discrete`: its standardized
formulas) and how its methods read SciPy's arguments (``*shapes, loc=0, scale=1``, by
position or name, with SciPy's TypeErrors); tapegrad/scipy/stats/_family.py turns a
declaration into its methods.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tapegrad import ops
from tapegrad.ops.primitive import Primitive

NAN, INF = math.nan, math.inf
Formula = Callable[..., Any]


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
