"""Neural-network functions: softmax and log_softmax (built from primitives), and the
softmax cross-entropy of integer labels (a primitive of its own).

softmax and log_softmax go through ``logsumexp``, so they are stable for large inputs
and their gradients (any order) come from its rule.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive, raw
from tapegrad.ops.reductions import stable_peak


def log_softmax(x: Any, axis: int = -1) -> Tensor:
    """``x - logsumexp(x)`` along ``axis``.

    >>> import tapegrad as tg
    >>> tg.log_softmax(tg.tensor([0.0, 0.0]))
    tensor([-0.69314718, -0.69314718], dtype=float64)
    """
    return x - ops.logsumexp(x, axis=axis, keepdims=True)


def softmax(x: Any, axis: int = -1) -> Tensor:
    """``exp(x) / sum(exp(x))`` along ``axis``, computed as ``exp(log_softmax(x))``.

    >>> import tapegrad as tg
    >>> tg.softmax(tg.tensor([0.0, 0.0, 1.0]))
    tensor([0.21194156, 0.21194156, 0.57611688], dtype=float64)
    """
    return ops.exp(log_softmax(x, axis=axis))


# --- softmax cross-entropy of integer labels, as one primitive ------------------------------
# tg.nn.cross_entropy's common case (integer labels, no class weights, no smoothing, a
# "mean" or "sum" reduction) in one entry: the forward is NumPy's few passes, and the
# gradient ``(softmax(x) - onehot(label)) * scale`` one more, where the composed ops
# (log_softmax, take_along_axis, a mask, a sum, a division) were ten entries and rules.


_sum, _all = np.add.reduce, np.logical_and.reduce


def _nll_rows(xp: Any, x: Any, index: Any, kept: Any) -> Any:
    """Per row of logits ``x (..., C)``: ``logsumexp(x) - x[index]``, 0 where not kept."""
    shifted = x - stable_peak(xp, x, (x.ndim - 1,))  # rows of -inf stay -inf, not NaN
    log_total = xp.log(xp.sum(xp.exp(shifted), axis=-1))
    picked = xp.take_along_axis(shifted, xp.expand_dims(index, -1), axis=-1)[..., 0]
    return xp.where(kept, log_total - picked, 0.0)


def _cross_entropy_forward(xp: Any, x: Any, index: Any, kept: Any, mean: bool) -> Any:
    if xp is np and x.ndim == 2 and index.ndim == 1:  # the common case, with fewer passes
        # (ufuncs' reduce, not the methods .sum()/.all(): the same values, no Python frames)
        shifted = x - stable_peak(np, x, (1,))
        e = np.exp(shifted)
        sums = _sum(e, axis=1, keepdims=True)
        if x.nbytes <= _STASH_BYTES:
            _stash(x, e, sums)
        rows = np.log(sums[:, 0])
        rows -= shifted[np.arange(x.shape[0]), index]
        if _all(kept, axis=None):
            total = _sum(rows, axis=None)
            return total / x.shape[0] if mean else total  # (the sum of N ones is N)
        total = _sum(np.where(kept, rows, 0.0), axis=None)
    else:
        total = xp.sum(_nll_rows(xp, x, index, kept))
    return total / xp.sum(xp.astype(kept, x.dtype)) if mean else total


# The forward's exp(x - peak) and its row sums, kept for the gradient rule while the logits
# live (a weak reference: the entry goes with them): the rule's exp, max and sum are then
# not done twice. Only for logits this small: a large vocabulary would keep a second array
# of their size.
_STASH_BYTES = 1 << 20
_stashed: dict[int, tuple[Any, Any, Any]] = {}


def _stash(x: Any, e: Any, sums: Any) -> None:
    key = id(x)
    _stashed[key] = (weakref.ref(x, lambda _: _stashed.pop(key, None)), e, sums)


def _softmax_stashed(x: Any) -> Any:
    """softmax(x) along axis 1 from the forward's stash (a new array), or None."""
    found = _stashed.get(id(x))
    if found is None or found[0]() is not x:
        return None
    return found[1] / found[2]


def _cross_entropy_vjp(g: Any, ans: Any, x: Any, index: Any, kept: Any, mean: bool) -> Any:
    if type(g) is np.ndarray and type(x) is np.ndarray and x.ndim == 2:  # raw mode, in place
        e = _softmax_stashed(x)
        if e is None:
            e = np.exp(x - stable_peak(np, x, (1,)))
            e /= _sum(e, axis=1, keepdims=True)
        index, kept = raw(index), raw(kept)
        e[np.arange(x.shape[0]), index] -= 1.0
        if _all(kept, axis=None):  # every row: one scale
            e *= g / x.shape[0] if mean else g
            return e
        scale = kept.astype(x.dtype)
        scale *= g / scale.sum() if mean else g
        e *= scale[:, None]
        return e
    # On Tensors (a recorded sweep: second order; vmap's batches): the same, in ops.
    dtype = x.dtype
    classes = ops.arange(x.shape[-1], like=x)
    onehot = ops.astype(ops.equal(ops.expand_dims(index, -1), classes), dtype)
    scale = ops.astype(kept, dtype)
    if mean:
        scale = scale / ops.sum(scale)
    return (softmax(x, axis=-1) - onehot) * ops.expand_dims(g * scale, -1)


_cross_entropy = Primitive(
    "softmax_cross_entropy", _cross_entropy_forward, complex_rules=False
).defvjp(_cross_entropy_vjp, None, None)


def softmax_cross_entropy(x: Any, index: Any, kept: Any, mean: bool = True) -> Tensor:
    """The mean (or sum) over the rows of logits ``x (..., C)`` kept (``kept``, boolean) of
    ``logsumexp(x) - x[index]``: tg.nn.cross_entropy of integer labels ``index``, as one op.
    ``index`` holds a valid class in every row (0 where not kept) and at least one row is
    kept; tg.nn.cross_entropy checks both.

    >>> import tapegrad as tg
    >>> from tapegrad.ops.nn import softmax_cross_entropy
    >>> round(softmax_cross_entropy(tg.zeros((1, 2)), [1], [True]).item(), 4)
    0.6931
    """
    if not isinstance(index, Tensor):
        index = ops.asarray(index, like=x)  # on the logits' device
    if not isinstance(kept, Tensor):
        kept = ops.asarray(kept, like=x)
    return _cross_entropy(x, index, kept, mean=mean)
