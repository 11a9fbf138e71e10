"""tapegrad: tape-based (Wengert list) reverse-mode automatic differentiation for NumPy
(CPU) and CuPy (GPU).

>>> import tapegrad as tg
>>> x = tg.Variable(2.0)
>>> with tg.GradientTape() as tape:
...     y = x ** 3
>>> tape.gradient(y, x).item()
12.0
"""

import importlib
import sys
from typing import Any

# The layers, bottom up (docs/architecture.md): each import below gives the layers under
# it what they may not import themselves: the op library gives Tensor its operators and
# methods and the sweep its ops, tapegrad.numpy gives Tensor NumPy's protocols, and
# tapegrad.debug gives the tape its listing, its drawing and anomaly detection's checks.
from tapegrad import ops  # noqa: F401  # isort: skip
from tapegrad import linalg, fft, numpy  # noqa: F401  # isort: skip
from tapegrad import debug  # noqa: F401  # isort: skip
from tapegrad import data, nn, optim, peers, random
from tapegrad.backends.devices import default_device, device_scope, set_default_device
from tapegrad.core import hooks as _hooks
from tapegrad.core import tensor as _tensor
from tapegrad.core.anomaly import detect_anomaly
from tapegrad.core.grad_mode import no_grad
from tapegrad.core.sites import redirect_numpy_warnings
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor, Variable, tensor
from tapegrad.numpy._polynomials import (
    poly,
    polyadd,
    polyder,
    polydiv,
    polyfit,
    polyint,
    polymul,
    polysub,
    polyval,
    roots,
)
from tapegrad.ops import *  # noqa: F403 - the op library is the public namespace
from tapegrad.ops import __all__ as _ops_all
from tapegrad.replay.compiled import GuardError
from tapegrad.replay.compiled import compile as compile  # tg.compile, like torch.compile
from tapegrad.replay.kernel import FuseWarning
from tapegrad.replay.solver_vjp import replayed_vjp as _replayed_vjp
from tapegrad.transforms.checkpoint import checkpoint
from tapegrad.transforms.custom_gradient import custom_gradient
from tapegrad.transforms.fixed_point import fixed_point
from tapegrad.transforms.forward import hvp, jvp, linearize
from tapegrad.transforms.functional import grad, jacobian, value_and_grad, vjp
from tapegrad.transforms.jacobians import hessian, jacfwd, jacrev
from tapegrad.transforms.vmap import vmap

__version__ = "0.1.0"


def _differentiable_scipy(function: str) -> str | None:
    """tapegrad.scipy's version of SciPy's ``function`` (``"scipy.special.gammaln"``), if any."""
    replacement = function.replace("scipy.", "tapegrad.scipy.", 1)
    module, _, name = replacement.rpartition(".")
    try:
        return replacement if hasattr(importlib.import_module(module), name) else None
    except ImportError:
        return None


# What the layers below reach in the layers above, handed to them here: the module that
# differentiates scipy.special's ufuncs on Tensors, the name of tapegrad.scipy's version
# of a SciPy function that converts a watched Tensor (the engine's error), and the
# replayed VJP the solvers' adjoints call at every step.
numpy.protocol.register_ufunc_module("tapegrad.scipy.special")
_tensor.differentiable_scipy = _differentiable_scipy
_hooks.replayed_vjp = _replayed_vjp
redirect_numpy_warnings()


def __getattr__(name: str) -> Any:
    """A peer's name (tapegrad/peers): an alias's object, else AttributeError saying what
    tapegrad calls it, or that ``tapegrad.numpy`` has it."""
    target = peers.alias("tg", name)
    if target is not None:
        value: Any = sys.modules[__name__]
        for part in target.split(".")[1:]:  # "tg.random.seed", "tapegrad.numpy.pi"
            value = getattr(value, part)
        return value
    in_numpy = not name.startswith("_") and hasattr(numpy, name)
    raise peers.missing("tg", name, f"module 'tapegrad' has no attribute {name!r}", in_numpy)


def _peer_attribute(name: str) -> property:
    """A Tensor attribute PyTorch or JAX users reach for (``x.backward()``): reading it raises
    the AttributeError naming tapegrad's way. A property per name, not ``__getattr__``: that
    would put a Python call on every attribute NumPy probes for (``np.asarray(x)`` 4x slower)."""

    def explain(self: Tensor) -> Any:
        text = f"{type(self).__name__!r} object has no attribute {name!r}"
        raise peers.missing("Tensor", name, text)

    explain.__doc__ = f"A peer's name, not tapegrad's: reading ``{name}`` says what to use."
    return property(explain)


for _row in peers.ROWS_AT["Tensor"]:  # set here, as the op library sets methods
    setattr(Tensor, _row.name, _peer_attribute(_row.name))

# compile is left out of __all__: a star-import must not shadow the builtin.
__all__ = [
    "GradientTape",
    "GuardError",
    "FuseWarning",
    "Tensor",
    "Variable",
    "checkpoint",
    "custom_gradient",
    "data",
    "default_device",
    "detect_anomaly",
    "fft",
    "fixed_point",
    "device_scope",
    "grad",
    "hessian",
    "hvp",
    "jacfwd",
    "jacobian",
    "jacrev",
    "jvp",
    "linalg",
    "linearize",
    "nn",
    "no_grad",
    "optim",
    "poly",
    "polyadd",
    "polyder",
    "polydiv",
    "polyfit",
    "polyint",
    "polymul",
    "polysub",
    "polyval",
    "random",
    "roots",
    "set_default_device",
    "tensor",
    "value_and_grad",
    "vmap",
    "vjp",
    *_ops_all,
]
