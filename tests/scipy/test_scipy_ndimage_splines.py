"""tapegrad.scipy.ndimage at spline orders 2 to 5 (tapegrad/scipy/ndimage/splines.py):
SciPy's values in every mode with and without the prefilter (coordinates far past the
edges, on ties, lines of length 1 and 2), spline_filter and spline_filter1d, gradients in
the image and the coordinates (and the transforms) against finite differences, second
order, and clear errors."""

import itertools
import warnings

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy.ndimage as nd  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import ndimage  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

MODES = ["constant", "grid-constant", "nearest", "reflect", "grid-mirror", "mirror", "wrap",
         "grid-wrap"]  # fmt: skip
ORDERS = [2, 3, 4, 5]
RNG = np.random.default_rng(0)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_map_coordinates_equals_scipy_everywhere(mode, n):
    a = RNG.normal(size=(n, 4))
    c = RNG.uniform(-12, 12, size=(2, 150))
    c[:, :30] = np.round(c[:, :30] * 2) / 2  # ties and integers
    for order, prefilter in itertools.product(ORDERS, [True, False]):
        kw = {"order": order, "mode": mode, "cval": 1.5, "prefilter": prefilter}
        expected = nd.map_coordinates(a, c, **kw)
        ours = ndimage.map_coordinates(tg.tensor(a), tg.tensor(c), **kw)
        np.testing.assert_allclose(ours.numpy(), expected, rtol=0, atol=1e-11, err_msg=str(kw))


def test_map_coordinates_3d_and_float32_equal_scipy():
    b = RNG.normal(size=(4, 5, 3))
    c = RNG.uniform(-1, 5, size=(3, 2, 7))
    for mode in MODES:
        expected = nd.map_coordinates(b, c, order=3, mode=mode)
        ours = ndimage.map_coordinates(tg.tensor(b), tg.tensor(c), order=3, mode=mode)
        assert ours.shape == expected.shape
        np.testing.assert_allclose(ours.numpy(), expected, atol=1e-11)
    f32 = b[0].astype(np.float32)
    expected = nd.map_coordinates(f32, c[:2, 0], order=4)
    ours = ndimage.map_coordinates(tg.tensor(f32), tg.tensor(c[:2, 0]), order=4)
    assert ours.dtype == expected.dtype == np.float32
    np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-6)


TRANSFORMS = [
    ("shift", {"shift": (0.3, -1.7)}),
    ("zoom", {"zoom": (1.5, 0.7)}),
    ("zoom", {"zoom": 1.7, "grid_mode": True}),
    ("zoom", {"zoom": 1.0}),
    ("affine_transform", {"matrix": np.array([[0.9, 0.2], [-0.3, 1.1]]), "offset": (0.4, -0.2)}),
    ("affine_transform", {"matrix": np.array([0.9, 1.2]), "offset": 0.3}),
    ("rotate", {"angle": 33.0}),
    ("rotate", {"angle": 20.0, "reshape": False}),
]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("order", ORDERS)
def test_transforms_equal_scipy(mode, order):
    a = RNG.normal(size=(5, 6))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # zoom's grid_mode advice
        for (name, kw), prefilter in itertools.product(TRANSFORMS, [True, False]):
            options = {"order": order, "mode": mode, "cval": 0.5, "prefilter": prefilter, **kw}
            expected = getattr(nd, name)(a, **options)
            ours = getattr(ndimage, name)(tg.tensor(a), **options)
            assert ours.shape == expected.shape, (name, kw)
            np.testing.assert_allclose(ours.numpy(), expected, atol=1e-11, err_msg=name)


@pytest.mark.parametrize("mode", MODES)
def test_spline_filters_equal_scipy(mode):
    b = RNG.normal(size=(4, 5, 3))
    for order in range(6):
        for axis in (0, 1, -1):
            expected = nd.spline_filter1d(b, order, axis, mode=mode)
            ours = ndimage.spline_filter1d(tg.tensor(b), order, axis, mode=mode)
            assert ours.dtype == expected.dtype
            np.testing.assert_allclose(ours.numpy(), expected, atol=1e-12)
    for order in ORDERS:
        expected = nd.spline_filter(b, order, mode=mode)
        np.testing.assert_allclose(
            ndimage.spline_filter(tg.tensor(b), order, mode=mode).numpy(), expected, atol=1e-12
        )


