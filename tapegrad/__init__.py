"""tapegrad: tape-based (Wengert list) reverse-mode automatic differentiation for NumPy
(CPU) and CuPy (GPU).

>>> import tapegrad as tg
>>> x = tg.Variable(2.0)
>>> with tg.GradientTape() as tape:
...     y = x ** 3
>>> tape.gradient(y, x).item()
12.0
"""

from tapegrad import random
from tapegrad.debug import detect_anomaly
from tapegrad.devices import default_device, device_scope, set_default_device
from tapegrad.ops import *  # noqa: F403 - the op library is the public namespace
from tapegrad.ops import __all__ as _ops_all
from tapegrad.tape import GradientTape
from tapegrad.tensor import Tensor, Variable, tensor

__version__ = "0.1.0"

__all__ = [
    "GradientTape",
    "Tensor",
    "Variable",
    "default_device",
    "detect_anomaly",
    "device_scope",
    "random",
    "set_default_device",
    "tensor",
    *_ops_all,
]
