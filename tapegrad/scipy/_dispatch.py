"""Where tapegrad.scipy's forwards find their kernels, and the checks its functions share.

Plain in, plain out: each public function is decorated with :func:`plain_calls_scipy`, so
called with no Tensor among its arguments it is SciPy's own function (SciPy's values, and
its ndarrays and NumPy scalars, as tapegrad.numpy gives NumPy's).

SciPy's kernels run on NumPy arrays; CuPy arrays go to ``cupyx.scipy``, which has
most of them. Any other array library (array_api_strict, ...) gets a TypeError that
says so: functions composed from tapegrad ops run there, SciPy's kernels do not.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

import numpy as np

from tapegrad.core.active import tracing
from tapegrad.core.record import is_recorded
from tapegrad.core.tensor import Tensor
from tapegrad.ops.layout import holds_tensor

F = TypeVar("F", bound=Callable[..., Any])


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


def _plain(value: Any) -> bool:
    """Whether ``value`` is what SciPy takes as it is: no Tensor in it, no other library's
    array (those go through tapegrad's forward, which finds their kernels)."""
    if isinstance(value, (list, tuple)):
        return not holds_tensor(value)
    if isinstance(value, type):  # a dtype given as its class (output=np.float64)
        return True
    return not isinstance(value, Tensor) and (
        isinstance(value, (np.ndarray, np.generic)) or not hasattr(value, "__array_namespace__")
    )


@functools.cache
def _scipy_namespace(where: str) -> Any:
    """``scipy.<where>``: a module (``"special"``) or an object in one (``"stats.norm"``)."""
    module, _, attribute = where.partition(".")
    found = importlib.import_module(f"scipy.{module}")
    return getattr(found, attribute) if attribute else found


def plain_calls_scipy(where: str) -> Callable[[F], F]:
    """Make a function of tapegrad.scipy SciPy's own ``scipy.<where>.<its name>`` when it is
    called with no Tensor (NumPy arrays, lists, numbers) and no tape traces: NumPy-style
    code gets exactly SciPy's results, of SciPy's kinds. With a Tensor it records.

    >>> import numpy as np
    >>> from tapegrad.scipy.special import logit
    >>> type(logit(np.array([0.25, 0.5]))).__name__, type(logit(0.5)).__name__
    ('ndarray', 'float64')
    """

    def decorate(f: F) -> F:
        name = f.__name__

        @functools.wraps(f)
        def call(*args: Any, **kwargs: Any) -> Any:
            if type(args[0] if args else None) is not Tensor and (
                all(_plain(a) for a in args)
                and all(_plain(v) for v in kwargs.values())
                and not tracing()
            ):
                return getattr(_scipy_namespace(where), name)(*args, **kwargs)
            return f(*args, **kwargs)

        return call  # type: ignore[return-value]

    return decorate


def scipy_getattr(module: str, scipy_module: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``tapegrad.scipy.<x>``: SciPy's own object for a name
    tapegrad does not define (it takes plain arrays): each module is a drop-in for SciPy's;
    AttributeError naming ``module`` for a name SciPy lacks too.

    >>> getattr_ = scipy_getattr("tapegrad.scipy.special", "scipy.special")
    >>> getattr_("struve").__name__
    'struve'
    """

    def __getattr__(name: str) -> Any:
        if not name.startswith("__"):
            found = getattr(importlib.import_module(scipy_module), name, _MISSING)
            if found is not _MISSING:
                return found
        raise AttributeError(f"module {module!r} has no attribute {name!r}")

    return __getattr__


_MISSING = object()
