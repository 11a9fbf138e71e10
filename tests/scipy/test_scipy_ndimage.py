"""tapegrad.scipy.ndimage: SciPy's values in every mode (coordinates far past the edges,
on half-integer ties, lines of length 1 and 2), gradients in the image, the coordinates
and the transforms against finite differences, and clear errors."""

import warnings

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy.ndimage as nd  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import ndimage  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap",
         "grid-wrap"]  # fmt: skip
RNG = np.random.default_rng(0)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1])
@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_map_coordinates_equals_scipy_everywhere(mode, order, n):
    a = RNG.normal(size=(n, 4))
    c = RNG.uniform(-12, 12, size=(2, 300))
    c[:, :40] = np.round(c[:, :40] * 2) / 2  # ties and integers
    expected = nd.map_coordinates(a, c, order=order, mode=mode, cval=7.5)
    ours = ndimage.map_coordinates(tg.tensor(a), tg.tensor(c), order=order, mode=mode, cval=7.5)
    np.testing.assert_allclose(ours.numpy(), expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("mode", MODES)
def test_map_coordinates_gradient_in_image_and_coordinates(mode):
    a = RNG.normal(size=(3, 4))
    c = RNG.uniform(-2.3, 5.3, size=(2, 6))
    c = np.where(np.abs(c - np.round(c)) < 0.05, c + 0.1, c)  # away from the kinks
    f = lambda x, k: ndimage.map_coordinates(x, k, order=1, mode=mode, cval=0.5)  # noqa: E731
    gradcheck(f, [a, c])
    gradgradcheck(f, [a, c], atol=1e-5)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", [0, 1])
def test_transforms_equal_scipy(mode, order):
    a = RNG.normal(size=(3, 4))
    calls = [
        ("shift", {"shift": (0.3, -1.7)}),
        ("zoom", {"zoom": (1.5, 0.7)}),
        ("zoom", {"zoom": 1.7, "grid_mode": True}),
        (
            "affine_transform",
            {"matrix": np.array([[0.9, 0.2], [-0.3, 1.1]]), "offset": (0.4, -0.2)},
        ),
        ("affine_transform", {"matrix": np.array([0.9, 1.2]), "offset": 0.3}),
        ("affine_transform", {"matrix": np.array([[0.9, 0.2, 0.1], [-0.3, 1.1, 0.5]])}),
        ("affine_transform", {"matrix": np.eye(2) * 0.8, "output_shape": (4, 5)}),
        ("rotate", {"angle": 33.0}),
        ("rotate", {"angle": 33.0, "reshape": False}),
        ("rotate", {"angle": 90}),
    ]
    for name, kw in calls:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            expected = getattr(nd, name)(a, order=order, mode=mode, cval=0.5, **kw)
        ours = getattr(ndimage, name)(tg.tensor(a), order=order, mode=mode, cval=0.5, **kw)
        assert ours.shape == expected.shape, (name, kw)
        np.testing.assert_allclose(ours.numpy(), expected, rtol=0, atol=1e-12, err_msg=name)


def test_gradients_in_the_transforms():
    a = RNG.normal(size=(3, 4))
    gradcheck(lambda s: ndimage.shift(a, s, order=1, mode="nearest"), [np.array([0.3, -0.6])])
    gradcheck(
        lambda m, o: ndimage.affine_transform(a, m, o, order=1, mode="reflect"),
        [np.array([[0.9, 0.15], [-0.25, 1.1]]), np.array([0.35, -0.15])],
    )
    gradcheck(lambda t: ndimage.rotate(a, t, reshape=False, order=1, mode="mirror"), [17.0])


@pytest.mark.parametrize("mode", MODES)
def test_filters_equal_scipy(mode):
    a = RNG.normal(size=(3, 4))
    w1, w2 = RNG.normal(size=4), RNG.normal(size=(2, 3))
    calls = [
        ("correlate1d", (w1,), {"origin": -1}), ("convolve1d", (w1,), {"origin": 1}),
        ("correlate1d", (w1,), {"origin": 1, "axis": 0}),
        ("uniform_filter1d", (4,), {"origin": -2, "axis": 0}),
        ("correlate", (w2,), {"origin": (0, 1)}), ("convolve", (w2,), {"origin": -1}),
        ("gaussian_filter", (1.3,), {}),
        ("gaussian_filter", ((0.7, 2.0),), {"order": (1, 2), "truncate": 3.0}),
        ("sobel", (), {"axis": 0}), ("prewitt", (), {}), ("laplace", (), {}),
        ("uniform_filter", (), {"size": (2, 3), "origin": (0, 1)}),
    ]  # fmt: skip
    for name, args, kw in calls:
        expected = getattr(nd, name)(a, *args, mode=mode, cval=2.0, **kw)
        ours = getattr(ndimage, name)(tg.tensor(a), *args, mode=mode, cval=2.0, **kw)
        np.testing.assert_allclose(ours.numpy(), expected, rtol=0, atol=1e-12, err_msg=name)


def test_filter_axes_and_gradient_in_the_weights():
    a, w = RNG.normal(size=(3, 4)), RNG.normal(size=(3, 2))
    for kw in ({"axes": (1, 0)}, {"axes": (1, 0), "origin": (1, 0)}):
        np.testing.assert_allclose(
            ndimage.correlate(tg.tensor(a), w, **kw).numpy(), nd.correlate(a, w, **kw), atol=1e-12
        )
    gradcheck(lambda x, k: ndimage.correlate(x, k, mode="mirror"), [a, w])
    gradcheck(lambda x, k: ndimage.convolve1d(x, k, mode="wrap", axis=0), [a, w[:, 0]])


def test_plain_arrays_get_scipys_own_results():
    a = RNG.normal(size=(3, 4))
    assert type(ndimage.gaussian_filter(a, 1.0)) is np.ndarray
    np.testing.assert_array_equal(
        ndimage.map_coordinates(a, [[0.5], [1.5]]), nd.map_coordinates(a, [[0.5], [1.5]])
    )
    assert ndimage.median_filter is nd.median_filter


def test_clear_errors():
    a = tg.tensor(RNG.normal(size=(3, 4)))
    with pytest.raises(RuntimeError, match="order=6"):
        ndimage.map_coordinates(a, np.zeros((2, 1)), order=6)
    with pytest.raises(NotImplementedError, match="output="):
        ndimage.sobel(a, output=np.empty((3, 4)))
    with pytest.raises(ValueError, match="mode"):
        ndimage.shift(a, 1.0, order=1, mode="edge")
    with pytest.raises(RuntimeError, match="coordinate"):
        ndimage.map_coordinates(a, np.zeros((3, 1)), order=1)
    with pytest.raises(ValueError, match="origin"):
        ndimage.correlate1d(a, [1.0, 2.0, 3.0], origin=2)
    with pytest.raises(LookupError, match="sigma"):
        tg.grad(lambda s: tg.sum(ndimage.gaussian_filter(a, s)))(1.0)
