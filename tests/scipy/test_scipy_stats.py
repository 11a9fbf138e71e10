"""tapegrad/scipy/stats: values against scipy.stats, gradients in every continuous parameter
against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.stats", reason="the scipy extra is not installed")

import scipy.stats as ss  # noqa: E402
from helpers import value_and_gradients  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402
from scipy_checks import inputs, require_scipy_kernel  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import stats  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402

# distribution -> the domains of (x, shape parameters..., loc, scale)
CONTINUOUS = {
    "norm": ["real", "real", "positive"],
    "t": ["real", "shape", "real", "positive"],
    "gamma": ["positive", "shape", "small", "positive"],
    "chi2": ["positive", "shape", "small", "positive"],
    "beta": ["prob", "shape", "shape", "small", "near_one"],
}
METHODS = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf"]
PORTABLE = {("norm", "logpdf"), ("norm", "pdf")}  # composed of ops alone: every backend


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("name", sorted(CONTINUOUS))
@settings(max_examples=10)
@given(data=st.data())
def test_continuous(name, method, backend, data):
    if (name, method) not in PORTABLE:
        require_scipy_kernel(backend, f"{name}.{method}")
    arrays = data.draw(inputs(CONTINUOUS[name], max_dims=1), label="arguments")
    ours = getattr(getattr(stats, name), method)
    theirs = getattr(getattr(ss, name), method)
    tensors = [backend.tensor(a) for a in arrays]
    np.testing.assert_allclose(ours(*tensors).numpy(), theirs(*arrays), rtol=1e-9, atol=1e-13)
    gradcheck(ours, tensors)


@pytest.mark.parametrize("name", sorted(CONTINUOUS))
@settings(max_examples=5)
@given(data=st.data())
def test_log_density_second_derivative(name, data):
    arrays = data.draw(inputs(CONTINUOUS[name], max_dims=1, max_side=2), label="arguments")
    gradgradcheck(getattr(stats, name).logpdf, arrays)


def test_defaults_and_quantiles_of_norm():
    x = np.array([-1.5, 0.0, 2.0])
    for method in METHODS:
        np.testing.assert_allclose(
            getattr(stats.norm, method)(tg.tensor(x)).numpy(), getattr(ss.norm, method)(x)
        )
    q = np.array([0.01, 0.5, 0.9])
    for method in ("ppf", "isf"):
        ours = getattr(stats.norm, method)
        np.testing.assert_allclose(
            ours(tg.tensor(q), 1.0, 2.0).numpy(), getattr(ss.norm, method)(q, 1.0, 2.0)
        )
        gradcheck(ours, [q, 1.0, 2.0])


def test_norm_tails_stay_finite():
    x = tg.tensor([-40.0, -1e3, 40.0])
    y, (dx,) = value_and_gradients(stats.norm.logcdf, x)
    np.testing.assert_allclose(y.numpy(), ss.norm.logcdf(x.numpy()), rtol=1e-14)
    assert np.all(np.isfinite(y.numpy())) and np.all(np.isfinite(dx.numpy()))
    assert dx.numpy()[0] == pytest.approx(40.02498, rel=1e-6)
    y, (dx,) = value_and_gradients(stats.norm.logsf, x)
    np.testing.assert_allclose(y.numpy(), ss.norm.logsf(x.numpy()), rtol=1e-14)
    assert dx.numpy()[2] == pytest.approx(-40.02498, rel=1e-6)


def test_invalid_parameters_and_points_outside_the_support_match_scipy():
    cases = [
        ("norm", (1.0, 0.0, -1.0)),
        ("t", (1.0, -2.0)),
        ("gamma", (-1.0, 2.0)),
        ("chi2", (-0.5, 3.0)),
        ("beta", (1.5, 2.0, 3.0)),
        ("beta", (-0.5, 2.0, 3.0)),
    ]
    for name, args in cases:
        for method in METHODS:
            ours = np.asarray(getattr(getattr(stats, name), method)(*map(tg.tensor, args)))
            theirs = getattr(getattr(ss, name), method)(*args)
            np.testing.assert_allclose(ours, theirs, err_msg=f"{name}.{method}{args}")


# --- discrete distributions: gradients in the probability parameters ---------------------

DISCRETE_METHODS = ["logpmf", "pmf", "cdf", "logcdf", "sf", "logsf"]


@pytest.mark.parametrize("method", DISCRETE_METHODS)
@settings(max_examples=10)
@given(data=st.data())
def test_poisson(method, data):
    (mu,) = data.draw(inputs(["positive"], max_dims=1))
    k = data.draw(hnp.arrays(np.int64, mu.shape, elements=st.integers(-1, 6)), label="k")
    ours, theirs = getattr(stats.poisson, method), getattr(ss.poisson, method)
    got = np.asarray(ours(k, tg.tensor(mu)))  # a Tensor: tapegrad's forward, not SciPy's
    np.testing.assert_allclose(got, theirs(k, mu), rtol=1e-10, atol=1e-14)
    if method not in ("cdf", "sf") or np.all(k >= 0):  # a constant 0 or 1 has no log-gradient
        gradcheck(lambda mu: ours(k, mu), [mu])


@pytest.mark.parametrize("method", DISCRETE_METHODS)
@settings(max_examples=10)
@given(data=st.data())
def test_binom_and_bernoulli(method, data):
    (p,) = data.draw(inputs(["prob"], max_dims=1))
    n = data.draw(hnp.arrays(np.int64, p.shape, elements=st.integers(1, 8)), label="n")
    k = data.draw(hnp.arrays(np.int64, p.shape, elements=st.integers(-1, 9)), label="k")
    ours, theirs = getattr(stats.binom, method), getattr(ss.binom, method)
    got = np.asarray(ours(k, n, tg.tensor(p)))
    np.testing.assert_allclose(got, theirs(k, n, p), rtol=1e-9, atol=1e-14)
    gradcheck(lambda p: ours(k, n, p), [p])
    kb = np.clip(k, -1, 2)
    ours, theirs = getattr(stats.bernoulli, method), getattr(ss.bernoulli, method)
    got = np.asarray(ours(kb, tg.tensor(p)))
    np.testing.assert_allclose(got, theirs(kb, p), rtol=1e-9, atol=1e-14)
    gradcheck(lambda p: ours(kb, p), [p])


def test_non_integer_counts_have_zero_mass():
    np.testing.assert_array_equal(
        np.asarray(stats.poisson.pmf(np.array([1.5, 2.0]), tg.tensor(2.0))),
        ss.poisson.pmf([1.5, 2.0], 2.0),
    )
    np.testing.assert_array_equal(
        np.asarray(stats.binom.pmf(np.array([1.5]), 3, tg.tensor(0.5))),
        ss.binom.pmf([1.5], 3, 0.5),
    )


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda k: stats.poisson.logpmf(k, 2.0), "k"),
        (lambda n: stats.binom.cdf(1.0, n, 0.3), "n"),
        (lambda loc: stats.bernoulli.pmf(1.0, 0.3, loc), "loc"),
    ],
)
def test_counts_are_not_differentiable(call, argument):
    with pytest.raises(LookupError, match=f"no gradient with respect to {argument} "):
        tg.grad(call)(2.0)


# --- multivariate ----------------------------------------------------------------------------


@given(
    seed=st.integers(0, 2**32 - 1),
    d=st.integers(1, 3),
    points=st.sampled_from([(), (1,), (2,)]),
)
def test_multivariate_normal(seed, d, points):
    rng = np.random.default_rng(seed)
    m = rng.standard_normal((d, d))
    cov = m @ m.T + d * np.eye(d)
    mean, x = rng.standard_normal(d), rng.standard_normal(points + (d,))
    got = stats.multivariate_normal.logpdf(tg.tensor(x), mean, cov)
    np.testing.assert_allclose(
        np.asarray(got), ss.multivariate_normal.logpdf(x, mean, cov), rtol=1e-11
    )
    np.testing.assert_allclose(
        np.asarray(stats.multivariate_normal.pdf(tg.tensor(x), mean, cov)),
        ss.multivariate_normal.pdf(x, mean, cov),
        rtol=1e-11,
    )
    gradcheck(stats.multivariate_normal.logpdf, [x, mean, cov])
    if d <= 2 and points == ():
        gradgradcheck(stats.multivariate_normal.logpdf, [x, mean, cov], atol=1e-4)


def test_multivariate_normal_scalar_and_diagonal_covariances_and_1d_points():
    x = np.array([0.3, -1.0])
    for cov in (2.0, np.array([2.0, 0.5])):
        np.testing.assert_allclose(
            np.asarray(stats.multivariate_normal.logpdf(tg.tensor(x), np.zeros(2), cov)),
            ss.multivariate_normal.logpdf(x, np.zeros(2), cov),
        )
    np.testing.assert_allclose(  # d = 1: a vector holds one point per element
        np.asarray(stats.multivariate_normal.logpdf(tg.tensor(x), 0.5, 2.0)),
        ss.multivariate_normal.logpdf(x, 0.5, 2.0),
    )


@given(seed=st.integers(0, 2**32 - 1), k=st.integers(2, 4), n=st.sampled_from([(), (2,)]))
def test_dirichlet(seed, k, n):
    rng = np.random.default_rng(seed)
    alpha = rng.uniform(0.5, 3.0, k)
    x = rng.dirichlet(np.ones(k), size=n or None)
    x = np.moveaxis(x, -1, 0) if n else x  # components along the first axis
    np.testing.assert_allclose(
        np.asarray(stats.dirichlet.logpdf(tg.tensor(x), alpha)),
        ss.dirichlet.logpdf(x, alpha),
        rtol=1e-11,
    )
    np.testing.assert_allclose(
        np.asarray(stats.dirichlet.pdf(tg.tensor(x[:-1]), alpha)),
        ss.dirichlet.pdf(x, alpha),
        rtol=1e-11,
    )
    # the first k - 1 components (the last is 1 - their sum) stay on the simplex under
    # finite differences
    gradcheck(stats.dirichlet.logpdf, [x[:-1], alpha])
    gradgradcheck(lambda a: stats.dirichlet.logpdf(x, a), [alpha])


def test_dirichlet_checks_the_simplex_as_scipy_does():
    with pytest.raises(ValueError, match="sum to 1"):
        stats.dirichlet.logpdf(tg.tensor([0.3, 0.3]), np.ones(2))
    with pytest.raises(ValueError, match="first axis must hold 3 or 2 components"):
        stats.dirichlet.logpdf(tg.tensor([0.5, 0.2, 0.2, 0.1]), np.ones(3))


# --- the rest of SciPy's interface ---------------------------------------------------------
DISTRIBUTIONS = {  # name -> parameters, and a point of its support
    "norm": ((0.5, 2.0), 0.3),
    "t": ((4.0,), 0.3),
    "gamma": ((2.0,), 0.7),
    "chi2": ((3.0,), 0.7),
    "beta": ((2.0, 3.0), 0.4),
    "poisson": ((3.0,), 2),
    "binom": ((5, 0.3), 2),
    "bernoulli": ((0.3,), 1),
}


@pytest.mark.parametrize("name", list(DISTRIBUTIONS))
def test_every_distribution_keeps_scipys_whole_interface(name):
    ours, theirs = getattr(stats, name), getattr(ss, name)
    params, x = DISTRIBUTIONS[name]
    # SciPy's own methods, reached through the same name (autograd's test_scipy.py needs them).
    assert ours.rvs(*params, size=4, random_state=0).tolist() == (
        theirs.rvs(*params, size=4, random_state=0).tolist()
    )
    for method in ("entropy", "mean", "var", "median", "std"):
        assert getattr(ours, method)(*params) == getattr(theirs, method)(*params), method
    assert ours.interval(0.9, *params) == theirs.interval(0.9, *params)
    assert ours.ppf(0.3, *params) == theirs.ppf(0.3, *params)
    assert ours.moment(2, *params) == theirs.moment(2, *params)
    # A frozen distribution: the differentiable methods record with the frozen parameters,
    # the rest is SciPy's frozen distribution.
    frozen = ours(*params)
    density = "logpmf" if name in ("poisson", "binom", "bernoulli") else "logpdf"
    got = getattr(frozen, density)(tg.tensor(float(x)))  # a Tensor: tapegrad's forward
    np.testing.assert_allclose(got.item(), getattr(theirs(*params), density)(x), rtol=1e-12)
    assert frozen.mean() == theirs(*params).mean()
    assert (
        frozen.rvs(size=3, random_state=1).tolist()
        == theirs(*params).rvs(size=3, random_state=1).tolist()
    )
    assert "rvs" in dir(ours) and density in ours.differentiable


def test_a_frozen_distribution_differentiates_its_parameters():
    loc, scale = tg.tensor(0.5), tg.tensor(2.0)
    with tg.GradientTape() as tape:
        tape.watch([loc, scale])
        y = stats.norm(loc, scale).logpdf(1.5)
    d_loc, d_scale = tape.gradient(y, [loc, scale])
    z = (1.5 - 0.5) / 2.0
    assert d_loc.item() == pytest.approx(z / 2.0) and d_scale.item() == pytest.approx(
        (z * z - 1) / 2.0
    )
    gradcheck(lambda loc, scale: stats.norm(loc, scale=scale).logcdf(0.3), [0.5, 2.0])


def test_plain_arrays_get_scipys_own_values_and_kinds():
    # Plain in, plain out: NumPy-style code gets exactly SciPy's results.
    u = np.array([0.1, 0.5, 0.9])
    for ours, theirs in (
        (stats.norm.logpdf, ss.norm.logpdf),
        (stats.gamma.cdf, ss.gamma.cdf),
    ):
        got = ours(u, 2.0)
        assert type(got) is np.ndarray and got.tolist() == theirs(u, 2.0).tolist()
    from tapegrad.scipy import special

    logits = special.logit(u)
    assert type(logits) is np.ndarray and logits.tolist() == sc_logit(u).tolist()
    logits[np.isnan(logits)] = 50.0  # NumPy-style code writes into the result
    assert type(special.gammaln(3.0)) is np.float64


def sc_logit(u):
    import scipy.special

    return scipy.special.logit(u)


def test_multivariate_normal_entropy_and_a_singular_covariance():
    # autograd's test_scipy.py differentiates both: entropy in cov, and logpdf/pdf with
    # allow_singular=True. A rank-2 covariance B Bᵀ and a point in its span, moved only
    # within it (x = B c), so finite differences stay on the support.
    from tapegrad.scipy.stats import multivariate_normal as mvn

    rng = np.random.default_rng(3)
    a = rng.standard_normal((4, 4))
    cov = a @ a.T + np.eye(4)
    mean = rng.standard_normal(4)
    np.testing.assert_allclose(
        mvn.entropy(mean, tg.tensor(cov)).item(), ss.multivariate_normal.entropy(mean, cov)
    )
    gradcheck(lambda c: mvn.entropy(mean, c), [cov])
    gradgradcheck(lambda c: mvn.entropy(mean, c), [cov])
    b, c = rng.standard_normal((4, 2)), np.array([0.3, -0.2])

    def singular(b, c):
        return mvn.logpdf(b @ c, 0.0 * mean, b @ tg.numpy.transpose(b), allow_singular=True)

    expected = ss.multivariate_normal.logpdf(b @ c, 0.0 * mean, b @ b.T, allow_singular=True)
    np.testing.assert_allclose(singular(tg.tensor(b), tg.tensor(c)).item(), expected, rtol=1e-12)
    gradcheck(singular, [b, c])
    gradcheck(lambda b: mvn.entropy(mean, b @ tg.numpy.transpose(b)), [b])
    off = mvn.logpdf(tg.tensor(rng.standard_normal(4)), 0.0 * mean, b @ b.T, allow_singular=True)
    assert off.item() == -np.inf  # off the support, as SciPy
    with pytest.raises(ValueError, match="positive semidefinite"):
        mvn.logpdf(tg.tensor(mean), mean, tg.tensor(-cov), allow_singular=True)
