"""tapegrad/scipy/special's elementary, elliptic, inverse-incomplete, Bessel/Airy/Struve,
orthogonal-polynomial and spherical-harmonic functions: SciPy's ufuncs recording on
Tensors, derivatives checked against SciPy's own, and the arguments with no gradient.
(The value and finite-difference checks of every option are the rows of
tapegrad/testing/scipy_samples/special_*.py.)"""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.special", reason="the scipy extra is not installed")

import scipy.special as sc  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import special  # noqa: E402
from tapegrad.testing import gradcheck  # noqa: E402

X = np.array([0.35, 0.6, 0.8])

# SciPy's own ufunc, called on a Tensor, records (the table in special/__init__.py)
UFUNCS = {
    "cbrt": sc.cbrt,
    "exp10": sc.exp10,
    "exprel": sc.exprel,
    "powm1": lambda t: sc.powm1(t + 0.5, t),
    "sindg": lambda t: sc.sindg(100 * t),
    "radian": lambda t: sc.radian(t, t, t),
    "huber": lambda t: sc.huber(0.5, t),
    "pseudo_huber": lambda t: sc.pseudo_huber(t, t),
    "ellipk": sc.ellipk,
    "ellipkinc": lambda t: sc.ellipkinc(t, t),
    "ellipeinc": lambda t: sc.ellipeinc(t, t),
    "gammaincinv": lambda t: sc.gammaincinv(2 * t, t),
    "betainccinv": lambda t: sc.betainccinv(t, 2 * t, t),
    "jve": lambda t: sc.jve(1.5, t),
    "hankel1": lambda t: tg.imag(sc.hankel1(0.5, t)),
    "airy": lambda t: sc.airy(t)[3],
    "airye": lambda t: sc.airye(t)[0],
    "struve": lambda t: sc.struve(2.0, t),
    "eval_jacobi": lambda t: sc.eval_jacobi(3, 0.5, 1.0, t),
    "eval_hermite": lambda t: sc.eval_hermite(4, t),
    "eval_genlaguerre": lambda t: sc.eval_genlaguerre(3, 0.5, t),
    "bdtr": lambda t: sc.bdtr(2, 6, t),
    "chdtr": lambda t: sc.chdtr(3.0, 5 * t),
    "fdtri": lambda t: sc.fdtri(3.0, 5.0, t),
    "pdtrc": lambda t: sc.pdtrc(2, 4 * t),
}


@pytest.mark.parametrize("name", list(UFUNCS))
def test_scipy_ufunc_on_a_tensor_records(name):
    f = UFUNCS[name]
    assert isinstance(f(tg.tensor(X)), tg.Tensor)
    gradcheck(f, [X])


def _slope(f, x):
    return tg.grad(lambda t: tg.sum(f(t)))(tg.tensor(x)).numpy()


def test_derivatives_are_scipys_own_where_scipy_has_them():
    for name in ("spherical_jn", "spherical_yn", "spherical_in", "spherical_kn"):
        ours, theirs = getattr(special, name), getattr(sc, name)
        np.testing.assert_allclose(
            _slope(lambda t, f=ours: f(3, t), X), theirs(3, X, True), rtol=1e-12
        )
    ai, aip, bi, bip = sc.airy(X)
    np.testing.assert_allclose(_slope(lambda t: special.airy(t)[0], X), aip, rtol=1e-12)
    np.testing.assert_allclose(_slope(lambda t: special.airy(t)[3], X), X * bi, rtol=1e-12)
    _, gradient = sc.sph_harm_y(3, 1, X, 0.4, diff_n=1)
    np.testing.assert_allclose(
        _slope(lambda t: tg.real(special.sph_harm_y(3, 1, t, 0.4)), X),
        gradient[..., 0].real,
        rtol=1e-12,
    )
    # T_n' = n U_{n-1}; d/dy of the inverse is the reciprocal of the forward's slope
    np.testing.assert_allclose(
        _slope(lambda t: special.eval_chebyt(5, t), X), 5 * sc.eval_chebyu(4, X), rtol=1e-12
    )
    x = sc.gammaincinv(2.5, X)
    density = np.exp(1.5 * np.log(x) - x - sc.gammaln(2.5))
    np.testing.assert_allclose(_slope(lambda t: special.gammaincinv(2.5, t), X), 1 / density)


