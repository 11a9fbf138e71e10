"""Gradient checks of tapegrad/ops/grids.py, interpolation.py and polynomials.py."""

import numpy as np
import pytest
from helpers import assert_matches, value_and_gradients
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

# name: (tapegrad call, NumPy call), of two inputs of shape (3,) with values in [0.2, 3]
CALLS = {
    "linspace": (lambda a, b: tg.linspace(a[0], b[0], 5), lambda a, b: np.linspace(a[0], b[0], 5)),
    "linspace-arrays": (
        lambda a, b: tg.linspace(a, b, 4, endpoint=False, axis=1),
        lambda a, b: np.linspace(a, b, 4, endpoint=False, axis=1),
    ),
    "logspace": (
        lambda a, b: tg.logspace(a, b, 3, base=a[0] + 1.0),
        lambda a, b: np.logspace(a, b, 3, base=a[0] + 1.0),
    ),
    "geomspace": (
        lambda a, b: tg.geomspace(a, b, 4, axis=-1),
        lambda a, b: np.geomspace(a, b, 4, axis=-1),
    ),
    "geomspace-negative": (
        lambda a, b: tg.geomspace(-a, -b, 3),
        lambda a, b: np.geomspace(-a, -b, 3),
    ),
    "meshgrid": (lambda a, b: tg.meshgrid(a, b[:2])[1], lambda a, b: np.meshgrid(a, b[:2])[1]),
    "meshgrid-ij": (
        lambda a, b: tg.meshgrid(a, b, a[:1], indexing="ij")[0],
        lambda a, b: np.meshgrid(a, b, a[:1], indexing="ij")[0],
    ),
    "vander": (lambda a, b: tg.vander(a), lambda a, b: np.vander(a)),
    "vander-increasing": (lambda a, b: tg.vander(a, 4, True), lambda a, b: np.vander(a, 4, True)),
    "interp": (
        lambda a, b: tg.interp(b * 1.3 + 0.0137, tg.cumsum(a), b),
        lambda a, b: np.interp(b * 1.3 + 0.0137, np.cumsum(a), b),
    ),
    "interp-ends": (
        lambda a, b: tg.interp([-1.0, 0.3, 9.0], [0.0, 1.0, 2.0], b, left=a[0], right=-5.0),
        lambda a, b: np.interp([-1.0, 0.3, 9.0], [0.0, 1.0, 2.0], b, left=a[0], right=-5.0),
    ),
    "interp-period": (
        lambda a, b: tg.interp(b * 2.0 + 0.0137, [0.5, 2.0, 3.5], a, period=4.0),
        lambda a, b: np.interp(b * 2.0 + 0.0137, [0.5, 2.0, 3.5], a, period=4.0),
    ),
    "unwrap": (
        lambda a, b: tg.unwrap(tg.cumsum(a) * 2.0),
        lambda a, b: np.unwrap(np.cumsum(a) * 2.0),
    ),
    "polyval": (tg.polyval, np.polyval),
    "polyadd": (lambda a, b: tg.polyadd(a, b[:2]), lambda a, b: np.polyadd(a, b[:2])),
    "polysub": (lambda a, b: tg.polysub(a[:1], b), lambda a, b: np.polysub(a[:1], b)),
    "polymul": (tg.polymul, np.polymul),
    "polyder": (lambda a, b: tg.polyder(a, 2), lambda a, b: np.polyder(a, 2)),
    "polyint": (
        lambda a, b: tg.polyint(a, 2, [1.0, 2.0]),
        lambda a, b: np.polyint(a, 2, [1.0, 2.0]),
    ),
    "polydiv-quotient": (
        lambda a, b: tg.polydiv(a, b[:2])[0],
        lambda a, b: np.polydiv(a, b[:2])[0],
    ),
    "polydiv-remainder": (
        lambda a, b: tg.polydiv(a, b[:2])[1],
        lambda a, b: np.polydiv(a, b[:2])[1],
    ),
    "poly": (lambda a, b: tg.poly(a), lambda a, b: np.poly(a)),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@settings(max_examples=5)
@given(data=tst.st.data())
def test_value_and_derivatives(name, backend, data):
    ours, numpys = CALLS[name]
    a = backend.tensor(data.draw(tst.arrays((3,), domain="positive", unique=True), label="a"))
    b = backend.tensor(data.draw(tst.arrays((3,), domain="positive", unique=True), label="b"))
    assert_matches(ours(a, b), numpys(a.numpy(), b.numpy()), rtol=1e-10, atol=1e-12)
    gradcheck(ours, [a, b])
    gradgradcheck(ours, [a, b])


def test_linspace_ends_exactly_at_stop_and_returns_the_step(backend):
    start, stop = backend.tensor(np.array(0.1)), backend.tensor(np.array(0.7))
    values, step = tg.linspace(start, stop, 7, retstep=True)
    expected, expected_step = np.linspace(0.1, 0.7, 7, retstep=True)
    assert_matches(values, expected, rtol=0, atol=0)
    assert step.item() == expected_step
    _, (g_start, g_stop) = value_and_gradients(lambda a, b: tg.linspace(a, b, 7), start, stop)
    assert g_start.item() == pytest.approx(3.5) and g_stop.item() == pytest.approx(3.5)


def test_unwrap_passes_the_gradient_through(backend):
    x = backend.tensor(np.array([0.0, 3.0, -3.0, 3.1]))
    out, (g,) = value_and_gradients(tg.unwrap, x)
    assert_matches(out, np.unwrap(x.numpy()), rtol=0, atol=0)
    np.testing.assert_array_equal(g.numpy(), 1.0)


@st.composite
def distinct_roots(draw, complex_coefficients=False):
    """Polynomial coefficients with roots at least 0.3 apart (and a leading coefficient
    away from 0), so the roots are smooth functions of them."""
    n = draw(st.integers(1, 4), label="degree")
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1), label="seed"))
    while True:
        found = rng.uniform(-2, 2, n) + (1j * rng.uniform(-2, 2, n) if complex_coefficients else 0)
        gaps = np.abs(found[:, None] - found[None, :]) + np.eye(n) * 9
        if gaps.min() >= 0.3:
            break
    found = found.astype(complex)
    if not complex_coefficients and n >= 2 and draw(st.booleans(), label="conjugate pair"):
        found[:2] = found[0].real + 1j * rng.uniform(0.3, 1.0) * np.array([1, -1])  # real p
    leading = rng.uniform(0.5, 2.0) * (1 if rng.uniform() < 0.5 else -1)
    p = leading * np.poly(found)
    return p if complex_coefficients else np.real(p)


