"""Reverse-mode functional transforms on the tape: grad, value_and_grad, vjp, jacobian.

Each transform runs ``f`` under a fresh GradientTape that watches fresh copies
of the differentiated arguments (see tapegrad/transforms/args.py), then
sweeps it. The sweep's rules record on every tape outside, so transforms nest,
and mix with GradientTape, to any order. Forward mode (jvp, jacfwd, linearize, and hvp
and hessian forward-over-reverse) is tapegrad/transforms/forward.py.

Every derivative is exact: nothing uses finite differences.

Arrays in, arrays out: called with no Tensor, a transform gives back arrays and numbers
of the caller's kind (see tapegrad/transforms/args.py), so SciPy's optimizers take its
results; called with Tensors, it gives Tensors, so transforms nest.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from tapegrad.core.nests import flatten, pack
from tapegrad.core.tape import GradientTape
from tapegrad.transforms.args import (
    ArgNums,
    as_output,
    check_argnums,
    like_leaves,
    per_argnum,
    plain_call,
    resolve_argnums,
    scalar_output,
    sources_of,
    split_aux,
    to_caller,
    to_caller_nest,
    undo_on_error,
    watch_args,
)


# --- grad ---------------------------------------------------------------------------------
def value_and_grad(
    f: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """``f`` and its gradient with respect to the arguments at ``argnums``, in one call.

    Returns a function giving ``(value, grads)``, or ``((value, aux), grads)`` with
    ``has_aux=True``. ``f`` must return a scalar. Each gradient has its argument's
    nesting (dict, list, tuple), shape and dtype; a tuple ``argnums`` gives a tuple.

    Args:
        f: The function; its positional arguments are Tensors, arrays, Python floats
            or nests (dict, list, tuple) of them.
        argnums: The position of the argument to differentiate, or a tuple of them.
        has_aux: Whether ``f`` returns ``(value, aux)``, ``aux`` passed through untouched.

    Returns:
        A function with ``f``'s arguments that returns ``(value, grads)``.

    Raises:
        TypeError: ``argnums`` is not an int or a non-empty tuple of ints, an argument to
            differentiate is not floating-point, or ``f`` returns no real scalar.
        ValueError: ``argnums`` is out of range for the call.

    >>> import tapegrad as tg
    >>> value, g = tg.value_and_grad(lambda x: (x ** 2).sum())(tg.tensor([1.0, 2.0]))
    >>> value.item(), g.numpy().tolist()
    (5.0, [2.0, 4.0])
    """
    nums, many = check_argnums(argnums, "value_and_grad")

    @functools.wraps(f)
    def value_and_grad_f(*args: Any, **kwargs: Any) -> Any:
        with undo_on_error():
            wanted = resolve_argnums(nums, len(args), "value_and_grad")
            with GradientTape(watch_accessed_variables=False) as tape:
                new_args, leaves = watch_args(tape, args, wanted, "grad")
                output = f(*new_args, **kwargs)
            value, aux = split_aux(output, has_aux, "grad")
            value = scalar_output(value, "grad")
            sources = sources_of(leaves, wanted)
            flat = tape.gradient(value, sources, unconnected_gradients="zero")
            plain = plain_call(args, kwargs)
            grads = per_argnum(args, leaves, wanted, many, flat, plain)
        if plain:
            value = to_caller(value)
        return ((value, aux), grads) if has_aux else (value, grads)

    return value_and_grad_f


def grad(f: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False) -> Callable[..., Any]:
    """The gradient of a scalar function ``f`` with respect to the arguments at ``argnums``.

    Arguments may be Tensors, arrays, Python floats or nests of them; each gradient
    comes back in its argument's nesting. With ``has_aux=True`` ``f`` returns
    ``(value, aux)`` and the result is ``(grads, aux)``. Nest it for higher orders.

    Args:
        f: The function; its positional arguments are Tensors, arrays, Python floats
            or nests (dict, list, tuple) of them.
        argnums: The position of the argument to differentiate, or a tuple of them.
        has_aux: Whether ``f`` returns ``(value, aux)``, ``aux`` passed through untouched.

    Returns:
        A function with ``f``'s arguments that returns the gradient (``(grads, aux)``
        with ``has_aux``).

    Raises:
        TypeError: ``argnums`` is not an int or a non-empty tuple of ints, an argument to
            differentiate is not floating-point, or ``f`` returns no real scalar.
        ValueError: ``argnums`` is out of range for the call.

    >>> import tapegrad as tg
    >>> d3 = tg.grad(tg.grad(tg.grad(lambda x: x ** 4)))
    >>> d3(2.0)  # a float in, a float out (Tensors for Tensors)
    48.0
    """
    vg = value_and_grad(f, argnums, has_aux)

    @functools.wraps(f)
    def grad_f(*args: Any, **kwargs: Any) -> Any:
        value, grads = vg(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads

    return grad_f


# --- vjp ----------------------------------------------------------------------------------
def vjp(f: Callable[..., Any], *primals: Any, has_aux: bool = False) -> Any:
    """``f(*primals)`` and a function mapping an output cotangent to input cotangents.

    Returns ``(out, vjp_fn)`` (``(out, vjp_fn, aux)`` with ``has_aux=True``);
    ``vjp_fn(cotangent)``, where ``cotangent`` is shaped like ``out``, returns a tuple
    with one entry per primal, each in that primal's nesting. ``vjp_fn`` may be called
    many times.

    Args:
        f: The function, of Tensors, arrays, Python floats or nests of them.
        *primals: The point: one value per positional argument of ``f``.
        has_aux: Whether ``f`` returns ``(output, aux)``.

    Returns:
        ``(out, vjp_fn)``, or ``(out, vjp_fn, aux)``.

    Raises:
        TypeError: A primal is not floating-point, or ``f`` returns something other than
            Tensors or arrays; ``vjp_fn`` raises ValueError for a cotangent of the wrong
            structure or shape.

    >>> import tapegrad as tg
    >>> out, vjp_fn = tg.vjp(lambda x: x * x, tg.tensor([1.0, 3.0]))
    >>> vjp_fn(tg.tensor([1.0, 0.5]))[0].numpy().tolist()
    [2.0, 3.0]
    """
    with undo_on_error():
        everything = tuple(range(len(primals)))
        tape = GradientTape(persistent=True, watch_accessed_variables=False)
        with tape:
            args, leaves = watch_args(tape, primals, everything, "vjp")
            output = f(*args)
        out, aux = split_aux(output, has_aux, "vjp")
        out = pack(out, iter([as_output(leaf, "vjp") for leaf in flatten(out)]))
        targets = flatten(out)
        sources = sources_of(leaves, everything)
        plain = plain_call(primals)

    def vjp_fn(cotangent: Any) -> tuple[Any, ...]:
        seeds = like_leaves(cotangent, out, "vjp_fn", "the cotangent")
        with undo_on_error():
            flat = tape.gradient(
                targets, sources, output_gradients=seeds, unconnected_gradients="zero"
            )
        return per_argnum(primals, leaves, everything, True, flat, plain and plain_call(cotangent))

    given = to_caller_nest(out) if plain else out
    return (given, vjp_fn, aux) if has_aux else (given, vjp_fn)


# --- jacobian -------------------------------------------------------------------------------
def jacobian(
    f: Callable[..., Any], argnums: ArgNums = 0, has_aux: bool = False
) -> Callable[..., Any]:
    """The Jacobian of ``f`` by reverse mode: one sweep per output element.

    For an output of shape ``S`` and an argument of shape ``A`` the Jacobian has
    shape ``S + A``, row ``i`` being the vjp of the unit cotangent ``e_i``. A nested
    output gives that nest with each leaf replaced by its Jacobian(s): in the
    argument's nesting, or a tuple of them for a tuple ``argnums``.

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
            to differentiate is not floating-point.
        ValueError: ``argnums`` is out of range for the call.

    >>> import tapegrad as tg
    >>> tg.jacobian(lambda x: x ** 2)(tg.tensor([1.0, 2.0])).numpy().tolist()
    [[2.0, 0.0], [0.0, 4.0]]
    """
    nums, many = check_argnums(argnums, "jacobian")

    @functools.wraps(f)
    def jacobian_f(*args: Any, **kwargs: Any) -> Any:
        wanted = resolve_argnums(nums, len(args), "jacobian")
        with undo_on_error():
            tape = GradientTape(persistent=True, watch_accessed_variables=False)
            with tape:
                new_args, leaves = watch_args(tape, args, wanted, "jacobian")
                output = f(*new_args, **kwargs)
            out, aux = split_aux(output, has_aux, "jacobian")
            sources = sources_of(leaves, wanted)
            plain = plain_call(args, kwargs)
            per_output = []
            for leaf in flatten(out):
                flat = tape.jacobian(as_output(leaf, "jacobian"), sources, "zero")
                per_output.append(per_argnum(args, leaves, wanted, many, flat, plain))
        result = pack(out, iter(per_output))
        return (result, aux) if has_aux else result

    return jacobian_f
