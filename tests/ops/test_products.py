"""Gradient checks of tapegrad/ops/products.py."""

import numpy as np
import pytest
from helpers import assert_matches
from hypothesis import given, settings

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

# name: (tapegrad call, NumPy call, shapes of the two inputs)
CALLS = {
    "tensordot": (
        lambda a, b: tg.tensordot(a, b, 1),
        lambda a, b: np.tensordot(a, b, 1),
        ((2, 3), (3, 2)),
    ),
    "tensordot-pairs": (
        lambda a, b: tg.tensordot(a, b, ([0, 2], [2, 0])),
        lambda a, b: np.tensordot(a, b, ([0, 2], [2, 0])),
        ((2, 3, 2), (2, 1, 2)),
    ),
    "inner": (tg.inner, np.inner, ((2, 3), (4, 3))),
    "inner-0d": (tg.inner, np.inner, ((), (3,))),
    "vdot": (tg.vdot, np.vdot, ((2, 3), (3, 2))),
    "vecdot": (tg.vecdot, np.vecdot, ((2, 3), (3,))),
    "matvec": (tg.matvec, np.matvec, ((2, 2, 3), (3,))),
    "vecmat": (tg.vecmat, np.vecmat, ((3,), (2, 3, 2))),
    "kron": (tg.kron, np.kron, ((2, 3), (2, 2))),
    "kron-ranks": (tg.kron, np.kron, ((3,), (2, 2))),
    "cross": (tg.cross, np.cross, ((2, 3), (3,))),
    "cross-axis": (
        lambda a, b: tg.cross(a, b, axisa=0, axisc=0),
        lambda a, b: np.cross(a, b, axisa=0, axisc=0),
        ((3, 2), (2, 3)),
    ),
    "convolve": (tg.convolve, np.convolve, ((4,), (3,))),
    "convolve-same": (
        lambda a, b: tg.convolve(a, b, "same"),
        lambda a, b: np.convolve(a, b, "same"),
        ((3,), (5,)),
    ),
    "convolve-valid": (
        lambda a, b: tg.convolve(a, b, "valid"),
        lambda a, b: np.convolve(a, b, "valid"),
        ((5,), (2,)),
    ),
    "correlate": (tg.correlate, np.correlate, ((5,), (3,))),
    "correlate-full": (
        lambda a, b: tg.correlate(a, b, "full"),
        lambda a, b: np.correlate(a, b, "full"),
        ((2,), (4,)),
    ),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@settings(max_examples=5)
@given(data=tst.st.data())
def test_value_and_derivatives(name, backend, data):
    ours, numpys, shapes = CALLS[name]
    a = backend.tensor(data.draw(tst.arrays(shapes[0]), label="a"))
    b = backend.tensor(data.draw(tst.arrays(shapes[1]), label="b"))
    assert_matches(ours(a, b), numpys(a.numpy(), b.numpy()), rtol=1e-10, atol=1e-12)
    gradcheck(ours, [a, b])
    gradgradcheck(ours, [a, b])


def test_cross_of_2_vectors_gives_the_z_component():
    a, b = tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0])
    assert tg.cross(a, b).item() == -2.0
