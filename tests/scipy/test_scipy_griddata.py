"""tapegrad.scipy.interpolate.griddata (tapegrad/scipy/interpolate/scattered.py): SciPy's
values for every method in 1-d, 2-d and 3-d, with fill_value, rescale and tuple inputs,
real and complex, vector values; gradients in the values and the evaluation points against
finite differences (Hypothesis-drawn points); cubic in 2-d refused under a tape; clear
errors."""

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy.interpolate as si  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy.interpolate import griddata  # noqa: E402
from tapegrad.testing import gradcheck  # noqa: E402

RNG = np.random.default_rng(3)
POINTS = {d: RNG.uniform(size=(12 * d, d)) for d in (2, 3)}
XI = {d: 0.2 + 0.6 * RNG.uniform(size=(7, d)) for d in (2, 3)}


@pytest.mark.parametrize("ndim", [2, 3])
@pytest.mark.parametrize("method", ["linear", "nearest"])
@pytest.mark.parametrize("rescale", [False, True])
def test_values_equal_scipy(ndim, method, rescale):
    points, xi = POINTS[ndim] * np.array([4.0] + [1.0] * (ndim - 1)), XI[ndim]
    xi = np.vstack([xi * np.array([4.0] + [1.0] * (ndim - 1)), np.full((1, ndim), 9.0)])
    values = RNG.normal(size=(len(points), 2))
    ours = griddata(points, tg.tensor(values), tg.tensor(xi), method, -1.5, rescale)
    want = si.griddata(points, values, xi, method, -1.5, rescale)
    np.testing.assert_allclose(ours.numpy(), want, rtol=1e-12, atol=1e-12)
    assert ours.shape == want.shape


def test_complex_values_tuples_and_one_dimension():
    points, xi = POINTS[2], XI[2]
    values = RNG.normal(size=len(points)) + 1j * RNG.normal(size=len(points))
    tuple_xi = (xi[:, 0], xi[:, 1])
    ours = griddata((points[:, 0], points[:, 1]), tg.tensor(values), tuple_xi)
    np.testing.assert_allclose(ours.numpy(), si.griddata(points, values, tuple_xi), atol=1e-12)
    line, at = np.array([0.0, 0.4, 0.5, 1.3, 2.0]), np.array([0.1, 0.45, 1.9, 2.5])
    v = RNG.normal(size=5)
    for method in ("linear", "nearest", "cubic"):
        ours = griddata(line, tg.tensor(v), tg.tensor(at), method=method)
        np.testing.assert_allclose(ours.numpy(), si.griddata(line, v, at, method=method))


def test_plain_arrays_get_scipys_own_results():
    points, xi, values = POINTS[2], XI[2], RNG.normal(size=24)
    for method in ("linear", "nearest", "cubic"):
        ours = griddata(points, values, xi, method=method)
        assert type(ours) is np.ndarray
        np.testing.assert_array_equal(ours, si.griddata(points, values, xi, method=method))


@settings(max_examples=20, deadline=None)
@given(ndim=st.sampled_from([2, 3]), seed=st.integers(0, 2**16))
def test_linear_gradient_in_values_and_points(ndim, seed):
    rng = np.random.default_rng(seed)
    xi = 0.25 + 0.5 * rng.uniform(size=(4, ndim))  # inside the hull, off the faces a.s.
    values = rng.normal(size=len(POINTS[ndim]))
    gradcheck(lambda v, x: griddata(POINTS[ndim], v, x), [values, xi], eps=1e-7)


def test_nearest_gradient_is_the_gather():
    values = tg.Variable(RNG.normal(size=24))
    with tg.GradientTape() as tape:
        out = tg.sum(griddata(POINTS[2], values, XI[2], method="nearest") * np.arange(7.0))
    index = si.NearestNDInterpolator(POINTS[2], np.arange(24.0))(XI[2]).astype(int)
    np.testing.assert_array_equal(
        tape.gradient(out, values).numpy(), np.bincount(index, np.arange(7.0), minlength=24)
    )


def test_the_fill_value_has_no_gradient_and_points_outside_stay_finite():
    xi = tg.Variable(np.array([[0.5, 0.5], [5.0, 5.0]]))
    values = tg.Variable(RNG.normal(size=24))
    with tg.GradientTape() as tape:
        out = tg.sum(griddata(POINTS[2], values, xi, fill_value=2.0))
    dv, dx = tape.gradient(out, [values, xi])
    assert np.isfinite(dx.numpy()).all() and (dx.numpy()[1] == 0).all()
    assert np.isclose(dv.numpy().sum(), 1.0)  # the weights of the one point inside sum to 1


def test_cubic_in_two_dimensions_gives_values_and_refuses_a_gradient():
    values = RNG.normal(size=24)
    ours = griddata(POINTS[2], tg.tensor(values), XI[2], method="cubic")
    np.testing.assert_allclose(ours.numpy(), si.griddata(POINTS[2], values, XI[2], "cubic"))
    v = tg.Variable(values)
    with tg.GradientTape(), pytest.raises(NotImplementedError, match="cubic"):
        griddata(POINTS[2], v, XI[2], method="cubic")


def test_errors_name_the_function_and_the_problem():
    values = tg.tensor(RNG.normal(size=24))
    with pytest.raises(ValueError, match="griddata: different number of values"):
        griddata(POINTS[2], values[:5], XI[2])
    with pytest.raises(ValueError, match="griddata: number of dimensions in xi"):
        griddata(POINTS[2], values, np.zeros((3, 3)))
    with pytest.raises(ValueError, match="griddata: Unknown interpolation method"):
        griddata(POINTS[3], tg.tensor(RNG.normal(size=36)), XI[3], method="cubic")
    with pytest.raises(Exception, match="griddata.*points"):
        with tg.GradientTape():
            griddata(tg.Variable(POINTS[2]), values, XI[2])
