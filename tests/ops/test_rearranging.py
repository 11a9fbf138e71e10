"""Property-based gradient checks of tapegrad/ops/rearranging.py and joining.py."""

import numpy as np
import pytest
from helpers import assert_matches, value_and_gradients
from hypothesis import given, settings

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

# name: (tapegrad call, NumPy call), each of one array of shape (2, 3, 4)
CALLS = {
    "ravel": (lambda x: tg.ravel(x), lambda a: np.ravel(a)),
    "ravel-F": (lambda x: tg.ravel(x, order="F"), lambda a: np.ravel(a, order="F")),
    "copy": (tg.copy, np.copy),
    "moveaxis": (
        lambda x: tg.moveaxis(x, [0, 2], [1, 0]),
        lambda a: np.moveaxis(a, [0, 2], [1, 0]),
    ),
    "rollaxis": (lambda x: tg.rollaxis(x, 2, 1), lambda a: np.rollaxis(a, 2, 1)),
    "roll": (lambda x: tg.roll(x, 2), lambda a: np.roll(a, 2)),
    "roll-axes": (lambda x: tg.roll(x, (1, -5), (1, 2)), lambda a: np.roll(a, (1, -5), (1, 2))),
    "rot90": (lambda x: tg.rot90(x), lambda a: np.rot90(a)),
    "rot90-k3": (lambda x: tg.rot90(x, 3, (2, 0)), lambda a: np.rot90(a, 3, (2, 0))),
    "rot90-k2": (lambda x: tg.rot90(x, -2), lambda a: np.rot90(a, -2)),
    "fliplr": (tg.fliplr, np.fliplr),
    "flipud": (tg.flipud, np.flipud),
    "matrix_transpose": (tg.matrix_transpose, np.matrix_transpose),
    "atleast_3d": (lambda x: tg.atleast_3d(x[0, 0]), lambda a: np.atleast_3d(a[0, 0])),
    "atleast_2d": (lambda x: tg.atleast_2d(x[0, 0]), lambda a: np.atleast_2d(a[0, 0])),
    "unstack": (lambda x: tg.unstack(x, axis=1)[2], lambda a: np.unstack(a, axis=1)[2]),
    "resize": (lambda x: tg.resize(x, (5, 7)), lambda a: np.resize(a, (5, 7))),
    "broadcast_arrays": (
        lambda x: tg.broadcast_arrays(x[:, :1], x[0])[0],
        lambda a: np.broadcast_arrays(a[:, :1], a[0])[0],
    ),
    "hstack": (lambda x: tg.hstack([x, x[:, :1]]), lambda a: np.hstack([a, a[:, :1]])),
    "hstack-1d": (lambda x: tg.hstack([x[0, 0], x[1, 1]]), lambda a: np.hstack([a[0, 0], a[1, 1]])),
    "vstack": (lambda x: tg.vstack([x[0, 0], x[0]]), lambda a: np.vstack([a[0, 0], a[0]])),
    "row_stack": (lambda x: tg.row_stack([x[0], x[1]]), lambda a: np.vstack([a[0], a[1]])),
    "dstack": (lambda x: tg.dstack([x[0], x[1]]), lambda a: np.dstack([a[0], a[1]])),
    "dstack-1d": (lambda x: tg.dstack([x[0, 0], x[1, 1]]), lambda a: np.dstack([a[0, 0], a[1, 1]])),
    "column_stack": (
        lambda x: tg.column_stack([x[0, :, 0], x[0, :, :2]]),
        lambda a: np.column_stack([a[0, :, 0], a[0, :, :2]]),
    ),
    "append": (lambda x: tg.append(x, x), lambda a: np.append(a, a)),
    "append-axis": (lambda x: tg.append(x, x[:1], axis=0), lambda a: np.append(a, a[:1], axis=0)),
    "block": (
        lambda x: tg.block([[x[0], x[1]], [x[1], 2.0 * x[0]]]),
        lambda a: np.block([[a[0], a[1]], [a[1], 2.0 * a[0]]]),
    ),
    "insert": (
        lambda x: tg.insert(x, [1, 1, 3], 9.0, axis=2),
        lambda a: np.insert(a, [1, 1, 3], 9.0, axis=2),
    ),
    "insert-values": (
        lambda x: tg.insert(x[0], 2, x[1, :, 0], axis=1),
        lambda a: np.insert(a[0], 2, a[1, :, 0], axis=1),
    ),
    "insert-flat": (lambda x: tg.insert(x, 5, [7.0, 8.0]), lambda a: np.insert(a, 5, [7.0, 8.0])),
    "delete": (lambda x: tg.delete(x, [0, 2], axis=2), lambda a: np.delete(a, [0, 2], axis=2)),
    "delete-flat": (lambda x: tg.delete(x, slice(2, 9)), lambda a: np.delete(a, slice(2, 9))),
    "array_split": (
        lambda x: tg.array_split(x, 3, axis=2)[2],
        lambda a: np.array_split(a, 3, axis=2)[2],
    ),
    "hsplit": (lambda x: tg.hsplit(x, [1])[1], lambda a: np.hsplit(a, [1])[1]),
    "vsplit": (lambda x: tg.vsplit(x, 2)[1], lambda a: np.vsplit(a, 2)[1]),
    "dsplit": (lambda x: tg.dsplit(x, 2)[0], lambda a: np.dsplit(a, 2)[0]),
}


