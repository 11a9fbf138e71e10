"""Statistics functions of scipy.stats that people differentiate through: ``zscore``,
``sem`` and ``entropy``, differentiable in their arrays; SciPy's own on plain arrays.

``nan_policy`` is SciPy's: ``'propagate'`` (NaN in, NaN out), ``'raise'`` (ValueError on a
NaN) and ``'omit'`` (NaNs left out: the ``nan*`` reductions).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special import entr, rel_entr

__all__ = ["entropy", "sem", "zscore"]

ArrayLike = Any
POLICIES = ("propagate", "raise", "omit")


def _policy(function: str, nan_policy: str, *arrays: Any) -> bool:
    """Whether NaNs are to be omitted; ValueError for an unknown policy, or on a NaN
    under ``'raise'`` (SciPy's message)."""
    if nan_policy not in POLICIES:
        raise ValueError(f"{function}: nan_policy must be one of {POLICIES}, got {nan_policy!r}")
    if nan_policy == "raise":
        for a in arrays:
            values = backend.to_host(raw(a)) if isinstance(a, Tensor) else np.asarray(a)
            if np.isnan(values).any():
                raise ValueError(f"{function}: the input contains nan values")
    return nan_policy == "omit"


def _flat(a: Any, axis: Any) -> tuple[Any, Any]:
    """``a`` flattened when ``axis`` is None (SciPy's reading), with the axis to reduce."""
    return (ops.reshape(a, (-1,)), 0) if axis is None else (a, axis)


@plain_calls_scipy("stats")
def zscore(
    a: ArrayLike, axis: int | None = 0, ddof: int = 0, nan_policy: str = "propagate"
) -> Tensor:
    """``(a - mean) / std`` along ``axis`` (the whole array if None), differentiable in ``a``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import zscore
    >>> zscore(tg.tensor([1.0, 2.0, 3.0])).numpy().round(6).tolist()
    [-1.224745, 0.0, 1.224745]
    """
    omit = _policy("zscore", nan_policy, a)
    a = ops.asarray(a)
    values, where = _flat(a, axis)
    mean, std = (ops.nanmean, ops.nanstd) if omit else (ops.mean, ops.std)
    centre = mean(values, axis=where, keepdims=True)
    spread = std(values, axis=where, ddof=ddof, keepdims=True)
    out = ops.divide(ops.subtract(values, centre), spread)
    return ops.reshape(out, shape_of(a)) if axis is None else out


@plain_calls_scipy("stats")
def sem(
    a: ArrayLike,
    axis: int | None = 0,
    ddof: int = 1,
    nan_policy: str = "propagate",
    *,
    keepdims: bool = False,
) -> Tensor:
    """The standard error of the mean, ``std(a, ddof) / sqrt(n)``, differentiable in ``a``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import sem
    >>> round(sem(tg.tensor([1.0, 2.0, 3.0, 4.0])).item(), 12)
    0.645497224368
    """
    omit = _policy("sem", nan_policy, a)
    a = ops.asarray(a)
    values, where = _flat(a, axis)
    if omit:
        count = ops.sum(ops.logical_not(ops.isnan(values)), axis=where, keepdims=True)
        spread = ops.nanstd(values, axis=where, ddof=ddof, keepdims=True)
        out = ops.divide(spread, ops.sqrt(ops.astype(count, "float64")))
    else:
        n = shape_of(values)[where]
        out = ops.std(values, axis=where, ddof=ddof, keepdims=True) / math.sqrt(n)
    if keepdims:
        return ops.reshape(out, (1,) * len(shape_of(a))) if axis is None else out
    return ops.squeeze(out, where)


@plain_calls_scipy("stats")
def entropy(
    pk: ArrayLike,
    qk: ArrayLike | None = None,
    base: float | None = None,
    axis: int = 0,
    *,
    nan_policy: str = "propagate",
    keepdims: bool = False,
) -> Tensor:
    """Shannon entropy ``-Σ p log p`` of ``pk`` (normalized along ``axis``), or with ``qk``
    the Kullback-Leibler divergence ``Σ p log(p / q)``; in units of ``log(base)``.
    Differentiable in ``pk`` and ``qk``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import entropy
    >>> entropy(tg.tensor([0.5, 0.5]), base=2).item()
    1.0
    """
    omit = _policy("entropy", nan_policy, pk, *(() if qk is None else (qk,)))
    if omit:
        raise NotImplementedError("entropy: nan_policy='omit' is not supported on Tensors")
    pk = ops.asarray(pk)
    pk = ops.divide(pk, ops.sum(pk, axis=axis, keepdims=True))
    if qk is None:
        vec = entr(pk)
    else:
        qk = ops.asarray(qk)
        qk = ops.divide(qk, ops.sum(qk, axis=axis, keepdims=True))
        vec = rel_entr(pk, qk)
    out = ops.sum(vec, axis=axis, keepdims=keepdims)
    if base is not None:
        out = ops.divide(out, math.log(base))
    return out
