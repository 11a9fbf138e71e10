"""Piecewise-linear interpolation and phase unwrapping: interp unwrap.

Which segment a point falls in (and which phase jumps to correct) is decided on the
host values and carries no gradient; the values are then built from the inputs with
differentiable ops: ``interp`` is differentiable in ``x``, ``xp`` and ``fp``, ``unwrap``
passes the gradient through unchanged (its corrections are piecewise constant).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.ops.primitive import normalize_axis, shape_of
from tapegrad.ops.rule_helpers import as_array, placed, result_dtype

ArrayLike = Any


def interp(
    x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: Any = None, right: Any = None,
    period: Any = None,
) -> Tensor:  # fmt: skip
    """Linear interpolation of the points ``(xp, fp)`` (``xp`` increasing) at ``x``, with
    ``left``/``right`` beyond the ends, as ``np.interp``.

    >>> import tapegrad as tg
    >>> tg.interp(tg.tensor([0.5, 1.5]), [0.0, 1.0, 2.0], [0.0, 10.0, 30.0]).numpy()
    array([ 5., 20.])
    """
    if len(shape_of(xp)) != 1 or len(shape_of(fp)) != 1:
        raise ValueError("interp: xp and fp must be 1-d")
    if shape_of(xp) != shape_of(fp):
        raise ValueError(
            f"interp: fp and xp are not of the same length, {shape_of(fp)} and {shape_of(xp)}"
        )
    if shape_of(xp)[0] == 0:
        raise ValueError("interp: array of sample points is empty")
    dtype = result_dtype(fp, 1.0)
    like = next((v for v in (x, xp, fp) if isinstance(v, Tensor)), None)
    x = ops.astype(placed(as_array(x), like), result_dtype(x, 1.0))
    xp = ops.astype(placed(as_array(xp), like), result_dtype(xp, 1.0))
    fp = ops.astype(placed(as_array(fp), like), dtype)
    if period is not None:
        if period == 0:
            raise ValueError("interp: period must be a non-zero value")
        period = abs(period)
        x = ops.remainder(x, period)
        xp = ops.remainder(xp, period)
        order = np.argsort(np.asarray(host_value(xp, "numpy.interp()")), kind="stable")
        xp, fp = ops.take(xp, order), ops.take(fp, order)
        xp = ops.concatenate([xp[-1:] - period, xp, xp[:1] + period])
        fp = ops.concatenate([fp[-1:], fp, fp[:1]])
        left = right = None
    x_host = np.asarray(host_value(x, "numpy.interp()"))
    xp_host = np.asarray(host_value(xp, "numpy.interp()"))
    n = len(xp_host)
    if n == 1:
        out = ops.broadcast_to(fp[0], x_host.shape)
    else:
        j = np.clip(np.searchsorted(xp_host, x_host, side="right") - 1, 0, n - 2)
        x0, x1 = ops.take(xp, j), ops.take(xp, j + 1)
        f0, f1 = ops.take(fp, j), ops.take(fp, j + 1)
        slope = (f1 - f0) / (x1 - x0)
        out = slope * (x - x0) + f0
        exact = x_host == xp_host[j]  # at a sample point its value, whatever the slope
        if exact.any():
            out = ops.where(placed(exact, x), f0, out)
        at_end = x_host == xp_host[-1]
        if at_end.any():
            out = ops.where(placed(at_end, x), fp[-1], out)
    below, above = x_host < xp_host[0], x_host > xp_host[-1]
    if below.any():
        out = ops.where(placed(below, x), fp[0] if left is None else left, out)
    if above.any():
        out = ops.where(placed(above, x), fp[-1] if right is None else right, out)
    return ops.astype(out, dtype)


def unwrap(
    p: ArrayLike, discont: float | None = None, axis: int = -1, *, period: float = 2 * math.pi
) -> Tensor:
    """``p`` with jumps larger than ``discont`` (``period / 2`` by default) along ``axis``
    taken back by multiples of ``period``, as ``np.unwrap``; the gradient passes through.

    >>> import tapegrad as tg
    >>> tg.unwrap(tg.tensor([0.0, 3.0, -3.0])).numpy().round(4)
    array([0.    , 3.    , 3.2832])
    """
    shape = shape_of(p)
    (axis,) = normalize_axis(axis, len(shape), "unwrap")
    host = np.asarray(host_value(p, "numpy.unwrap()"))
    dd = np.diff(host, axis=axis)
    if discont is None:
        discont = period / 2
    dtype = np.result_type(dd, period)
    if np.issubdtype(dtype, np.integer):
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = np.mod(dd - low, period) + low
    if ambiguous:
        ddmod = np.where((ddmod == low) & (dd > 0), high, ddmod)
    correct = np.where(np.abs(dd) < discont, 0, ddmod - dd).cumsum(axis)
    p = ops.astype(as_array(p), dtype)
    lead = (slice(None),) * axis
    later = ops.getitem(p, (*lead, slice(1, None))) + placed(correct.astype(dtype), p)
    return ops.concatenate([ops.getitem(p, (*lead, slice(0, 1))), later], axis=axis)