# The layouts do not depend on the values: a few examples check the rules.
@pytest.mark.parametrize("name", sorted(CALLS))
@settings(max_examples=3)
@given(data=tst.st.data())
def test_value_and_derivatives(name, backend, data):
    ours, numpys = CALLS[name]
    x = backend.tensor(data.draw(tst.arrays((2, 3, 4)), label="x"))
    assert_matches(ours(x), numpys(x.numpy()))
    gradcheck(ours, [x])
    gradgradcheck(lambda a: ours(a * a), [x])


@given(data=tst.st.data())
def test_roll_and_moveaxis_on_random_shapes(backend, data):
    x = backend.tensor(data.draw(tst.arrays(tst.shapes(min_dims=1)), label="x"))
    shift = data.draw(tst.st.integers(-5, 5), label="shift")
    axis = data.draw(tst.st.integers(-x.ndim, x.ndim - 1), label="axis")
    assert_matches(tg.roll(x, shift, axis), np.roll(x.numpy(), shift, axis))
    assert_matches(tg.moveaxis(x, axis, 0), np.moveaxis(x.numpy(), axis, 0))
    gradcheck(lambda a: tg.roll(a, shift, axis), [x])


def test_copy_keeps_a_variables_value_and_passes_the_gradient():
    v = tg.Variable([1.0, 2.0])
    with tg.GradientTape() as tape:
        y = tg.copy(v) * 3.0
    assert tape.gradient(y, v).numpy().tolist() == [3.0, 3.0]
    snapshot = tg.copy(v)
    v.assign([5.0, 6.0])
    assert snapshot.numpy().tolist() == [1.0, 2.0]


def test_insert_of_a_broadcast_value_accumulates_its_gradient(backend):
    x, v = backend.tensor(np.zeros((2, 3))), backend.tensor(np.array(1.5))
    out, (gx, gv) = value_and_gradients(lambda a, b: tg.insert(a, [0, 2], b, axis=1), x, v)
    assert_matches(out, np.insert(np.zeros((2, 3)), [0, 2], 1.5, axis=1))
    assert gv.item() == 4.0  # placed four times
    np.testing.assert_array_equal(gx.numpy(), np.ones((2, 3)))


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda x: tg.moveaxis(x, [0, 1], [0]), "moveaxis: source"),
        (lambda x: tg.rot90(x, axes=(0, 0)), "rot90: axes"),
        (lambda x: tg.fliplr(x[0, 0]), "fliplr: the input must be at least 2-d"),
        (lambda x: tg.vsplit(x[0, 0], 2), "vsplit: the input must be at least 2-d"),
        (lambda x: tg.dsplit(x, 3), "dsplit: array split does not result"),
        (lambda x: tg.hstack([]), "hstack: need at least one array"),
    ],
)
def test_bad_input_names_the_op(call, message):
    with pytest.raises(ValueError, match=message):
        call(tg.tensor(np.zeros((2, 3, 4))))
