"""HIPS autograd's ``autograd.test_util`` (``check_grads``, ``combo_check``) rebuilt on
tapegrad, so autograd's own test files can check tapegrad's gradients.

The semantics are autograd's (read from its ``test_util.py``, no code taken):
``check_grads(fun, argnum=0, modes=["fwd", "rev"], order=2)`` returns a checker called
with ``fun``'s arguments; it differentiates the arguments ``argnum`` names (an int or a
sequence; each may be a nest of tuples and lists, as ``odeint``'s ``args``) and checks

- ``"rev"``: the tape's vector-Jacobian product against central differences
  (:func:`tapegrad.testing.gradcheck`, one element at a time), then, for ``order > 1``,
  the function ``(x, u) -> vjp(u)`` the same way with ``order - 1``;
- ``"fwd"``: ``tg.jvp`` along a random tangent against the central difference along it,
  then, for ``order > 1``, the function ``(x, v) -> jvp(v)`` with ``order - 1``.

``combo_check(fun, *args, **kwargs)`` returns a function that takes one list of values
per positional and keyword argument and runs ``check_grads`` on every combination.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import tapegrad as tg
from tapegrad.testing import gradcheck

# autograd compares one random projection of the derivative, to 1e-6 absolute or relative,
# at a step of 1e-6. These compare every element, so the relative tolerance is a little
# wider, and the absolute one scales with the outputs' size: the finite differences of a
# function whose values reach 1e7 (i0 near 17) carry rounding errors of about 1e-3.
EPS = 1e-6
ATOL = 1e-6
RTOL = 1e-5


def check_grads(
    fun: Callable[..., Any],
    argnum: int | Sequence[int] = 0,
    modes: Sequence[str] = ("fwd", "rev"),
    order: int = 2,
) -> Callable[..., None]:
    """autograd's ``check_grads``: a checker of ``fun``'s derivatives in ``argnum``."""
    unknown = [m for m in modes if m not in ("fwd", "rev")]
    if unknown:
        raise ValueError(f"check_grads: modes must be 'fwd' or 'rev', got {unknown}")
    positions = (argnum,) if isinstance(argnum, int) else tuple(argnum)

    def checker(*args: Any, **kwargs: Any) -> None:
        def of_selected(*xs: Any) -> Any:
            full = list(args)
            for i, x in zip(positions, xs):
                full[i] = x
            return fun(*full, **kwargs)

        _check(of_selected, [args[i] for i in positions], modes, order)

    return checker


def combo_check(fun: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[..., None]:
    """autograd's ``combo_check``: ``check_grads(fun, *args, **kwargs)`` on every
    combination of the values listed per argument."""
    check = check_grads(fun, *args, **kwargs)

    def combos(*values: Any, **keyword_values: Any) -> None:
        keyword_pairs = [[(k, v) for v in vs] for k, vs in keyword_values.items()]
        for positional in itertools.product(*values):
            for keywords in itertools.product(*keyword_pairs):
                check(*positional, **dict(keywords))

    return combos


# --- the checks --------------------------------------------------------------------------
def _check(f: Callable[..., Any], primals: list[Any], modes: Sequence[str], order: int) -> None:
    leaves, rebuild = _flatten(primals)

    def of_leaves(*xs: Any) -> Any:
        return f(*rebuild(list(xs)))

    if "fwd" in modes:
        _check_jvp(of_leaves, leaves)
        if order > 1:
            n = len(leaves)

            def jvp_of(*xs_and_vs: Any) -> Any:
                return tg.jvp(of_leaves, xs_and_vs[:n], xs_and_vs[n:])[1]

            _check(jvp_of, leaves + _random_like(leaves), modes, order - 1)
    if "rev" in modes:
        gradcheck(of_leaves, leaves, eps=EPS, atol=ATOL * _scale(of_leaves(*leaves)), rtol=RTOL)
        if order > 1:
            n = len(leaves)
            cotangent = _random_like(of_leaves(*leaves))

            def vjp_of(*xs_and_u: Any) -> Any:
                return tg.vjp(of_leaves, *xs_and_u[:n])[1](xs_and_u[n])

            _check(vjp_of, leaves + [cotangent], modes, order - 1)


def _check_jvp(f: Callable[..., Any], leaves: list[Any]) -> None:
    """``tg.jvp`` along a random tangent against ``(f(x + eps v/2) - f(x - eps v/2)) / eps``."""
    primals = [tg.tensor(_float64(x)) for x in leaves]
    tangents = [tg.tensor(v) for v in _random_like(leaves)]
    out, tangent_out = tg.jvp(f, primals, tangents)
    atol = ATOL * _scale(out)

    def moved(sign: float) -> list[np.ndarray]:
        xs = [tg.tensor(p.numpy() + sign * EPS / 2 * v.numpy()) for p, v in zip(primals, tangents)]
        return [np.asarray(o) for o in _leaves_of(f(*xs))]

    numeric = [(a - b) / EPS for a, b in zip(moved(1.0), moved(-1.0))]
    for k, (got, want) in enumerate(zip(_leaves_of(tangent_out), numeric)):
        got = np.asarray(got)
        if got.shape != want.shape or not np.allclose(got, want, rtol=RTOL, atol=atol):
            raise AssertionError(
                f"check_grads (fwd): output {k}: jvp {got!r}, finite differences {want!r}"
            )


# --- helpers -----------------------------------------------------------------------------
def _scale(values: Any) -> float:
    """The largest magnitude among ``values``' leaves, at least 1."""
    return max(
        [1.0] + [float(np.max(np.abs(_float64(v)), initial=0.0)) for v in _leaves_of(values)]
    )


def _float64(x: Any) -> np.ndarray:
    data = np.asarray(x.numpy() if isinstance(x, tg.Tensor) else x)
    return data.astype(np.complex128 if np.iscomplexobj(data) else np.float64)


def _random_like(x: Any) -> Any:
    """Standard normal arrays shaped like ``x``'s leaves, in its nest (complex for complex),
    drawn from NumPy's global generator as autograd's are (its tests seed it)."""
    leaves, rebuild = _flatten([x])
    drawn = []
    for leaf in leaves:
        data = _float64(leaf)
        v = np.random.randn(*data.shape)
        if np.iscomplexobj(data):
            v = v + 1j * np.random.randn(*data.shape)
        drawn.append(v)
    return rebuild(drawn)[0]


def _leaves_of(nest: Any) -> list[Any]:
    return _flatten([nest])[0]


def _flatten(nest: list[Any]) -> tuple[list[Any], Callable[[list[Any]], list[Any]]]:
    """The leaves of a list of values that may be tuples and lists, and how to rebuild it."""
    leaves: list[Any] = []

    def structure(x: Any) -> Any:
        if isinstance(x, (tuple, list)):
            return type(x), [structure(item) for item in x]
        leaves.append(x)
        return None

    shape = [structure(x) for x in nest]

    def rebuild(values: list[Any]) -> list[Any]:
        it = iter(values)

        def build(s: Any) -> Any:
            if s is None:
                return next(it)
            kind, items = s
            return kind(build(item) for item in items)

        return [build(s) for s in shape]

    return leaves, rebuild
