"""scipy.spatial: ``distance`` (every metric of cdist and pdist with ``p``, ``w``, ``V``,
``VI``; squareform both ways; the single-vector forms with ``w``, ``p``, ``centered``)
and ``transform`` (Rotation's constructors and conversions with their keywords,
composition, inverse, apply, magnitude, mean, indexing, Slerp). Points are the rows of
``x`` and ``y`` (distinct: no zero distance, no ties); quaternions are rows of ``x``,
rotation vectors and Euler angles rows of ``y`` (angles in (0.3, 0.9): no gimbal lock)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

_SINGLE = ["euclidean", "sqeuclidean", "cityblock", "chebyshev", "minkowski", "cosine",
           "correlation", "braycurtis", "canberra", "seuclidean", "mahalanobis"]  # fmt: skip
_ROTATION = ["from_quat", "from_matrix", "from_rotvec", "from_euler", "from_mrp",
             "from_davenport", "as_quat", "as_matrix", "as_rotvec", "as_euler", "as_mrp",
             "as_davenport", "apply", "inv", "magnitude", "mean"]  # fmt: skip

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "spatial.distance.cdist", "spatial.distance.pdist", "spatial.distance.squareform",
    *[f"spatial.distance.{n}" for n in _SINGLE],
    *[f"spatial.transform.Rotation.{n}" for n in _ROTATION],
]  # fmt: skip

_SPREAD = np.array([1.0, 1.7, 0.6, 1.3])  # no ties among coordinate differences
_W = np.array([0.5, 1.5, 0.25, 2.0])
_VI = np.array([[2.0, 0.3, 0.0, 0.1], [0.3, 1.5, 0.2, 0.0], [0.0, 0.2, 1.0, 0.3],
                [0.1, 0.0, 0.3, 2.5]])  # fmt: skip
_DAVENPORT = np.array([[0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0, 1.0]])
_DAVENPORT[2] = [0.0, 1.0, 0.0]
_TILTED = np.array([[0.0, 0.0, 1.0], [0.6, 0.8, 0.0], [-0.8, 0.6, 0.0]])


def _stack(x: Any, y: Any) -> Any:
    """The rows of x and y: six points."""
    if isinstance(x, np.ndarray):
        return np.concatenate([x, y])
    from tapegrad import ops

    return ops.concatenate([x, y])


def _points(x: Any, y: Any) -> Any:
    """Six points in 2-D (from x and y): enough for a covariance of full rank."""
    return _stack(x[:, :2], y[:, 2:] * 2.0)


_METRIC_KEYWORDS: list[tuple[str, str, dict[str, Any]]] = [
    ("euclidean", "metric=euclidean", {}), ("sqeuclidean", "metric=sqeuclidean", {}),
    ("cityblock", "metric=cityblock", {}), ("chebyshev", "metric=chebyshev", {}),
    ("cosine", "metric=cosine", {}), ("correlation", "metric=correlation", {}),
    ("minkowski", "metric=minkowski, p=3", {"p": 3.0}),
    ("minkowski", "metric=minkowski, p=1.5, w", {"p": 1.5, "w": _W}),
    ("braycurtis", "metric=braycurtis", {}), ("canberra", "metric=canberra", {}),
    ("seuclidean", "metric=seuclidean (V from the data)", {}),
    ("seuclidean", "metric=seuclidean, V", {"V": _W + 0.5}),
    ("mahalanobis", "metric=mahalanobis, VI", {"VI": _VI}),
    ("euclidean", "metric=euclidean, w", {"w": _W}), ("cosine", "metric=cosine, w", {"w": _W}),
    ("correlation", "metric=correlation, w", {"w": _W}),
    ("cityblock", "metric=cityblock, w", {"w": _W}),
]  # fmt: skip

ROWS: list[Sample] = [
    Sample("spatial.distance.cdist", "default metric",
           lambda m, x, y: m.spatial.distance.cdist(x, y)),
    Sample("spatial.distance.cdist", "metric=callable",
           lambda m, x, y: m.spatial.distance.cdist(x, y[:2], lambda u, v: ((u - v) ** 2).sum())),
    Sample("spatial.distance.pdist", "default metric", lambda m, x, y: m.spatial.distance.pdist(x)),
]  # fmt: skip
for _metric, _label, _kw in _METRIC_KEYWORDS:
    ROWS.append(Sample("spatial.distance.cdist", _label,
                       lambda m, x, y, metric=_metric, kw=_kw: m.spatial.distance.cdist(
                           x * _SPREAD, y, metric=metric, **kw)))  # fmt: skip
    ROWS.append(Sample("spatial.distance.pdist", _label,
                       lambda m, x, y, metric=_metric, kw=_kw: m.spatial.distance.pdist(
                           _stack(x * _SPREAD, y), metric=metric, **kw)))  # fmt: skip
ROWS.append(
    Sample(
        "spatial.distance.pdist",
        "metric=mahalanobis (VI from the data)",
        lambda m, x, y: m.spatial.distance.pdist(_points(x, y), metric="mahalanobis"),
    )
)
ROWS += [
    Sample("spatial.distance.squareform", "vector to matrix, force=tomatrix, checks=False",
           lambda m, x, y: m.spatial.distance.squareform(x[0, :3], force="tomatrix", checks=False)),
    Sample("spatial.distance.squareform", "matrix to vector, force=tovector",
           lambda m, x, y: m.spatial.distance.squareform(
               m.spatial.distance.squareform(x[0, :3]), force="tovector")),
    Sample("spatial.distance.squareform", "matrix to vector, checks",
           lambda m, x, y: m.spatial.distance.squareform(
               m.spatial.distance.squareform(x[1, 1:]), checks=True)),
    Sample("spatial.distance.minkowski", "p=3, w",
           lambda m, x, y: m.spatial.distance.minkowski(x[0], y[0], p=3, w=_W)),
    Sample("spatial.distance.correlation", "centered=False, w",
           lambda m, x, y: m.spatial.distance.correlation(x[0], y[1], w=_W, centered=False)),
    Sample("spatial.distance.correlation", "centered=True",
           lambda m, x, y: m.spatial.distance.correlation(x[0], y[1], centered=True)),
    Sample("spatial.distance.seuclidean", "V differentiable",
           lambda m, x, y: m.spatial.distance.seuclidean(x[0], x[1], y[2] + 0.5)),
    Sample("spatial.distance.mahalanobis", "VI",
           lambda m, x, y: m.spatial.distance.mahalanobis(x[0], x[2], _VI)),
]  # fmt: skip
for _name in ("euclidean", "sqeuclidean", "cityblock", "chebyshev", "cosine", "braycurtis",
              "canberra", "minkowski", "correlation"):  # fmt: skip
    ROWS.append(
        Sample(
            f"spatial.distance.{_name}",
            "w",
            lambda m, x, y, f=_name: getattr(m.spatial.distance, f)(x[1], y[2], w=_W),
        )
    )
    ROWS.append(
        Sample(
            f"spatial.distance.{_name}",
            "unweighted",
            lambda m, x, y, f=_name: getattr(m.spatial.distance, f)(x[2], y[0]),
        )
    )


def _r(m: Any) -> Any:
    return m.spatial.transform.Rotation


ROWS += [
    Sample("spatial.transform.Rotation.from_quat", "scalar_first=False",
           lambda m, x, y: _r(m).from_quat(x, scalar_first=False).as_quat()),
    Sample("spatial.transform.Rotation.from_quat", "scalar_first=True, single",
           lambda m, x, y: _r(m).from_quat(x[1], scalar_first=True).as_quat()),
    Sample("spatial.transform.Rotation.from_matrix", "orthogonal",
           lambda m, x, y: _r(m).from_matrix(
               _r(m).from_rotvec(y[:, :3] * 3).as_matrix()).as_quat()),
    Sample("spatial.transform.Rotation.from_matrix", "every branch",
           lambda m, x, y: _r(m).from_matrix(_r(m).from_rotvec(
               y[:, :3] * np.array([[4.0, 0.2, 0.1], [0.1, 4.0, 0.2], [0.2, 0.1, 0.3]])
           ).as_matrix()).as_quat()),
    Sample("spatial.transform.Rotation.from_matrix", "non-orthogonal (SVD)",
           lambda m, x, y: _r(m).from_matrix(
               np.eye(3) + 0.2 * x[:, :3] - 0.2 * y[:, 1:]).as_quat()),
    Sample("spatial.transform.Rotation.from_matrix", "assume_valid=True",
           lambda m, x, y: _r(m).from_matrix(
               _r(m).from_rotvec(y[0, :3]).as_matrix(), assume_valid=True).as_quat()),
    Sample("spatial.transform.Rotation.from_rotvec", "degrees=False",
           lambda m, x, y: _r(m).from_rotvec(y[:, :3], degrees=False).as_quat()),
    Sample("spatial.transform.Rotation.from_rotvec", "degrees=True",
           lambda m, x, y: _r(m).from_rotvec(y[:, 1:] * 100, degrees=True).as_quat()),
    Sample("spatial.transform.Rotation.from_rotvec", "small angle",
           lambda m, x, y: _r(m).from_rotvec(y[0, :3] * 1e-3).as_quat()),
    Sample("spatial.transform.Rotation.from_euler", "xyz, degrees=False",
           lambda m, x, y: _r(m).from_euler("xyz", y[:, :3], degrees=False).as_quat()),
    Sample("spatial.transform.Rotation.from_euler", "ZXZ, degrees=True",
           lambda m, x, y: _r(m).from_euler("ZXZ", y[:, 1:] * 90, degrees=True).as_quat()),
    Sample("spatial.transform.Rotation.from_euler", "single axis",
           lambda m, x, y: _r(m).from_euler("y", y[0, 0]).as_quat()),
    Sample("spatial.transform.Rotation.from_mrp", "mrp",
           lambda m, x, y: _r(m).from_mrp(y[:, :3] - 0.5).as_quat()),
    Sample("spatial.transform.Rotation.from_davenport", "order=e, degrees=False",
           lambda m, x, y: _r(m).from_davenport(
               _DAVENPORT, "e", y[:, :3], degrees=False).as_quat()),
    Sample("spatial.transform.Rotation.from_davenport", "order=i, degrees=True, axes",
           lambda m, x, y: _r(m).from_davenport(
               _TILTED, "i", y[:, :3] * 60, degrees=True).as_quat()),
    Sample("spatial.transform.Rotation.as_quat", "canonical=True, scalar_first=True",
           lambda m, x, y: _r(m).from_quat(x - 0.6).as_quat(canonical=True, scalar_first=True)),
    Sample("spatial.transform.Rotation.as_quat", "canonical=False, scalar_first=False",
           lambda m, x, y: _r(m).from_quat(x - 0.6).as_quat(canonical=False, scalar_first=False)),
    Sample("spatial.transform.Rotation.as_matrix", "matrix",
           lambda m, x, y: _r(m).from_quat(x - 0.6).as_matrix()),
    Sample("spatial.transform.Rotation.as_rotvec", "degrees=False",
           lambda m, x, y: _r(m).from_quat(x - 0.6).as_rotvec(degrees=False)),
    Sample("spatial.transform.Rotation.as_rotvec", "degrees=True",
           lambda m, x, y: _r(m).from_quat(x).as_rotvec(degrees=True)),
    Sample("spatial.transform.Rotation.as_euler", "zyx, degrees=False",
           lambda m, x, y: _r(m).from_quat(x - 0.6).as_euler("zyx", degrees=False)),
    Sample("spatial.transform.Rotation.as_euler", "XZX, degrees=True, suppress_warnings",
           lambda m, x, y: _r(m).from_quat(x - 0.6).as_euler("XZX", degrees=True,
                                                              suppress_warnings=True)),
    Sample("spatial.transform.Rotation.as_mrp", "mrp",
           lambda m, x, y: _r(m).from_quat(x - 0.6).as_mrp()),
    Sample("spatial.transform.Rotation.as_davenport", "order=e, degrees=False",
           lambda m, x, y: _r(m).from_quat(x - 0.6).as_davenport(_TILTED, "e", degrees=False)),
    Sample("spatial.transform.Rotation.as_davenport", "order=i, degrees=True, suppress_warnings",
           lambda m, x, y: _r(m).from_quat(x - 0.6).as_davenport(
               _DAVENPORT, "i", degrees=True, suppress_warnings=True)),
    Sample("spatial.transform.Rotation.apply", "inverse=False",
           lambda m, x, y: _r(m).from_quat(x).apply(y[:, :3], inverse=False)),
    Sample("spatial.transform.Rotation.apply", "inverse=True, one vector",
           lambda m, x, y: _r(m).from_quat(x).apply(y[0, 1:], inverse=True)),
    Sample("spatial.transform.Rotation.inv", "inv",
           lambda m, x, y: _r(m).from_quat(x).inv().as_quat()),
    Sample("spatial.transform.Rotation.magnitude", "magnitude",
           lambda m, x, y: _r(m).from_quat(x - 0.6).magnitude()),
    Sample("spatial.transform.Rotation.mean", "weights=None",
           lambda m, x, y: _r(m).from_quat(x).mean().as_quat()),
    Sample("spatial.transform.Rotation.mean", "weights",
           lambda m, x, y: _r(m).from_quat(x).mean(weights=y[:, 0]).as_quat()),
    Sample("spatial.transform.Rotation.__mul__", "composition",
           lambda m, x, y: (_r(m).from_quat(x) * _r(m).from_rotvec(y[:, :3])).as_quat()),
    Sample("spatial.transform.Rotation.__getitem__", "index, slice",
           lambda m, x, y: (_r(m).from_quat(x)[1] * _r(m).from_quat(y)[1:]).as_quat()),
    Sample("spatial.transform.Slerp", "interpolate",
           lambda m, x, y: m.spatial.transform.Slerp([0.0, 1.0, 2.0], _r(m).from_quat(x))(
               y[0, :2] * 2).as_quat()),
]  # fmt: skip

REFUSALS: list[Refusal] = [
    Refusal("spatial.distance.cdist", "out", lambda m, x, y: m.spatial.distance.cdist(
        x, y, out=np.zeros((3, 3))), NotImplementedError),
    Refusal("spatial.distance.pdist", "out", lambda m, x, y: m.spatial.distance.pdist(
        x, out=np.zeros(3)), NotImplementedError),
    Refusal("spatial.transform.Rotation.mean", "axis", lambda m, x, y: m.spatial.transform
            .Rotation.from_quat(x).mean(axis=0), NotImplementedError),
]  # fmt: skip
