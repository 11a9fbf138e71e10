"""Arrays a compiled function writes into again on its next call, instead of fresh ones.

An array of more than about 128 KiB is memory the C allocator maps from the operating
system for each call and hands back when it dies, and touching fresh pages costs: on the
MLP training step (784-512-512-10, batch 256, float32) hand-written NumPy spends about a
sixth of its time there, and the same NumPy with ``out=`` into arrays kept from the last
call does not. tg.compile's generated code (tapegrad/replay/codegen.py) knows each step's
result shape and dtype, so for the steps that make large arrays (matrix products, their
gradients, ReLU) it passes one :class:`Pool` slot per step, and each call writes into the
slot's array when nothing but the pool holds it any more: the tape that kept it has been
swept, the caller has dropped the gradient it returned. ``sys.getrefcount`` says so (a
view, a Tensor, a tape entry or a caller's variable all hold a reference); where anything
still does, or the operands are not what the recording saw, the step makes a new array
as before (and the pool keeps that one for next time). Values are the same as without
the pool: the same NumPy calls, with ``out=``.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from tapegrad.ops import elementwise, linalg
from tapegrad.ops.primitive import Primitive

_ndarray = np.ndarray
_getrefcount = sys.getrefcount
_REAL = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64))


class Pool(list):
    """A generated function's slots: each pooled step's last result, or None (a recording's
    forwards index theirs by the step's slot, so the versions a recording generates share one)."""


def _free(pool: Pool, i: int) -> Any:
    """``pool[i]`` where nothing else holds it, else None."""
    out = pool[i]
    if type(out) is not _ndarray or _getrefcount(out) != _EXCLUSIVE:
        return None
    if not out.flags.writeable:  # Tensor.numpy() marked it read-only, and it was dropped
        if out.base is not None:
            return None
        out.setflags(write=True)
    return out


def _calibrate() -> int:
    # What getrefcount reports inside _free for an array only the pool holds (the pool,
    # the local, the call's argument), read the same way: Python versions count
    # borrowed references apart.
    pool = Pool([np.empty(1)])
    out = pool[0]
    return _getrefcount(out)


_EXCLUSIVE = _calibrate()


def _matrices(x: Any, y: Any, out: Any) -> bool:
    """Real 2-d NumPy operands of ``out``'s dtype whose product has ``out``'s shape."""
    return (
        type(x) is _ndarray
        and type(y) is _ndarray
        and x.dtype is out.dtype
        and y.dtype is out.dtype
        and x.ndim == 2
        and y.ndim == 2
        and out.shape == (x.shape[0], y.shape[1])
    )


def matmul(pool: Pool, i: int, x: Any, y: Any) -> Any:
    out = _free(pool, i)
    if out is not None and _matrices(x, y, out):
        return np.matmul(x, y, out=out)
    pool[i] = result = np.matmul(x, y)
    return result


def matmul_add(pool: Pool, i: int, x: Any, y: Any, b: Any) -> Any:
    out = _free(pool, i)
    if (
        out is not None
        and _matrices(x, y, out)
        and type(b) is _ndarray
        and b.dtype is out.dtype
        and b.shape in (out.shape, out.shape[1:])
    ):
        np.matmul(x, y, out=out)
        out += b
        return out
    pool[i] = result = linalg._matmul_add_forward(np, x, y, b)
    return result


def relu(pool: Pool, i: int, x: Any) -> Any:
    out = _free(pool, i)
    if out is not None and type(x) is _ndarray and x.dtype is out.dtype and x.shape == out.shape:
        return np.maximum(x, 0, out=out)
    pool[i] = result = np.maximum(x, 0)
    return result


def matmul_vjp(pool: Pool, i: int, argnum: int, g: Any, x: Any, y: Any) -> Any:
    """The cotangent of a product's input ``argnum`` (``g @ y.T`` or ``x.T @ g``) of real
    matrices: the rule's own arithmetic, written into the pool's array."""
    out = _free(pool, i)
    if out is not None:
        if argnum == 0 and _matrices(g, y.T, out):
            return np.matmul(g, y.T, out=out)
        if argnum == 1 and _matrices(x.T, g, out):
            return np.matmul(x.T, g, out=out)
    pool[i] = result = linalg._matmul_vjp(argnum, g, None, x, y)
    return result


# Primitive -> its forward into a pool slot, for steps on real NumPy arrays.
FORWARD: dict[Primitive, Any] = {
    linalg._matmul: matmul,
    linalg._matmul_add: matmul_add,
    elementwise._relu: relu,
}
# The primitives whose rules for inputs 0 and 1 are matmul_vjp's on real matrices.
PRODUCTS = frozenset({linalg._matmul, linalg._matmul_add})


def poolable(value: Any) -> bool:
    """A step result worth a slot: a large real NumPy array."""
    return type(value) is _ndarray and value.dtype in _REAL and value.nbytes >= POOL_BYTES


# Smaller arrays come from the allocator's own free lists, warm: nothing to gain.
POOL_BYTES = 1 << 17
