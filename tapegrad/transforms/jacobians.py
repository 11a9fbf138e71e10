"""Jacobians and Hessians as JAX names them: jacfwd (forward mode, one JVP per input
element), jacrev (reverse mode, tg.jacobian's), hessian = jacfwd(grad(f)), forward over
reverse. Built on tapegrad/transforms/forward.py.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.nests import flatten, pack
from tapegrad.transforms.args import (
    ArgNums,
    check_argnums,
    per_argnum,
    plain_call,
    resolve_argnums,
    undo_on_error,
)
from tapegrad.transforms.forward import forward_pass, leaf_shape
from tapegrad.transforms.functional import grad, jacobian


def jacfwd(
    f: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """The Jacobian of ``f`` by forward mode: one JVP per element of the arguments.

    The choice for wide Jacobians (fewer inputs than outputs); :func:`jacrev` for tall ones.
    The result has the layout of :func:`tapegrad.jacobian`: for an output of shape ``S``
    and an argument of shape ``A``, shape ``S + A``; a nested output gives that nest with
    each leaf replaced by its Jacobian(s), in the argument's nesting (a tuple of them for
    a tuple ``argnums``).

    Args:
        f: The function; its positional arguments are Tensors, arrays, Python floats
            or nests (dict, list, tuple) of them.
        argnums: The position of the argument to differentiate, or a tuple of them.
        has_aux: Whether ``f`` returns ``(value, aux)``, ``aux`` returned beside the Jacobian.

    Returns:
        A function with ``f``'s arguments that returns the Jacobian (``(jacobian, aux)``
        with ``has_aux``).

    Raises:
        TypeError: ``argnums`` is not an int or a non-empty tuple of ints, or an argument
            to differentiate is not real floating-point.
        ValueError: ``argnums`` is out of range for the call.

    >>> import tapegrad as tg
    >>> tg.jacfwd(lambda x: x ** 2)(tg.tensor([1.0, 2.0])).numpy().tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """
    nums, many = check_argnums(argnums, "jacfwd")

    @functools.wraps(f)
    def jacfwd_f(*args: Any, **kwargs: Any) -> Any:
        wanted = resolve_argnums(nums, len(args), "jacfwd")
        with undo_on_error():
            result, aux = _forward_jacobian(f, args, kwargs, wanted, many, has_aux)
        return (result, aux) if has_aux else result

    return jacfwd_f


def _forward_jacobian(
    f: Callable[..., Any],
    args: Sequence[Any],
    kwargs: dict[str, Any],
    wanted: tuple[int, ...],
    many: bool,
    has_aux: bool,
) -> tuple[Any, Any]:
    """The Jacobian blocks of every output leaf for every leaf of the arguments ``wanted``:
    one forward pass per element of those leaves (a basis tangent each)."""
    shapes = {i: [None if x is None else leaf_shape(x) for x in flatten(args[i])] for i in wanted}
    for i in wanted:
        for s in shapes[i]:
            if s is not None and backend.is_complex(s[1]):
                raise TypeError(
                    f"jacfwd: argument {i} is complex ({s[1]}, shape {s[0]}); a Jacobian's "
                    "columns are derivatives along real directions: pass tg.real(z) and "
                    "tg.imag(z) as two real arguments"
                )
    slots = [(i, j) for i in dict.fromkeys(wanted) for j, s in enumerate(shapes[i]) if s]
    columns: dict[tuple[int, int], list[list[Any]]] = {slot: [] for slot in slots}
    out = aux = leaves = None
    for i, j in slots:
        s = shapes[i][j]
        assert s is not None
        size = _size(s[0])
        eye = ops.eye(size, dtype=s[1]) if size else None
        for e in range(size):
            basis = ops.reshape(eye[e], s[0])  # type: ignore[index]
            seeds: dict[int, list[Any]] = {
                k: [None] * len(shapes[k]) for k in dict.fromkeys(wanted)
            }
            seeds[i][j] = basis
            out, tangents, aux, leaves = forward_pass(f, args, kwargs, seeds, has_aux, "jacfwd")
            columns[(i, j)].append(tangents)
    if out is None:  # every argument leaf is empty: f runs once for the output's structure
        seeds = {k: [None] * len(shapes[k]) for k in dict.fromkeys(wanted)}
        out, _, aux, leaves = forward_pass(f, args, kwargs, seeds, has_aux, "jacfwd")
    assert leaves is not None
    plain = plain_call(args, kwargs)
    per_output = []
    for n, o in enumerate(flatten(out)):
        flat = []
        for i, j in slots:
            s = shapes[i][j]
            assert s is not None
            cols = [c[n] for c in columns[(i, j)]]
            if cols:
                block = ops.reshape(ops.stack(cols, axis=-1), o.shape + s[0])
            else:
                block = ops.zeros(o.shape + s[0], dtype=o.dtype)
            flat.append(block)
        per_output.append(per_argnum(args, leaves, wanted, many, flat, plain))
    return pack(out, iter(per_output)), aux


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def jacrev(
    f: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """The Jacobian of ``f`` by reverse mode: one sweep per output element (JAX's ``jacrev``).

    The choice for tall Jacobians (fewer outputs than inputs), and what
    :func:`tapegrad.jacobian` computes; :func:`jacfwd` for wide ones. Same arguments,
    result layout and errors as :func:`tapegrad.jacobian`.

    Args:
        f: The function; its positional arguments are Tensors, arrays, Python floats
            or nests (dict, list, tuple) of them.
        argnums: The position of the argument to differentiate, or a tuple of them.
        has_aux: Whether ``f`` returns ``(value, aux)``, ``aux`` returned beside the Jacobian.

    Returns:
        A function with ``f``'s arguments that returns the Jacobian.

    >>> import tapegrad as tg
    >>> tg.jacrev(lambda x: x ** 2)(tg.tensor([1.0, 2.0])).numpy().tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """
    return jacobian(f, argnums, has_aux)


# --- second derivatives -----------------------------------------------------------------------
def hessian(
    f: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """The Hessian of a scalar ``f``: ``jacfwd(grad(f))``, forward-over-reverse (shape ``A + A``).

    A tuple ``argnums`` gives a tuple of tuples of blocks, ``H[i][j] = d2f/dxi dxj``.

    Args:
        f: The function; its positional arguments are Tensors, arrays, Python floats
            or nests (dict, list, tuple) of them.
        argnums: The position of the argument to differentiate, or a tuple of them.
        has_aux: Whether ``f`` returns ``(value, aux)``, ``aux`` returned beside the Hessian.

    Returns:
        A function with ``f``'s arguments that returns the Hessian.

    Raises:
        TypeError: ``argnums`` is not an int or a non-empty tuple of ints, an argument to
            differentiate is not real floating-point, or ``f`` returns no real scalar.
        ValueError: ``argnums`` is out of range for the call.

    >>> import tapegrad as tg
    >>> tg.hessian(lambda x: (x ** 3).sum())(tg.tensor([1.0, 2.0])).numpy().tolist()
    [[6.0, 0.0], [0.0, 12.0]]
    """
    forward = jacfwd(grad(f, argnums, has_aux), argnums, has_aux)
    reverse = jacobian(grad(f, argnums, has_aux), argnums, has_aux)
    nums, _ = check_argnums(argnums, "hessian")

    @functools.wraps(f)
    def hessian_f(*args: Any, **kwargs: Any) -> Any:
        wanted = resolve_argnums(nums, len(args), "hessian")
        if any(
            backend.is_complex(leaf_shape(x)[1])
            for i in wanted
            for x in flatten(args[i])
            if x is not None
        ):
            # A complex argument's gradient is complex: the reverse mode's Jacobian says why
            # it has no Hessian (its rows are gradients of real values).
            return reverse(*args, **kwargs)
        return forward(*args, **kwargs)

    return hessian_f


__all__ = ["hessian", "jacfwd", "jacrev"]
