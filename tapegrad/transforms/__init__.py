"""Function transforms built on the tape: ``grad``, ``value_and_grad``, ``vjp``, ``jvp``,
``jacobian``, ``hessian``, ``hvp`` (functional.py, with argument handling in args.py),
``custom_gradient``, ``checkpoint`` and ``fixed_point`` (implicit differentiation).

Layer: built on ``tapegrad.core``, ``tapegrad.ops`` and ``tapegrad.random`` (checkpoint
replays the random state); nothing below imports it.
"""

from tapegrad.transforms.checkpoint import checkpoint
from tapegrad.transforms.custom_gradient import custom_gradient
from tapegrad.transforms.fixed_point import fixed_point
from tapegrad.transforms.functional import (
    grad,
    hessian,
    hvp,
    jacobian,
    jvp,
    value_and_grad,
    vjp,
)

__all__ = [
    "checkpoint",
    "custom_gradient",
    "fixed_point",
    "grad",
    "hessian",
    "hvp",
    "jacobian",
    "jvp",
    "value_and_grad",
    "vjp",
]
