"""Where tapegrad.scipy's forwards find their kernels, and the checks its functions share.

SciPy's kernels run on NumPy arrays; CuPy arrays go to ``cupyx.scipy``, which has
most of them. Any other array library (array_api_strict, ...) gets a TypeError that
says so: functions composed from tapegrad ops run there, SciPy's kernels do not.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import numpy as np

from tapegrad.core.record import is_recorded


def scipy_module(xp: Any, name: str) -> ModuleType:
    """``scipy.<name>`` for NumPy's namespace, ``cupyx.scipy.<name>`` for CuPy's."""
    if xp is np:
        return importlib.import_module(f"scipy.{name}")
    library = xp.__name__.removeprefix("array_api_compat.")
    if library == "cupy":
        return importlib.import_module(f"cupyx.scipy.{name}")
    raise TypeError(
        f"SciPy's kernels run on NumPy arrays (and cupyx.scipy's on CuPy arrays), not on "
        f"{library} arrays; move the Tensor with .to('cpu')"
    )


def kernel(xp: Any, module: str, name: str) -> Any:
    """``scipy.<module>.<name>`` for ``xp``'s arrays; a clear error where it is missing."""
    found = getattr(scipy_module(xp, module), name, None)
    if found is None:
        raise TypeError(f"{xp.__name__} has no scipy.{module}.{name} kernel")
    return found


def refuse_gradient(op: str, argument: str, value: Any, why: str) -> None:
    """LookupError before anything records when a tape would differentiate ``value``,
    an argument ``op`` has no derivative in (``why`` says why)."""
    if is_recorded(value):
        raise LookupError(
            f"{op}: no gradient with respect to {argument} ({why}); pass it as a constant "
            "or through tg.stop_gradient"
        )