def test_spline_filter_output_dtypes_and_complex_input():
    a = RNG.normal(size=(4, 5)).astype(np.float32)
    ours = ndimage.spline_filter(tg.tensor(a), output=np.float32)
    assert ours.dtype == np.float32
    np.testing.assert_allclose(ours.numpy(), nd.spline_filter(a, output=np.float32), rtol=1e-5)
    z = RNG.normal(size=(6,)) + 1j * RNG.normal(size=(6,))
    with pytest.warns(UserWarning, match="complex"):
        expected = nd.spline_filter1d(z, 4)
    with pytest.warns(UserWarning, match="complex"):
        ours = ndimage.spline_filter1d(tg.tensor(z), 4)
    assert ours.dtype == expected.dtype == np.complex128
    np.testing.assert_allclose(ours.numpy(), expected, atol=1e-12)


@given(data=st.data())
@pytest.mark.parametrize("mode", MODES)
def test_map_coordinates_gradient_in_image_and_coordinates(mode, data):
    order = data.draw(st.sampled_from(ORDERS), label="order")
    prefilter = data.draw(st.booleans(), label="prefilter")
    rows = data.draw(st.integers(2, 4), label="rows")
    a = RNG.normal(size=(rows, 4))
    # inside the array: past the edges the modes fold the coordinate (a kink where it folds)
    c = np.stack([RNG.uniform(0.1, rows - 1.1, 5), RNG.uniform(0.1, 2.9, 5)])
    options = {"order": order, "mode": mode, "cval": 0.5, "prefilter": prefilter}
    gradcheck(lambda x, k: ndimage.map_coordinates(x, k, **options), [a, c])


@pytest.mark.parametrize("mode", MODES)
def test_gradient_past_the_edges(mode):
    a = RNG.normal(size=(3, 4))
    c = np.array([[-1.6, 3.3, 0.4, 4.7, -2.6], [-0.7, 1.2, 5.4, 2.6, 3.8]])
    if mode == "constant":  # cval outside [0, n - 1]: keep two points inside
        c = np.array([[0.3, 1.7], [2.6, 0.4]])
    for order in ORDERS:
        f = lambda x, k, o=order: ndimage.map_coordinates(x, k, order=o, mode=mode)  # noqa: E731
        gradcheck(f, [a, c])


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize("mode", ["mirror", "nearest", "grid-constant", "grid-wrap"])
def test_second_derivatives(order, mode):
    a = RNG.normal(size=(3, 4))
    c = np.array([[0.3, 1.6, 0.9], [2.2, 0.7, 1.45]])
    f = lambda x, k: ndimage.map_coordinates(x, k, order=order, mode=mode)  # noqa: E731
    gradgradcheck(f, [a, c], atol=1e-5)


@pytest.mark.parametrize("order", ORDERS)
def test_transform_gradients(order):
    a = RNG.normal(size=(4, 5))
    gradcheck(lambda x, s: ndimage.shift(x, s, order=order, mode="reflect"), [a, [0.3, -0.6]])
    gradcheck(
        lambda x, m, o: ndimage.affine_transform(x, m, o, order=order, mode="mirror"),
        [a, [[0.9, 0.1], [-0.2, 1.05]], [0.3, -0.2]],
    )
    gradcheck(lambda x, t: ndimage.rotate(x, t, reshape=False, order=order), [a, 17.0])
    gradcheck(lambda x: ndimage.zoom(x, 1.3, order=order, mode="nearest"), [a])
    gradgradcheck(lambda s: ndimage.shift(a, s, order=order, mode="grid-wrap"), [[0.3, -0.6]])


@pytest.mark.parametrize("mode", MODES)
def test_spline_filter_gradient_is_the_adjoint_filter(mode):
    b = RNG.normal(size=(3, 4))
    for order in ORDERS:
        gradcheck(lambda x, o=order: ndimage.spline_filter(x, o, mode=mode), [b])
        gradcheck(lambda x, o=order: ndimage.spline_filter1d(x, o, axis=0, mode=mode), [b])
    gradgradcheck(lambda x: ndimage.spline_filter(x, 3, mode=mode) ** 2, [b])


def test_errors_name_the_function_and_the_option():
    a = tg.tensor(RNG.normal(size=(3, 4)))
    with pytest.raises(RuntimeError, match="spline_filter: spline order not supported"):
        ndimage.spline_filter(a, order=1)
    with pytest.raises(RuntimeError, match="spline_filter1d: spline order not supported"):
        ndimage.spline_filter1d(a, order=6)
    with pytest.raises(ValueError, match="spline_filter1d: mode must be one of"):
        ndimage.spline_filter1d(a, mode="edge")
    with pytest.raises(NotImplementedError, match="spline_filter: output= as an array"):
        ndimage.spline_filter(a, output=np.empty((3, 4)))
    with pytest.raises(np.exceptions.AxisError, match="spline_filter1d: axis 2"):
        ndimage.spline_filter1d(a, axis=2)
    with pytest.raises(RuntimeError, match="map_coordinates: spline order not supported"):
        ndimage.map_coordinates(a, tg.tensor(np.zeros((2, 1))), order=6)
