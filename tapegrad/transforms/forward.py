"""Forward-mode transforms: jvp, linearize, and hvp forward-over-reverse (jacfwd, jacrev
and hessian are tapegrad/transforms/jacobians.py).

``jvp`` runs ``f`` once inside a :class:`~tapegrad.core.forward.ForwardTape`: each
primitive computes its output's tangent beside its value (tapegrad/ops/jvp_rules.py), so a
JVP costs about one forward pass and keeps nothing for later. ``hvp`` is ``jvp`` of
``grad`` (the reverse sweep's rules are primitives too, so they carry tangents) and
``hessian`` is ``jacfwd`` of ``grad``, as JAX computes them. Forward and reverse tapes
nest in any order, so every transform here composes with grad, GradientTape and itself.

Arrays in, arrays out, as every transform (tapegrad/transforms/args.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.forward import ForwardTape
from tapegrad.core.nests import flatten, pack
from tapegrad.core.tensor import Tensor
from tapegrad.transforms.args import (
    _fresh,
    as_output,
    like_leaves,
    plain_call,
    split_aux,
    to_caller_nest,
    undo_on_error,
)
from tapegrad.transforms.functional import grad


def _check_pairs(primals: Any, tangents: Any, what: str) -> None:
    for name, seq in (("primals", primals), ("tangents", tangents)):
        if not isinstance(seq, (tuple, list)):
            raise TypeError(f"{what}: {name} must be a tuple or list, got {type(seq).__name__}")
    if len(primals) != len(tangents):
        raise ValueError(f"{what}: {len(primals)} primals but {len(tangents)} tangents")


def forward_pass(
    f: Callable[..., Any],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    seeds: dict[int, Any],
    has_aux: bool,
    what: str,
) -> tuple[Any, list[Any], Any, dict[int, list[Tensor | None]]]:
    """``f(*args, **kwargs)`` inside a forward tape, argument ``i`` replaced by fresh copies
    seeded with the tangents ``seeds[i]`` (a nest like the argument; a list with one
    tangent or None per leaf under ``jacfwd``). Returns the output (its leaves Tensors),
    the tangent of each output leaf (zeros where none), aux, and the fresh leaves."""
    new_args = list(args)
    leaves: dict[int, list[Tensor | None]] = {}
    with ForwardTape() as tape:
        for i, given in seeds.items():
            fresh = [_fresh(leaf, what, i) for leaf in flatten(args[i])]
            new_args[i] = pack(args[i], iter(fresh))
            if what == "jvp":
                _check_real_tangents(given, fresh, i)
                given = like_leaves(given, new_args[i], what, f"the tangent of argument {i}")
            for leaf, t in zip(fresh, given):
                if leaf is not None and t is not None:
                    tape.seed(leaf, _as_tangent(t, leaf, what, i))
            leaves[i] = fresh
        output = f(*new_args, **kwargs)
    out, aux = split_aux(output, has_aux, what)
    out = pack(out, iter([as_output(leaf, what) for leaf in flatten(out)]))
    tangents = []
    for o in flatten(out):
        t = tape.tangent(o) if backend.is_floating(o.dtype) else None
        tangents.append(ops.zeros_like(o) if t is None else t)
    return out, tangents, aux, leaves


def _check_real_tangents(given: Any, fresh: list[Tensor | None], position: int) -> None:
    """Refuse a complex tangent of a real primal before it is cast (which would drop its
    imaginary part)."""
    leaves = flatten(given)
    if len(leaves) != len(fresh):
        return  # like_leaves says what is wrong with the structure
    for t, leaf in zip(leaves, fresh):
        if leaf is not None and t is not None and not backend.is_complex(leaf.dtype):
            dtype = t.dtype if isinstance(t, Tensor) else np.asarray(t).dtype
            if backend.is_complex(dtype):
                raise TypeError(
                    f"jvp: the tangent of argument {position} is {dtype} for a real "
                    f"{leaf.dtype} primal of shape {leaf.shape}; a real value's tangent is real"
                )


def _as_tangent(t: Any, leaf: Tensor, what: str, position: int) -> Tensor:
    """A tangent as a Tensor of its primal's dtype (a complex tangent of a real primal is
    refused: the tangent space of a real value is real)."""
    t = t if isinstance(t, Tensor) else ops.asarray(t, dtype=leaf.dtype, like=leaf)
    if backend.is_complex(t.dtype) and not backend.is_complex(leaf.dtype):
        raise TypeError(
            f"{what}: the tangent of argument {position} is {t.dtype} (shape {t.shape}) for a "
            f"real {leaf.dtype} primal; a real value's tangent is real"
        )
    return t if t.dtype == leaf.dtype else ops.astype(t, leaf.dtype)


# --- jvp ----------------------------------------------------------------------------------
def jvp(
    f: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any], has_aux: bool = False
) -> Any:
    """``f(*primals)`` and the directional derivative ``J @ tangents``, in one forward pass.

    ``primals`` and ``tangents`` are tuples (or lists) with one entry per argument of
    ``f``, each tangent shaped like its primal (in its nesting). Returns
    ``(out, tangent_out)`` (``(out, tangent_out, aux)`` with ``has_aux=True``),
    ``tangent_out`` shaped like ``out``: forward mode, each op computing its tangent beside
    its value, exactly (no finite differences). An integer output's tangent is zeros.

    Args:
        f: The function, of Tensors, arrays, Python floats or nests of them.
        primals: The point: a tuple with one value per positional argument of ``f``.
        tangents: The direction: a tuple like ``primals``.
        has_aux: Whether ``f`` returns ``(output, aux)``.

    Returns:
        ``(out, tangent_out)``, or ``(out, tangent_out, aux)``.

    Raises:
        TypeError: ``primals`` or ``tangents`` is not a tuple or list, a primal is not
            floating-point, or a real primal has a complex tangent.
        ValueError: ``primals`` and ``tangents`` differ in length, structure or shapes.

    >>> import tapegrad as tg
    >>> out, tangent = tg.jvp(tg.sin, (tg.tensor(0.0),), (tg.tensor(2.0),))
    >>> tangent.item()
    2.0
    """
    _check_pairs(primals, tangents, "jvp")
    with undo_on_error():
        seeds = dict(enumerate(tangents))
        out, tangent_out, aux, _ = forward_pass(f, primals, {}, seeds, has_aux, "jvp")
    tangent_out = pack(out, iter(tangent_out))
    if plain_call(primals, tangents):
        out, tangent_out = to_caller_nest(out), to_caller_nest(tangent_out)
    return (out, tangent_out, aux) if has_aux else (out, tangent_out)


def leaf_shape(x: Any) -> tuple[tuple[int, ...], Any]:
    """A primal leaf's shape and the dtype it is differentiated in (float64 for integers)."""
    t = x if isinstance(x, Tensor) else ops.asarray(x)
    dtype = t.dtype if backend.is_floating(t.dtype) else np.dtype(np.float64)
    return t.shape, dtype


