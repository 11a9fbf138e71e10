"""scipy.cluster.vq: vq's distances (2-D and 1-D), whiten, and kmeans2's centroids at
SciPy's converged labels for each ``minit`` with ``iter``, ``thresh``, ``missing``,
``rng`` and ``seed``. Observations are the rows of ``x.T`` (4 points in 3-D), codes the
rows of ``y.T``."""

from __future__ import annotations

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Sample

_GUESS = np.array([[0.4, 0.5, 0.6], [0.8, 0.7, 0.6]])

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = ["cluster.vq.vq", "cluster.vq.whiten", "cluster.vq.kmeans2"]

ROWS: list[Sample] = [
    Sample("cluster.vq.vq", "distances", lambda m, x, y: m.cluster.vq.vq(x.T, y.T[:3])[1]),
    Sample("cluster.vq.vq", "1-D", lambda m, x, y: m.cluster.vq.vq(x[0], y[1, :2])[1]),
    Sample("cluster.vq.whiten", "whiten", lambda m, x, y: m.cluster.vq.whiten(x.T)),
    Sample("cluster.vq.kmeans2", "minit=random, rng, iter, thresh",
           lambda m, x, y: m.cluster.vq.kmeans2(x.T, 2, iter=5, thresh=1e-5, minit="random",
                                                rng=0)[0]),
    Sample("cluster.vq.kmeans2", "minit=points, missing=warn",
           lambda m, x, y: m.cluster.vq.kmeans2(x.T, 2, minit="points", missing="warn",
                                                rng=1)[0]),
    Sample("cluster.vq.kmeans2", "minit=++, seed",
           lambda m, x, y: m.cluster.vq.kmeans2(x.T, 2, minit="++", seed=2)[0]),
    Sample("cluster.vq.kmeans2", "minit=matrix, missing=raise",
           lambda m, x, y: m.cluster.vq.kmeans2(x.T, _GUESS, minit="matrix", missing="raise")[0]),
]  # fmt: skip
