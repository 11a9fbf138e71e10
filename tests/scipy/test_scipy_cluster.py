"""tapegrad.scipy.cluster.vq: vq's codes and distances, whiten and kmeans2 equal SciPy's
(kmeans2 for every minit, with the same rng), gradients in the observations and the code
book, kmeans2's centroids differentiable at the converged labels, SciPy's own elsewhere."""

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy.cluster.vq as sv  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import cluster  # noqa: E402
from tapegrad.scipy.cluster import vq  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

RNG = np.random.default_rng(0)
OBS = RNG.normal(size=(20, 3))
CODES = RNG.normal(size=(4, 3))


def test_vq_equals_scipy():
    for o, c in (OBS, CODES), (OBS[:, 0], CODES[:, 0]):
        codes, dists = vq.vq(tg.tensor(o), tg.tensor(c))
        expected = sv.vq(o, c)
        assert codes.dtype == expected[0].dtype and np.array_equal(codes, expected[0])
        np.testing.assert_allclose(dists.numpy(), expected[1], rtol=1e-12)
    gradcheck(lambda o, c: vq.vq(o, c)[1], [OBS[:6], CODES])
    gradgradcheck(lambda o, c: vq.vq(o, c)[1], [OBS[:6], CODES], atol=1e-5)


def test_whiten_and_errors():
    np.testing.assert_allclose(vq.whiten(tg.tensor(OBS)).numpy(), sv.whiten(OBS), rtol=1e-12)
    gradgradcheck(vq.whiten, [OBS[:5]], atol=1e-5)
    with pytest.warns(RuntimeWarning, match="zero"):
        vq.whiten(tg.tensor(np.ones((3, 2))))
    with pytest.raises(ValueError, match="infs or NaNs"):
        vq.vq(tg.tensor([[np.inf]]), tg.tensor([[0.0]]))
    with pytest.raises(ValueError, match="rank"):
        vq.vq(tg.tensor(OBS), tg.tensor(CODES[:, 0]))


@pytest.mark.parametrize("kw", [
    {"k": 3, "rng": 1}, {"k": 3, "minit": "++", "rng": 2}, {"k": CODES[:3], "minit": "matrix"},
    {"k": 3, "minit": "points", "rng": 3, "iter": 5},
])  # fmt: skip
def test_kmeans2_equals_scipy_and_differentiates_at_the_labels(kw):
    centroids, labels = sv.kmeans2(OBS, **kw)
    ours, our_labels = vq.kmeans2(tg.tensor(OBS), **kw)
    assert np.array_equal(labels, our_labels)
    np.testing.assert_allclose(ours.numpy(), centroids, rtol=1e-12)
    gradgradcheck(lambda x: vq.kmeans2(x, **kw)[0], [OBS], atol=1e-5)


def test_scipy_own_elsewhere():
    assert cluster.vq.kmeans is sv.kmeans
    assert cluster.hierarchy.linkage.__module__.startswith("scipy.cluster")