def test_lambertw_gradient_is_holomorphic():
    z = X + 0.5j
    gradcheck(lambda t: tg.real(special.lambertw(t)) + tg.imag(special.lambertw(t, k=-1)), [z])


@pytest.mark.parametrize(
    "call, argument",
    [
        (lambda t: special.eval_legendre(t, 0.5), "degree n"),
        (lambda t: special.eval_gegenbauer(2, t, 0.5), "alpha"),
        (lambda t: special.eval_jacobi(2, 0.5, t, 0.5), "beta"),
        (lambda t: special.sph_harm_y(2, t, 0.5, 0.5), "order m"),
        (lambda t: special.spherical_kn(t, 0.5), "order"),
        (lambda t: special.airy(t) and special.hankel2e(t, 0.5), "order v"),
        (lambda t: special.modstruve(t, 0.5), "order"),
        (lambda t: special.lambertw(0.5, k=t), "branch k"),
    ],
)
def test_no_gradient_raises_lookup_error(call, argument):
    t = tg.tensor(1.0)
    with pytest.raises(LookupError, match=argument):
        with tg.GradientTape() as tape:
            tape.watch(t)
            call(t)


def test_inverse_in_a_has_no_second_derivative():
    a = tg.tensor(np.array([1.5, 2.5]))
    with tg.GradientTape() as outer:
        outer.watch(a)
        with tg.GradientTape() as inner:
            inner.watch(a)
            y = tg.sum(special.gammainccinv(a, 0.4))
        with pytest.raises(LookupError, match="a at second order"):
            inner.gradient(y, a)


def test_sph_harm_y_diff_n_is_checked_and_plain_is_scipys():
    with pytest.raises(ValueError, match="diff_n"):
        special.sph_harm_y(2, 1, tg.tensor(0.5), 0.5, diff_n=3)
    value, gradient = special.sph_harm_y(2, 1, tg.tensor(X), 0.5, diff_n=1)
    expected = sc.sph_harm_y(2, 1, X, 0.5, diff_n=1)
    np.testing.assert_array_equal(value.numpy(), expected[0])
    np.testing.assert_array_equal(gradient.numpy(), expected[1])
    assert special.sph_harm_y(2, 1, 0.5, 0.5) == sc.sph_harm_y(2, 1, 0.5, 0.5)


def test_legendre_p_third_and_fourth_derivatives_and_errors():
    # The gradient of diff_n=2's last level is P''' (a Gegenbauer polynomial), and so on.
    from tapegrad.scipy.special import legendre_p

    z = np.array([-0.6, 0.2, 0.9])
    third = tg.grad(lambda t: tg.sum(legendre_p(5, t, diff_n=2)[2]))(z)
    # P_5 = (63 z^5 - 70 z^3 + 15 z) / 8: P_5''' = (3780 z^2 - 420) / 8
    np.testing.assert_allclose(third, (3780 * z**2 - 420) / 8, rtol=1e-12)
    fourth = tg.grad(lambda t: tg.sum(tg.grad(lambda s: tg.sum(legendre_p(5, s, diff_n=2)[2]))(t)))(
        z
    )
    np.testing.assert_allclose(fourth, 7560 * z / 8, rtol=1e-12)
    assert np.all(tg.grad(lambda t: tg.sum(legendre_p(2, t, diff_n=2)[2]))(z) == 0)
    with pytest.raises(NotImplementedError, match="legendre_p: diff_n is only implemented"):
        legendre_p(3, tg.tensor(z), diff_n=3)
    with pytest.raises(LookupError, match="legendre_p: no gradient with respect to the degree"):
        tg.grad(lambda n: tg.sum(legendre_p(n, z)))(2.0)


@pytest.mark.parametrize(
    ("name", "call"),
    [
        ("bdtr", lambda k: special.bdtr(k, 10, 0.3)),
        ("bdtrc", lambda n: special.bdtrc(2, n, 0.3)),
        ("nbdtr", lambda k: special.nbdtr(k, 4, 0.3)),
        ("pdtr", lambda k: special.pdtr(k, 1.5)),
    ],
)
def test_a_gradient_in_a_count_is_a_lookup_error(name, call):
    with pytest.raises(LookupError, match=f"{name}: no gradient with respect to"):
        tg.grad(call)(3.0)
