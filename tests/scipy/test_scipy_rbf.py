"""tapegrad.scipy.interpolate.RBFInterpolator (tapegrad/scipy/interpolate/rbf.py): SciPy's
values for every kernel, degree, smoothing, epsilon and neighbors, real and complex and
multi-dimensional values; gradients in the values, the nodes, smoothing, epsilon and the
evaluation points against finite differences (Hypothesis-drawn), second order, and clear
errors."""

import itertools
import warnings

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy.interpolate as si  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy.interpolate import RBFInterpolator  # noqa: E402
from tapegrad.scipy.interpolate.rbf import KERNELS  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402
from tapegrad.testing import strategies as tst  # noqa: E402

RNG = np.random.default_rng(0)
# nodes on a jittered 3 x 3 grid: well separated, so the systems are well conditioned
GRID = np.stack(np.meshgrid([0.0, 0.5, 1.0], [0.0, 0.5, 1.0]), axis=-1).reshape(-1, 2)


def _relative(a, b):
    return np.abs(a - b).max() / max(1.0, np.abs(b).max())


@pytest.mark.parametrize("kernel", KERNELS)
def test_values_equal_scipy_every_option(kernel):
    y = RNG.uniform(0, 1, (12, 2))
    d = RNG.normal(size=(12, 3))
    x = RNG.uniform(-0.2, 1.2, (7, 2))
    x[0] = y[3]  # on a node
    smooth = RNG.uniform(0, 0.2, 12)
    for degree, neighbors, smoothing in itertools.product(
        (None, -1, 0, 1, 2), (None, 7), (0.0, 0.1, smooth)
    ):
        kw = {"kernel": kernel, "degree": degree, "neighbors": neighbors,
              "smoothing": smoothing, "epsilon": 1.7}  # fmt: skip
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # degree below the kernel's minimum
            expected = si.RBFInterpolator(y, d, **kw)(x)
            ours = RBFInterpolator(tg.tensor(y), tg.tensor(d), **kw)(tg.tensor(x))
        assert isinstance(ours, tg.Tensor) and ours.dtype == expected.dtype
        assert _relative(ours.numpy(), expected) < 1e-9, kw


def test_value_shapes_complex_and_defaults():
    y, x = RNG.uniform(0, 1, (10, 3)), RNG.uniform(0, 1, (4, 3))
    for d in (RNG.normal(size=10), RNG.normal(size=(10, 2, 2)),
              RNG.normal(size=(10, 2)) + 1j * RNG.normal(size=(10, 2))):  # fmt: skip
        expected = si.RBFInterpolator(y, d)(x)
        ours = RBFInterpolator(tg.tensor(y), tg.tensor(d))(tg.tensor(x))
        assert ours.shape == expected.shape and ours.dtype == expected.dtype
        np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-10, atol=1e-12)


def test_plain_arrays_are_scipy_and_a_plain_build_records_on_tensor_points():
    y, d, x = RNG.uniform(0, 1, (8, 2)), RNG.normal(size=8), RNG.uniform(0, 1, (3, 2))
    f = RBFInterpolator(y, d, kernel="gaussian", epsilon=2.0)
    np.testing.assert_array_equal(f(x), si.RBFInterpolator(y, d, kernel="gaussian", epsilon=2.0)(x))
    assert type(f(x)) is np.ndarray
    gradcheck(lambda p: f(p), [x])
    g = RBFInterpolator(y, d, neighbors=4)
    np.testing.assert_allclose(g(tg.tensor(x)).numpy(), si.RBFInterpolator(y, d, neighbors=4)(x))


@given(data=st.data())
@pytest.mark.parametrize("kernel", KERNELS)
def test_gradient_in_every_input(kernel, data):
    jitter = data.draw(tst.arrays(shape=(9, 2), domain="unit"), label="jitter")
    d = data.draw(tst.arrays(shape=(9,), domain="real"), label="d")
    x = data.draw(tst.arrays(shape=(3, 2), domain="unit"), label="x")
    degree = data.draw(st.sampled_from([None, -1, 2]), label="degree")
    y = GRID + 0.1 * jitter
    smoothing = np.full(9, 0.01)

    def f(y, d, x, s, eps):
        return RBFInterpolator(y, d, smoothing=s, kernel=kernel, epsilon=eps, degree=degree)(
            0.5 + 0.45 * x
        )

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        gradcheck(f, [y, d, x, smoothing, 1.4], atol=1e-4)


