"""What tapegrad.scipy.stats's distributions share: standardizing, SciPy's NaN for invalid
parameters, -inf outside the support, and the refusal to differentiate counts."""

from __future__ import annotations

import math
from typing import Any

from tapegrad import ops
from tapegrad.scipy._dispatch import refuse_gradient

NAN, INF = math.nan, math.inf


def both(a: Any, b: Any) -> Any:
    """Elementwise ``a and b`` of boolean Tensors (Tensors have no ``&``)."""
    return ops.where(a, b, a)


def standardize(x: Any, loc: Any, scale: Any) -> Any:
    """``(x - loc) / scale``."""
    return ops.divide(ops.subtract(x, loc), scale)


def valid_scale(value: Any, scale: Any) -> Any:
    """``value``, NaN where ``scale <= 0`` (SciPy's answer for an invalid scale)."""
    return ops.where(ops.greater(scale, 0.0), value, NAN)


def inside(condition: Any, value: Any, outside: float) -> Any:
    """``value`` where ``condition`` holds, the constant ``outside`` elsewhere."""
    return ops.where(condition, value, outside)


def safe(condition: Any, x: Any, stand_in: float) -> Any:
    """``x`` where ``condition`` holds, ``stand_in`` elsewhere: the formulas of the support
    then see harmless values outside it, so their (discarded) gradients stay finite."""
    return ops.where(condition, x, stand_in)


def refuse_counts(op: str, **counts: Any) -> None:
    """LookupError when a tape would differentiate a discrete argument of ``op``."""
    for name, value in counts.items():
        refuse_gradient(op, name, value, "it is discrete")
