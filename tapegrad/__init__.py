"""tapegrad: tape-based (Wengert list) reverse-mode automatic differentiation for NumPy
(CPU) and CuPy (GPU).

>>> import tapegrad as tg
>>> x = tg.Variable(2.0)
>>> with tg.GradientTape() as tape:
...     y = x ** 3
>>> tape.gradient(y, x).item()
12.0
"""

from tapegrad import data, fft, linalg, nn, optim, random
from tapegrad.checkpoint import checkpoint
from tapegrad.custom_gradient import custom_gradient
from tapegrad.debug import detect_anomaly
from tapegrad.devices import default_device, device_scope, set_default_device
from tapegrad.grad_mode import no_grad
from tapegrad.ops import *  # noqa: F403 - the op library is the public namespace
from tapegrad.ops import __all__ as _ops_all
from tapegrad.replay import GuardError
from tapegrad.replay import compile as compile  # tg.compile, like torch.compile
from tapegrad.replay_fuse import FuseWarning
from tapegrad.sites import redirect_numpy_warnings
from tapegrad.tape import GradientTape
from tapegrad.tensor import Tensor, Variable, tensor
from tapegrad.transforms import grad, hessian, hvp, jacobian, jvp, value_and_grad, vjp

__version__ = "0.1.0"

redirect_numpy_warnings()

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
    "device_scope",
    "grad",
    "hessian",
    "hvp",
    "jacobian",
    "jvp",
    "linalg",
    "nn",
    "no_grad",
    "optim",
    "random",
    "set_default_device",
    "tensor",
    "value_and_grad",
    "vjp",
    *_ops_all,
]
