"""NumPy interop: ``np.exp(t)``, ``np.sum(t, axis=0)`` and ``ndarray @ t`` call tapegrad ops.

Explicit tables (tapegrad/numpy/ufunc_tables.py, tables.py) map NumPy's ufuncs and
functions to tapegrad's. Ufuncs of other libraries (SciPy's special functions) are looked
up in a third table that their tapegrad module fills. Anything not in them raises TypeError
naming it: a gradient is never dropped silently.

The engine's Tensor does not know NumPy's protocols: :func:`attach` sets
``Tensor.__array_ufunc__``, ``Tensor.__array_function__`` and ``Tensor.round`` (NumPy's
rounding, to ``decimals`` places; and Python's ``round(t, n)``) when tapegrad.numpy is
imported.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import inspect
import sys
from typing import Any

import numpy as np

from tapegrad.core.batched import BatchedValueError

# tg.vmap's fallback for a NumPy function that reads its inputs' values:
# ``run(op, name, args, kwargs)`` calls it once per example (set by tapegrad/transforms/vmap).
per_example: list[Any] = []

# What a user can do about a function tapegrad lacks, appended to the TypeError.
UNSUPPORTED_HINT = (
    "; write it with tapegrad ops, or give it a gradient with @tg.custom_gradient or "
    "tg.Primitive(...).defvjp(...) (docs/extending.md)"
)


@functools.cache
def _tables() -> tuple[dict[Any, Any], dict[Any, Any]]:
    # Built on first use: the tables name functions of tapegrad.linalg, fft and scipy.
    return _ufuncs(), _functions()


def _ufuncs() -> dict[Any, Any]:
    from tapegrad import ops
    from tapegrad.numpy import ufunc_tables

    return {**ufunc_tables.differentiable_ufuncs(ops), **ufunc_tables.no_gradient_ufuncs(ops)}


def _functions() -> dict[Any, Any]:
    from tapegrad import ops
    from tapegrad.numpy import _functions as signatures
    from tapegrad.numpy import _reductions as reductions
    from tapegrad.numpy import tables

    return {
        **tables.differentiable_functions(ops, signatures, reductions),
        **tables.no_gradient_functions(ops, signatures, reductions),
        **tables.in_place_functions(signatures),
    }


@functools.cache
def _methods() -> dict[str, dict[Any, Any]]:
    from tapegrad import ops
    from tapegrad.numpy import _reductions as reductions
    from tapegrad.numpy import ufunc_tables

    return {
        "reduce": ufunc_tables.reduce_methods(reductions),
        "accumulate": ufunc_tables.accumulate_methods(ops, reductions),
    }


# Ufuncs from outside NumPy -> tapegrad functions. tapegrad.scipy.special registers
# scipy.special's here; it is imported on the first such ufunc called on a Tensor, so
# ``scipy.special.gammaln(t)`` records without the user importing tapegrad.scipy. The
# modules to import are named by the package root (tapegrad/__init__.py): this layer does
# not know the ones above it.
_foreign_ufuncs: dict[Any, Any] = {}
_foreign_ufunc_modules: list[str] = []


def register_ufuncs(table: dict[Any, Any]) -> None:
    """Let ``ufunc(tensor)`` call ``table[ufunc]`` for ufuncs that are not NumPy's."""
    _foreign_ufuncs.update(table)


def register_ufunc_module(module: str) -> None:
    """Import ``module`` (which calls :func:`register_ufuncs`) the first time a ufunc that is
    not NumPy's meets a Tensor."""
    if module not in _foreign_ufunc_modules:
        _foreign_ufunc_modules.append(module)


def _foreign_ufunc(ufunc: Any) -> Any:
    if getattr(np, ufunc.__name__, None) is ufunc:
        return None  # NumPy's own: only the first table holds those
    if ufunc not in _foreign_ufuncs and _scipy_installed():
        for module in _foreign_ufunc_modules:
            importlib.import_module(module)
    return _foreign_ufuncs.get(ufunc)


def _scipy_installed() -> bool:
    try:  # scipy.special, not scipy: a directory named scipy on sys.path is not SciPy
        return importlib.util.find_spec("scipy.special") is not None
    except ImportError:
        return False


