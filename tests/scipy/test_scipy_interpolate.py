"""tapegrad.scipy.interpolate: RegularGridInterpolator and the 1-d splines (CubicSpline,
Pchip, Akima, interp1d): SciPy's values (points inside, beyond the ends, on trailing value
axes), gradients in the values, the points, the knots and the grid against finite
differences, SciPy's own results on plain arrays, clear errors."""

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
    assert interpolate.NearestNDInterpolator is si.NearestNDInterpolator  # not built: SciPy's own


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


BCS = ["not-a-knot", "clamped", "natural", "periodic", ((1, [0.3, -1.0]), (2, [1.0, 2.0]))]


@pytest.mark.parametrize("n", [2, 3, 4, 6])
@pytest.mark.parametrize("bc", BCS, ids=str)
def test_cubic_spline_equals_scipy(n, bc):
    x = np.sort(RNG.uniform(0.0, 3.0, n))
    y = RNG.normal(size=(n, 2))
    if bc == "periodic":
        y[-1] = y[0]
    xp = np.array([-0.5, 0.1, 1.0, 2.0, 3.5, 7.0])
    expected = si.CubicSpline(x, y, bc_type=bc)
    ours = interpolate.CubicSpline(tg.tensor(x), tg.tensor(y), bc_type=bc)
    close = lambda a, b: np.testing.assert_allclose(a.numpy(), b, rtol=1e-10, atol=1e-12)  # noqa: E731
    close(ours(tg.tensor(xp)), expected(xp))
    close(ours(tg.tensor(xp), 1), expected(xp, 1))
    close(ours(tg.tensor(xp), 2, extrapolate=False), expected(xp, 2, extrapolate=False))
    close(ours.antiderivative(2)(tg.tensor(xp)), expected.antiderivative(2)(xp))
    close(ours.derivative(3)(tg.tensor(xp)), expected.derivative(3)(xp))
    close(ours.integrate(tg.tensor(3.3), -0.4), expected.integrate(3.3, -0.4))
    close(ours.integrate(0.2, tg.tensor(8.1)), expected.integrate(0.2, 8.1))
    close(ours.c, expected.c)


@pytest.mark.parametrize("bc", BCS[:3] + [((1, 0.3), (2, 1.0))], ids=str)
def test_cubic_spline_gradients(bc):
    knots = np.array([0.0, 0.7, 1.5, 2.2, 3.0])
    xp = np.array([0.2, 1.1, 1.9, 2.7, 3.4])

    def f(y, x, p):
        return interpolate.CubicSpline(x, y, bc_type=bc)(p)

    args = [RNG.normal(size=5), knots, xp]
    gradcheck(f, args)
    gradgradcheck(f, args, atol=1e-5)
    integral = lambda y, x, a: interpolate.CubicSpline(x, y, bc_type=bc).integrate(a, 2.5)  # noqa: E731
    gradcheck(integral, [args[0], knots, np.array(0.4)])


def test_boundary_values_are_differentiable():
    knots, y = np.array([0.0, 0.7, 1.5, 2.2]), RNG.normal(size=4)

    def f(a, b):
        return interpolate.CubicSpline(knots, y, bc_type=((1, a), (2, b)))(np.array([0.3, 2.0]))

    gradcheck(f, [np.array(0.5), np.array(-1.0)])


@pytest.mark.parametrize("cls", ["PchipInterpolator", "Akima1DInterpolator"])
def test_pchip_akima_gradients(cls):
    knots = np.array([0.0, 0.7, 1.5, 2.2, 3.0])
    y = np.array([0.1, 0.5, 0.6, 1.4, 1.5])  # increasing, slopes distinct

    def f(v, x, p):
        return getattr(interpolate, cls)(x, v)(p)

    gradcheck(f, [y, knots, np.array([0.2, 1.1, 1.9, 2.7])])


@pytest.mark.parametrize(
    "kind", ["linear", "nearest", "zero", "quadratic", "cubic", "previous", "next"]
)
def test_interp1d_gradients(kind):
    x = np.array([0.0, 0.7, 1.5, 2.2, 3.0])

    def f(v, p):
        return interpolate.interp1d(x, v, kind=kind, fill_value="extrapolate")(p)

    gradcheck(f, [RNG.normal(size=(2, 5)), np.array([-0.3, 0.2, 1.0, 1.95, 3.4])])


def test_spline_errors():
    with pytest.raises(ValueError, match="strictly increasing"):
        interpolate.CubicSpline(tg.tensor([0.0, 2.0, 1.0]), tg.tensor([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="periodic"):
        interpolate.CubicSpline([0.0, 1.0, 2.0], tg.tensor([1.0, 2.0, 3.0]), bc_type="periodic")
    with pytest.raises(LookupError, match="data sites `x`"):  # quadratic: not in x
        tg.grad(
            lambda x: interpolate.interp1d(x, tg.tensor([1.0, 2.0, 5.0]), kind="quadratic")(0.5)
        )(tg.tensor([0.0, 1.0, 2.0]))
    with pytest.raises(NotImplementedError, match="kind=5"):
        interpolate.interp1d([0.0, 1.0, 2.0], tg.tensor([1.0, 2.0, 3.0]), kind=5)
    with pytest.raises(NotImplementedError, match="roots"):
        interpolate.CubicSpline([0.0, 1.0, 2.0], tg.tensor([1.0, 2.0, 3.0])).roots()
