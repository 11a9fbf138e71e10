"""SciPy's multivariate t distribution, its log density composed of recorded ops:
``multivariate_t``: ``logpdf``/``pdf`` in ``x``, ``loc``, ``shape`` and ``df``.
"""

from __future__ import annotations

import math

import numpy as np

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import shape_of
from tapegrad.scipy.linalg import cholesky, solve_triangular
from tapegrad.scipy.special import gammaln
from tapegrad.scipy.stats._multivariate import (
    ArrayLike,
    _host,
    _log_det,
    _matrix,
    _published,
    _squeeze,
)

# --- multivariate_t -----------------------------------------------------------------------


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
