"""How the functional transforms take arguments and give back results.

The differentiated arguments are replaced by fresh copies made by an
``identity`` primitive: a tape that watches the caller's values still sees the
path through them (transforms nest and mix with GradientTape), while the
transform's own tape sees only its arguments, so ``grad(lambda y: x * y)(x)``
is ``x``, not ``2 * x``. Results are packed back into each argument's nest
(dict, list, tuple; ``None`` leaves get ``None``).

Arrays in, arrays out (as HIPS autograd): when the caller passes no Tensor, every result
comes back as the caller's kind of value (:func:`to_caller`), so NumPy and SciPy code that
calls a transform (``scipy.optimize.minimize(f, x0, jac=tg.grad(f))``) never meets a
Tensor; a result some recording tape sees stays a Tensor, so nesting stays differentiable.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import active_tapes, tracing
from tapegrad.core.batched import Batched
from tapegrad.core.entry import OUTPUT
from tapegrad.core.nests import flatten, pack
from tapegrad.core.record import is_recorded
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor, tensor
from tapegrad.ops.device import _identity
from tapegrad.ops.primitive import shape_of

# An argument position to differentiate, or a tuple of them (JAX's ``argnums``).
ArgNums = int | Sequence[int]


# --- arguments ---------------------------------------------------------------------------
def check_argnums(argnums: Any, what: str) -> tuple[tuple[int, ...], bool]:
    """``argnums`` as a tuple of ints, and whether the caller asked for a tuple."""
    many = isinstance(argnums, (tuple, list))
    nums = tuple(argnums) if many else (argnums,)
    if not nums or any(isinstance(a, bool) or not isinstance(a, int) for a in nums):
        raise TypeError(
            f"{what}: argnums must be an int or a non-empty tuple of ints, got {argnums!r}"
        )
    return nums, many


def resolve_argnums(nums: tuple[int, ...], nargs: int, what: str) -> tuple[int, ...]:
    for a in nums:
        if not -nargs <= a < nargs:
            raise ValueError(
                f"{what}: argnums {a} is out of range for a function called with {nargs} "
                f"positional argument{'s' if nargs != 1 else ''}"
            )
    return tuple(a % nargs for a in nums)


def _fresh(leaf: Any, what: str, position: int) -> Tensor | None:
    """A differentiable copy of one leaf of an argument (None stays None: no gradient).

    An integer array or Python int is differentiated as float64 (as HIPS autograd does); an
    integer Tensor is refused, as ``tape.watch`` refuses it.
    """
    if leaf is None:
        return None
    t = leaf if isinstance(leaf, Tensor) else tensor(leaf)
    if not isinstance(leaf, Tensor) and "int" in backend.dtype_name(t.dtype):
        t = ops.astype(t, np.float64)
    if not backend.is_floating(t.dtype):
        raise TypeError(
            f"{what}: argument {position} holds a {t.dtype} value of shape {t.shape}; only "
            "floating-point (real or complex) arguments can be differentiated (write 2.0, "
            "not 2, or use .astype)"
        )
    return _identity(t)


def watch_args(
    tape: GradientTape, args: Sequence[Any], nums: tuple[int, ...], what: str
) -> tuple[list[Any], dict[int, list[Tensor | None]]]:
    """Replace the arguments at ``nums`` by fresh copies that ``tape`` watches.

    Returns the new argument list and, per argument number, its flat leaves.
    """
    watched = list(args)
    leaves: dict[int, list[Tensor | None]] = {}
    for i in dict.fromkeys(nums):
        fresh = [_fresh(leaf, what, i) for leaf in flatten(watched[i])]
        tape.watch([t for t in fresh if t is not None])
        leaves[i] = fresh
        watched[i] = pack(watched[i], iter(fresh))
    return watched, leaves


def sources_of(leaves: dict[int, list[Tensor | None]], nums: tuple[int, ...]) -> list[Tensor]:
    return [t for i in dict.fromkeys(nums) for t in leaves[i] if t is not None]


def per_argnum(
    args: Sequence[Any],
    leaves: dict[int, list[Tensor | None]],
    nums: tuple[int, ...],
    many: bool,
    results: list[Any],
    plain: bool = False,
) -> Any:
    """Flat results (one per source, in :func:`sources_of` order) in each argument's nest;
    with ``plain``, each of the kind of its argument's leaf (:func:`to_caller`)."""
    found = iter(results)
    packed = {}
    for i in dict.fromkeys(nums):
        flat = [
            None if t is None else to_caller(next(found), like) if plain else next(found)
            for t, like in zip(leaves[i], flatten(args[i]))
        ]
        packed[i] = pack(args[i], iter(flat))
    return tuple(packed[i] for i in nums) if many else packed[nums[0]]


# --- results of the caller's kind -----------------------------------------------------------
def plain_call(*given: Any) -> bool:
    """Whether the caller passed no Tensor in ``given`` (arguments, tangents, cotangents), so
    that results go back as arrays and numbers; never while tg.compile traces."""
    return not any(isinstance(leaf, Tensor) for leaf in flatten(given)) and not tracing()


