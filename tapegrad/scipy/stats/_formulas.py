"""The pieces the continuous distributions' formulas share (_continuous.py, _positive.py,
_bounded.py): the constants, the shape check of a distribution with no shapes, and the
guarded evaluations (a branch not taken, a shape past a limit, an asymptotic switch) that
keep discarded gradients finite.
"""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.scipy.special import gammaln
from tapegrad.scipy.stats._family import INF

PI = math.pi
EULER = 0.57721566490153286061
LOG_PI = math.log(PI)
HALF_LOG_2PI = 0.5 * math.log(2.0 * PI)
_NORM_ENTROPY = 0.5 * (math.log(2.0 * PI) + 1.0)


def _none(*shapes: Any) -> Any:
    """No shape to check."""
    return True


def branch(condition: Any, z: Any, stand_in: float, f: Any, taken: bool = True) -> Any:
    """``f(z)`` where ``condition`` is ``taken``, computed on ``stand_in`` elsewhere so the
    branch not taken has finite (discarded) gradients."""
    if taken:
        return f(ops.where(condition, z, stand_in))
    return f(ops.where(condition, stand_in, z))


def _above(limit: float, value: Any, shape: Any, fill: float = INF) -> Any:
    """``value(shape)`` where ``shape > limit``, ``fill`` elsewhere."""
    ok = ops.greater(shape, limit)
    return ops.where(ok, value(ops.where(ok, shape, limit + 1.0)), fill)


def _gamma(x: Any) -> Any:
    return ops.exp(gammaln(x))


def _asymptotic(limit: float, x: Any, regular: Any, asymptotic: Any) -> Any:
    """``regular(x)`` below ``limit``, ``asymptotic(x)`` from it on (SciPy's switch for its
    entropies at large shapes)."""
    small = ops.less(x, limit)
    return ops.where(
        small, branch(small, x, 1.0, regular), branch(small, x, 2.0 * limit, asymptotic, False)
    )
