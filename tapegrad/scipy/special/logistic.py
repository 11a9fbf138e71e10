"""The logistic function and log-sum-exp family: expit logit log_expit softplus logsumexp softmax
log_softmax.

Composed from tapegrad's stable ops (``sigmoid``, ``softplus``, ``logsumexp``), so they run
on every backend and have every order of derivative; ``logit`` is a primitive only to
give SciPy's exact values on NumPy.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import normalize_axis, raw
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special._primitive import special_primitive

ArrayLike = Any


@plain_calls_scipy("special")
def expit(x: ArrayLike) -> Tensor:
    """The logistic sigmoid ``1 / (1 + e^{-x})`` (``tg.sigmoid``), stable for large ``|x|``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import expit
    >>> expit(tg.tensor(0.0)).item()
    0.5
    """
    return ops.sigmoid(x)


@plain_calls_scipy("special")
def log_expit(x: ArrayLike) -> Tensor:
    """``log(expit(x)) = -softplus(-x)``, finite for large negative ``x``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import log_expit
    >>> log_expit(tg.tensor(-1000.0)).item()
    -1000.0
    """
    return -ops.softplus(ops.negative(x))


def _logit_portable(xp: Any, x: Any) -> Any:
    return xp.log(x) - xp.log1p(-x)


# d logit = 1 / (x (1 - x))
_logit = special_primitive("logit", lambda g, ans, x: g / (x * (1.0 - x)), portable=_logit_portable)


@plain_calls_scipy("special")
def logit(p: ArrayLike) -> Tensor:
    """The inverse of :func:`expit`: ``log(p / (1 - p))``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import logit
    >>> logit(tg.tensor(0.5)).item()
    0.0
    """
    return _logit._unary(p)


@plain_calls_scipy("special")
def logsumexp(
    a: ArrayLike,
    axis: int | tuple[int, ...] | None = None,
    b: ArrayLike | None = None,
    keepdims: bool = False,
    return_sign: bool = False,
) -> Any:
    """``log(sum(b * exp(a)))`` over ``axis`` without overflow, with SciPy's signature.

    ``b`` weights the terms (differentiable too); a negative weighted sum gives NaN
    unless ``return_sign=True``, which returns ``(log|sum|, sign)`` as SciPy does.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import logsumexp
    >>> logsumexp(tg.tensor([1000.0, 1000.0])).item()  # 1000 + log(2)
    1000.6931471805599
    """
    if b is None and not return_sign:
        return ops.logsumexp(a, axis=axis, keepdims=keepdims)
    a = a if isinstance(a, Tensor) else ops.asarray(a)
    if b is not None:  # one shape for both, as SciPy broadcasts them
        b = b if isinstance(b, Tensor) else ops.asarray(b)
        shape = np.broadcast_shapes(a.shape, b.shape)
        a, b = ops.broadcast_to(a, shape), ops.broadcast_to(b, shape)
    axes = normalize_axis(axis, len(a.shape), "logsumexp")
    peak = _finite_peak(a, axes)  # a constant shift: the result does not depend on it
    terms = ops.exp(a - peak)
    total = ops.sum(terms if b is None else b * terms, axis=axes, keepdims=True)
    if not keepdims:
        total, peak = ops.squeeze(total, axis=axes), ops.squeeze(peak, axis=axes)
    if not return_sign:
        return ops.log(total) + peak
    return ops.log(ops.abs(total)) + peak, ops.sign(total)


def _finite_peak(a: Tensor, axes: tuple[int, ...]) -> Tensor:
    """The maximum over ``axes`` (kept as 1s), 0 where it is not finite; no gradient."""
    data = raw(a)
    xp = backend.namespace(data)
    peak = xp.max(data, axis=axes, keepdims=True) if data.size else xp.zeros_like(data)
    return Tensor(xp.where(xp.isfinite(peak), peak, 0.0))


@plain_calls_scipy("special")
def softmax(x: ArrayLike, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """``exp(x) / sum(exp(x))`` over ``axis`` (SciPy's default: every axis).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import softmax
    >>> softmax(tg.tensor([0.0, 0.0])).numpy()
    array([0.5, 0.5])
    """
    return ops.exp(log_softmax(x, axis=axis))


@plain_calls_scipy("special")
def log_softmax(x: ArrayLike, axis: int | tuple[int, ...] | None = None) -> Tensor:
    """``x - logsumexp(x)`` over ``axis`` (SciPy's default: every axis).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import log_softmax
    >>> log_softmax(tg.tensor([0.0, 0.0])).numpy()
    array([-0.69314718, -0.69314718])
    """
    return ops.subtract(x, ops.logsumexp(x, axis=axis, keepdims=True))


@plain_calls_scipy("special")
def softplus(x: ArrayLike, **kwargs: Any) -> Tensor:
    """``log(1 + e^x)`` as SciPy computes it (``np.logaddexp(0, x)``), stable for large
    ``|x|``; its derivative is :func:`expit`. NumPy's ufunc keywords (``out``, ``where``)
    are SciPy's only: on Tensors they raise NotImplementedError.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import softplus
    >>> softplus(tg.tensor(0.0)).item()  # log 2
    0.6931471805599453
    """
    if kwargs:
        raise NotImplementedError(
            f"scipy.special.softplus: {', '.join(sorted(kwargs))}= (NumPy's ufunc keywords) "
            "is not supported on Tensors"
        )
    return ops.logaddexp(0.0, x)
