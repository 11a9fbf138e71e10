"""SciPy's multivariate distributions beyond the normal and the Dirichlet, their log densities
composed of recorded ops (each a :class:`~tapegrad.scipy.stats.Distribution`: the rest of
SciPy's interface, ``rvs`` and the like, is SciPy's own):

- ``multinomial``: ``logpmf``/``pmf`` in ``p`` (the counts ``x`` and ``n``: LookupError),
  ``mean``/``cov`` in ``p``; ``entropy`` is SciPy's (plain arrays);
- ``dirichlet_multinomial``: ``logpmf``/``pmf``/``mean`` in ``alpha``;
- ``multivariate_t``: ``logpdf``/``pdf`` in ``x``, ``loc``, ``shape`` and ``df``;
- ``wishart``, ``invwishart``: ``logpdf``/``pdf`` in ``x``, ``scale`` and ``df`` (through
  ``multigammaln``);
- ``matrix_normal``: ``logpdf``/``pdf`` in ``X``, ``mean``, ``rowcov`` and ``colcov``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import eye_like
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy, refuse_gradient
from tapegrad.scipy.linalg import cholesky, solve_triangular
from tapegrad.scipy.special import gammaln, multigammaln, xlogy

ArrayLike = Any
LOG_2 = math.log(2.0)


def _host(value: Any) -> np.ndarray:
    if isinstance(value, Tensor):
        return np.asarray(backend.to_host(raw(value)))
    return np.asarray(value)


def _squeeze(out: Any) -> Any:
    """SciPy's ``_squeeze_output``: every axis of length one dropped."""
    shape = shape_of(out)
    axes = tuple(i for i, n in enumerate(shape) if n == 1)
    return ops.squeeze(out, axes) if axes else out


def _log_det(factor: Any) -> Any:
    """``log det`` of ``L Lᵀ`` from its Cholesky factor ``L`` (batched)."""
    diagonal = ops.sum(ops.multiply(factor, eye_like(factor)), axis=-1)
    return 2.0 * ops.sum(ops.log(diagonal), axis=-1)


# --- multinomial --------------------------------------------------------------------------


def _multinomial_p(n: Any, p: Any) -> tuple[Any, np.ndarray]:
    """SciPy's reading of ``p``: the last entry ``1 - Σ others`` where a row does not sum
    to 1 within 10 eps; the mask of bad ``n`` or ``p``."""
    p = ops.asarray(p, dtype="float64")
    host = _host(p)
    eps = np.finfo(np.float64).eps * 10
    adjusted = np.abs(1.0 - host.sum(axis=-1)) > eps
    if np.any(adjusted):
        rest = 1.0 - ops.sum(p[..., :-1], axis=-1, keepdims=True)
        fixed = ops.concatenate([p[..., :-1], rest], axis=-1)
        p = ops.where(np.expand_dims(adjusted, -1), fixed, p)
        host = _host(p)
    bad = np.any(host < 0, axis=-1) | np.any(host > 1, axis=-1) | (np.asarray(_host(n)) < 0)
    return p, bad


@plain_calls_scipy("stats.multinomial")
def logpmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Tensor:
    """The log mass ``gammaln(n+1) + Σ (x log p - gammaln(x+1))``, differentiable in ``p``
    (``x`` and ``n`` are counts: LookupError when differentiated); -inf where the counts are
    not nonnegative integers summing to ``n``, NaN for an invalid ``n`` or ``p``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multinomial
    >>> round(multinomial.pmf([1, 1], 2, tg.tensor([0.5, 0.5])).item(), 12)
    0.5
    """
    refuse_gradient("multinomial.logpmf", "x", x, "it counts")
    refuse_gradient("multinomial.logpmf", "n", n, "it counts")
    p, bad = _multinomial_p(n, p)
    xs, ns = _host(x).astype(float), _host(n)
    if xs.ndim == 0:
        raise ValueError("multinomial.logpmf: x must be an array.")
    if xs.size and xs.shape[-1] != shape_of(p)[-1]:
        raise ValueError(
            f"multinomial.logpmf: size of each quantile should be size of p: received "
            f"{xs.shape[-1]}, but expected {shape_of(p)[-1]}."
        )
    counts = xs.astype(int)
    outside = np.any(counts != xs, axis=-1) | np.any(counts < 0, axis=-1)
    outside = outside | (counts.sum(axis=-1) != ns.astype(int))
    counts_f = counts.astype(float)
    value = ops.add(
        gammaln(ns.astype(int) + 1.0),
        ops.sum(ops.subtract(xlogy(counts_f, p), gammaln(counts_f + 1.0)), axis=-1),
    )
    value = ops.where(outside, -math.inf, value)
    return ops.where(bad, math.nan, value)