def linearize(f: Callable[..., Any], *primals: Any) -> tuple[Any, Callable[..., Any]]:
    """``f(*primals)`` and the linear map ``tangents -> J @ tangents`` at ``primals`` (JAX's).

    ``f_jvp(*tangents)`` takes one tangent per primal and returns the output's tangent; each
    call runs ``f`` forward once more with its tangents (nothing is kept but the primals).

    Args:
        f: The function, of Tensors, arrays, Python floats or nests of them.
        *primals: The point: one value per positional argument of ``f``.

    Returns:
        ``(out, f_jvp)``.

    Raises:
        TypeError: A primal is not floating-point; ``f_jvp`` raises as :func:`jvp` does.

    >>> import tapegrad as tg
    >>> out, f_jvp = tg.linearize(lambda x: x * x, 3.0)
    >>> float(out), float(f_jvp(1.0)), float(f_jvp(2.0))
    (9.0, 6.0, 12.0)
    """
    zeros = tuple(_zeros_of(p) for p in primals)
    out, _ = jvp(f, primals, zeros)

    def f_jvp(*tangents: Any) -> Any:
        return jvp(f, primals, tangents)[1]

    return out, f_jvp


def _zeros_of(primal: Any) -> Any:
    """Zero tangents in ``primal``'s nesting (a None leaf stays None)."""
    zeros: list[Any] = []
    for x in flatten(primal):
        if x is None:
            zeros.append(None)
        else:
            shape, dtype = leaf_shape(x)
            zeros.append(ops.zeros(shape, dtype=dtype, like=x) if isinstance(x, Tensor) else
                         np.zeros(shape, dtype=dtype))  # fmt: skip
    return pack(primal, iter(zeros))


def hvp(f: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any]) -> Any:
    """``(grad(f)(*primals), H v)`` as ``jvp(grad(f), primals, tangents)``, without forming H.

    ``grad`` is taken with respect to the first argument; ``H v`` is the derivative of that
    gradient along ``tangents`` (all arguments). Forward-over-reverse: one reverse sweep
    inside a forward pass, whose rules carry tangents; O(n) memory.

    Args:
        f: A function returning a real scalar.
        primals: The point: a tuple with one value per positional argument of ``f``.
        tangents: The direction ``v``: a tuple like ``primals``.

    Returns:
        ``(gradient, hessian_vector_product)``, both shaped like the first primal.

    Raises:
        TypeError: ``primals`` or ``tangents`` is not a tuple or list, or ``f`` returns
            no real scalar.
        ValueError: ``primals`` and ``tangents`` differ in length or shapes.

    >>> import tapegrad as tg
    >>> g, hv = tg.hvp(lambda x: (x ** 3).sum(), (tg.tensor([1.0, 2.0]),), (tg.tensor([1.0, 1.0]),))
    >>> g.numpy().tolist(), hv.numpy().tolist()
    ([3.0, 12.0], [6.0, 12.0])
    """
    _check_pairs(primals, tangents, "hvp")
    if not primals:
        raise ValueError("hvp: 0 primals but 0 tangents")
    return jvp(grad(f), primals, tangents)


__all__ = ["hvp", "jvp", "linearize"]