def _ufunc_name(ufunc: Any) -> str:
    """``numpy.exp``, ``scipy.special.gammaln``: where the user found the ufunc."""
    name = ufunc.__name__
    if getattr(np, name, None) is ufunc:
        return f"numpy.{name}"
    if getattr(sys.modules.get("scipy.special"), name, None) is ufunc:
        return f"scipy.special.{name}"
    return name


def _given_out(kwargs: dict[str, Any]) -> Any:
    """The ``out=`` NumPy was given (None when absent or all None), left in ``kwargs``."""
    out = kwargs.get("out")
    if isinstance(out, tuple) and all(o is None for o in out):
        kwargs.pop("out")
        return None
    return out


def _write_into(name: str, call: Any, args: Any, kwargs: dict[str, Any]) -> Any:
    """``out=`` into the caller's arrays (``a -= t``, ``np.add(a, t, out=a)``): NumPy's own
    call on the Tensors' values, when no recording tape watches them. A Tensor as ``out``,
    or a watched Tensor's value written into an array (its gradient would be lost), raises
    a TypeError saying what to write instead."""
    from tapegrad.core.nests import flatten, pack
    from tapegrad.core.record import is_recorded
    from tapegrad.core.tensor import Tensor
    from tapegrad.wording import a

    out = kwargs["out"]
    if any(isinstance(o, Tensor) for o in flatten(out)):
        raise TypeError(
            f"numpy.{name}(out=...) into a Tensor is not supported: Tensors are immutable; "
            "write y = f(x) (a new Tensor), or v.assign(...) to change a Variable"
        )
    tensors = [t for t in flatten((args, kwargs)) if isinstance(t, Tensor)]
    if is_recorded(*tensors):
        watched = next(t for t in tensors if is_recorded(t))
        raise TypeError(
            f"numpy.{name}(out=...) writes the value of a watched Tensor of shape "
            f"{watched.shape} into {a(type(flatten(out)[0]).__name__)} inside a recording "
            "GradientTape, where its gradient would be lost: write a = a - t (a new Tensor "
            "that records), or use t.numpy() to write the value without a gradient"
        )
    leaves = [t._data if isinstance(t, Tensor) else t for t in flatten((args, kwargs))]
    values, keywords = pack((args, kwargs), iter(leaves))
    return call(*values, **keywords)


# Ufunc keywords that change nothing on Tensors when left at NumPy's defaults.
_UFUNC_DEFAULTS = {"casting": "same_kind", "order": "K", "subok": True, "signature": None}


def _unsupported(ufunc: Any, method: str) -> TypeError:
    what = _ufunc_name(ufunc) + ("" if method == "__call__" else f".{method}")
    return TypeError(f"tapegrad does not support {what} on Tensors{UNSUPPORTED_HINT}")


def array_ufunc(ufunc: Any, method: str, inputs: tuple, kwargs: dict[str, Any]) -> Any:
    """``Tensor.__array_ufunc__``."""
    if _given_out(kwargs) is not None:
        name = ufunc.__name__ + ("" if method == "__call__" else f".{method}")
        return _write_into(name, getattr(ufunc, method), inputs, kwargs)
    if method == "__call__":
        op = _tables()[0].get(ufunc)
        if op is None:
            op = _foreign_ufunc(ufunc)
        if op is None:
            raise _unsupported(ufunc, method)
        return _call_ufunc(ufunc, op, inputs, kwargs)
    if method == "outer":
        op = _tables()[0].get(ufunc)
        if op is None or ufunc.nin != 2:
            raise _unsupported(ufunc, method)
        a, b = inputs
        ndim_b = len(np.shape(b.data if hasattr(b, "data") else b))
        from tapegrad import ops

        spread = ops.reshape(a, tuple(ops.primitive.shape_of(a)) + (1,) * ndim_b)
        return _call_ufunc(ufunc, op, (spread, b), kwargs)
    if method == "at":
        raise TypeError(
            f"{_ufunc_name(ufunc)}.at writes into its first argument in place, and Tensors are "
            "immutable: write a + tg.index_add(b, a.shape, index) for numpy.add.at(a, index, b)"
        )
    reduction = _methods().get("reduce" if method == "reduceat" else method, {}).get(ufunc)
    op = _tables()[0].get(ufunc)
    if reduction is None and op is None:
        raise _unsupported(ufunc, method)
    from tapegrad.numpy import _ufunc_methods as fold

    if method == "reduceat":
        reduce_ = reduction or functools.partial(fold.reduce, ufunc, op)
        return fold.reduceat(ufunc, reduce_, *inputs, **kwargs)
    if reduction is None:  # a fold of the binary op: one recorded op per element
        return getattr(fold, method)(ufunc, op, *inputs, **kwargs)
    kwargs.setdefault("axis", 0)  # ufunc methods reduce axis 0 by default
    return reduction(*inputs, **kwargs)


