"""The helpers the scipy.special tables (special_*.py) share: a complex result as one real
array (``z.real + 2 z.imag``), and calls under a tape for the refusals that only a gradient
raises.

SciPy's ufuncs have only the ufunc machinery's keywords (out, where, casting, ...), which
tapegrad takes as NumPy's ufuncs do, so each table's :data:`FUNCTIONS` lists the Python
functions with keywords of their own.
"""

from __future__ import annotations

from typing import Any


def _real(z: Any) -> Any:  # one real array from a complex one
    return z.real + 2.0 * z.imag


def _watched(f: Any, *args: Any) -> Any:
    """``f(*args)`` with its Tensor arguments watched by a tape (for refusals that only a
    gradient raises)."""
    from tapegrad.core.tape import GradientTape
    from tapegrad.core.tensor import Tensor

    with GradientTape() as tape:
        for a in args:
            if isinstance(a, Tensor):
                tape.watch(a)
        return f(*args)


def _second(f: Any, x: Any) -> Any:
    """The second derivative of ``sum(f(x))`` in ``x`` (for refusals only it raises)."""
    from tapegrad import ops
    from tapegrad.core.tape import GradientTape

    with GradientTape() as outer:
        outer.watch(x)
        with GradientTape() as inner:
            inner.watch(x)
            first = ops.sum(f(x))
        slope = inner.gradient(first, x)
    return outer.gradient(ops.sum(slope), x)


def _third(f: Any, x: Any) -> Any:
    """The gradient of ``sum(f(x))``, taken where ``f`` is already a second derivative."""
    from tapegrad import ops
    from tapegrad.core.tape import GradientTape

    with GradientTape() as tape:
        tape.watch(x)
        value = ops.sum(f(x))
    return tape.gradient(value, x)
