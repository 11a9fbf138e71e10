"""scipy.stats.nct (tapegrad/scipy/stats/_nct.py): SciPy's values; gradients in x, loc, scale
and nc against central finite differences, to second order, at several degrees of freedom
and noncentralities of both signs; df refused with LookupError (mean and var excepted)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.stats", reason="the scipy extra is not installed")

import scipy.stats as ss  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy.stats import nct  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

POINTS = np.array([-3.1, -1.2, -0.4, 0.0, 0.6, 1.7, 3.4])
PARAMETERS = [(1.5, -2.3), (3.0, -0.8), (4.5, 0.0), (7.0, 1.1), (12.0, 2.6)]
POINT_METHODS = ("logpdf", "pdf", "cdf", "sf", "logcdf", "logsf")


@pytest.mark.parametrize("df, nc", PARAMETERS)
@pytest.mark.parametrize("method", POINT_METHODS)
def test_values_are_scipys(method, df, nc):
    got = getattr(nct, method)(tg.tensor(POINTS), df, nc, loc=0.2, scale=1.4).numpy()
    want = getattr(ss.nct, method)(POINTS, df, nc, loc=0.2, scale=1.4)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("df, nc", PARAMETERS)
@pytest.mark.parametrize("method", POINT_METHODS)
def test_gradients_in_x_loc_scale_and_nc(method, df, nc):
    if method == "logsf" and nc > 2.0:
        points = POINTS[POINTS < 2.0]  # SciPy's sf loses its digits far in the right tail
    else:
        points = POINTS

    def f(x, loc, scale, c):
        return getattr(nct, method)(x, df, c, loc=loc, scale=scale)

    inputs = [points, np.array(0.2), np.array(1.4), np.array(nc)]
    gradcheck(f, inputs, atol=1e-6)
    gradgradcheck(f, inputs, atol=1e-5)


@pytest.mark.parametrize("df, nc", PARAMETERS)
@pytest.mark.parametrize("method", ["ppf", "isf"])
def test_quantiles_differentiate_implicitly(method, df, nc):
    q = np.array([0.05, 0.3, 0.5, 0.8, 0.97])
    np.testing.assert_array_equal(
        getattr(nct, method)(tg.tensor(q), df, nc).numpy(), getattr(ss.nct, method)(q, df, nc)
    )

    def f(q, loc, scale, c):
        return getattr(nct, method)(q, df, c, loc=loc, scale=scale)

    gradcheck(f, [q, np.array(-0.3), np.array(0.7), np.array(nc)], atol=1e-6)


@pytest.mark.parametrize("method", ["mean", "var", "std"])
def test_statistics_in_both_shapes(method):
    df, nc = np.array([2.5, 3.5, 6.0, 20.0]), np.array([-1.5, 0.3, 0.0, 2.2])
    got = getattr(nct, method)(tg.tensor(df), tg.tensor(nc)).numpy()
    np.testing.assert_allclose(got, getattr(ss.nct, method)(df, nc), rtol=1e-12)

    def f(d, c):
        return getattr(nct, method)(d, c)

    gradcheck(f, [df, nc])
    gradgradcheck(f, [df, nc], atol=1e-5)


def test_statistics_are_nan_where_scipy_has_none():
    np.testing.assert_equal(nct.mean(tg.tensor(1.0), 0.5).numpy(), ss.nct.mean(1.0, 0.5))
    np.testing.assert_equal(nct.var(tg.tensor(2.0), 0.5).numpy(), ss.nct.var(2.0, 0.5))


@pytest.mark.parametrize("method", [*POINT_METHODS, "ppf", "isf"])
def test_df_is_refused_by_name(method):
    df = tg.tensor(4.0)
    with pytest.raises(LookupError, match="df"):
        tg.grad(lambda d: getattr(nct, method)(0.3, d, 0.5))(df)


def test_the_cdf_gradient_in_nc_is_nan_not_zero_for_df_at_most_one():
    nc = tg.tensor(0.4)
    slope = tg.grad(lambda c: nct.cdf(0.3, 0.8, c))(nc).item()
    assert np.isnan(slope)
    # above one it is the closed form: the finite difference
    h = 1e-6
    fd = (ss.nct.cdf(0.3, 1.2, 0.4 + h) - ss.nct.cdf(0.3, 1.2, 0.4 - h)) / (2 * h)
    np.testing.assert_allclose(tg.grad(lambda c: nct.cdf(0.3, 1.2, c))(nc).item(), fd, rtol=1e-7)


def test_plain_arrays_are_scipys_and_frozen_records():
    assert nct.pdf(POINTS, 3.0, 1.0).tolist() == ss.nct.pdf(POINTS, 3.0, 1.0).tolist()
    x = tg.tensor(0.5)
    frozen = nct(3.0, -1.0, loc=0.1)
    np.testing.assert_allclose(
        tg.grad(frozen.logpdf)(x).item(),
        (ss.nct.logpdf(0.5 + 1e-6, 3.0, -1.0, 0.1) - ss.nct.logpdf(0.5 - 1e-6, 3.0, -1.0, 0.1))
        / 2e-6,
        rtol=1e-7,
    )
