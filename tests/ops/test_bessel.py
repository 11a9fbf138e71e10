"""Gradient checks of tapegrad/ops/bessel.py."""

import numpy as np
import pytest
from helpers import assert_matches
from hypothesis import given

import tapegrad as tg
from tapegrad.ops.bessel import _i1_numpy
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

# I1 at a few points (scipy.special.i1's values)
KNOWN_I1 = {0.5: 0.25789430539089636, 1.0: 0.5651591039924851, 2.0: 1.5906368546373295,
            10.0: 2670.988303701255, 20.0: 42454973.385127775}  # fmt: skip


def test_i1_values():
    x = np.array(list(KNOWN_I1))
    np.testing.assert_allclose(_i1_numpy(x), list(KNOWN_I1.values()), rtol=1e-14)
    np.testing.assert_allclose(_i1_numpy(-x), -np.array(list(KNOWN_I1.values())), rtol=1e-14)
    # far out, against differences of NumPy's i0
    far = np.array([21.0, 50.0, 300.0])
    h = 1e-6 * far
    np.testing.assert_allclose(
        _i1_numpy(far), (np.i0(far + h) - np.i0(far - h)) / (2 * h), rtol=1e-7
    )


@given(data=tst.st.data())
def test_i0(backend, data):
    x = backend.tensor(data.draw(tst.arrays(domain="real"), label="x"))
    assert_matches(tg.i0(x), np.i0(x.numpy()), rtol=1e-14)
    gradcheck(tg.i0, [x])
    gradgradcheck(tg.i0, [x])
    gradgradcheck(tg.i1, [x])


@pytest.mark.parametrize("point", [0.0, 1e-5, -2e-3, 19.5, -21.0])
def test_derivatives_near_zero_and_the_series_switch(point):
    gradgradcheck(tg.i1, [np.array([point])])
