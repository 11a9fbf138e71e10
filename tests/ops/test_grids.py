"""Gradient checks of tapegrad/ops/grids.py, interpolation.py and polynomials.py."""

import numpy as np
import pytest
from helpers import assert_matches, value_and_gradients
from hypothesis import given, settings

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
