"""tapegrad.scipy.interpolate.RegularGridInterpolator: SciPy's values (points inside,
beyond the ends, on trailing value axes), gradients in the values, the points and the
grid against finite differences, SciPy's own results on plain arrays, clear errors."""

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy.interpolate as si  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import interpolate  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

RNG = np.random.default_rng(2)
GRID = (np.array([0.0, 0.4, 1.0]), np.array([0.1, 0.3, 0.6, 0.9]))


def _points(k, low=0.0, high=0.9):
    xi = RNG.uniform(low, high, size=(k, 2))
    xi[:, 1] = RNG.uniform(0.1 + low / 2, high, k)
    return xi


@pytest.mark.parametrize("method", ["linear", "nearest"])
@pytest.mark.parametrize("trailing", [(), (2,)])
def test_values_equal_scipy(method, trailing):
    v = RNG.normal(size=(3, 4, *trailing))
    xi = _points(7)
    expected = si.RegularGridInterpolator(GRID, v, method=method)(xi)
    grid = tuple(map(tg.tensor, GRID))
    ours = interpolate.RegularGridInterpolator(grid, tg.tensor(v), method=method)(tg.tensor(xi))
    np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("method", ["linear", "nearest"])
@pytest.mark.parametrize("fill_value", [np.nan, None, 3.0])
def test_points_outside(method, fill_value):
    v = RNG.normal(size=(3, 4))
    xi = np.vstack([_points(4), [[1.2, 0.5], [-0.1, 0.2], [0.5, 1.3]]])
    kw = {"method": method, "bounds_error": False, "fill_value": fill_value}
    expected = si.RegularGridInterpolator(GRID, v, **kw)(xi)
    ours = interpolate.RegularGridInterpolator(GRID, tg.tensor(v), **kw)(tg.tensor(xi))
    np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-12, atol=1e-14)


def test_gradients_in_values_points_and_grid():
    v, xi = RNG.normal(size=(3, 4)), _points(5)
    f = lambda vv, x, p: interpolate.RegularGridInterpolator((p, GRID[1]), vv)(x)  # noqa: E731
    gradcheck(f, [v, xi, GRID[0]])
    gradgradcheck(f, [v, xi, GRID[0]], atol=1e-5)


def test_plain_arrays_get_scipys_own_results():
    v, xi = RNG.normal(size=(3, 4)), _points(3)
    ours = interpolate.RegularGridInterpolator(GRID, v)(xi)
    assert type(ours) is np.ndarray
    np.testing.assert_array_equal(ours, si.RegularGridInterpolator(GRID, v)(xi))
    assert interpolate.CubicSpline is si.CubicSpline  # not built yet: SciPy's own


def test_clear_errors():
    v = tg.tensor(RNG.normal(size=(3, 4)))
    f = interpolate.RegularGridInterpolator(GRID, v)
    with pytest.raises(ValueError, match="bounds_error"):
        f(np.array([[2.0, 0.5]]))
    with pytest.raises(ValueError, match="dimension"):
        f(np.array([[0.5, 0.5, 0.5]]))
    with pytest.raises(NotImplementedError, match="cubic"):
        f(np.array([[0.5, 0.5]]), method="cubic")
    with pytest.raises(ValueError, match="ascending"):
        interpolate.RegularGridInterpolator((GRID[0][::-1], GRID[1]), v)
    with pytest.raises(ValueError, match="not defined"):
        interpolate.RegularGridInterpolator(GRID, v, method="spline")
