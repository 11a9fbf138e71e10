"""Every scipy.special primitive declared with complex rules, checked on complex arguments:
values against SciPy's, gradients against finite differences along the real and imaginary
direction of each element (holomorphic functions: the conjugate-Wirtinger convention of
docs/complex.md). Functions of real arguments with complex values (sph_harm_y) are checked
through their real and imaginary parts."""

import numpy as np
import pytest

pytest.importorskip("scipy.special", reason="the scipy extra is not installed")

import scipy.special as sc  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy import special  # noqa: E402
from tapegrad.testing import gradcheck  # noqa: E402

Z = np.array([0.6 + 0.3j, 1.1 - 0.4j, 0.8 + 0.7j])  # right half-plane, off branch cuts
SMALL = Z * 0.5  # inside hyp2f1's and lambertw's nicest region


def _part(k):
    return lambda f: lambda *a: f(*a)[k]


CASES = {
    **{
        f"airy[{k}]": (lambda z, k=k: special.airy(z)[k], lambda z, k=k: sc.airy(z)[k], Z)
        for k in range(4)
    },
    "dawsn": (special.dawsn, sc.dawsn, Z),
    "erfc": (special.erfc, sc.erfc, Z),
    "erfcx": (special.erfcx, sc.erfcx, Z),
    "erfi": (special.erfi, sc.erfi, Z),
    "exp1": (special.exp1, sc.exp1, Z),
    "expi": (special.expi, sc.expi, Z),
    "fresnel[0]": (lambda z: special.fresnel(z)[0], lambda z: sc.fresnel(z)[0], Z),
    "fresnel[1]": (lambda z: special.fresnel(z)[1], lambda z: sc.fresnel(z)[1], Z),
    "loggamma": (special.loggamma, sc.loggamma, Z + 0.5),
    "hankel1": (lambda z: special.hankel1(1.5, z), lambda z: sc.hankel1(1.5, z), Z + 0.5),
    "hankel1e": (lambda z: special.hankel1e(0.5, z), lambda z: sc.hankel1e(0.5, z), Z + 0.5),
    "hankel2": (lambda z: special.hankel2(1.5, z), lambda z: sc.hankel2(1.5, z), Z + 0.5),
    "hankel2e": (lambda z: special.hankel2e(2.0, z), lambda z: sc.hankel2e(2.0, z), Z + 0.5),
    "hyp1f1": (lambda z: special.hyp1f1(0.7, 1.3, z), lambda z: sc.hyp1f1(0.7, 1.3, z), Z),
    "hyp2f1": (
        lambda z: special.hyp2f1(0.7, 1.3, 2.1, z),
        lambda z: sc.hyp2f1(0.7, 1.3, 2.1, z),
        SMALL,
    ),
    "lambertw": (special.lambertw, sc.lambertw, Z),
    "shichi[0]": (lambda z: special.shichi(z)[0], lambda z: sc.shichi(z)[0], Z),
    "shichi[1]": (lambda z: special.shichi(z)[1], lambda z: sc.shichi(z)[1], Z),
    "sici[0]": (lambda z: special.sici(z)[0], lambda z: sc.sici(z)[0], Z),
    "sici[1]": (lambda z: special.sici(z)[1], lambda z: sc.sici(z)[1], Z),
    "spence": (special.spence, sc.spence, Z + 0.5),
    "wofz": (special.wofz, sc.wofz, Z),
    "wrightomega": (special.wrightomega, sc.wrightomega, Z),
    **{
        f"spherical_{kind}{mark}": (
            lambda z, kind=kind, d=bool(mark): getattr(special, f"spherical_{kind}")(
                2, z, derivative=d
            ),
            lambda z, kind=kind, d=bool(mark): getattr(sc, f"spherical_{kind}")(2, z, derivative=d),
            Z + 0.5,
        )
        for kind in ("jn", "yn", "in", "kn")
        for mark in ("", "'")
    },
    **{
        name: (
            lambda z, name=name, n=n: getattr(special, name)(*n, z),
            lambda z, name=name, n=n: getattr(sc, name)(*n, z),
            SMALL,
        )
        for name, n in {
            "eval_chebyc": (3,),
            "eval_chebys": (3,),
            "eval_chebyt": (3,),
            "eval_chebyu": (3,),
            "eval_gegenbauer": (3, 0.7),
            "eval_genlaguerre": (3, 0.4),
            "eval_jacobi": (3, 0.3, 0.6),
            "eval_laguerre": (3,),
            "eval_legendre": (3,),
            "eval_sh_chebyt": (3,),
            "eval_sh_chebyu": (3,),
            "eval_sh_legendre": (3,),
        }.items()
    },
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_complex_argument_matches_scipy_and_finite_differences(name):
    ours, theirs, z = CASES[name]
    np.testing.assert_allclose(ours(tg.tensor(z)).numpy(), theirs(z), rtol=1e-10, atol=1e-12)
    gradcheck(ours, [z])


@pytest.mark.parametrize("k", [0, 1, 2])
def test_sph_harm_y_through_its_real_and_imaginary_parts(k):
    theta, phi = np.array([0.4, 1.1, 2.3]), np.array([0.2, 1.7, 4.0])
    expected = sc.sph_harm_y(3, 1, theta, phi, diff_n=0)
    np.testing.assert_allclose(
        special.sph_harm_y(3, 1, tg.tensor(theta), tg.tensor(phi)).numpy(), expected, rtol=1e-10
    )

    def parts(t, p):
        value = special.sph_harm_y(3, 1, t, p)
        return tg.real(value) + 2.0 * tg.imag(value)

    gradcheck(parts, [theta, phi])


@pytest.mark.parametrize("name", ["eval_hermite", "eval_hermitenorm"])
def test_hermite_polynomials_of_a_complex_argument_are_refused_as_scipy_refuses(name):
    with pytest.raises(TypeError, match=name):
        getattr(special, name)(3, tg.tensor(Z))