def to_caller(value: Any, like: Any = None) -> Any:
    """A result of a call with no Tensor in it, as the caller's kind of value.

    A Tensor some recording tape sees stays a Tensor (the caller differentiates through it).
    Otherwise: a Python number for a 0-d result of a Python-number leaf, a NumPy scalar for
    a NumPy-scalar leaf or a 0-d output (as NumPy's reductions give), else an array of the
    result's library (NumPy, CuPy) that the caller owns (a copy: the Tensor's may be
    shared), 0-d for a 0-d array leaf.

    >>> import tapegrad as tg
    >>> to_caller(tg.tensor(2.0), like=1.0), to_caller(tg.tensor(2.0))
    (2.0, np.float64(2.0))
    """
    if not isinstance(value, Tensor) or is_recorded(value):
        return value
    data = value._data
    if type(data) is Batched:  # inside tg.vmap, which gives the caller's kind of value
        return value
    if not data.shape and not isinstance(like, np.ndarray):
        if isinstance(like, (bool, int, float, complex)) and not isinstance(like, np.generic):
            return data.item()
        if type(data) is np.ndarray:
            return data[()]
    if type(data) is np.ndarray:
        return np.array(data)
    return data.copy()


def to_caller_nest(nest: Any) -> Any:
    """:func:`to_caller` on every leaf of a nest of results (outputs, Jacobians)."""
    return pack(nest, iter([to_caller(leaf) for leaf in flatten(nest)]))


# --- outputs ------------------------------------------------------------------------------
def split_aux(output: Any, has_aux: bool, what: str) -> tuple[Any, Any]:
    if not has_aux:
        return output, None
    if not (isinstance(output, (tuple, list)) and len(output) == 2):
        got = f"a {type(output).__name__}"
        if isinstance(output, (tuple, list)):
            got += f" of length {len(output)}"
        raise TypeError(f"{what}: with has_aux=True, f must return a pair (output, aux); got {got}")
    return output[0], output[1]


def as_output(leaf: Any, what: str) -> Tensor:
    if isinstance(leaf, Tensor):
        return leaf
    if leaf is None or isinstance(leaf, (str, bytes)) or callable(leaf):
        raise TypeError(f"{what}: f must return Tensors or arrays, got {type(leaf).__name__}")
    return tensor(leaf)


def scalar_output(output: Any, what: str) -> Tensor:
    """``f``'s output as the Tensor to differentiate: a real value of size one (shape ``()``,
    or ``(1,)``, ``(1, 1)``..., as HIPS autograd and PyTorch's ``backward()`` accept)."""
    if isinstance(output, (tuple, list, dict)):
        raise TypeError(
            f"{what}: f must return a scalar, got a {type(output).__name__}; use has_aux=True "
            "when the rest is auxiliary data, or tg.jacobian / tg.vjp for several outputs"
        )
    value = as_output(output, what)
    if value.size != 1:
        raise TypeError(
            f"{what}: f must return a scalar (a value of size one), got shape {value.shape}; "
            "use tg.jacobian or tg.vjp for non-scalar outputs"
        )
    if not backend.is_real_floating(value.dtype):
        raise TypeError(
            f"{what}: f must return a real floating-point scalar (the loss must be real), "
            f"got {value.dtype}"
        )
    return value


def _same_structure(given: Any, expected: Any) -> bool:
    """Whether two nests have the same containers; leaves may differ."""
    if isinstance(expected, dict):
        return (
            isinstance(given, dict)
            and given.keys() == expected.keys()
            and all(_same_structure(given[k], expected[k]) for k in expected)
        )
    if isinstance(expected, (list, tuple)):
        return (
            isinstance(given, (list, tuple))
            and len(given) == len(expected)
            and all(_same_structure(g, e) for g, e in zip(given, expected))
        )
    return not isinstance(given, (dict, list, tuple))


def _structure(nest: Any) -> str:
    """``(shape(3,), {a: shape()})``: a nest with its leaves' shapes, for error messages."""
    shapes = iter(f"shape{shape_of(leaf)}" for leaf in flatten(nest))
    return repr(pack(nest, shapes)).replace("'", "")


def like_leaves(given: Any, expected: Any, what: str, name: str) -> list[Any]:
    """The leaves of ``given`` as Tensors shaped like ``expected``'s (cotangents, tangents).

    Tensors are kept as they are, so a tape that watches them sees the result depend on them.
    """
    if not _same_structure(given, expected):
        raise ValueError(
            f"{what}: {name} must have the structure {_structure(expected)}, "
            f"got {_structure(given)}"
        )
    out: list[Tensor | None] = []
    for g, e in zip(flatten(given), flatten(expected)):
        if e is None:
            out.append(None)
            continue
        if g is None:
            raise ValueError(f"{what}: {name} holds None where a value of shape {e.shape} is due")
        if shape_of(g) != e.shape:
            raise ValueError(
                f"{what}: {name} of shape {shape_of(g)} does not match the shape {e.shape} "
                "of its value"
            )
        out.append(g if isinstance(g, Tensor) else ops.asarray(g, dtype=e.dtype, like=e))
    return out


@contextlib.contextmanager
def undo_on_error() -> Iterator[None]:
    """On an exception, take back what the call appended to the active tapes.

    A transform that fails after ``f`` ran (a non-scalar output, a bad tangent)
    leaves every outer tape as it was before the call.
    """
    marks = [(t, len(t._entries), len(t._variables)) for t in active_tapes()]
    try:
        yield
    except BaseException:
        for tape, entries, variables in marks:
            for entry in tape._entries[entries:]:
                if entry is not None:
                    tape._watched.discard(entry[OUTPUT]._id)
            del tape._entries[entries:]
            # A Variable is appended here only when the tape first watched it.
            for v in tape._variables[variables:]:
                tape._watched.discard(v._id)
                tape._roots.discard(v._id)
            del tape._variables[variables:]
        raise