@pytest.mark.parametrize("kernel", KERNELS)
def test_second_derivatives(kernel):
    y = GRID + 0.05 * RNG.uniform(-1, 1, GRID.shape)
    d, x = RNG.normal(size=9), RNG.uniform(0.1, 0.9, (2, 2))

    def f(y, d, x, s):
        return RBFInterpolator(y, d, smoothing=s, kernel=kernel, epsilon=1.3)(x)

    gradgradcheck(f, [y, d, x, 0.02], atol=1e-4)


@pytest.mark.parametrize("kernel", ["thin_plate_spline", "gaussian", "quintic"])
def test_neighbors_gradient_with_the_neighbour_sets_fixed(kernel):
    y = GRID + 0.05 * RNG.uniform(-1, 1, GRID.shape)
    d, x = RNG.normal(size=(9, 2)), RNG.uniform(0.1, 0.9, (4, 2))
    k = 6 if kernel == "quintic" else 4

    def f(y, d, x):
        return RBFInterpolator(y, d, neighbors=k, kernel=kernel, epsilon=1.1)(x)

    gradcheck(f, [y, d, x], atol=1e-4)
    gradgradcheck(lambda d: f(y, d, x), [d])


def test_gradient_on_a_node_is_finite():
    y = GRID + 0.05 * RNG.uniform(-1, 1, GRID.shape)
    d = RNG.normal(size=9)
    for kernel in ("thin_plate_spline", "cubic", "quintic", "gaussian"):
        gradcheck(lambda x, k=kernel: RBFInterpolator(y, d, kernel=k, epsilon=1.0)(x), [y[2:4]])
    gradient = tg.grad(lambda x: tg.sum(RBFInterpolator(y, d, kernel="linear")(x)))(
        tg.tensor(y[2:4])
    )
    assert np.all(np.isfinite(gradient.numpy()))


def test_errors_name_the_class_and_the_problem():
    y, d = tg.tensor(RNG.uniform(0, 1, (6, 2))), tg.tensor(RNG.normal(size=6))
    with pytest.raises(ValueError, match="RBFInterpolator: `kernel` must be one of"):
        RBFInterpolator(y, d, kernel="matern")
    with pytest.raises(ValueError, match="RBFInterpolator: `epsilon` must be specified"):
        RBFInterpolator(y, d, kernel="gaussian")
    with pytest.raises(ValueError, match="at least -1"):
        RBFInterpolator(y, d, degree=-2)
    with pytest.raises(ValueError, match="At least 10 data points are required"):
        RBFInterpolator(y, d, degree=3)
    with pytest.raises(ValueError, match="first axis of `d` to have length 6"):
        RBFInterpolator(y, d[:5])
    with pytest.raises(ValueError, match="`smoothing` to be a scalar or have shape"):
        RBFInterpolator(y, d, smoothing=tg.tensor([1.0, 2.0]))
    with pytest.raises(ValueError, match="second axis of `x` to have length 2"):
        RBFInterpolator(y, d)(tg.tensor(np.zeros((3, 3))))
    with pytest.warns(UserWarning, match="`degree` should not be below 1"):
        RBFInterpolator(y, d, degree=0)
    twice = tg.tensor(np.concatenate([y.numpy()[:3], y.numpy()[:3]]))
    with pytest.raises(np.linalg.LinAlgError, match="RBFInterpolator: Singular matrix"):
        RBFInterpolator(twice, d, kernel="gaussian", epsilon=1.0)
    with pytest.raises(np.linalg.LinAlgError, match="does not have full column rank"):
        RBFInterpolator(tg.tensor(np.ones((6, 2))), d)
