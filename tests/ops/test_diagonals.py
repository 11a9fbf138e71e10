"""Gradient checks of tapegrad/ops/diagonals.py and selection.py."""

import numpy as np
import pytest
from helpers import assert_matches, value_and_gradients
from hypothesis import given, settings

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

MASK = np.array(
    [[True, False, True, False], [False, False, True, True], [True, True, False, False]]
)
CALLS = {
    "diagonal": (lambda x: tg.diagonal(x), lambda a: np.diagonal(a)),
    "diagonal-offset": (lambda x: tg.diagonal(x, 1), lambda a: np.diagonal(a, 1)),
    "diagonal-below": (lambda x: tg.diagonal(x, -1), lambda a: np.diagonal(a, -1)),
    "diagonal-3d": (
        lambda x: tg.diagonal(tg.reshape(x, (2, 3, 2)), 0, 2, 0),
        lambda a: np.diagonal(a.reshape(2, 3, 2), 0, 2, 0),
    ),
    "trace": (lambda x: tg.trace(x, 1), lambda a: np.trace(a, 1)),
    "diag-vector": (lambda x: tg.diag(x[0], -1), lambda a: np.diag(a[0], -1)),
    "diag-matrix": (lambda x: tg.diag(x, 2), lambda a: np.diag(a, 2)),
    "diagflat": (lambda x: tg.diagflat(x[:2, :2], 1), lambda a: np.diagflat(a[:2, :2], 1)),
    "tril": (lambda x: tg.tril(x), lambda a: np.tril(a)),
    "tril-k": (lambda x: tg.tril(x, -1), lambda a: np.tril(a, -1)),
    "triu": (lambda x: tg.triu(x, 1), lambda a: np.triu(a, 1)),
    "triu-1d": (lambda x: tg.triu(x[0]), lambda a: np.triu(a[0])),
    "select": (
        lambda x: tg.select([MASK, MASK[::-1]], [x * 2, -x], default=0.25),
        lambda a: np.select([MASK, MASK[::-1]], [a * 2, -a], default=0.25),
    ),
    "choose": (
        lambda x: tg.choose([[0, 1, 0, 1]], [x[0], x[1], x[2]]),
        lambda a: np.choose([[0, 1, 0, 1]], [a[0], a[1], a[2]]),
    ),
    "choose-wrap": (
        lambda x: tg.choose([3, -1, 4, 0], x, mode="wrap"),
        lambda a: np.choose([3, -1, 4, 0], a, mode="wrap"),
    ),
    "compress": (
        lambda x: tg.compress([True, False, True], x, axis=0),
        lambda a: np.compress([True, False, True], a, axis=0),
    ),
    "extract": (lambda x: tg.extract(MASK, x), lambda a: np.extract(MASK, a)),
    "piecewise": (
        lambda x: tg.piecewise(x, [MASK, MASK[::-1]], [lambda t: t * t, 1.0, lambda t: -t]),
        lambda a: np.piecewise(a, [MASK, MASK[::-1]], [lambda t: t * t, 1.0, lambda t: -t]),
    ),
    "trim_zeros": (
        lambda x: tg.trim_zeros(tg.pad(x, 1), axis=0),
        lambda a: np.trim_zeros(np.pad(a, 1), axis=0),
    ),
}


def _put_along(values, indices, source, axis):
    out = values.copy()
    np.put_along_axis(out, indices, source, axis)
    return out


FUNCTIONAL = {
    "put_along_axis": (
        lambda x: tg.put_along_axis(x, [[1], [3], [0]], x[:, :1] * 3, 1, inplace=False),
        lambda a: _put_along(a, np.array([[1], [3], [0]]), a[:, :1] * 3, 1),
    ),
    "put": (
        lambda x: tg.put(x, [0, 5, 5], x[1, :3], inplace=False),
        lambda a: (lambda o: (np.put(o, [0, 5, 5], a[1, :3]), o)[1])(a.copy()),
    ),
    "place": (
        lambda x: tg.place(x, MASK, x[0, :2] - 1, inplace=False),
        lambda a: (lambda o: (np.place(o, MASK, a[0, :2] - 1), o)[1])(a.copy()),
    ),
    "fill_diagonal": (
        lambda x: tg.fill_diagonal(x, x[2, :2], inplace=False),
        lambda a: (lambda o: (np.fill_diagonal(o, a[2, :2]), o)[1])(a.copy()),
    ),
}


@pytest.mark.parametrize("name", sorted(CALLS) + sorted(FUNCTIONAL))
@settings(max_examples=5)
@given(data=tst.st.data())
def test_value_and_derivatives(name, backend, data):
    ours, numpys = {**CALLS, **FUNCTIONAL}[name]
    values = data.draw(tst.arrays((3, 4), domain="nonzero"), label="x")
    x = backend.tensor(values)
    assert_matches(ours(x), numpys(values))
    gradcheck(ours, [x])
    gradgradcheck(lambda a: ours(a * a), [x])


def test_put_along_axis_gives_the_gradient_to_the_last_write():
    x, v = tg.tensor(np.zeros(4)), tg.tensor([1.0, 2.0])
    out, (gx, gv) = value_and_gradients(
        lambda a, b: tg.put_along_axis(a, [2, 2], b, 0, inplace=False), x, v
    )
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, 2.0, 0.0])
    np.testing.assert_array_equal(gx.numpy(), [1.0, 1.0, 0.0, 1.0])
    np.testing.assert_array_equal(gv.numpy(), [0.0, 1.0])


def test_in_place_forms_need_inplace_false():
    with pytest.raises(TypeError, match="inplace=False"):
        tg.put(tg.zeros(3), [0], 1.0)


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda x: tg.nonzero(x), lambda a: np.nonzero(a)),
        (lambda x: (tg.argwhere(x),), lambda a: (np.argwhere(a),)),
        (lambda x: (tg.flatnonzero(x),), lambda a: (np.flatnonzero(a),)),
    ],
    ids=["nonzero", "argwhere", "flatnonzero"],
)
def test_nonzero_family(call, expected, backend):
    values = np.array([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])
    for got, want in zip(call(backend.tensor(values)), expected(values)):
        assert_matches(got, want)


def test_nonzero_of_0d_input_raises_as_numpy():
    with pytest.raises(ValueError, match="nonzero: a 0-d input"):
        tg.nonzero(tg.tensor(1.0))
