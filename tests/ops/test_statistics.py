"""Gradient checks of tapegrad/ops/statistics.py and quantiles.py."""

import numpy as np
import pytest
from helpers import assert_matches, axes, separated, value_and_gradients
from hypothesis import given, settings

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

NAN = np.nan
WITH_NAN = np.array([[1.0, NAN, 2.5, -1.0], [NAN, NAN, NAN, NAN], [0.5, 3.0, NAN, 2.0]])
NAN_REDUCTIONS = {
    "nansum": (tg.nansum, np.nansum),
    "nanprod": (tg.nanprod, np.nanprod),
    "nanmean": (tg.nanmean, np.nanmean),
    "nanvar": (tg.nanvar, np.nanvar),
    "nanstd": (tg.nanstd, np.nanstd),
    "nanmax": (tg.nanmax, np.nanmax),
    "nanmin": (tg.nanmin, np.nanmin),
    "nanmedian": (tg.nanmedian, np.nanmedian),
}


@pytest.mark.parametrize("name", sorted(NAN_REDUCTIONS))
@pytest.mark.parametrize("axis", [0, 1, None])
def test_nan_reductions_skip_nan(name, axis, backend):
    ours, numpys = NAN_REDUCTIONS[name]
    values = WITH_NAN if axis != 1 else WITH_NAN[[0, 2]]  # NumPy warns on all-NaN rows
    x = backend.tensor(values)
    with np.errstate(all="ignore"):
        expected = numpys(values, axis=axis)
    assert_matches(ours(x, axis=axis), expected, rtol=1e-12)
    _, (g,) = value_and_gradients(lambda a: tg.nansum(ours(a, axis=axis)), x)
    assert np.all(g.numpy()[np.isnan(values)] == 0.0)  # NaN entries get no gradient
    if name != "nanstd":  # std's gradient is 0/0 where it is 0 (one value in a slice)
        assert np.all(np.isfinite(g.numpy()))


@pytest.mark.parametrize("name", sorted(NAN_REDUCTIONS))
@settings(max_examples=5)
@given(data=tst.st.data())
def test_nan_reductions_gradients(name, backend, data):
    ours, _ = NAN_REDUCTIONS[name]
    (values,) = data.draw(separated((3, 4)))
    values = np.where(values == 0, 3.05, values)  # prod's second derivative needs no zeros
    values = values + np.where(np.eye(3, 4) > 0, np.nan, 0.0)  # a NaN in each row
    x = backend.tensor(values)
    gradcheck(lambda a: ours(a, axis=1), [x])
    gradgradcheck(lambda a: ours(a, axis=1), [x])


@given(data=tst.st.data())
def test_ptp_and_average(backend, data):
    shape = data.draw(tst.shapes(min_dims=1, max_side=3), label="shape")
    values, weights = data.draw(separated(shape, shape))
    weights = np.abs(weights) + 0.5
    x, w = backend.tensor(values), backend.tensor(weights)
    axis = data.draw(axes(x.ndim, single=True))
    assert_matches(tg.ptp(x, axis=axis), np.ptp(values, axis=axis))
    assert_matches(tg.average(x, axis, w), np.average(values, axis, weights), rtol=1e-12)
    for got, want in zip(
        tg.average(x, axis, w, returned=True), np.average(values, axis, weights, returned=True)
    ):
        assert_matches(got, want, rtol=1e-12)
    gradcheck(lambda a: tg.ptp(a, axis=axis), [x])
    gradcheck(lambda a, b: tg.average(a, axis, b), [x, w])
    gradgradcheck(lambda a, b: tg.average(a, axis, b), [x, w])


METHODS = [
    "linear", "lower", "higher", "nearest", "midpoint", "hazen", "weibull", "median_unbiased",
    "inverted_cdf", "averaged_inverted_cdf", "closest_observation",
]  # fmt: skip


@pytest.mark.parametrize("method", METHODS)
@settings(max_examples=5)
@given(data=tst.st.data())
def test_quantile(method, backend, data):
    (values,) = data.draw(separated((3, 5)))
    x = backend.tensor(values)
    q = data.draw(tst.st.sampled_from([0.3, [0.1, 0.5, 0.95]]), label="q")
    axis = data.draw(tst.st.sampled_from([None, 0, 1, (0, 1)]), label="axis")
    expected = np.quantile(values, q, axis=axis, method=method)
    assert_matches(tg.quantile(x, q, axis=axis, method=method), expected, rtol=1e-12)
    assert_matches(
        tg.percentile(x, np.multiply(q, 100), axis=axis, method=method),
        np.percentile(values, np.multiply(q, 100), axis=axis, method=method),
        rtol=1e-12,
    )
    gradcheck(lambda a: tg.quantile(a, q, axis=axis, method=method), [x])
    gradgradcheck(lambda a: tg.quantile(a, q, axis=axis, method=method) ** 2, [x])


@given(data=tst.st.data())
def test_median_and_q_gradient(backend, data):
    shape = data.draw(tst.shapes(min_dims=1, max_side=4), label="shape")
    (values,) = data.draw(separated(shape))
    x = backend.tensor(values)
    axis = data.draw(axes(x.ndim))
    assert_matches(tg.median(x, axis=axis), np.median(values, axis=axis))
    gradcheck(lambda a: tg.median(a, axis=axis), [x])
    gradgradcheck(lambda a: tg.median(a, axis=axis) ** 2, [x])
    # the continuous methods are differentiable in q too
    q = backend.tensor(np.array([0.33, 0.71]))
    gradcheck(lambda a, b: tg.quantile(a, b, axis=axis), [x, q])


def test_quantile_of_a_slice_with_nan_is_nan(backend):
    x = backend.tensor(WITH_NAN[[0, 2]])
    assert_matches(tg.quantile(x, 0.5, axis=1), np.quantile(WITH_NAN[[0, 2]], 0.5, axis=1))
    assert_matches(tg.nanquantile(x, 0.5, axis=1), np.nanquantile(WITH_NAN[[0, 2]], 0.5, axis=1))
    assert_matches(tg.median(x), np.median(WITH_NAN[[0, 2]]))


@settings(max_examples=5)
@given(data=tst.st.data())
def test_cov_and_corrcoef(backend, data):
    (values,) = data.draw(separated((3, 5)))
    x = backend.tensor(values)
    weights = np.array([1, 2, 1, 3, 1])
    aweights = np.array([0.5, 1.0, 2.0, 1.0, 0.25])
    for kwargs in ({}, {"bias": True}, {"rowvar": False}, {"fweights": weights},
                   {"aweights": aweights, "ddof": 2}):  # fmt: skip
        assert_matches(tg.cov(x, **kwargs), np.cov(values, **kwargs), rtol=1e-10, atol=1e-12)
    assert_matches(tg.corrcoef(x), np.corrcoef(values), rtol=1e-10)
    assert_matches(tg.corrcoef(x[0], x[1]), np.corrcoef(values[0], values[1]), rtol=1e-10)
    gradcheck(tg.cov, [x])
    gradcheck(lambda a: tg.cov(a, aweights=aweights), [x])
    gradgradcheck(tg.cov, [x])
    gradcheck(lambda a: tg.corrcoef(a)[0, 1:], [x])
