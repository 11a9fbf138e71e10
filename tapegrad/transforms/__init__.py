"""Function transforms built on the tape: ``grad``, ``value_and_grad``, ``vjp``, ``jacobian``
(functional.py, with argument handling in args.py), ``jvp``, ``linearize``, ``hvp``
(forward.py, forward mode), ``jacfwd``, ``jacrev``, ``hessian`` (jacobians.py),
``custom_gradient``, ``checkpoint`` and ``fixed_point`` (implicit differentiation).

Layer: built on ``tapegrad.core``, ``tapegrad.ops`` and ``tapegrad.random`` (checkpoint
replays the random state); nothing below imports it.
"""

from tapegrad.transforms.checkpoint import checkpoint
from tapegrad.transforms.custom_gradient import custom_gradient
from tapegrad.transforms.fixed_point import fixed_point
from tapegrad.transforms.forward import hvp, jvp, linearize
from tapegrad.transforms.functional import grad, jacobian, value_and_grad, vjp
from tapegrad.transforms.jacobians import hessian, jacfwd, jacrev

__all__ = [
    "checkpoint",
    "custom_gradient",
    "fixed_point",
    "grad",
    "hessian",
    "hvp",
    "jacfwd",
    "jacobian",
    "jacrev",
    "jvp",
    "linearize",
    "value_and_grad",
    "vjp",
]
