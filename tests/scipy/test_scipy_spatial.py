"""tapegrad.scipy.spatial: Rotation's conversions, composition, apply, mean and Slerp equal
SciPy's (1-D, 2-D and N-D quaternions, every Euler sequence, from_matrix's four branches
and its SVD projection, small angles, gimbal lock), distances for every metric and weight,
squareform both ways, gradients to second order, and SciPy's own objects elsewhere."""

import warnings

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy.spatial as ss  # noqa: E402
import scipy.spatial.distance as sd  # noqa: E402
from scipy.spatial.transform import Rotation as SR  # noqa: E402
from scipy.spatial.transform import Slerp as SS  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import spatial  # noqa: E402
from tapegrad.scipy.spatial import distance as d  # noqa: E402
from tapegrad.scipy.spatial.transform import Rotation as R  # noqa: E402
from tapegrad.scipy.spatial.transform import Slerp  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

RNG = np.random.default_rng(1)


def chk(a, b, msg=""):
    a = a.numpy() if isinstance(a, tg.Tensor) else a
    assert np.shape(a) == np.shape(b), (msg, np.shape(a), np.shape(b))
    np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12, err_msg=msg)


@pytest.mark.parametrize("shape", [(4,), (5, 4), (2, 3, 4)])
def test_rotation_conversions_equal_scipy(shape):
    q = RNG.normal(size=shape)
    s, t = SR.from_quat(q), R.from_quat(tg.tensor(q))
    chk(t.as_quat(), s.as_quat())
    chk(t.as_quat(True, scalar_first=True), s.as_quat(True, scalar_first=True))
    chk(t.as_matrix(), s.as_matrix())
    chk(t.as_rotvec(), s.as_rotvec())
    chk(t.as_rotvec(True), s.as_rotvec(True))
    chk(t.as_mrp(), s.as_mrp())
    chk(t.magnitude(), s.magnitude())
    chk(t.inv().as_quat(), s.inv().as_quat())
    for seq in ["xyz", "ZXZ", "zyx", "XYX", "yzx", "ZYX"]:
        chk(t.as_euler(seq), s.as_euler(seq), seq)
        chk(t.as_euler(seq, True), s.as_euler(seq, True), seq)
    chk(R.from_matrix(tg.tensor(s.as_matrix())).as_quat(), SR.from_matrix(s.as_matrix()).as_quat())
    chk(R.from_rotvec(tg.tensor(s.as_rotvec())).as_quat(), SR.from_rotvec(s.as_rotvec()).as_quat())
    chk(R.from_mrp(tg.tensor(s.as_mrp())).as_quat(), SR.from_mrp(s.as_mrp()).as_quat())
    v = RNG.normal(size=(*shape[:-1], 3))
    chk(t.apply(tg.tensor(v)), s.apply(v))
    chk(t.apply(tg.tensor(v), inverse=True), s.apply(v, inverse=True))
    chk(t.apply(tg.tensor(v.reshape(-1, 3)[0])), s.apply(v.reshape(-1, 3)[0]))
    chk((t * t.inv() * t).as_quat(), (s * s.inv() * s).as_quat())
    chk((t**0.3).as_quat(), (s**0.3).as_quat())
    for seq in ["xyz", "ZXZ", "z", "xy"]:
        ang = RNG.normal(size=(*shape[:-1], len(seq)))
        chk(R.from_euler(seq, tg.tensor(ang)).as_quat(), SR.from_euler(seq, ang).as_quat(), seq)
        chk(R.from_euler(seq, tg.tensor(ang * 50), degrees=True).as_quat(),
            SR.from_euler(seq, ang * 50, degrees=True).as_quat(), seq)  # fmt: skip


def test_rotation_edges_equal_scipy():
    chk(R.from_euler("z", tg.tensor(0.3)).as_quat(), SR.from_euler("z", 0.3).as_quat())
    chk(R.from_rotvec(tg.tensor([0.0, 0, 0])).as_quat(), SR.from_rotvec([0.0, 0, 0]).as_quat())
    small = [1e-4, 0, 0.0]
    chk(R.from_rotvec(tg.tensor(small)).as_rotvec(), SR.from_rotvec(small).as_rotvec())
    m = np.array([[0.9, 0.1, 0.05], [-0.1, 0.8, 0.2], [0.0, -0.3, 1.1]])
    chk(R.from_matrix(tg.tensor(m)).as_quat(), SR.from_matrix(m).as_quat())
    for branch in np.diag([3.0, 3.0, 3.0]) + 0.1, np.zeros((1, 3)) + 0.2:  # branches 0-2, 3
        for rv in branch:
            mat = SR.from_rotvec(rv).as_matrix()
            chk(R.from_matrix(tg.tensor(mat)).as_quat(), SR.from_matrix(mat).as_quat())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = SR.from_euler("xyz", [0.3, np.pi / 2, 0.2])
        chk(R.from_quat(tg.tensor(g.as_quat())).as_euler("xyz"), g.as_euler("xyz"))
    with pytest.raises(ValueError, match="determinant"):
        R.from_matrix(tg.tensor(-np.eye(3)))
    with pytest.raises(ValueError, match="zero norm"):
        R.from_quat(tg.tensor(np.zeros(4)))


