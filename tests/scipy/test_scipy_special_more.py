"""tapegrad/scipy/special's hypergeometric, integral, combinatorial and Box-Cox functions:
values against SciPy, gradients against finite differences (real and complex), SciPy's
ufuncs recording on Tensors, and the arguments with no gradient."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
import pytest

pytest.importorskip("scipy.special", reason="the scipy extra is not installed")

import scipy.special as sc  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from scipy_checks import inputs, require_scipy_kernel  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import special  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402


class Case(NamedTuple):
    name: str
    function: Any
    reference: Any
    domains: list[str]
    second_order: bool = True


def _both(name: str, k: int, domain: str) -> Case:
    return Case(
        f"{name}[{k}]",
        lambda x: getattr(special, name)(x)[k],
        lambda x: getattr(sc, name)(x)[k],
        [domain],
    )


CASES = [
    Case("boxcox", special.boxcox, sc.boxcox, ["positive", "unit"]),
    Case("boxcox1p", special.boxcox1p, sc.boxcox1p, ["positive", "unit"]),
    Case("dawsn", special.dawsn, sc.dawsn, ["real"]),
    *[
        Case(
            f"expn[{n}]",
            lambda x, n=n: special.expn(n, x),
            lambda x, n=n: sc.expn(n, x),
            ["positive"],
        )
        for n in (0, 1, 2, 5)
    ],
    _both("fresnel", 0, "real"),
    _both("fresnel", 1, "real"),
    _both("sici", 0, "real"),
    _both("sici", 1, "positive"),
    _both("shichi", 0, "real"),
    _both("shichi", 1, "positive"),
    Case("spence", special.spence, sc.spence, ["positive"]),
    Case("owens_t", special.owens_t, sc.owens_t, ["real", "real"]),
    Case(
        "hyp1f1",
        lambda x: special.hyp1f1(0.7, 1.6, x),
        lambda x: sc.hyp1f1(0.7, 1.6, x),
        ["real"],
    ),
    Case(
        "hyp2f1",
        lambda z: special.hyp2f1(0.7, 1.3, 2.2, z),
        lambda z: sc.hyp2f1(0.7, 1.3, 2.2, z),
        ["unit"],
    ),
    Case("loggamma", special.loggamma, sc.loggamma, ["positive"]),
    Case(
        "binom",
        lambda n, k: special.binom(n + 5.0, k),
        lambda n, k: sc.binom(n + 5.0, k),
        ["positive", "positive"],
    ),
    Case("factorial", special.factorial, sc.factorial, ["positive"]),
    Case(
        "comb",
        lambda n, k: special.comb(n + 5.0, k),
        lambda n, k: sc.comb(n + 5.0, k),
        ["positive", "positive"],
    ),
    Case(
        "comb[repetition]",
        lambda n, k: special.comb(n, k, repetition=True),
        lambda n, k: sc.comb(n, k, repetition=True),
        ["positive", "positive"],
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@given(data=st.data())
def test_value_and_gradient(case, backend, data):
    require_scipy_kernel(backend, case.name)
    arrays = data.draw(inputs(case.domains), label="inputs")
    tensors = [backend.tensor(a) for a in arrays]
    got = case.function(*tensors)
    np.testing.assert_allclose(got.numpy(), case.reference(*arrays), rtol=1e-10, atol=1e-12)
    gradcheck(case.function, tensors)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
@given(data=st.data())
def test_second_derivative(case, backend, data):
    require_scipy_kernel(backend, case.name)
    arrays = data.draw(inputs(case.domains, max_dims=1), label="inputs")
    gradgradcheck(case.function, [backend.tensor(a) for a in arrays])


# Holomorphic functions of a complex argument, each to second order where SciPy has it.
COMPLEX = {
    "erf": (special.erf, sc.erf, True),
    "erfc": (special.erfc, sc.erfc, True),
    "erfcx": (special.erfcx, sc.erfcx, True),
    "exp1": (special.exp1, sc.exp1, True),
    "expi": (special.expi, sc.expi, True),
    "dawsn": (special.dawsn, sc.dawsn, True),
    "wofz": (special.wofz, sc.wofz, True),
    "spence": (special.spence, sc.spence, True),
    "fresnel[0]": (lambda z: special.fresnel(z)[0], lambda z: sc.fresnel(z)[0], True),
    "sici[1]": (lambda z: special.sici(z)[1], lambda z: sc.sici(z)[1], True),
    "shichi[0]": (lambda z: special.shichi(z)[0], lambda z: sc.shichi(z)[0], True),
    "hyp1f1": (lambda z: special.hyp1f1(0.7, 1.3, z), lambda z: sc.hyp1f1(0.7, 1.3, z), True),
    "hyp2f1": (
        lambda z: special.hyp2f1(0.7, 1.3, 2.1, 0.5 * z),
        lambda z: sc.hyp2f1(0.7, 1.3, 2.1, 0.5 * z),
        True,
    ),
    "loggamma": (special.loggamma, sc.loggamma, False),
    "factorial": (
        lambda z: special.factorial(z, extend="complex"),
        lambda z: sc.factorial(z, extend="complex"),
        False,
    ),
}


@pytest.mark.parametrize("name", list(COMPLEX))
@given(
    z=st.lists(
        st.complex_numbers(min_magnitude=0.3, max_magnitude=1.2, allow_nan=False),
        min_size=1,
        max_size=3,
    )
)
def test_complex_argument(name, z):
    ours, theirs, twice = COMPLEX[name]
    z = np.array(z, dtype=complex)
    z = np.where(z.real < 0.1, -z.real + 0.2 + 1j * z.imag, z)  # away from branch cuts
    np.testing.assert_allclose(ours(tg.tensor(z)).numpy(), theirs(z), rtol=1e-10, atol=1e-12)
    gradcheck(ours, [z])
    if twice:
        gradgradcheck(ours, [z])
    else:
        with pytest.raises(NotImplementedError, match="complex"):
            gradgradcheck(ours, [z])


def test_wofz_of_real_argument_has_a_real_gradient():
    x = np.array([0.2, 0.7, 1.5])
    gradcheck(lambda t: tg.real(special.wofz(t)) + 2.0 * tg.imag(special.wofz(t)), [x])


UFUNCS = {
    "hyp2f1": lambda t: sc.hyp2f1(0.5, 1.0, 2.0, t),
    "hyp1f1": lambda t: sc.hyp1f1(0.5, 1.0, t),
    "boxcox": lambda t: sc.boxcox(t, t),
    "boxcox1p": lambda t: sc.boxcox1p(t, 0.3),
    "dawsn": sc.dawsn,
    "expn": lambda t: sc.expn(2, t),
    "fresnel": lambda t: sc.fresnel(t)[1],
    "sici": lambda t: sc.sici(t)[0],
    "shichi": lambda t: sc.shichi(t)[1],
    "spence": sc.spence,
    "owens_t": lambda t: sc.owens_t(t, t),
    "loggamma": sc.loggamma,
    "gammasgn": sc.gammasgn,
    "binom": lambda t: sc.binom(t + 3.0, t),
    "wofz": lambda t: tg.real(sc.wofz(t)),
}


@pytest.mark.parametrize("name", list(UFUNCS))
def test_scipy_ufunc_on_a_tensor_records(name):
    x = np.array([0.4, 0.6, 0.8])
    f = UFUNCS[name]
    assert isinstance(f(tg.tensor(x)), tg.Tensor)
    gradcheck(f, [x])


def test_gammasgn_gradient_is_zero():
    x = tg.tensor(np.array([-2.5, -0.5, 0.5, 3.0]))
    np.testing.assert_array_equal(tg.grad(lambda t: tg.sum(special.gammasgn(t)))(x).numpy(), 0.0)


def test_boxcox_lmbda_gradient_near_zero_is_continuous():
    x = np.array([0.5, 2.0, 7.0])
    for lmbda in (0.0, 1e-12, 1e-6, 1e-3, 2e-3):
        gradcheck(lambda t: special.boxcox(x, t), [np.full(3, lmbda)])
        gradcheck(lambda t: special.boxcox1p(x, t), [np.full(3, lmbda)])


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda t: special.hyp1f1(t, 1.5, 0.5), "parameter a"),
        (lambda t: special.hyp1f1(0.5, t, 0.5), "parameter b"),
        (lambda t: special.hyp2f1(0.5, 1.0, t, 0.5), "parameter c"),
        (lambda t: special.expn(t, 0.5), "order n"),
        (lambda t: special.factorial(t, exact=True), "exact=True"),
        (lambda t: special.comb(t, 2, exact=True), "exact=True"),
        (lambda t: special.bernoulli(t), "n"),
    ],
)
def test_no_gradient_raises_lookup_error(call, argument):
    t = tg.tensor(3.0)
    with pytest.raises(LookupError, match=argument):
        with tg.GradientTape() as tape:
            tape.watch(t)
            call(t)


def test_exact_is_scipy_integers():
    assert special.factorial(tg.tensor(5), exact=True) == 120
    assert special.comb(tg.tensor(10), tg.tensor(3), exact=True) == 120
    assert special.comb(10, 3, exact=True, repetition=True) == 220
    np.testing.assert_array_equal(special.bernoulli(tg.tensor(4)).numpy(), sc.bernoulli(4))


def test_factorial_options_are_checked_as_scipy():
    with pytest.raises(ValueError, match="extend"):
        special.factorial(tg.tensor(2.0), extend="nope")
    with pytest.raises(ValueError, match="extend='complex'"):
        special.factorial(tg.tensor(2.0 + 1j))
    n = np.array([-1.5, -1.0, 0.0, 2.5])
    np.testing.assert_array_equal(special.factorial(tg.tensor(n)).numpy(), sc.factorial(n))
    np.testing.assert_allclose(
        special.factorial(tg.tensor(n), extend="complex").numpy(),
        sc.factorial(n, extend="complex"),
        rtol=1e-12,
    )