def _ordered_roots(p):
    """The roots in an order that no small change of ``p`` changes (eigenvalue routines may
    swap two roots under a perturbation, which finite differences would see as a jump)."""
    found = tg.roots(p)
    return tg.take(found, tg.argsort(tg.real(found) + 0.37 * tg.imag(found)))


@settings(max_examples=25)
@given(p=distinct_roots(), complex_coefficients=st.booleans())
def test_roots_match_numpy_and_finite_differences(p, complex_coefficients):
    if complex_coefficients:
        p = p * (0.8 + 0.6j)  # the same roots, complex coefficients
    t = tg.tensor(p)
    assert_matches(tg.roots(t), np.roots(p), rtol=1e-9, atol=1e-12)  # NumPy's order and dtype
    gradcheck(_ordered_roots, [t])
    if len(p) <= 3:
        gradgradcheck(_ordered_roots, [t])


@settings(max_examples=10)
@given(p=distinct_roots(complex_coefficients=True))
def test_roots_of_complex_polynomials(p):
    assert_matches(tg.roots(tg.tensor(p)), np.roots(p), rtol=1e-9, atol=1e-12)
    gradcheck(_ordered_roots, [tg.tensor(p)])


def test_roots_gradient_is_the_implicit_function_theorem():
    # p(r) = 0, so dr/dp_k = -r**(n-k) / p'(r): for (x - 1)(x - 2) = x**2 - 3x + 2
    p = tg.tensor([1.0, -3.0, 2.0])
    np.testing.assert_allclose(tg.jacobian(tg.roots)(p).numpy(), [[-4, -2, -1], [1, 1, 1]])


def test_roots_drops_leading_zeros_and_keeps_trailing_ones_as_zero_roots():
    p = np.array([0.0, 0.0, 1.0, -3.0, 2.0, 0.0, 0.0])
    assert_matches(tg.roots(tg.tensor(p)), np.roots(p), rtol=1e-12)
    zeros = tg.zeros(2)  # constant: perturbing a zero coefficient changes the degree
    gradcheck(lambda q: tg.roots(tg.concatenate([zeros, q, zeros])), [tg.tensor(p[2:5])])
    for constant in ([3.0], [0.0, 0.0], [0.0, 2.0]):
        assert_matches(tg.roots(tg.tensor(constant)), np.roots(constant))
    assert_matches(tg.roots(tg.tensor([1, -3, 2])), np.roots([1, -3, 2]))  # integers


def test_a_repeated_root_has_a_nan_gradient():
    # (x - 1)**2: the roots split as sqrt(perturbation), with no derivative; where the
    # computed roots are equal tapegrad says NaN rather than a finite number (even for a
    # symmetric function of them, which the companion matrix's eigenvalues cannot give).
    p = tg.tensor([1.0, -2.0, 1.0])
    np.testing.assert_array_equal(tg.roots(p).numpy(), [1.0, 1.0])
    g = tg.grad(lambda a: tg.sum(tg.roots(a) ** 2))(p)
    assert np.all(np.isnan(g.numpy()))


def test_a_nearly_repeated_pair_keeps_exact_gradients_of_the_computed_roots():
    # (x - 1)**2 (x - 2) comes out as 2 and 1 +- 3e-8 i: distinct roots, exact gradients for
    # them. The simple root's is the implicit function theorem's; the pair's real parts (the
    # pair's mean, smooth in p) have an ordinary gradient; the imaginary parts a huge one.
    q = tg.tensor([1.0, -4.0, 5.0, -2.0])
    found = tg.roots(q).numpy()
    simple = np.isclose(found.real, 2.0)
    real_rows = tg.jacobian(lambda a: tg.real(tg.roots(a)))(q).numpy()
    np.testing.assert_allclose(real_rows[simple], [[-8, -4, -2, -1]], rtol=1e-6)
    np.testing.assert_allclose(real_rows[~simple], [[2, 1.5, 1, 0.5]] * 2, rtol=1e-6)
    imag_rows = tg.jacobian(lambda a: tg.imag(tg.roots(a)))(q).numpy()
    assert np.all(np.abs(imag_rows[~simple]) > 1e6)


def test_characteristic_polynomial_of_a_matrix():
    a = np.array([[1.0, 2.0], [3.0, 4.0]])
    assert_matches(tg.poly(tg.tensor(a)), np.poly(a), rtol=1e-12)
    gradcheck(tg.poly, [tg.tensor(a)])  # det and trace: smooth in a
    z = np.array([1j, -1j, 2.0])
    assert_matches(tg.poly(tg.tensor(z)), np.poly(z), rtol=1e-12)  # real: conjugate pairs