def test_davenport_mean_indexing_slerp_equal_scipy():
    q = RNG.normal(size=(6, 4))
    ax = np.eye(3)[[2, 0, 1]]
    an = RNG.normal(size=(5, 3))
    tilted = np.array([[1, 0, 0], [0, 1, 1.0], [0, -1, 1.0]])
    for order in "ei":
        chk(R.from_davenport(tg.tensor(ax), order, tg.tensor(an)).as_quat(),
            SR.from_davenport(ax, order, an).as_quat())  # fmt: skip
        for axes in ax, tilted:
            chk(R.from_quat(tg.tensor(q[0])).as_davenport(axes, order),
                SR.from_quat(q[0]).as_davenport(axes, order))  # fmt: skip
    w = RNG.uniform(size=6)
    chk(R.from_quat(tg.tensor(q)).mean().as_quat(), SR.from_quat(q).mean().as_quat())
    chk(R.from_quat(tg.tensor(q)).mean(tg.tensor(w)).as_quat(), SR.from_quat(q).mean(w).as_quat())
    t = R.from_quat(tg.tensor(q))
    chk(t[1:3].as_quat(), SR.from_quat(q)[1:3].as_quat())
    assert len(t) == 6 and t[0].single and not t.single and t.shape == (6,)
    with pytest.raises(TypeError):
        len(t[0])
    times = np.array([0, 1, 2.5, 3, 4, 5.0])
    ours, theirs = Slerp(tg.tensor(times), t), SS(times, SR.from_quat(q))
    at = np.array([0, 0.3, 1, 2.7, 5.0])
    chk(ours(tg.tensor(at)).as_quat(), theirs(at).as_quat())
    chk(ours(tg.tensor(2.0)).as_quat(), theirs(2.0).as_quat())
    with pytest.raises(ValueError, match="range"):
        ours(tg.tensor(6.0))


def test_plain_calls_are_scipy_own():
    r = R.from_euler("xyz", [0.1, 0.2, 0.3])
    assert type(r.as_quat()) is np.ndarray
    np.testing.assert_array_equal(r.as_matrix(), SR.from_euler("xyz", [0.1, 0.2, 0.3]).as_matrix())
    assert R.random(3, rng=0).as_quat().shape == (3, 4)
    assert R.identity().single
    assert spatial.KDTree is ss.KDTree and spatial.transform.RigidTransform is not None
    assert d.hamming is sd.hamming


def test_rotation_gradients_to_second_order():
    q = RNG.normal(size=(3, 4))
    v = RNG.normal(size=(3, 3))
    for f in [
        lambda a, b: R.from_quat(a).apply(b),
        lambda a, b: R.from_quat(a).as_euler("ZYZ"),
        lambda a, b: R.from_matrix(R.from_quat(a).as_matrix()).as_rotvec(),
        lambda a, b: (R.from_quat(a) * R.from_rotvec(b)).as_mrp(),
        lambda a, b: R.from_rotvec(b * 1e-4).as_quat(),
        lambda a, b: R.from_quat(a).mean().as_quat(),
    ]:
        gradcheck(f, [q, v])
        gradgradcheck(f, [q, v], atol=1e-5)


def test_rotvec_smooth_at_zero():
    gradgradcheck(lambda b: R.from_rotvec(b).as_quat(), [np.zeros(3)], atol=1e-5)


@pytest.mark.parametrize("metric,kw", [
    ("euclidean", {}), ("sqeuclidean", {}), ("cityblock", {}), ("chebyshev", {}),
    ("cosine", {}), ("correlation", {}), ("minkowski", {"p": 3}), ("minkowski", {"p": 1}),
    ("seuclidean", {}), ("mahalanobis", {}), ("braycurtis", {}), ("canberra", {}),
    ("euclidean", {"w": [0.5, 1.0, 2.0]}), ("cosine", {"w": [0.5, 1.0, 2.0]}),
    ("correlation", {"w": [0.5, 1.0, 2.0]}), ("chebyshev", {"w": [0.0, 1.0, 2.0]}),
    ("canberra", {"w": [0.5, 1.0, 2.0]}), ("braycurtis", {"w": [0.5, 1.0, 2.0]}),
])  # fmt: skip
def test_distances_equal_scipy(metric, kw):
    a, b = RNG.normal(size=(4, 3)), RNG.normal(size=(5, 3))
    chk(d.cdist(tg.tensor(a), tg.tensor(b), metric, **kw), sd.cdist(a, b, metric, **kw), metric)
    chk(d.pdist(tg.tensor(a), metric, **kw), sd.pdist(a, metric, **kw), metric)
    extra = {"seuclidean": {"V": [1.0, 2.0, 0.5]}, "mahalanobis": {"VI": np.eye(3) * 2}}
    kw = {**kw, **extra.get(metric, {})}
    f, g = getattr(d, metric), getattr(sd, metric)
    chk(f(tg.tensor(a[0]), tg.tensor(b[1]), **kw), g(a[0], b[1], **kw), metric)


def test_squareform_callable_metric_and_refusals():
    p = sd.pdist(RNG.normal(size=(4, 2)))
    chk(d.squareform(tg.tensor(p)), sd.squareform(p))
    chk(d.squareform(tg.tensor(sd.squareform(p))), p)
    a, b = RNG.normal(size=(3, 2)), RNG.normal(size=(2, 2))
    f = lambda u, v: ((u - v) ** 2).sum()  # noqa: E731
    chk(d.cdist(tg.tensor(a), b, f), sd.cdist(a, b, f))
    chk(d.pdist(tg.tensor(a), f), sd.pdist(a, f))
    with pytest.raises(ValueError, match="symmetric"):
        d.squareform(tg.tensor([[0.0, 1.0], [2.0, 0.0]]))
    with pytest.raises(NotImplementedError, match="metric"):
        d.cdist(tg.tensor(a), b, "jaccard")
    with pytest.raises(TypeError, match="unexpected"):
        d.cdist(tg.tensor(a), b, "euclidean", p=3)


def test_euclidean_gradient_zero_at_zero_distance():
    u = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(u)
        out = d.euclidean(u, [1.0, 2.0])
    assert out.item() == 0.0 and np.all(tape.gradient(out, u).numpy() == 0)
