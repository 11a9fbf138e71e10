"""tapegrad.scipy.interpolate's BSpline and make_interp_spline: SciPy's values for every
degree 0..5, bc_type and extrapolate mode (calls, nu, derivative, antiderivative,
integrate), gradients in the coefficients, the points, the data values, the bc_type values
and the integration bounds against finite differences, SciPy's own results on plain
arrays, clear errors for the knots and data sites."""

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy.interpolate as si  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import interpolate  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

RNG = np.random.default_rng(5)
SITES = np.array([0.0, 0.4, 0.9, 1.5, 2.0, 2.6, 3.0])
POINTS = np.array([-0.5, 0.1, 1.0, 2.0, 2.9, 3.5])
CASES = [(k, None) for k in range(6)] + [(3, "natural"), (3, "clamped"), (1, "periodic"),
                                         (3, "periodic"), (5, "periodic")]  # fmt: skip


def _close(ours, expected):
    np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize(("k", "bc"), CASES, ids=str)
def test_make_interp_spline_equals_scipy(k, bc):
    y = RNG.normal(size=(7, 2))
    if bc == "periodic":
        y[-1] = y[0]
    expected = si.make_interp_spline(SITES, y, k=k, bc_type=bc)
    ours = interpolate.make_interp_spline(SITES, tg.tensor(y), k=k, bc_type=bc)
    assert ours.k == expected.k and ours.extrapolate == expected.extrapolate
    np.testing.assert_array_equal(ours.t, expected.t)
    _close(ours.c, expected.c)
    p = tg.tensor(POINTS)
    for nu in range(k + 1):
        _close(ours(p, nu), expected(POINTS, nu))
    for extrapolate in (False, True, "periodic"):
        _close(ours(p, 0, extrapolate), expected(POINTS, 0, extrapolate))
    _close(ours.antiderivative(2)(p), expected.antiderivative(2)(POINTS))
    if k:
        _close(ours.derivative()(p), expected.derivative()(POINTS))
    for a, b in ((0.3, 2.5), (2.5, -0.3), (-1.0, 4.7)):
        for extrapolate in (None, False, True, "periodic"):
            _close(ours.integrate(tg.tensor(a), b, extrapolate),
                   expected.integrate(a, b, extrapolate))  # fmt: skip


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_bspline_axis_and_plain_results(axis):
    t = np.r_[[0.0] * 3, 0.8, 1.6, [3.0] * 3]
    c = RNG.normal(size=(5, 2, 3))
    c = np.moveaxis(c, 0, axis)
    expected = si.BSpline(t, c, 2, axis=axis)
    ours = interpolate.BSpline(t, tg.tensor(c), 2, axis=axis)
    xp = POINTS.reshape(2, 3)
    _close(ours(tg.tensor(xp)), expected(xp))
    _close(ours.integrate(0.2, tg.tensor(2.2)), expected.integrate(0.2, 2.2))
    plain = interpolate.BSpline(t, c, 2, axis=axis)
    assert type(plain(xp)) is np.ndarray
    np.testing.assert_array_equal(plain(xp), expected(xp))
    _close(plain(tg.tensor(xp)), expected(xp))
    assert type(interpolate.make_interp_spline(SITES, SITES**2)(POINTS)) is np.ndarray


@pytest.mark.parametrize("extrapolate", [True, False, "periodic"])
@pytest.mark.parametrize("k", [1, 3, 4])
def test_bspline_gradients_in_c_and_points(k, extrapolate):
    t = np.r_[[0.0] * k, np.linspace(0.0, 3.0, 5), [3.0] * k]
    c = RNG.normal(size=(len(t) - k - 1, 2))
    xp = np.array([0.2, 1.1, 1.9, 2.6]) if extrapolate is False else POINTS[[0, 2, 3, 5]] + 0.05

    def f(cc, x):
        return interpolate.BSpline(t, cc, k, extrapolate=extrapolate)(x)

    gradcheck(f, [c, xp])
    gradgradcheck(f, [c, xp], atol=1e-5)
    gradcheck(lambda cc, x: interpolate.BSpline(t, cc, k)(x, 1), [c, xp])
    gradcheck(lambda cc, x: interpolate.BSpline(t, cc, k).derivative()(x), [c, xp])
    gradcheck(lambda cc, x: interpolate.BSpline(t, cc, k).antiderivative(2)(x), [c, xp])

    def integral(cc, a, b):
        return interpolate.BSpline(t, cc, k, extrapolate=extrapolate).integrate(a, b)

    gradcheck(integral, [c, np.array(0.35), np.array(3.6)])
    gradgradcheck(integral, [c, np.array(0.35), np.array(2.1)], atol=1e-5)


@pytest.mark.parametrize("bc", [None, "natural", "periodic", ([(1, 0.5)], [(2, -1.0)])], ids=str)
def test_make_interp_spline_gradients(bc):
    y = RNG.normal(size=(7, 2))
    if bc == "periodic":
        y[-1] = y[0]
    xp = np.array([0.3, 1.1, 2.2])

    def f(v, x):
        if bc == "periodic":  # keep y[-1] == y[0] under the perturbation
            v = tg.concatenate([v[:-1], v[:1]]) if isinstance(v, tg.Tensor) else v
        return interpolate.make_interp_spline(SITES, v, k=3, bc_type=bc)(x)

    gradcheck(f, [y, xp])
    gradgradcheck(f, [y, xp], atol=1e-5)


def test_bc_type_values_are_differentiable():
    y = RNG.normal(size=(7, 2))

    def f(left, right):
        s = interpolate.make_interp_spline(SITES, y, bc_type=([(1, left)], [(2, right)]))
        return s(np.array([0.3, 2.0]))

    left, right = np.array([0.5, -1.0]), np.array([2.0, 0.1])
    gradcheck(f, [left, right])
    expected = si.make_interp_spline(SITES, y, bc_type=([(1, left)], [(2, right)]))
    _close(f(tg.tensor(left), tg.tensor(right)), expected(np.array([0.3, 2.0])))


def test_clear_errors():
    y = tg.tensor(SITES**2)
    with pytest.raises(LookupError, match="data sites `x`"):
        tg.grad(lambda x: interpolate.make_interp_spline(x, y)(1.0))(tg.tensor(SITES))
    t = np.r_[[0.0] * 3, 1.5, [3.0] * 3]
    with pytest.raises(LookupError, match="knots `t`"):
        tg.grad(lambda tt: interpolate.BSpline(tt, tg.tensor(np.ones(4)), 2)(1.0))(tg.tensor(t))
    with pytest.raises(ValueError, match="periodic"):
        interpolate.make_interp_spline(SITES, y, bc_type="periodic")
    with pytest.raises(ValueError, match="negative"):
        interpolate.BSpline(t, tg.tensor(np.ones(4)), 2)(tg.tensor([1.0]), -1)


def test_plain_spline_methods_give_scipys_splines():
    expected = si.make_interp_spline(SITES, SITES**2)
    ours = interpolate.make_interp_spline(SITES, SITES**2)
    for method, arg in (("derivative", 1), ("antiderivative", 2)):
        got, want = getattr(ours, method)(arg), getattr(expected, method)(arg)
        assert type(got.c) is np.ndarray
        np.testing.assert_array_equal(got.c, want.c)
        _close(got(tg.tensor(POINTS)), want(POINTS))
    assert ours.integrate(0.1, 2.9) == expected.integrate(0.1, 2.9)