@plain_calls_scipy("stats.multinomial")
def pmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Tensor:
    """The mass.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multinomial
    >>> round(multinomial.pmf([2, 0], 2, tg.tensor([0.5, 0.5])).item(), 12)
    0.25
    """
    return ops.exp(logpmf(x, n, p))


@plain_calls_scipy("stats.multinomial")
def mean(n: ArrayLike, p: ArrayLike) -> Tensor:
    """``n p``, differentiable in ``p``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multinomial
    >>> multinomial.mean(4, tg.tensor([0.25, 0.75])).tolist()
    [1.0, 3.0]
    """
    refuse_gradient("multinomial.mean", "n", n, "it counts")
    p, bad = _multinomial_p(n, p)
    ns = _host(n).astype(int).astype(float)
    value = ops.multiply(np.expand_dims(ns, -1), p)
    return ops.where(np.expand_dims(bad, -1), math.nan, value)


@plain_calls_scipy("stats.multinomial")
def cov(n: ArrayLike, p: ArrayLike) -> Tensor:
    """``n (diag p - p pᵀ)``, differentiable in ``p``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multinomial
    >>> multinomial.cov(4, tg.tensor([0.5, 0.5])).tolist()
    [[1.0, -1.0], [-1.0, 1.0]]
    """
    refuse_gradient("multinomial.cov", "n", n, "it counts")
    p, bad = _multinomial_p(n, p)
    nn = np.expand_dims(_host(n).astype(int).astype(float), (-1, -2))
    outer = ops.multiply(ops.expand_dims(p, -1), ops.expand_dims(p, -2))
    k = shape_of(p)[-1]
    diagonal = ops.multiply(ops.expand_dims(p, -1), np.eye(k))
    value = ops.multiply(nn, ops.subtract(diagonal, outer))
    return ops.where(np.expand_dims(bad, (-1, -2)), math.nan, value)


MULTINOMIAL = {"logpmf": logpmf, "pmf": pmf, "mean": mean, "cov": cov}


# --- dirichlet_multinomial ----------------------------------------------------------------


def _dm_check(alpha: Any, n: Any, x: Any = None) -> None:
    if np.any(_host(alpha) <= 0):
        raise ValueError("dirichlet_multinomial: `alpha` must contain only positive values.")
    ns = _host(n)
    if np.any(ns < 0) or np.any(ns != np.floor(ns)):
        raise ValueError("dirichlet_multinomial: `n` must be a non-negative integer.")
    if x is not None:
        xs = _host(x)
        if np.any(xs < 0) or np.any(xs != np.floor(xs)):
            raise ValueError("dirichlet_multinomial: `x` must contain only non-negative integers.")


def _dm_logpmf(x: ArrayLike, alpha: ArrayLike, n: ArrayLike) -> Tensor:
    """The log mass of the Dirichlet-multinomial, differentiable in ``alpha`` (``x`` and
    ``n`` count: LookupError).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import dirichlet_multinomial
    >>> round(dirichlet_multinomial.pmf([1, 1], tg.tensor([1.0, 1.0]), 2).item(), 12)
    0.333333333333
    """
    refuse_gradient("dirichlet_multinomial.logpmf", "x", x, "it counts")
    refuse_gradient("dirichlet_multinomial.logpmf", "n", n, "it counts")
    _dm_check(alpha, n, x)
    alpha = ops.asarray(alpha, dtype="float64")
    xs, ns = np.floor(_host(x)).astype(float), np.floor(_host(n)).astype(float)
    xs = np.broadcast_to(xs, np.broadcast_shapes(xs.shape, tuple(shape_of(alpha))))
    total = ops.sum(alpha, axis=-1)
    out = ops.subtract(ops.add(gammaln(total), gammaln(ns + 1.0)), gammaln(ops.add(total, ns)))
    terms = ops.subtract(gammaln(ops.add(xs, alpha)), ops.add(gammaln(alpha), gammaln(xs + 1.0)))
    out = ops.add(out, ops.sum(terms, axis=-1))
    return ops.where(ns != xs.sum(axis=-1), -math.inf, out)


def _dm_pmf(x: ArrayLike, alpha: ArrayLike, n: ArrayLike) -> Tensor:
    """The mass.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import dirichlet_multinomial
    >>> round(dirichlet_multinomial.pmf([2, 0], tg.tensor([1.0, 1.0]), 2).item(), 12)
    0.333333333333
    """
    return ops.exp(_dm_logpmf(x, alpha, n))


def _dm_mean(alpha: ArrayLike, n: ArrayLike) -> Tensor:
    """``n α / Σ α``, differentiable in ``alpha``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import dirichlet_multinomial
    >>> dirichlet_multinomial.mean(tg.tensor([1.0, 3.0]), 4).tolist()
    [1.0, 3.0]
    """
    refuse_gradient("dirichlet_multinomial.mean", "n", n, "it counts")
    _dm_check(alpha, n)
    alpha = ops.asarray(alpha, dtype="float64")
    ns = np.expand_dims(np.floor(_host(n)).astype(float), -1)
    return ops.multiply(ns, ops.divide(alpha, ops.sum(alpha, axis=-1, keepdims=True)))


