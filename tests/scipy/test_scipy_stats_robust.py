"""tapegrad.scipy.stats's trimmed and robust statistics (tapegrad/scipy/stats/_trimmed.py,
_robust.py) beyond the option table: random shapes and axes against SciPy and finite
differences, NaNs under each nan_policy, and the errors."""

import warnings

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy.stats  # noqa: E402

import tapegrad as tg  # noqa: E402
import tapegrad.scipy.stats as tstats  # noqa: E402
from tapegrad.testing import gradcheck  # noqa: E402

# name -> a call(module, array, axis) with options that leave values out of most slices; the
# limits have a fourth decimal, the values three, so no value sits on a limit (a jump)
CALLS = {
    "tmean": lambda m, a, axis: m.tmean(a, (-0.5005, 0.5005), axis=axis),
    "tvar": lambda m, a, axis: m.tvar(a, (-0.8005, None), axis=axis, ddof=0),
    "tstd": lambda m, a, axis: m.tstd(a, (None, 0.8005), (True, False), axis=axis, ddof=0),
    "tsem": lambda m, a, axis: m.tsem(a, (-0.8005, 0.8005), axis=axis, ddof=0),
    "tmin": lambda m, a, axis: m.tmin(a, -0.5005, axis=axis),
    "tmax": lambda m, a, axis: m.tmax(a, 0.5005, axis=axis, inclusive=False),
    "trim_mean": lambda m, a, axis: m.trim_mean(a, 0.2, axis=axis),
    "trimboth": lambda m, a, axis: m.trimboth(a, 0.2, axis=axis),
    "trim1": lambda m, a, axis: m.trim1(a, 0.3, tail="left", axis=axis),
    "iqr": lambda m, a, axis: m.iqr(a, axis=axis, rng=(20, 70)),
    "median_abs_deviation": lambda m, a, axis: m.median_abs_deviation(a, axis=axis),
    "gstd": lambda m, a, axis: m.gstd(
        np.exp(a) if isinstance(a, np.ndarray) else tg.exp(a), axis=axis
    ),
}


@st.composite
def samples(draw):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=5))
    # distinct values, so no trimmed slice or median sits on a tie (a kink)
    values = draw(
        hnp.arrays(
            np.float64, shape, unique=True,
            elements=st.floats(-1, 1, allow_nan=False).map(lambda v: round(v, 3)),
        )
    )  # fmt: skip
    axis = draw(st.sampled_from([None, *range(-len(shape), len(shape))]))
    return values, axis


@pytest.mark.parametrize("name", sorted(CALLS))
@given(sample=samples())
def test_values_are_scipys_and_gradients_finite_differences(name, sample):
    a, axis = sample
    call = CALLS[name]
    if name == "median_abs_deviation":  # no tie among the deviations (a kink)
        deviations = np.abs(a - np.median(a, axis=axis, keepdims=axis is not None))
        assume(np.unique(deviations).size == deviations.size)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # SciPy's small-sample and empty-slice warnings
        try:
            expected = np.asarray(call(scipy.stats, a, axis))
        except ValueError as exc:  # no value within the limits: the same error
            with pytest.raises(ValueError, match=name):
                call(tstats, tg.tensor(a), axis)
            assert "limits" in str(exc) or "Proportion" in str(exc)
            return
        ours = call(tstats, tg.tensor(a), axis)
        np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-10, atol=1e-12)
        assert ours.shape == expected.shape
        if np.isfinite(expected).all() and expected.size:
            gradcheck(lambda t: call(tstats, t, axis), [a])


@pytest.mark.parametrize("name", sorted(set(CALLS) - {"trimboth", "trim1"}))
@pytest.mark.parametrize("policy", ["propagate", "omit"])
def test_nans_follow_the_nan_policy(name, policy):
    a = np.array([[0.1, -0.3, 0.7, 0.2, -0.6], [0.4, np.nan, -0.2, 0.9, 0.05]]).T
    call = CALLS[name]
    if name == "trim_mean" and policy == "omit":
        with pytest.raises(NotImplementedError, match="nan_policy"):
            tstats.trim_mean(tg.tensor(a), 0.2, nan_policy="omit")
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = np.asarray(call(_with_policy(scipy.stats, policy), a, 0))
        ours = call(_with_policy(tstats, policy), tg.tensor(a), 0)
    np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-10)
    assert np.isnan(expected[1]) == (policy == "propagate")


class _with_policy:
    """``module`` whose functions get ``nan_policy=policy``."""

    def __init__(self, module, policy):
        self.module, self.policy = module, policy

    def __getattr__(self, name):
        f = getattr(self.module, name)
        return lambda *args, **kwargs: f(*args, nan_policy=self.policy, **kwargs)


def test_nan_policy_raise_names_the_function():
    with pytest.raises(ValueError, match="tmean: the input contains nan"):
        tstats.tmean(tg.tensor([1.0, np.nan]), nan_policy="raise")


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda a: tstats.tmean(a, (5.0, 6.0)), ValueError, "tmean: no array values within"),
        (lambda a: tstats.tvar(a, (None, -1.0)), ValueError, "tvar: no array values within"),
        (lambda a: tstats.tmin(a, 9.0), ValueError, "tmin: no array values within"),
        (lambda a: tstats.trimboth(a, 0.5), ValueError, "trimboth: proportiontocut=0.5"),
        (lambda a: tstats.trim_mean(a, 0.8), ValueError, "trim_mean: proportiontocut=0.8"),
        (lambda a: tstats.trim1(a, 0.2, tail="middle"), ValueError, "trim1: tail must be"),
        (lambda a: tstats.iqr(a, scale="cauchy"), ValueError, "iqr: scale must be"),
        (lambda a: tstats.iqr(a, rng=(1, 2, 3)), TypeError, "iqr: rng must be a two"),
        (lambda a: tstats.iqr(a, rng=(10, 120)), ValueError, r"iqr: the elements of rng"),
        (lambda a: tstats.median_abs_deviation(a, center=1.0), TypeError, "center must be"),
        (lambda a: tstats.median_abs_deviation(a, scale="x"), ValueError, "scale must be"),
        (lambda a: tstats.tmean(a, nan_policy="drop"), ValueError, "tmean: nan_policy must"),
    ],
)
def test_bad_input_is_a_clear_error(call, error, message):
    with pytest.raises(error, match=message):
        call(tg.tensor([1.0, 2.0, 3.0, 4.0]))


def test_gstd_of_a_non_positive_value_warns_as_scipy_does():
    with pytest.warns(RuntimeWarning, match="gstd: the geometric standard deviation"):
        assert np.isnan(tstats.gstd(tg.tensor([1.0, -2.0, 3.0])).item())


def test_trim1_cutting_everything_is_scipys_empty_list():
    assert tstats.trim1(tg.tensor([1.0, 2.0]), 1.0) == scipy.stats.trim1(np.array([1.0, 2.0]), 1.0)


def test_a_slice_with_nothing_in_the_limits_is_nan():
    a = np.array([[0.1, 0.9], [0.2, 0.8]])  # column 1 is above the limit 0.5
    expected = scipy.stats.tmax(a, 0.5)
    np.testing.assert_array_equal(tstats.tmax(tg.tensor(a), 0.5).numpy(), expected)


@pytest.mark.parametrize("name", sorted(set(CALLS) - {"trimboth", "trim1"}))
def test_a_0d_input_is_one_value_as_in_scipy(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = np.asarray(CALLS[name](scipy.stats, np.float64(0.25), None))
        ours = CALLS[name](tstats, tg.tensor(0.25), None)
    np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-12)
    assert ours.shape == expected.shape
