"""HIPS autograd's own ``tests/test_scipy.py``, run against tapegrad.

autograd's tests ship only in its source distribution; this file reads them from there at
run time (nothing of autograd is in this repository), with ``import autograd`` pointing
at tapegrad (``autograd_shim``) and ``autograd.test_util`` rebuilt on
``tapegrad.testing.gradcheck`` (``autograd_test_util``). Each of autograd's test functions
is one test here; those listed in ``EXCLUDED`` are skipped (autograd-only APIs) or
expected to fail (what tapegrad lacks), with the reason.

Run it (the sdist is found in ``$AUTOGRAD_SDIST``, a folder or ``.tar.gz``, else in the
temporary folder, else downloaded there with pip; without it, the test skips and says why):

    .venv/bin/pip download --no-deps --no-binary :all: autograd==1.9.1 -d /tmp/agsd
    AUTOGRAD_SDIST=/tmp/agsd/autograd-1.9.1.tar.gz \\
        .venv/bin/python -m pytest -o addopts="" -q -rsx tests/peer_suites/test_autograd_scipy.py

``AUTOGRAD_SDIST=none`` skips it without trying to download.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest

pytest.importorskip("scipy", reason="autograd's SciPy tests need SciPy (tapegrad[scipy])")

from autograd_shim import find_sdist, load_test_module  # noqa: E402

AUTOGRAD_ONLY = "autograd-only API"
MISSING = "tapegrad lacks it"

# test name -> (kind, reason). AUTOGRAD_ONLY tests are skipped, MISSING ones are strict
# xfails (so one that starts passing is noticed and leaves the list).
EXCLUDED: dict[str, tuple[str, str]] = {
    "test_convolve_generalization": (
        AUTOGRAD_ONLY,
        "autograd.scipy.signal.convolve(A, B, axes=, dot_axes=, mode=) is autograd's own "
        "generalisation (convolve over some axes, tensordot over others); SciPy's and "
        "tapegrad's convolve(in1, in2, mode, method) have no axes",
    ),
    "test_convolve_ignore": (
        AUTOGRAD_ONLY,
        "convolve(..., axes=): as test_convolve_generalization",
    ),
    "test_convolve_ignore_dot": (
        AUTOGRAD_ONLY,
        "convolve(..., axes=, dot_axes=): as test_convolve_generalization",
    ),
}


# The test functions of autograd's test_scipy.py (autograd_shim.VERSION), named here so
# that collection is the same whether or not the sdist can be had (each pytest-xdist
# worker collects on its own); test_the_names_are_autograds checks them against the file.
NAMES = (
    "test_beta",
    "test_beta_cdf",
    "test_beta_logpdf",
    "test_beta_pdf",
    "test_betainc",
    "test_betaln",
    "test_chi2_cdf",
    "test_chi2_logpdf",
    "test_chi2_pdf",
    "test_convolve",
    "test_convolve_2d",
    "test_convolve_generalization",
    "test_convolve_ignore",
    "test_convolve_ignore_dot",
    "test_digamma",
    "test_dirichlet_logpdf_alpha",
    "test_dirichlet_logpdf_x",
    "test_dirichlet_pdf_alpha",
    "test_dirichlet_pdf_x",
    "test_erf",
    "test_erfc",
    "test_erfcinv",
    "test_erfinv",
    "test_expit",
    "test_gamma",
    "test_gamma_cdf",
    "test_gamma_logpdf",
    "test_gamma_pdf",
    "test_gammainc",
    "test_gammaincc",
    "test_gammaln",
    "test_gammasgn",
    "test_i0",
    "test_i1",
    "test_iv",
    "test_ive",
    "test_j0",
    "test_j1",
    "test_jn",
    "test_logit",
    "test_logsumexp1",
    "test_logsumexp2",
    "test_logsumexp3",
    "test_logsumexp4",
    "test_logsumexp5",
    "test_logsumexp6",
    "test_multigammaln",
    "test_mvn_entropy",
    "test_mvn_logpdf",
    "test_mvn_logpdf_broadcast",
    "test_mvn_pdf",
    "test_mvn_pdf_broadcast",
    "test_mvn_sing_cov",
    "test_norm_cdf",
    "test_norm_cdf_broadcast",
    "test_norm_logcdf",
    "test_norm_logcdf_broadcast",
    "test_norm_logpdf",
    "test_norm_logpdf_broadcast",
    "test_norm_logsf",
    "test_norm_logsf_broadcast",
    "test_norm_pdf",
    "test_norm_pdf_broadcast",
    "test_norm_sf",
    "test_norm_sf_broadcast",
    "test_odeint",
    "test_poisson_cdf",
    "test_poisson_cdf_broadcast",
    "test_poisson_logpmf",
    "test_poisson_logpmf_broadcast",
    "test_poisson_pmf",
    "test_poisson_pmf_broadcast",
    "test_polygamma",
    "test_psi",
    "test_rgamma",
    "test_solve_banded",
    "test_solve_sylvester",
    "test_sqrtm",
    "test_t_cdf",
    "test_t_cdf_broadcast",
    "test_t_logcdf",
    "test_t_logcdf_broadcast",
    "test_t_logpdf",
    "test_t_logpdf_broadcast",
    "test_t_pdf",
    "test_t_pdf_broadcast",
    "test_y0",
    "test_y1",
    "test_yn",
)


@functools.cache
def _suite() -> tuple[object | None, str]:
    """autograd's test module, loaded once per process, or None and why not."""
    sdist, why = find_sdist()
    if sdist is None:
        return None, why
    return load_test_module(sdist, "test_scipy"), ""


def _loaded() -> object:
    suite, why = _suite()
    if suite is None:
        pytest.skip(f"no autograd sdist: {why}")
    return suite


def _params() -> list[object]:
    params = []
    for name in NAMES:
        kind, reason = EXCLUDED.get(name, ("", ""))
        marks = []
        if kind == AUTOGRAD_ONLY:
            marks.append(pytest.mark.skip(reason=f"{AUTOGRAD_ONLY}: {reason}"))
        elif kind == MISSING:
            marks.append(pytest.mark.xfail(strict=True, reason=f"{MISSING}: {reason}"))
        params.append(pytest.param(name, marks=marks, id=name))
    return params


@pytest.mark.parametrize("name", _params())
def test_autograd_scipy(name: str) -> None:
    suite = _loaded()
    state = np.random.get_state()
    np.random.seed(42)  # as autograd's tests/conftest.py does before each test
    try:
        getattr(suite, name)()
    finally:
        np.random.set_state(state)


def test_the_names_are_autograds() -> None:
    module = vars(_loaded())
    found = sorted(n for n in module if n.startswith("test_") and callable(module[n]))
    assert found == sorted(NAMES), "autograd's test_scipy.py has other tests than NAMES"
    assert set(EXCLUDED) <= set(NAMES)
