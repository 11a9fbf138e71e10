"""Tests of tapegrad/ops/methods.py: NumPy's array methods and operators on Tensors."""

import numpy as np
import pytest
from helpers import value_and_gradients

import tapegrad as tg

VALUES = np.array([[3.5, -1.25, 2.0], [0.5, 4.0, -2.75]])
INTEGERS = np.array([[6, 3, 12], [5, 9, 1]])

METHODS = {
    "ravel": lambda a: a.ravel(),
    "copy": lambda a: a.copy(),
    "conj": lambda a: a.conj(),
    "conjugate": lambda a: a.conjugate(),
    "real": lambda a: a.real,
    "imag": lambda a: a.imag,
    "mT": lambda a: a.mT,
    "cumprod": lambda a: a.cumprod(axis=1),
    "round": lambda a: a.round(1),
    "diagonal": lambda a: a.diagonal(1),
    "trace": lambda a: a.trace(),
    "all": lambda a: a.all(axis=0),
    "any": lambda a: (a > 3).any(),
    "clip": lambda a: a.clip(-1, 1),
    "flatten": lambda a: a.flatten(),
    "argsort": lambda a: a.argsort(axis=0),
    "argpartition": lambda a: a.argpartition(1),
    "searchsorted": lambda a: a[0, [1, 2, 0]].searchsorted(1.0),
    "compress": lambda a: a.compress([True, False, True], axis=1),
    "%": lambda a: a % 1.5,
    "rmod": lambda a: 10.0 % a,
    "//": lambda a: a // 1.5,
    "rfloordiv": lambda a: 10.0 // a,
}
SORTS = {  # not in place on Tensors: they return the result (ptp: NumPy 2 has only np.ptp)
    "ptp": (lambda a: a.ptp(axis=1), lambda a: np.ptp(a, axis=1)),
    "sort": (lambda a: a.sort(axis=0), lambda a: np.sort(a, axis=0)),
    "partition": (lambda a: a.partition(1), lambda a: np.partition(a, 1)),
}


@pytest.mark.parametrize("name", sorted(METHODS))
def test_methods_and_operators_match_numpy(name):
    call = METHODS[name]
    got, expected = call(tg.tensor(VALUES)), call(VALUES.copy())
    np.testing.assert_array_equal(got.numpy(), expected)
    assert got.dtype == np.asarray(expected).dtype


@pytest.mark.parametrize("name", sorted(SORTS))
def test_sorting_methods_return_the_result(name):
    ours, numpys = SORTS[name]
    np.testing.assert_array_equal(ours(tg.tensor(VALUES)).numpy(), numpys(VALUES))


@pytest.mark.parametrize(
    "call",
    [lambda a, b: a & b, lambda a, b: a | b, lambda a, b: a ^ b, lambda a, b: ~a,
     lambda a, b: a << 1, lambda a, b: a >> 1, lambda a, b: 3 & a, lambda a, b: 1 << a],
    ids=["and", "or", "xor", "invert", "lshift", "rshift", "rand", "rlshift"],
)  # fmt: skip
def test_bit_operators(call):
    a, b = INTEGERS, INTEGERS[::-1]
    np.testing.assert_array_equal(call(tg.tensor(a), tg.tensor(b)).numpy(), call(a, b))
    masks = tg.tensor(a > 4), tg.tensor(b > 4)
    np.testing.assert_array_equal((masks[0] & ~masks[1]).numpy(), (a > 4) & ~(b > 4))


def test_divmod_and_nonzero():
    q, r = divmod(tg.tensor(VALUES), 1.5)
    expected = divmod(VALUES, 1.5)
    np.testing.assert_array_equal(q.numpy(), expected[0])
    np.testing.assert_array_equal(r.numpy(), expected[1])
    for got, want in zip(tg.tensor(VALUES).nonzero(), VALUES.nonzero()):
        np.testing.assert_array_equal(got.numpy(), want)


def test_differentiable_methods_and_operators_record():
    x = tg.tensor(VALUES)
    _, (g,) = value_and_gradients(lambda a: (a % 1.5) + a.ravel().reshape(2, 3) + a.trace(), x)
    # the trace is broadcast over the six elements of the sum
    np.testing.assert_array_equal(g.numpy(), [[8.0, 2.0, 2.0], [2.0, 8.0, 2.0]])
    assert x.nbytes == VALUES.nbytes and x.itemsize == 8 and x.tolist() == VALUES.tolist()
