"""tapegrad.scipy.stats's declared distributions (tapegrad/scipy/stats/_family.py): every
differentiable method of every distribution has sample rows (tapegrad/testing/
scipy_samples/stats_distributions.py) for each shape parameter and, for continuous ones, loc
and scale; frozen distributions record; plain calls stay SciPy's."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.stats", reason="the scipy extra is not installed")

import scipy.stats as ss  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import stats  # noqa: E402
from tapegrad.scipy.stats._family import STATISTICS  # noqa: E402
from tapegrad.testing import gradcheck  # noqa: E402
from tapegrad.testing.scipy_samples import REFUSALS, SAMPLES  # noqa: E402

DECLARED = sorted(stats._DECLARED)
DECLARED_ORDER = {spec.name: i for i, spec in enumerate(stats._SPECS)}


def _parameters(name: str) -> list[str]:
    theirs = getattr(ss, name)
    shapes = [s.strip() for s in (theirs.shapes or "").split(",") if s.strip()]
    continuous = isinstance(theirs, ss.rv_continuous)
    return shapes + (["loc", "scale"] if continuous else [])


@pytest.mark.parametrize("name", DECLARED)
def test_every_method_has_rows_for_every_parameter(name):
    counts = set(getattr(stats._SPECS[DECLARED_ORDER[name]], "counts", ()))
    missing = []
    for method in getattr(stats, name).differentiable:
        said: set[str] = set()
        for row in [*SAMPLES, *REFUSALS]:
            if row.name == f"stats.{name}.{method}":
                said |= set(row.option.replace(",", " ").split())
        wanted = [p for p in _parameters(name) if p not in counts]
        if not isinstance(getattr(ss, name), ss.rv_continuous) and method in STATISTICS:
            wanted = [p for p in wanted if p != "loc"]
        missing += [f"{method}: {p}" for p in wanted if p not in said]
    assert missing == []


@pytest.mark.parametrize("name", DECLARED)
def test_plain_calls_are_scipys_and_frozen_distributions_record(name):
    ours, theirs = getattr(stats, name), getattr(ss, name)
    shapes = {"lognorm": (0.8,), "pareto": (2.5,), "gennorm": (2.2,), "truncnorm": (-1.5, 1.6),
              "vonmises": (1.3,), "wrapcauchy": (0.4,), "invgamma": (3.0,), "weibull_min": (1.8,),
              "weibull_max": (1.8,), "chi": (2.5,), "geom": (0.3,), "nbinom": (2.5, 0.4),
              "betabinom": (6, 1.5, 2.5), "t": (4.0,), "gamma": (2.0,), "chi2": (3.0,),
              "beta": (2.0, 3.0), "poisson": (3.0,), "binom": (5, 0.3),
              "bernoulli": (0.3,), "rice": (1.2,), "skewnorm": (1.7,), "loggamma": (2.3,),
              "gompertz": (0.8,), "genextreme": (0.3,),
              "nct": (4.5, -0.7)}.get(name, ())  # fmt: skip
    assert ours.rvs(*shapes, size=3, random_state=0).tolist() == (
        theirs.rvs(*shapes, size=3, random_state=0).tolist()
    )
    np.testing.assert_equal(ours.mean(*shapes), theirs.mean(*shapes))
    frozen = ours(*shapes)
    point = float(theirs.median(*shapes))
    method = "logpmf" if "logpmf" in ours.differentiable else "logpdf"
    got = getattr(frozen, method)(tg.tensor(point))
    assert isinstance(got, tg.Tensor)
    np.testing.assert_allclose(got.item(), getattr(theirs(*shapes), method)(point), rtol=1e-12)


def test_a_frozen_distribution_differentiates_its_statistics_and_quantiles():
    gradcheck(lambda c, s: stats.weibull_min(c, scale=s).mean(), [1.7, 2.0])
    gradcheck(lambda c, q: stats.wrapcauchy(c).ppf(q), [0.4, np.array([0.2, 0.7])])
    gradcheck(lambda a, q: stats.invgamma(a).isf(q), [2.5, np.array([0.2, 0.7])])


def test_invalid_parameters_and_points_outside_the_support_match_scipy():
    cases = [
        ("expon", (-1.0,)),
        ("pareto", (0.5, 2.0)),
        ("wrapcauchy", (1.0, 1.5)),
        ("truncnorm", (0.0, 1.0, -1.0)),
        ("lognorm", (-1.0, 0.5)),
        ("weibull_max", (1.0, 2.0)),
    ]
    for name, args in cases:
        for method in ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"):
            ours = getattr(getattr(stats, name), method)(*map(tg.tensor, args))
            theirs = getattr(getattr(ss, name), method)(*args)
            np.testing.assert_allclose(ours.numpy(), theirs, err_msg=f"{name}.{method}{args}")
    scale = tg.tensor(-1.0)
    assert np.isnan(stats.expon.logpdf(1.0, scale=scale).item())
    assert np.isnan(stats.expon.ppf(tg.tensor(1.5)).item())


def test_arguments_are_parsed_as_scipy_parses_them():
    a = tg.tensor(2.5)
    assert stats.invgamma.logpdf(1.0, a=a).item() == pytest.approx(ss.invgamma.logpdf(1.0, 2.5))
    with pytest.raises(TypeError, match="unexpected keyword argument 'shape'"):
        stats.invgamma.logpdf(tg.tensor(1.0), shape=2.0)
    with pytest.raises(TypeError, match="missing"):
        stats.invgamma.logpdf(tg.tensor(1.0))


def test_gaussian_kde_resamples_as_scipy_and_refuses_what_it_cannot_differentiate():
    data = np.array([[0.1, 0.5, 0.9, 1.4, 0.7], [0.3, 0.2, 0.8, 0.4, 1.1]])
    ours = stats.gaussian_kde(tg.tensor(data), "silverman")
    theirs = ss.gaussian_kde(data, "silverman")
    np.testing.assert_allclose(ours.resample(4, seed=3), theirs.resample(4, seed=3))
    np.testing.assert_allclose(ours.covariance.numpy(), theirs.covariance, rtol=1e-12)
    np.testing.assert_allclose(float(ours.neff.numpy()), theirs.neff)
    with pytest.raises(NotImplementedError, match="integrate_box"):
        ours.integrate_box([0.0, 0.0], [1.0, 1.0])
    with pytest.raises(ValueError, match="bw_method"):
        stats.gaussian_kde(tg.tensor(data), "nope")
    with pytest.raises(ValueError, match="dimension"):
        ours.evaluate(tg.tensor(np.ones((3, 2))))