def _call_ufunc(ufunc: Any, op: Any, inputs: tuple, kwargs: dict[str, Any]) -> Any:
    from tapegrad import ops
    from tapegrad.numpy.tables import WITHOUT_GRADIENT

    where = kwargs.pop("where", True)
    dtype = kwargs.pop("dtype", None)
    core = {key: kwargs.pop(key) for key in ("axes", "axis", "keepdims") if key in kwargs}
    for key, default in _UFUNC_DEFAULTS.items():
        if key in kwargs and kwargs[key] != default and key != "casting":
            raise TypeError(
                f"{_ufunc_name(ufunc)}: {key}={kwargs[key]!r} is not supported on Tensors"
            )
        kwargs.pop(key, None)
    if kwargs:
        raise TypeError(
            f"{_ufunc_name(ufunc)}: keyword arguments {sorted(kwargs)} are not supported on Tensors"
        )
    if op is WITHOUT_GRADIENT:
        from tapegrad.numpy._fallback import call_without_gradient

        return call_without_gradient(ufunc, inputs, {})
    if dtype is not None:
        inputs = tuple(
            ops.astype(x if hasattr(x, "shape") else np.asarray(x), dtype) for x in inputs
        )
    if where is not True:
        inputs = _masked_inputs(where, inputs)
    if core:
        return _call_gufunc(ufunc, op, inputs, **core)
    result = op(*inputs)
    if where is True:
        return result
    # Where the mask is false NumPy leaves the output uninitialized; here it is 0.
    if isinstance(result, tuple):
        return tuple(ops.where(where, r, False if "bool" in str(r.dtype) else 0) for r in result)
    return ops.where(where, result, False if "bool" in str(result.dtype) else 0)


def _core_dims(ufunc: Any) -> list[int]:
    """How many core dimensions each operand (inputs, then outputs) of a gufunc has, from
    its signature: ``(n?,k),(k,m?)->(n?,m?)`` gives [2, 2, 2]."""
    import re

    return [
        len([d for d in group.split(",") if d.strip()])
        for group in re.findall(r"\(([^)]*)\)", ufunc.signature)
    ]


def _call_gufunc(
    ufunc: Any, op: Any, inputs: tuple, axes: Any = None, axis: Any = None, keepdims: bool = False
) -> Any:
    """A generalized ufunc (matmul, vecdot, matvec, vecmat) with NumPy's ``axes=``,
    ``axis=`` and ``keepdims=``: each input's core axes moved last, the op, then the
    output's core axes moved to where ``axes`` puts them (kept with size 1 for keepdims)."""
    from tapegrad import ops

    name = _ufunc_name(ufunc)
    if ufunc.signature is None:
        raise TypeError(f"{name}: axes=, axis= and keepdims= apply to generalized ufuncs only")
    nin, counts = ufunc.nin, _core_dims(ufunc)
    if axis is not None:
        if axes is not None:
            raise TypeError(f"{name}: give axes= or axis=, not both")
        if any(c not in (0, 1) for c in counts) or any(counts[nin:]):
            raise TypeError(f"{name}: axis= needs a single shared core dimension; use axes=")
        axes = [(axis,) if c == 1 else () for c in counts[:nin]]
        if keepdims:
            axes += [(axis,)]
    entries = [(e,) if isinstance(e, (int, np.integer)) else tuple(e) for e in (axes or [])]
    if axes is not None and len(entries) != len(counts):
        if len(entries) != nin or any(counts[nin:]):
            raise ValueError(
                f"{name}: axes= needs an entry for every input and output (the outputs' "
                "may be left out only where they have no core dimensions)"
            )
    if keepdims and (any(counts[nin:]) or len(set(counts[:nin])) != 1):
        raise TypeError(
            f"{name}: keepdims=True needs the same number of core dimensions in every input "
            "and none in the output"
        )
    moved = []
    for x, entry in zip(inputs, entries[:nin] + [()] * (nin - len(entries[:nin]))):
        k = len(entry)
        moved.append(ops.moveaxis(x, entry, tuple(range(-k, 0))) if k else x)
    result = op(*moved)
    kept = counts[0] if keepdims else 0
    if kept:
        result = ops.expand_dims(result, tuple(range(-kept, 0)))
    out = entries[nin] if len(entries) > nin else ()
    if out:
        result = ops.moveaxis(result, tuple(range(-len(out), 0)), out)
    return result


