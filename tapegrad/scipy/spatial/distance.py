"""Distances with gradients: SciPy's ``scipy.spatial.distance`` under SciPy's names and
signatures. ``cdist`` and ``pdist`` (every metric below, its keywords ``p``, ``w``, ``V``,
``VI``, and a callable metric), ``squareform`` (a gather, both ways) and the
single-vector forms, composed from tapegrad ops: differentiable in the points, the
weights ``w``, ``V`` and ``VI``. Non-smooth where SciPy's distance is: zero distance
(euclidean, minkowski, mahalanobis: gradient 0 there), equal coordinates (cityblock,
canberra, braycurtis), ties of the largest coordinate difference (chebyshev) and the
clip of cosine and correlation to [0, 2]. Every other name is SciPy's own object.

>>> import tapegrad as tg
>>> from tapegrad.scipy.spatial import distance
>>> u = tg.tensor([3.0, 4.0])
>>> with tg.GradientTape() as tape:
...     tape.watch(u)
...     d = distance.euclidean(u, [0.0, 0.0])
>>> d.item(), tape.gradient(d, u).numpy().round(12).tolist()
(5.0, [0.6, 0.8])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy, scipy_getattr

__all__ = [
    "braycurtis", "canberra", "cdist", "chebyshev", "cityblock", "correlation", "cosine",
    "euclidean", "mahalanobis", "minkowski", "pdist", "seuclidean", "sqeuclidean",
    "squareform",
]  # fmt: skip

ArrayLike = Any


def _values(x: Any) -> np.ndarray:
    return np.asarray(raw(x))


def _sqrt(s: Any) -> Any:
    """sqrt with gradient 0 (not inf) where ``s`` is 0."""
    zero = _values(s) <= 0
    return ops.where(zero, 0.0, ops.sqrt(ops.where(zero, 1.0, s)))


def _weights(w: Any, n: int, name: str) -> Any:
    if w is None:
        return None
    w = as_input(w)
    if tuple(shape_of(w)) != (n,):
        raise ValueError(f"{name}: weights must have shape ({n},), got {tuple(shape_of(w))}")
    if np.any(_values(w) < 0):
        raise ValueError("Input weights should be all non-negative")
    return w


def _sum(x: Any, w: Any) -> Any:
    return ops.sum(x if w is None else w * x, axis=-1)


def _mean(x: Any, w: Any) -> Any:
    if w is None:
        return ops.mean(x, axis=-1)
    return ops.sum(w * x, axis=-1) / ops.sum(w)


def _correlation(u: Any, v: Any, w: Any, centered: bool) -> Any:
    if centered:
        u = u - _mean(u, w)[..., None]
        v = v - _mean(v, w)[..., None]
    uv, uu, vv = _mean(u * v, w), _mean(u * u, w), _mean(v * v, w)
    return ops.clip(1.0 - uv / ops.sqrt(uu * vv), 0.0, 2.0)


def _pairwise(
    metric: str, u: Any, v: Any, *, p: float = 2.0, w: Any = None, V: Any = None,
    VI: Any = None,
) -> Any:  # fmt: skip
    """The distance ``metric`` over the last axis of broadcast ``u`` and ``v``."""
    d = u - v
    if metric == "euclidean":
        return _sqrt(_sum(d * d, w))
    if metric == "sqeuclidean":
        return _sum(d * d, w)
    if metric == "cityblock":
        return _sum(ops.abs(d), w)
    if metric == "chebyshev":
        a = ops.abs(d)
        return ops.max(a if w is None else a * (_values(w) > 0), axis=-1)
    if metric == "minkowski":
        if p <= 0:
            raise ValueError("p must be greater than 0")
        a = ops.abs(d)
        if np.isinf(p):
            return ops.max(a if w is None else a * (_values(w) > 0), axis=-1)
        s = _sum(a**p, w)
        if p == 1:
            return s
        zero = _values(s) <= 0
        return ops.where(zero, 0.0, ops.where(zero, 1.0, s) ** (1.0 / p))
    if metric == "cosine":
        return _correlation(u, v, w, centered=False)
    if metric == "correlation":
        return _correlation(u, v, w, centered=True)
    if metric == "braycurtis":
        return _sum(ops.abs(d), w) / _sum(ops.abs(u + v), w)
    if metric == "canberra":
        top, bottom = ops.abs(d), ops.abs(u) + ops.abs(v)
        empty = _values(bottom) == 0
        return _sum(ops.where(empty, 0.0, top / ops.where(empty, 1.0, bottom)), w)
    if metric == "seuclidean":
        return _sqrt(ops.sum(d * d / V, axis=-1))
    if metric == "mahalanobis":
        return _sqrt(ops.sum((d[..., None, :] @ VI)[..., 0, :] * d, axis=-1))
    raise NotImplementedError(f"scipy.spatial.distance: no gradient for metric {metric!r} yet")


_METRICS = {
    "euclidean": (), "sqeuclidean": (), "cityblock": (), "chebyshev": (), "minkowski": ("p",),
    "cosine": (), "correlation": (), "braycurtis": (), "canberra": (), "seuclidean": ("V",),
    "mahalanobis": ("VI",),
}  # fmt: skip
_ALIASES = {
    "euclid": "euclidean", "eu": "euclidean", "e": "euclidean", "sqe": "sqeuclidean",
    "sqeuclid": "sqeuclidean", "cblock": "cityblock", "cb": "cityblock", "c": "cityblock",
    "manhattan": "cityblock", "cheby": "chebyshev", "cheb": "chebyshev", "ch": "chebyshev",
    "chebychev": "chebyshev", "minkowski": "minkowski", "mi": "minkowski", "m": "minkowski",
    "pnorm": "minkowski", "cos": "cosine", "co": "correlation", "corr": "correlation",
    "bray": "braycurtis", "canb": "canberra", "se": "seuclidean", "mahal": "mahalanobis",
    "mah": "mahalanobis",
}  # fmt: skip


def _prepare(name: str, metric: Any, points: Any, kwargs: dict[str, Any], out: Any) -> Any:
    """The canonical metric name, its keywords (SciPy's defaults for V and VI computed from
    ``points``, the stacked inputs)."""
    if out is not None:
        raise NotImplementedError(f"{name}: out= on Tensors (a result is a new Tensor)")
    if callable(metric):
        return metric, kwargs
    metric = _ALIASES.get(metric.lower(), metric.lower())
    if metric not in _METRICS:
        raise NotImplementedError(f"{name}: no gradient for metric {metric!r} yet")
    allowed = {"w", *_METRICS[metric]}
    unknown = set(kwargs) - allowed
    if unknown:
        raise TypeError(f"{name}: unexpected keyword arguments {sorted(unknown)} for {metric!r}")
    n = shape_of(points)[-1]
    kwargs = dict(kwargs)
    kwargs["w"] = _weights(kwargs.get("w"), n, name)
    if metric == "seuclidean":
        if kwargs.get("V") is None:
            kwargs["V"] = ops.var(points, axis=0, ddof=1)
        kwargs["V"] = as_input(kwargs["V"])
    if metric == "mahalanobis":
        if kwargs.get("VI") is None:
            kwargs["VI"] = ops.matrix_transpose(linalg.inv(ops.cov(ops.matrix_transpose(points))))
        kwargs["VI"] = as_input(kwargs["VI"])
    return metric, kwargs


def _check_2d(name: str, label: str, x: Any) -> Any:
    x = as_input(x)
    if len(shape_of(x)) != 2:
        raise ValueError(f"{name}: {label} must be a 2-dimensional array, got shape {shape_of(x)}")
    return x


def _callable_grid(f: Callable[..., Any], a: Any, b: Any, kwargs: dict[str, Any]) -> Any:
    rows = [ops.stack([as_input(f(a[i], b[j], **kwargs)) for j in range(shape_of(b)[0])])
            for i in range(shape_of(a)[0])]  # fmt: skip
    return ops.astype(ops.stack(rows), np.float64)


@plain_calls_scipy("spatial.distance")
def cdist(
    XA: ArrayLike, XB: ArrayLike, metric: Any = "euclidean", *, out: Any = None, **kwargs: Any
) -> Any:
    """SciPy's ``cdist``: the (mA, mB) distances between the rows of ``XA`` and ``XB``.

    >>> import tapegrad as tg
    >>> cdist(tg.tensor([[0.0, 0.0]]), tg.tensor([[3.0, 4.0], [1.0, 0.0]])).numpy()
    array([[5., 1.]])
    """
    a, b = _check_2d("cdist", "XA", XA), _check_2d("cdist", "XB", XB)
    if shape_of(a)[1] != shape_of(b)[1]:
        raise ValueError(
            f"cdist: XA and XB must have the same number of columns, got {shape_of(a)} and "
            f"{shape_of(b)}"
        )
    metric, kw = _prepare("cdist", metric, ops.concatenate([a, b], axis=0), kwargs, out)
    if callable(metric):
        return _callable_grid(metric, a, b, kw)
    return _pairwise(metric, a[:, None, :], b[None, :, :], **kw)


@plain_calls_scipy("spatial.distance")
def pdist(X: ArrayLike, metric: Any = "euclidean", *, out: Any = None, **kwargs: Any) -> Any:
    """SciPy's ``pdist``: the condensed distances between the rows of ``X`` (pairs
    ``i < j`` in row order).

    >>> import tapegrad as tg
    >>> pdist(tg.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]])).numpy()
    array([5.        , 1.        , 4.24264069])
    """
    x = _check_2d("pdist", "X", X)
    metric, kw = _prepare("pdist", metric, x, kwargs, out)
    i, j = np.triu_indices(shape_of(x)[0], 1)
    a, b = ops.take(x, i, axis=0), ops.take(x, j, axis=0)
    if callable(metric):
        rows = [as_input(metric(a[k], b[k], **kw)) for k in range(len(i))]
        return ops.astype(ops.stack(rows), np.float64) if rows else ops.zeros_like(a[:, 0])
    return _pairwise(metric, a, b, **kw)


@plain_calls_scipy("spatial.distance")
def squareform(X: ArrayLike, force: str = "no", checks: bool = True) -> Any:
    """SciPy's ``squareform``: condensed vector to symmetric matrix (zero diagonal) or
    back, a gather either way (differentiable).

    >>> import tapegrad as tg
    >>> squareform(tg.tensor([1.0, 2.0, 3.0])).numpy()
    array([[0., 1., 2.],
           [1., 0., 3.],
           [2., 3., 0.]])
    """
    x = as_input(X)
    shape = tuple(shape_of(x))
    force = force.lower()
    if force not in ("no", "tomatrix", "tovector"):
        raise ValueError(f"squareform: force must be 'no', 'tomatrix' or 'tovector', got {force!r}")
    if force == "tomatrix" and len(shape) != 1:
        raise ValueError("Forcing 'tomatrix' but input X is not a distance vector.")
    if force == "tovector" and len(shape) != 2:
        raise ValueError("Forcing 'tovector' but input X is not a distance matrix.")
    if len(shape) == 1:
        k = shape[0]
        d = int(np.ceil(np.sqrt(k * 2)))
        if d * (d - 1) != k * 2:
            raise ValueError(
                "Incompatible vector size. It must be a binomial coefficient n choose 2 for "
                "some integer n >= 2."
            )
        index = np.zeros((d, d), dtype=np.intp)
        i, j = np.triu_indices(d, 1)
        index[i, j] = index[j, i] = np.arange(1, k + 1)
        padded = ops.concatenate([ops.zeros_like(x[:1]), x])
        return ops.take(padded, index.reshape(-1)).reshape(d, d)
    if len(shape) == 2:
        if shape[0] != shape[1]:
            raise ValueError("The matrix argument must be square.")
        if checks:
            v = _values(x)
            if not np.allclose(v, v.T) or np.any(np.diag(v) != 0):
                raise ValueError(
                    "squareform: the matrix must be symmetric with a zero diagonal "
                    "(pass checks=False to skip the check)"
                )
        i, j = np.triu_indices(shape[0], 1)
        return ops.take(ops.reshape(x, (-1,)), i * shape[0] + j)
    raise ValueError(
        f"The first argument must be one or two dimensional array. A {len(shape)}-dimensional "
        "array is not permitted"
    )


def _vectors(name: str, *xs: Any) -> list[Any]:
    out = [ops.reshape(as_input(x), (-1,)) if len(shape_of(as_input(x))) == 0 else as_input(x)
           for x in xs]  # fmt: skip
    for x in out:
        if len(shape_of(x)) != 1:
            raise ValueError(f"{name}: input vector should be 1-D, got shape {shape_of(x)}")
    if shape_of(out[0]) != shape_of(out[1]):
        raise ValueError(f"{name}: u and v must have the same shape, got {shape_of(out[0])} "
                         f"and {shape_of(out[1])}")  # fmt: skip
    return out


def _single(name: str, metric: str, u: Any, v: Any, w: Any = None, **kw: Any) -> Any:
    u, v = _vectors(name, u, v)
    w = _weights(w, shape_of(u)[0], name)
    return _pairwise(metric, u, v, w=w, **kw)


@plain_calls_scipy("spatial.distance")
def euclidean(u: ArrayLike, v: ArrayLike, w: ArrayLike | None = None) -> Any:
    """SciPy's ``euclidean``: ``sqrt(sum(w * (u - v)**2))`` (gradient 0 at u == v).

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import euclidean
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(euclidean(u, v).item(), 6)
    2.291288
    """
    return _single("euclidean", "euclidean", u, v, w)


@plain_calls_scipy("spatial.distance")
def sqeuclidean(u: ArrayLike, v: ArrayLike, w: ArrayLike | None = None) -> Any:
    """SciPy's ``sqeuclidean``: ``sum(w * (u - v)**2)``.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import sqeuclidean
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(sqeuclidean(u, v).item(), 6)
    5.25
    """
    return _single("sqeuclidean", "sqeuclidean", u, v, w)


@plain_calls_scipy("spatial.distance")
def cityblock(u: ArrayLike, v: ArrayLike, w: ArrayLike | None = None) -> Any:
    """SciPy's ``cityblock``: ``sum(w * |u - v|)``.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import cityblock
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(cityblock(u, v).item(), 6)
    3.5
    """
    return _single("cityblock", "cityblock", u, v, w)


@plain_calls_scipy("spatial.distance")
def chebyshev(u: ArrayLike, v: ArrayLike, w: ArrayLike | None = None) -> Any:
    """SciPy's ``chebyshev``: ``max |u - v|`` (over ``w > 0``).

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import chebyshev
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(chebyshev(u, v).item(), 6)
    2.0
    """
    return _single("chebyshev", "chebyshev", u, v, w)


@plain_calls_scipy("spatial.distance")
def minkowski(u: ArrayLike, v: ArrayLike, p: float = 2, w: ArrayLike | None = None) -> Any:
    """SciPy's ``minkowski``: ``sum(w * |u - v|**p)**(1/p)``.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import minkowski
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(minkowski(u, v, p=3).item(), 6)
    2.08967
    """
    return _single("minkowski", "minkowski", u, v, w, p=p)


@plain_calls_scipy("spatial.distance")
def cosine(u: ArrayLike, v: ArrayLike, w: ArrayLike | None = None) -> Any:
    """SciPy's ``cosine``: ``1 - u.v / (|u| |v|)``, clipped to [0, 2].

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import cosine
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(cosine(u, v).item(), 6)
    0.171258
    """
    return _single("cosine", "cosine", u, v, w)


@plain_calls_scipy("spatial.distance")
def correlation(
    u: ArrayLike, v: ArrayLike, w: ArrayLike | None = None, centered: bool = True
) -> Any:
    """SciPy's ``correlation``: the cosine distance of the (weighted-)mean-centred vectors.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import correlation
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(correlation(u, v).item(), 6)
    0.572879
    """
    u, v = _vectors("correlation", u, v)
    w = _weights(w, shape_of(u)[0], "correlation")
    return _correlation(u, v, w, centered)


@plain_calls_scipy("spatial.distance")
def braycurtis(u: ArrayLike, v: ArrayLike, w: ArrayLike | None = None) -> Any:
    """SciPy's ``braycurtis``: ``sum(w |u - v|) / sum(w |u + v|)``.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import braycurtis
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(braycurtis(u, v).item(), 6)
    0.304348
    """
    return _single("braycurtis", "braycurtis", u, v, w)


@plain_calls_scipy("spatial.distance")
def canberra(u: ArrayLike, v: ArrayLike, w: ArrayLike | None = None) -> Any:
    """SciPy's ``canberra``: ``sum(w |u - v| / (|u| + |v|))`` (0/0 terms 0).

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import canberra
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(canberra(u, v).item(), 6)
    1.410256
    """
    return _single("canberra", "canberra", u, v, w)


@plain_calls_scipy("spatial.distance")
def seuclidean(u: ArrayLike, v: ArrayLike, V: ArrayLike) -> Any:
    """SciPy's ``seuclidean``: ``sqrt(sum((u - v)**2 / V))``, differentiable in ``V`` too.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import seuclidean
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(seuclidean(u, v, [1.0, 2.0, 0.5]).item(), 6)
    1.870829
    """
    return _single("seuclidean", "seuclidean", u, v, V=as_input(V))


@plain_calls_scipy("spatial.distance")
def mahalanobis(u: ArrayLike, v: ArrayLike, VI: ArrayLike) -> Any:
    """SciPy's ``mahalanobis``: ``sqrt((u - v) VI (u - v))``, differentiable in ``VI`` too.

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.spatial.distance import mahalanobis
    >>> u, v = tg.tensor([1.0, 2.0, 3.0]), tg.tensor([2.0, 0.0, 3.5])
    >>> round(mahalanobis(u, v, np.eye(3)).item(), 6)
    2.291288
    """
    return _single("mahalanobis", "mahalanobis", u, v, VI=as_input(VI))


__getattr__ = scipy_getattr(__name__, "scipy.spatial.distance")
