"""The systems a program runs under: a NumPy-like module, SciPy's counterparts, and a
``value_and_grad`` transform, bundled so that one program's source serves them all.

Each :class:`System` gives a program ``np`` (``numpy``, ``tapegrad.numpy``,
``autograd.numpy`` or ``jax.numpy``), ``sp`` (``linalg.solve_triangular``,
``special.logsumexp`` and an ``odeint(func, y0, t, *args, rtol, atol)`` with one calling
convention), ``value_and_grad(f)`` of a function of one argument (an array or a list of
arrays), ``asarray`` to move NumPy inputs in once, and ``ready`` to wait for a result
(JAX dispatches asynchronously).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy

from benchmarks import peers

# name -> the module that must import for the system to run
SYSTEMS = {
    "tapegrad": "tapegrad",
    "tapegrad replay": "tapegrad",
    "autograd": "autograd",
    "jax": "jax",
    "jax jit": "jax",
}
LABELS = {
    "numpy": "NumPy (value only)",
    "tapegrad": "tapegrad, eager",
    "tapegrad replay": "tapegrad, replayed (tg.compile)",
    "autograd": "HIPS autograd",
    "jax": "JAX, eager",
    "jax jit": "JAX, jit",
}


@dataclass
class System:
    """What a program needs from one autodiff system."""

    name: str
    np: Any
    sp: Any
    value_and_grad: Callable[[Callable[[Any], Any]], Callable[[Any], Any]]
    asarray: Callable[[Any], Any] = lambda a: a
    ready: Callable[[Any], Any] = lambda out: out

    def inputs(self, tree: Any) -> Any:
        """``tree`` (arrays, lists, tuples, dicts) with its floating arrays moved in;
        boolean and integer arrays stay NumPy's (JAX needs concrete masks)."""
        if isinstance(tree, dict):
            return {k: self.inputs(v) for k, v in tree.items()}
        if isinstance(tree, (list, tuple)):
            return type(tree)(self.inputs(v) for v in tree)
        if isinstance(tree, numpy.ndarray) and tree.dtype.kind == "f":
            return self.asarray(tree)
        return tree


def _scipy_odeint(odeint: Callable[..., Any]) -> Callable[..., Any]:
    """SciPy's convention, ``odeint(func, y0, t, args_tuple, rtol=, atol=)``, as
    ``odeint(func, y0, t, *args, rtol=, atol=)``."""

    def call(func: Any, y0: Any, t: Any, *args: Any, rtol: float, atol: float) -> Any:
        return odeint(func, y0, t, tuple(args), rtol=rtol, atol=atol)

    return call


def numpy_system() -> System:
    """Plain NumPy and SciPy: values only (its ``value_and_grad`` raises)."""
    import scipy.integrate
    import scipy.linalg
    import scipy.special

    def no_grad(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
        raise NotImplementedError("numpy_system: plain NumPy has no gradient")

    sp = SimpleNamespace(
        linalg=scipy.linalg, special=scipy.special, odeint=_scipy_odeint(scipy.integrate.odeint)
    )
    return System("numpy", numpy, sp, no_grad)


def tapegrad_system(compiled: bool = False) -> System:
    """tapegrad eager, or every program's function under ``tg.compile``."""
    import tapegrad as tg
    import tapegrad.numpy as tnp
    import tapegrad.scipy.linalg as tlinalg
    import tapegrad.scipy.special as tspecial
    from tapegrad.scipy.integrate import odeint

    sp = SimpleNamespace(linalg=tlinalg, special=tspecial, odeint=_scipy_odeint(odeint))

    def value_and_grad(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
        return tg.value_and_grad(tg.compile(f) if compiled else f)

    return System("tapegrad replay" if compiled else "tapegrad", tnp, sp, value_and_grad)


def autograd_system() -> System:
    """HIPS autograd: ``autograd.numpy`` and ``autograd.scipy``."""
    # Through importlib: autograd ships no type information.
    autograd, anp = peers.load("autograd"), peers.load("autograd.numpy")
    aintegrate, alinalg = (
        peers.load("autograd.scipy.integrate"),
        peers.load("autograd.scipy.linalg"),
    )
    aspecial, atuple = peers.load("autograd.scipy.special"), peers.load("autograd.builtins").tuple

    def odeint(func: Any, y0: Any, t: Any, *args: Any, rtol: float, atol: float) -> Any:
        return aintegrate.odeint(func, y0, t, atuple(args), rtol=rtol, atol=atol)

    sp = SimpleNamespace(linalg=alinalg, special=aspecial, odeint=odeint)
    return System("autograd", anp, sp, autograd.value_and_grad)


def jax_system(jit: bool = False) -> System:
    """JAX on the CPU in float64, op by op (eager) or the whole step under ``jax.jit``."""
    jax = peers.jax()
    jode = peers.load("jax.experimental.ode")  # untyped: through importlib
    import jax.numpy as jnp
    import jax.scipy.linalg as jlinalg
    import jax.scipy.special as jspecial

    def odeint(func: Any, y0: Any, t: Any, *args: Any, rtol: float, atol: float) -> Any:
        return jode.odeint(func, y0, t, *args, rtol=rtol, atol=atol)

    def value_and_grad(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
        step = jax.value_and_grad(f)
        return jax.jit(step) if jit else step

    sp = SimpleNamespace(linalg=jlinalg, special=jspecial, odeint=odeint)
    return System(
        "jax jit" if jit else "jax",
        jnp,
        sp,
        value_and_grad,
        asarray=jnp.asarray,
        ready=jax.block_until_ready,
    )


BUILDERS: dict[str, Callable[[], System]] = {
    "tapegrad": tapegrad_system,
    "tapegrad replay": lambda: tapegrad_system(compiled=True),
    "autograd": autograd_system,
    "jax": jax_system,
    "jax jit": lambda: jax_system(jit=True),
}


def available(names: list[str] | None = None) -> dict[str, System]:
    """The systems (of ``names``, all by default) whose library is installed."""
    found = {}
    for name in names or list(BUILDERS):
        if peers.load(SYSTEMS[name]) is None:
            continue
        found[name] = BUILDERS[name]()
    return found
