"""Vector quantization with gradients: SciPy's ``scipy.cluster.vq`` under SciPy's names and
signatures. ``vq``'s codes are integers (no gradient); its distances differentiate in the
observations and the code book (not smooth where an observation sits on a code). ``whiten``
differentiates in the observations. ``kmeans2`` runs SciPy's own iteration on the values
(the same random start for the same ``rng``), then gives the centroids as the means of the
data at the converged labels: differentiable in ``data`` with the assignment held fixed
(an empty cluster keeps SciPy's value, a constant). ``kmeans`` (random restarts keeping
the best distortion) and every other name are SciPy's own, for plain arrays.

>>> import tapegrad as tg
>>> from tapegrad.scipy.cluster import vq
>>> codes, dists = vq.vq(tg.tensor([[0.0, 1.0], [4.0, 4.0]]), tg.tensor([[0.0, 0.0], [4.0, 1.0]]))
>>> codes.tolist(), dists.numpy().tolist()
([0, 1], [1.0, 3.0])
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.cluster.vq as _scipy_vq

from tapegrad import ops
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy._dispatch import plain_calls_scipy, scipy_getattr

__all__ = ["kmeans2", "vq", "whiten"]

ArrayLike = Any


def _values(x: Any) -> np.ndarray:
    return np.asarray(raw(x))


def _finite(name: str, check_finite: bool | None, *xs: Any) -> None:
    if check_finite:
        for x in xs:
            if not np.all(np.isfinite(_values(x))):
                raise ValueError(f"{name}: array must not contain infs or NaNs")


@plain_calls_scipy("cluster.vq")
def vq(obs: ArrayLike, code_book: ArrayLike, check_finite: bool = True) -> tuple[Any, Any]:
    """SciPy's ``vq``: each observation's nearest code (int32, no gradient) and the
    Euclidean distance to it (differentiable in ``obs`` and ``code_book``; gradient 0 at
    distance 0).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.cluster.vq import vq
    >>> codes, dists = vq(tg.tensor([[0.0, 0.0], [3.0, 4.5]]), tg.tensor([[0.0, 1.0], [3.0, 4.0]]))
    >>> codes.tolist(), dists.numpy().tolist()
    ([0, 1], [1.0, 0.5])
    """
    o, c = as_input(obs), as_input(code_book)
    _finite("vq", check_finite, o, c)
    if len(shape_of(o)) != len(shape_of(c)):
        raise ValueError("Observation and code_book should have the same rank")
    if len(shape_of(o)) == 1:
        o, c = o[:, None], c[:, None]
    if len(shape_of(o)) != 2 or shape_of(o)[1] != shape_of(c)[1]:
        raise ValueError(
            f"vq: obs {tuple(shape_of(o))} and code_book {tuple(shape_of(c))} must be (M, N) "
            "and (k, N)"
        )
    diff = o[:, None, :] - c[None, :, :]
    squared = ops.sum(diff * diff, axis=-1)
    codes = _scipy_vq.vq(_values(o), _values(c), check_finite=False)[0]
    nearest = ops.take_along_axis(squared, np.asarray(codes, dtype=np.intp)[:, None], axis=1)
    s = nearest[:, 0]
    zero = _values(s) <= 0
    return codes, ops.where(zero, 0.0, ops.sqrt(ops.where(zero, 1.0, s)))


@plain_calls_scipy("cluster.vq")
def whiten(obs: ArrayLike, check_finite: bool | None = None) -> Any:
    """SciPy's ``whiten``: each column over its standard deviation (a column of zero
    deviation unchanged, with SciPy's warning); differentiable in ``obs``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.cluster.vq import whiten
    >>> whiten(tg.tensor([[1.0], [3.0]])).numpy().tolist()  # the column's std is 1
    [[1.0], [3.0]]
    """
    o = as_input(obs)
    if check_finite is None:
        check_finite = True
    _finite("whiten", check_finite, o)
    std = ops.std(o, axis=0)
    zero = _values(std) == 0
    if check_finite and np.any(zero):
        warnings.warn(
            "Some columns have standard deviation zero. The values of these columns will not "
            "change.",
            RuntimeWarning,
            stacklevel=3,
        )
    return o / ops.where(zero, 1.0, std)


@plain_calls_scipy("cluster.vq")
def kmeans2(
    data: ArrayLike, k: Any, iter: int = 10, thresh: float = 1e-05, minit: str = "random",
    missing: str = "warn", check_finite: bool = True, *, rng: Any = None, seed: Any = None,
) -> tuple[Any, Any]:  # fmt: skip
    """SciPy's ``kmeans2``: (centroids, labels). The labels are SciPy's (the same for the
    same ``rng``); the centroids are the means of ``data`` at those labels, differentiable
    in ``data`` with the assignment fixed (``k`` as an initial guess: no gradient).

    >>> import numpy as np
    >>> import tapegrad as tg
    >>> from tapegrad.scipy.cluster.vq import kmeans2
    >>> data = tg.tensor([[0.0], [0.2], [5.0], [5.4]])
    >>> centroids, labels = kmeans2(data, np.array([[0.0], [5.0]]), minit="matrix")
    >>> centroids.numpy().round(6).tolist(), labels.tolist()
    ([[0.1], [5.2]], [0, 0, 1, 1])
    """
    x = as_input(data)
    _finite("kmeans2", check_finite, x)
    guess = _values(k) if hasattr(k, "shape") or isinstance(k, (list, tuple)) else k
    keywords: dict[str, Any] = {"rng": rng} if seed is None else {"seed": seed}
    centroids, labels = _scipy_vq.kmeans2(
        _values(x), guess, iter=iter, thresh=thresh, minit=minit, missing=missing,
        check_finite=False, **keywords,
    )  # fmt: skip
    points = x if len(shape_of(x)) == 2 else x[:, None]
    nc = centroids.shape[0]
    counts = np.bincount(labels, minlength=nc)
    sums = ops.index_add(points, (nc, shape_of(points)[1]), labels)
    members = counts > 0
    fixed = centroids if centroids.ndim == 2 else centroids[:, None]
    means = ops.where(members[:, None], sums / np.maximum(counts, 1)[:, None], fixed)
    return (means if len(shape_of(x)) == 2 else means[:, 0]), labels


__getattr__ = scipy_getattr(__name__, "scipy.cluster.vq")
