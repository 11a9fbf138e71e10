"""The ops the engine itself calls, registered by the op library when it is imported.

The reverse sweep seeds itself with ones (or the caller's ``output_gradients``), adds the
cotangents of fan-out, casts a rule's result to its input's dtype, gives zeros to an
unconnected source under ``unconnected_gradients="zero"``, and builds a Jacobian from
its rows. Under an outer tape these must record (for higher derivatives), so they are
the op library's functions, which are built on the engine and cannot be imported by it:
tapegrad/ops/__init__.py hands them to :func:`register_ops`, as HIPS autograd's NumPy
layer sets its box's operators. The engine reads them as ``ops.add(a, b)`` at each call;
until they are registered, each raises a RuntimeError naming what is missing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class EngineOps:
    """The op library's functions that the engine calls, each as ``tapegrad.<name>``.

    ``add``, ``astype``, ``reshape``, ``stack``, ``asarray``, ``eye``, ``zeros``,
    ``zeros_like``, ``ones_like``, and ``cast_cotangent(g, dtype)``: ``g`` as the cotangent
    of an input of ``dtype`` (its real part when that input is real and ``g`` complex,
    then cast).
    """

    add: Callable[..., Any]
    astype: Callable[..., Any]
    cast_cotangent: Callable[..., Any]
    reshape: Callable[..., Any]
    stack: Callable[..., Any]
    asarray: Callable[..., Any]
    eye: Callable[..., Any]
    zeros: Callable[..., Any]
    zeros_like: Callable[..., Any]
    ones_like: Callable[..., Any]

    def __getattr__(self, name: str) -> Any:  # only for names not registered yet
        if name in EngineOps.__annotations__:
            raise RuntimeError(
                f"the engine's {name} is not registered: tapegrad.ops registers it when "
                "it is imported (import tapegrad does)"
            )
        raise AttributeError(name)


ops = EngineOps()


def register_ops(**functions: Callable[..., Any]) -> None:
    """Install the op library's functions that the engine calls (tapegrad/ops/__init__.py
    passes each of :class:`EngineOps`'s names, no more, no fewer)."""
    names = set(EngineOps.__annotations__)
    if set(functions) != names:
        raise TypeError(f"register_ops: expected {sorted(names)}, got {sorted(functions)}")
    for name, function in functions.items():
        setattr(ops, name, function)


# tg.compile's replayed VJP (tapegrad/replay/solver_vjp.py): ``replayed_vjp(f)`` records
# f once and returns ``vjp(arrays, cotangent) -> (f(*arrays), cotangents) or None``. The
# solvers' adjoints (tapegrad/scipy/integrate) call their dynamics' VJP at every step; the
# replay layer sits above them, so tapegrad/__init__.py hands it down here. None until
# then: the adjoints differentiate on tapes.
replayed_vjp: Callable[[Callable[..., Any]], Any] | None = None
