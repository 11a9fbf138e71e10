"""Tests of tapegrad/ops/complex_parts.py on real and complex values."""

import numpy as np
from helpers import assert_matches, value_and_gradients

import tapegrad as tg


def test_parts_of_real_tensors(backend):
    values = np.array([-1.5, 0.0, 2.0])
    x = backend.tensor(values)
    assert tg.real(x) is x and tg.conj(x) is x
    assert_matches(tg.imag(x), np.imag(values))
    assert_matches(tg.angle(x), np.angle(values))
    assert_matches(tg.angle(x, deg=True), np.angle(values, deg=True))
    _, (g,) = value_and_gradients(lambda a: tg.real(a) * tg.conj(a) + tg.angle(a), x)
    np.testing.assert_array_equal(g.numpy(), 2 * values)


def test_parts_of_complex_values():
    values = np.array([1.0 + 2.0j, -3.0 - 0.5j])
    z = tg.tensor(values)
    assert_matches(tg.real(z), values.real)
    assert_matches(tg.imag(z), values.imag)
    assert_matches(tg.conj(z), values.conj())
    assert_matches(tg.angle(z), np.angle(values))
