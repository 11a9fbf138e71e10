"""tapegrad/scipy/integrate/quad.py: quad's values are SciPy's, its Leibniz-rule gradients
match finite differences and closed forms, refused options raise."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("scipy.integrate", reason="the scipy extra is not installed")

import scipy.integrate as si  # noqa: E402

import tapegrad as tg  # noqa: E402
from tapegrad.scipy.integrate import quad  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402


def test_values_and_outputs_match_scipy():
    k = tg.tensor(1.3)
    got = quad(lambda x, k: tg.exp(-k * x) * tg.cos(x), 0.0, 2.0, args=(k,), full_output=1)
    expected = si.quad(lambda x, k: np.exp(-k * x) * np.cos(x), 0.0, 2.0, args=(1.3,),
                       full_output=1)  # fmt: skip
    assert isinstance(got[0], tg.Tensor) and got[0].shape == ()
    assert got[0].item() == expected[0] and got[1] == expected[1]
    assert got[2]["neval"] == expected[2]["neval"]
    plain = quad(lambda x: x * x, 0.0, 1.0)
    assert type(plain[0]) is float and plain == si.quad(lambda x: x * x, 0.0, 1.0)


def test_gradients_in_limits_args_and_closed_over_tensors():
    def f(a, b, k, scale):
        return quad(lambda x, k: scale * tg.exp(-k * x * x), a, b, args=(k,))[0]

    gradcheck(f, [0.2, 1.5, 0.7, 1.2], eps=1e-6, atol=1e-7, rtol=1e-6)


def test_infinite_limits_and_closed_forms():
    k = tg.tensor(2.0)
    rate = tg.Variable(0.5, name="rate")
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(k)
        laplace = quad(lambda x: tg.exp(-k * x), 0.0, np.inf)[0]  # 1/k
        gauss = quad(lambda x: tg.exp(-rate * x * x), -np.inf, np.inf)[0]  # sqrt(pi/rate)
    assert tape.gradient(laplace, k).item() == pytest.approx(-0.25, rel=1e-8)
    assert tape.gradient(gauss, rate).item() == pytest.approx(
        -0.5 * np.sqrt(np.pi) * 0.5**-1.5, rel=1e-8
    )


def test_points_and_limit_reach_the_gradient_too():
    c = tg.tensor(0.4)
    with tg.GradientTape() as tape:
        tape.watch(c)
        value = quad(lambda x: tg.abs(x - c), 0.0, 1.0, points=[0.4], limit=100)[0]
    # ∫|x - c| = c²/2 + (1-c)²/2: derivative 2c - 1
    assert value.item() == pytest.approx(0.5 * 0.4**2 + 0.5 * 0.6**2, rel=1e-12)
    assert tape.gradient(value, c).item() == pytest.approx(2 * 0.4 - 1, rel=1e-8)


def test_second_derivatives_in_limits_args_and_closed_over_tensors():
    def f(a, b, k, scale):
        return quad(lambda x, k: scale * tg.exp(-k * x * x), a, b, args=(k,))[0]

    gradgradcheck(f, [0.2, 1.5, 0.7, 1.2], eps=1e-5, atol=1e-6, rtol=1e-5)


def test_hessian_has_its_closed_form():
    # F(k, b) = ∫₀ᵇ e^{kx} dx = (e^{kb} - 1)/k
    def value(p):
        return quad(lambda x, k: tg.exp(k * x), 0.0, p[1], args=(p[0],), epsabs=1e-13,
                    epsrel=1e-13)[0]  # fmt: skip

    k, b = 0.7, 1.3
    e = np.exp(k * b)
    d_kk = (b * b * e) / k - 2 * b * e / k**2 + 2 * (e - 1) / k**3
    expected = [[d_kk, b * e], [b * e, k * e]]
    np.testing.assert_allclose(tg.hessian(value)(np.array([k, b])), expected, rtol=1e-9)


def test_refusals():
    k = tg.tensor(1.0)
    for option in ("weight", "wvar", "wopts"):
        with pytest.raises(NotImplementedError, match=f"quad: {option}"):
            quad(lambda x: k * x, 0.0, 1.0, **{option: "cos" if option == "weight" else 1.0})
    with pytest.raises(NotImplementedError, match="complex_func"):
        quad(lambda x: k * x, 0.0, 1.0, complex_func=True)
