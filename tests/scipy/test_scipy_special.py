"""tapegrad/scipy/special: values against SciPy, gradients against finite differences."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pytest

pytest.importorskip("scipy.special", reason="the scipy extra is not installed")

import scipy.special as sc  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy_checks import inputs, require_scipy_kernel  # noqa: E402

from tapegrad.scipy import special  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402


class Case(NamedTuple):
    name: str
    function: Any  # tapegrad's, on the differentiable inputs (constants bound)
    reference: Any  # SciPy's, the same way
    domains: list[str]  # one per differentiable input
    portable: bool = False  # runs on every backend, not only where SciPy's kernels do
    second_order: bool = True


def _unary(name: str, domain: str, portable: bool = False) -> Case:
    return Case(name, getattr(special, name), getattr(sc, name), [domain], portable)


def _with_order(name: str, order: float, domain: str = "positive") -> Case:
    ours, theirs = getattr(special, name), getattr(sc, name)
    return Case(
        f"{name}[{order}]",
        lambda x: ours(order, x),
        lambda x: theirs(order, x),
        [domain],
    )


CASES = [
    _unary("gammaln", "positive"),
    _unary("gamma", "positive"),
    _unary("rgamma", "positive"),
    _unary("digamma", "positive"),
    _unary("psi", "positive"),
    *[_with_order("polygamma", n) for n in (0, 1, 2)],
    Case(
        "multigammaln",
        lambda a: special.multigammaln(a, 3),
        lambda a: sc.multigammaln(a, 3),
        ["multigamma"],
        portable=False,
    ),
    Case("beta", special.beta, sc.beta, ["positive", "positive"]),
    Case("betaln", special.betaln, sc.betaln, ["positive", "positive"]),
    Case("poch", special.poch, sc.poch, ["positive", "shape"]),
    Case("zeta", lambda q: special.zeta(2.5, q), lambda q: sc.zeta(2.5, q), ["positive"]),
    Case("gammainc", special.gammainc, sc.gammainc, ["shape", "positive"], second_order=False),
    Case("gammaincc", special.gammaincc, sc.gammaincc, ["shape", "positive"], second_order=False),
    Case("betainc", special.betainc, sc.betainc, ["shape", "shape", "prob"], second_order=False),
    _unary("erf", "real"),
    _unary("erfc", "real"),
    _unary("erfinv", "unit"),
    _unary("erfcinv", "two"),
    _unary("erfcx", "real"),
    _unary("ndtr", "real"),
    _unary("ndtri", "prob"),
    _unary("log_ndtr", "real"),
    _unary("exp1", "positive"),
    _unary("expi", "positive"),
    _unary("expit", "real", portable=True),
    _unary("log_expit", "real", portable=True),
    _unary("logit", "prob", portable=True),
    Case("xlogy", special.xlogy, sc.xlogy, ["real", "positive"], portable=True),
    Case("xlog1py", special.xlog1py, sc.xlog1py, ["real", "above_one"], portable=True),
    _unary("entr", "positive", portable=True),
    Case("rel_entr", special.rel_entr, sc.rel_entr, ["positive", "positive"], portable=True),
    Case("kl_div", special.kl_div, sc.kl_div, ["positive", "positive"], portable=True),
    *[_with_order("jv", v) for v in (0.0, 1.0, 2.5)],
    _with_order("jn", 2),
    _unary("j0", "real"),
    _unary("j1", "real"),
    *[_with_order("yv", v) for v in (0.0, 1.5)],
    *[_with_order("yn", n) for n in (0, 2)],
    _unary("y0", "positive"),
    _unary("y1", "positive"),
    *[_with_order("iv", v) for v in (0.0, 1.0, 2.5)],
    _unary("i0", "real"),
    _unary("i1", "real"),
    *[_with_order("ive", v) for v in (0.0, 1.5)],
    _unary("i0e", "nonzero"),
    _unary("i1e", "nonzero"),
    *[_with_order("kv", v) for v in (0.0, 1.5)],
    _unary("k0", "positive"),
    _unary("k1", "positive"),
    *[_with_order("kve", v) for v in (0.5, 2.0)],
    _unary("k0e", "positive"),
    _unary("k1e", "positive"),
    _unary("sinc", "real", portable=True),
]
IDS = [case.name for case in CASES]


def _prepare(case: Case, backend: Any) -> None:
    if not case.portable:
        require_scipy_kernel(backend, case.name)


@pytest.mark.parametrize("case", CASES, ids=IDS)
@given(data=st.data())
def test_value_and_gradient(case, backend, data):
    _prepare(case, backend)
    arrays = data.draw(inputs(case.domains), label="inputs")
    tensors = [backend.tensor(a) for a in arrays]
    got = case.function(*tensors)
    assert backend.owns(got)
    np.testing.assert_allclose(got.numpy(), case.reference(*arrays), rtol=1e-10, atol=1e-12)
    gradcheck(case.function, tensors)


SECOND_ORDER = [case for case in CASES if case.second_order]


@pytest.mark.parametrize("case", SECOND_ORDER, ids=[case.name for case in SECOND_ORDER])
@given(data=st.data())
def test_second_derivative(case, backend, data):
    _prepare(case, backend)
    arrays = data.draw(inputs(case.domains, max_dims=1), label="inputs")
    gradgradcheck(case.function, [backend.tensor(a) for a in arrays])