def _masked_inputs(where: Any, inputs: tuple) -> tuple:
    """``inputs`` with each Tensor's elements outside ``where`` replaced by constants.

    A ufunc's ``where=`` skips those elements; computing them anyway is harmless for the
    value (the result is masked), but an input outside the function's domain there (sqrt
    of a negative) would give a NaN derivative, and 0 * NaN leaks into the gradient. Cut
    off from the tape, they give none: the gradient is exactly 0 where the mask is false.
    """
    from tapegrad import ops
    from tapegrad.core.tensor import Tensor

    return tuple(
        ops.where(where, x, ops.stop_gradient(x)) if isinstance(x, Tensor) else x for x in inputs
    )


def array_function(func: Any, args: tuple, kwargs: dict[str, Any]) -> Any:
    """``Tensor.__array_function__``."""
    op = _tables()[1].get(func)
    if op is None:
        # func.__module__ says numpy.linalg for np.linalg.svd
        name = f"{func.__module__}.{func.__name__}"
        raise TypeError(f"tapegrad does not support {name} on Tensors{UNSUPPORTED_HINT}")
    if _given_out(kwargs) is not None:
        return _write_into(func.__name__, func, args, kwargs)
    from tapegrad.numpy.tables import WITHOUT_GRADIENT

    if op is WITHOUT_GRADIENT:
        from tapegrad.numpy._fallback import call_without_gradient

        return call_without_gradient(func, args, kwargs)
    try:
        return op(*args, **kwargs)
    except BatchedValueError:  # inside tg.vmap, op reads values: once per example
        if not per_example:
            raise
        return per_example[0](op, func.__name__, args, kwargs)
    except TypeError as error:
        try:
            signature = inspect.signature(op)
            signature.bind(*args, **kwargs)
        except TypeError as mismatch:  # the call, not the op, is at fault: say whose
            signature = signature.replace(
                parameters=[p.replace(annotation=p.empty) for p in signature.parameters.values()],
                return_annotation=signature.empty,
            )
            raise TypeError(
                f"numpy.{func.__name__} on Tensors: {mismatch}; tapegrad supports "
                f"numpy.{func.__name__}{signature}"
            ) from None
        except ValueError:  # no signature to show (a builtin)
            pass
        raise error


def _array_ufunc(self: Any, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
    return array_ufunc(ufunc, method, inputs, kwargs)


def _array_function(self: Any, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
    return array_function(func, args, kwargs)


def _round(self: Any, decimals: int = 0) -> Any:
    """``np.round(self, decimals)``: to ``decimals`` places, halves to even (no gradient)."""
    from tapegrad.numpy._functions import round as round_

    return round_(self, decimals)


def _builtin_round(self: Any, ndigits: int | None = None) -> Any:
    """``round(t)`` is an int for a 0-d Tensor (as for NumPy's scalars: it leaves the tape);
    ``round(t, n)``, and ``round`` of a larger Tensor, is ``t.round(n)``, a Tensor."""
    if ndigits is None and not self.shape:
        return round(float(self))
    return _round(self, ndigits or 0)


def attach() -> None:
    """Give Tensor NumPy's protocols and ``round`` (once, when tapegrad.numpy is imported)."""
    from tapegrad.core.tensor import Tensor

    Tensor.__array_ufunc__ = _array_ufunc
    Tensor.__array_function__ = _array_function
    # pandas (2.1+) hands a binary operator to the operand of higher priority (a Series has
    # 3000, a DataFrame 4000): `series * t` is then Tensor.__rmul__, a Tensor that records,
    # as `ndarray * t` is, instead of a Series made with np.asarray(t) off the tape.
    Tensor.__pandas_priority__ = 5000
    Tensor.round = _round
    Tensor.__round__ = _builtin_round