def _published(where: str, name: str, f: Any) -> Any:
    f.__name__ = f.__qualname__ = name
    return plain_calls_scipy(where)(f)


DIRICHLET_MULTINOMIAL = {
    "logpmf": _published("stats.dirichlet_multinomial", "logpmf", _dm_logpmf),
    "pmf": _published("stats.dirichlet_multinomial", "pmf", _dm_pmf),
    "mean": _published("stats.dirichlet_multinomial", "mean", _dm_mean),
}


# --- multivariate_t -----------------------------------------------------------------------


def _matrix(value: Any, dim: int, what: str) -> Any:
    """A scalar ``c I``, a vector's diagonal, or a (dim, dim) matrix."""
    value = ops.asarray(value, dtype="float64")
    shape = shape_of(value)
    if len(shape) == 0:
        return ops.multiply(value, np.eye(dim))
    if len(shape) == 1:
        if dim == 1:
            return ops.reshape(value, (1, 1))
        return ops.multiply(ops.expand_dims(value, -1), np.eye(dim))
    if tuple(shape) != (dim, dim):
        raise ValueError(f"{what} must be a ({dim}, {dim}) matrix, got shape {tuple(shape)}")
    return value


def _t_logpdf(
    x: ArrayLike, loc: ArrayLike | None = None, shape: ArrayLike = 1, df: ArrayLike = 1
) -> Tensor:
    """The log density of the multivariate t, differentiable in ``x``, ``loc``, ``shape``
    (through its Cholesky factor) and ``df``; ``df = inf`` is the normal's.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multivariate_t
    >>> import scipy.stats as ss
    >>> got = multivariate_t.logpdf(tg.tensor([0.2, 0.1]), df=3.0, shape=[[1.0, 0.2], [0.2, 1.0]])
    >>> bool(abs(got.item() - ss.multivariate_t.logpdf([0.2, 0.1], df=3.0,
    ...     shape=[[1.0, 0.2], [0.2, 1.0]])) < 1e-12)
    True
    """
    if loc is None and shape is None:
        loc, shape, dim = np.zeros(1), np.ones((1, 1)), 1
    elif loc is None:
        dim = 1 if len(shape_of(shape)) < 2 else shape_of(shape)[0]
        loc = np.zeros(dim)
    elif shape is None:
        dim = int(np.prod(shape_of(loc)))
        shape = np.eye(dim)
    else:
        dim = int(np.prod(shape_of(loc)))
    loc = ops.reshape(ops.asarray(loc, dtype="float64"), (dim,))
    shape = _matrix(shape, dim, "multivariate_t: shape")
    if df is None:
        df = 1.0
    host_df = float(_host(df))
    if not host_df > 0:
        raise ValueError("multivariate_t: 'df' must be greater than zero.")
    x = ops.asarray(x, dtype="float64")
    xs = shape_of(x)
    if len(xs) == 0 or (dim == 1 and xs[-1] != 1):
        x = ops.expand_dims(x, -1)
    factor = cholesky(shape, lower=True)
    diff = ops.subtract(x, loc)
    points = shape_of(diff)[:-1]
    z = solve_triangular(factor, ops.transpose(ops.reshape(diff, (-1, dim))), lower=True)
    maha = ops.reshape(ops.sum(ops.square(z), axis=0), points)
    log_pdet = _log_det(factor)
    if math.isinf(host_df):
        out = -0.5 * (maha + log_pdet + dim * math.log(2.0 * math.pi))
        return _squeeze(out)
    t = ops.multiply(0.5, ops.add(df, dim))
    out = ops.subtract(gammaln(t), gammaln(ops.multiply(0.5, df)))
    out = ops.subtract(out, ops.multiply(dim / 2.0, ops.log(ops.multiply(df, math.pi))))
    out = ops.subtract(out, 0.5 * log_pdet)
    out = ops.subtract(out, ops.multiply(t, ops.log1p(ops.divide(maha, df))))
    return _squeeze(out)


def _t_pdf(
    x: ArrayLike, loc: ArrayLike | None = None, shape: ArrayLike = 1, df: ArrayLike = 1
) -> Tensor:
    """The density.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import multivariate_t
    >>> round(multivariate_t.pdf(tg.tensor([0.0]), df=1.0).item(), 12)  # Cauchy's 1/π
    0.318309886184
    """
    return ops.exp(_t_logpdf(x, loc, shape, df))


MULTIVARIATE_T = {
    "logpdf": _published("stats.multivariate_t", "logpdf", _t_logpdf),
    "pdf": _published("stats.multivariate_t", "pdf", _t_pdf),
}


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
