"""SciPy's distributions over matrices, their log densities composed of recorded ops:

- ``wishart``, ``invwishart``: ``logpdf``/``pdf`` in ``x``, ``scale`` and ``df`` (through
  ``multigammaln``);
- ``matrix_normal``: ``logpdf``/``pdf`` in ``X``, ``mean``, ``rowcov`` and ``colcov``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import eye_like
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy.linalg import cholesky, solve_triangular
from tapegrad.scipy.special import multigammaln
from tapegrad.scipy.stats._multivariate import (
    ArrayLike,
    _host,
    _log_det,
    _matrix,
    _published,
    _squeeze,
)

LOG_2 = math.log(2.0)


# --- wishart, invwishart ------------------------------------------------------------------


def _wishart_parts(which: str, x: Any, df: Any, scale: Any) -> tuple[Any, Any, int]:
    scale = ops.asarray(scale, dtype="float64")
    ss = shape_of(scale)
    dim = 1 if len(ss) == 0 else ss[0]
    scale = _matrix(scale, dim, f"{which}: scale")
    if not float(_host(df)) > dim - 1:
        raise ValueError(
            f"{which}: degrees of freedom must be greater than the dimension of scale "
            f"matrix minus 1 ({dim - 1}), got df = {float(_host(df))}"
        )
    x = ops.asarray(x, dtype="float64")
    xs = shape_of(x)
    if len(xs) == 0:
        x = ops.expand_dims(ops.multiply(x, np.eye(dim)), -1)
    elif len(xs) == 1:
        if dim == 1:
            x = ops.reshape(x, (1, 1, xs[0]))
        else:
            x = ops.expand_dims(ops.multiply(ops.expand_dims(x, -1), np.eye(dim)), -1)
    elif len(xs) == 2:
        x = ops.expand_dims(x, -1)
    elif len(xs) > 3:
        raise ValueError(f"{which}: quantiles must be at most 3-d, got shape {tuple(xs)}")
    if tuple(shape_of(x)[:2]) != (dim, dim):
        raise ValueError(
            f"{which}: quantiles have incompatible dimensions: should be {(dim, dim)}, "
            f"got {tuple(shape_of(x)[:2])}"
        )
    return ops.moveaxis(x, -1, 0), scale, dim  # (N, dim, dim)


def _wishart_logpdf(x: ArrayLike, df: ArrayLike, scale: ArrayLike) -> Tensor:
    """The Wishart log density, differentiable in ``x``, ``df`` and ``scale``: the
    matrices along the last axis of ``x`` (``(p, p)`` or ``(p, p, N)``), as in SciPy.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import wishart
    >>> import scipy.stats as ss
    >>> x = [[2.0, 0.3], [0.3, 1.5]]
    >>> got = wishart.logpdf(tg.tensor(x), 4.0, tg.eye(2))
    >>> bool(abs(got.item() - ss.wishart.logpdf(x, 4.0, [[1.0, 0.0], [0.0, 1.0]])) < 1e-12)
    True
    """
    x, scale, dim = _wishart_parts("wishart.logpdf", x, df, scale)
    c = cholesky(scale, lower=True)
    log_det_scale = _log_det(c)
    log_det_x = _log_det(cholesky(x, lower=True))
    # tr(scale⁻¹ x) = |C⁻¹ Lx|², Lx the factor of x: through solves with C
    solved = solve_triangular(c, ops.reshape(ops.moveaxis(x, 0, 1), (dim, -1)), lower=True)
    solved = solve_triangular(c, solved, lower=True, trans="T")
    solved = ops.moveaxis(ops.reshape(solved, (dim, -1, dim)), 1, 0)  # (N, dim, dim)
    trace = ops.sum(ops.multiply(solved, eye_like(solved)), axis=(-1, -2))
    half = ops.multiply(0.5, df)
    out = ops.subtract(
        ops.multiply(0.5 * (1.0), ops.multiply(ops.subtract(df, dim + 1.0), log_det_x)),
        0.5 * trace,
    )
    out = ops.subtract(
        out,
        ops.add(
            ops.add(ops.multiply(half, dim * LOG_2), ops.multiply(half, log_det_scale)),
            multigammaln(half, dim),
        ),
    )
    return _squeeze(out)


def _wishart_pdf(x: ArrayLike, df: ArrayLike, scale: ArrayLike) -> Tensor:
    """The Wishart density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import wishart
    >>> wishart.pdf(tg.tensor([[2.0, 0.3], [0.3, 1.5]]), 4.0, tg.eye(2)).shape
    ()
    """
    return ops.exp(_wishart_logpdf(x, df, scale))


def _invwishart_logpdf(x: ArrayLike, df: ArrayLike, scale: ArrayLike) -> Tensor:
    """The inverse Wishart log density, differentiable in ``x``, ``df`` and ``scale``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import invwishart
    >>> import scipy.stats as ss
    >>> x = [[2.0, 0.3], [0.3, 1.5]]
    >>> got = invwishart.logpdf(tg.tensor(x), 4.0, tg.eye(2))
    >>> bool(abs(got.item() - ss.invwishart.logpdf(x, 4.0, [[1.0, 0.0], [0.0, 1.0]])) < 1e-12)
    True
    """
    x, scale, dim = _wishart_parts("invwishart.logpdf", x, df, scale)
    log_det_scale = _log_det(cholesky(scale, lower=True))
    lx = cholesky(x, lower=True)  # (N, dim, dim)
    log_det_x = _log_det(lx)
    # tr(scale x⁻¹) = tr(Lx⁻¹ scale Lx⁻ᵀ)
    inner = solve_triangular(lx, ops.multiply(ops.expand_dims(scale, 0), 1.0), lower=True)
    inner = solve_triangular(lx, ops.swapaxes(inner, -1, -2), lower=True)
    trace = ops.sum(ops.multiply(inner, eye_like(inner)), axis=(-1, -2))
    half = ops.multiply(0.5, df)
    out = ops.subtract(
        ops.multiply(half, log_det_scale),
        ops.multiply(ops.multiply(0.5, ops.add(df, dim + 1.0)), log_det_x),
    )
    out = ops.subtract(out, 0.5 * trace)
    out = ops.subtract(out, ops.add(ops.multiply(half, dim * LOG_2), multigammaln(half, dim)))
    return _squeeze(out)


def _invwishart_pdf(x: ArrayLike, df: ArrayLike, scale: ArrayLike) -> Tensor:
    """The inverse Wishart density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import invwishart
    >>> invwishart.pdf(tg.tensor([[2.0, 0.3], [0.3, 1.5]]), 4.0, tg.eye(2)).shape
    ()
    """
    return ops.exp(_invwishart_logpdf(x, df, scale))


WISHART = {
    "logpdf": _published("stats.wishart", "logpdf", _wishart_logpdf),
    "pdf": _published("stats.wishart", "pdf", _wishart_pdf),
}
INVWISHART = {
    "logpdf": _published("stats.invwishart", "logpdf", _invwishart_logpdf),
    "pdf": _published("stats.invwishart", "pdf", _invwishart_pdf),
}


# --- matrix_normal ------------------------------------------------------------------------


def _mn_logpdf(
    X: ArrayLike,  # noqa: N803 (SciPy's name)
    mean: ArrayLike | None = None,
    rowcov: ArrayLike = 1,
    colcov: ArrayLike = 1,
) -> Tensor:
    """The matrix normal log density of ``X`` (``(..., m, n)``), differentiable in ``X``,
    ``mean``, ``rowcov`` and ``colcov``:
    ``-(mn log 2π + m log|V| + n log|U| + tr(V⁻¹ (X-M)ᵀ U⁻¹ (X-M))) / 2``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import matrix_normal
    >>> round(matrix_normal.logpdf(tg.zeros((1, 1))).item(), 12)
    -0.918938533205
    """
    X = ops.asarray(X, dtype="float64")  # noqa: N806
    if mean is not None:
        mean = ops.asarray(mean, dtype="float64")
        m, n = shape_of(mean)[-2:]
    else:
        rs, cs = shape_of(rowcov), shape_of(colcov)
        m = rs[0] if len(rs) else 1
        n = cs[0] if len(cs) else 1
        mean = np.zeros((m, n))
    U, V = _matrix(rowcov, m, "matrix_normal: rowcov"), _matrix(colcov, n, "matrix_normal: colcov")  # noqa: N806
    xs = shape_of(X)
    if len(xs) < 2:
        X = ops.reshape(X, (m, n))  # noqa: N806
    if tuple(shape_of(X)[-2:]) != (m, n):
        raise ValueError(
            f"matrix_normal.logpdf: X has shape {tuple(shape_of(X))}; expected (..., {m}, {n})"
        )
    lu, lv = cholesky(U, lower=True), cholesky(V, lower=True)
    diff = ops.subtract(X, mean)
    batch = shape_of(diff)[:-2]
    flat = ops.reshape(diff, (-1, m, n))
    # |Lu⁻¹ D Lv⁻ᵀ|²
    a = solve_triangular(lu, ops.reshape(ops.moveaxis(flat, 0, 1), (m, -1)), lower=True)
    a = ops.moveaxis(ops.reshape(a, (m, -1, n)), 1, 0)  # (N, m, n)
    b = solve_triangular(lv, ops.reshape(ops.moveaxis(a, 2, 0), (n, -1)), lower=True)
    maha = ops.sum(ops.reshape(ops.square(b), (n, -1, m)), axis=(0, 2))
    maha = ops.reshape(maha, batch)
    out = -0.5 * (m * n * math.log(2.0 * math.pi) + m * _log_det(lv) + n * _log_det(lu) + maha)
    return _squeeze(out)


def _mn_pdf(
    X: ArrayLike,  # noqa: N803
    mean: ArrayLike | None = None,
    rowcov: ArrayLike = 1,
    colcov: ArrayLike = 1,
) -> Tensor:
    """The matrix normal density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import matrix_normal
    >>> round(matrix_normal.pdf(tg.zeros((1, 1))).item(), 12)
    0.398942280401
    """
    return ops.exp(_mn_logpdf(X, mean, rowcov, colcov))


MATRIX_NORMAL = {
    "logpdf": _published("stats.matrix_normal", "logpdf", _mn_logpdf),
    "pdf": _published("stats.matrix_normal", "pdf", _mn_pdf),
}
