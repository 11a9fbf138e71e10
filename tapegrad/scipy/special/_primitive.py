"""The Primitive of a SciPy special function: SciPy's kernel forward, tapegrad ops backward."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import scipy.special

from tapegrad.ops.primitive import Primitive, Rule, shape_of, unbroadcast
from tapegrad.scipy._dispatch import kernel

ArrayLike = Any


def special_primitive(
    name: str,
    *rules: Rule | None,
    portable: Callable[..., Any] | None = None,
    complex_rules: bool = False,
) -> Primitive:
    """A Primitive computing ``scipy.special.<name>`` with one VJP rule per input.

    On NumPy arrays the forward is SciPy's kernel itself; on CuPy arrays it is
    ``cupyx.scipy.special.<name>``. ``portable(xp, *arrays)``, when given, computes the
    same function with the array API's functions, so it runs on every backend.
    The special functions are differentiated on real values (``complex_rules=False``:
    their rules take no conjugates, and many are defined on the real line only); one
    whose rules follow the complex convention says ``complex_rules=True``.
    """

    def forward(xp: Any, *arrays: Any) -> Any:
        return kernel(xp, "special", name)(*arrays)

    numpy_kernel = getattr(scipy.special, name)
    return Primitive(
        name, portable or forward, numpy=numpy_kernel, complex_rules=complex_rules
    ).defvjp(*rules)


def unbroadcast_like(g: Any, x: Any) -> Any:
    """Cotangent ``g`` summed down to input ``x``'s shape (the adjoint of broadcasting)."""
    return unbroadcast(g, shape_of(x))
