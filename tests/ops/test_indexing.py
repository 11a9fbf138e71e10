"""Property-based gradient checks of tapegrad/ops/indexing.py: getitem, take,
take_along_axis and their adjoint index_add (repeated indices accumulate)."""

import numpy as np
import pytest
from helpers import assert_dtype, assert_matches, value_and_gradients
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


def _check(op, reference, x):
    assert_matches(op(x), reference(x.numpy()))
    gradcheck(op, [x])
    gradgradcheck(lambda a: op(a) ** 2, [x])


def _draw_tensor(data, backend, shape):
    return backend.tensor(data.draw(tst.arrays(shape), label="x"))


@given(data=tst.st.data())
def test_basic_indices(backend, data):
    # Integers (negative too), slices with any step, None and Ellipsis.
    x = _draw_tensor(data, backend, tst.shapes(max_side=3))
    index = data.draw(hnp.basic_indices(x.shape, allow_newaxis=True), label="index")
    _check(lambda a: a[index], lambda a: a[index], x)


@given(data=tst.st.data())
def test_integer_array_indices_accumulate(backend, data):
    x = _draw_tensor(data, backend, tst.shapes(min_dims=1, max_side=3))
    index = data.draw(hnp.integer_array_indices(x.shape, result_shape=tst.shapes(max_dims=2)))
    _check(lambda a: a[index], lambda a: a[index], x)
    _, (g,) = value_and_gradients(lambda a: a[index], x)
    counts = np.zeros(x.shape)
    np.add.at(counts, index, 1.0)
    np.testing.assert_array_equal(g.numpy(), counts)


@given(data=tst.st.data())
def test_boolean_masks(backend, data):
    x = _draw_tensor(data, backend, tst.shapes(max_side=3))
    lead = data.draw(st.integers(0, x.ndim), label="mask dims")
    mask = data.draw(hnp.arrays(np.bool_, x.shape[:lead]), label="mask") if lead else None
    if mask is None:
        mask = np.asarray(data.draw(st.booleans(), label="mask"))
    _check(lambda a: a[mask], lambda a: a[mask], x)
    _check(lambda a: a[backend.tensor(mask)], lambda a: a[mask], x)


@pytest.mark.parametrize(
    ("index", "expected"),
    [
        ([0, 0, 1], [2.0, 1.0, 0.0]),
        ([-1, 2, -1, 0], [1.0, 0.0, 3.0]),
        (np.array([[1, 1], [1, 0]]), [1.0, 3.0, 0.0]),
        ([True, False, True], [1.0, 0.0, 1.0]),
        (slice(None, None, -2), [1.0, 0.0, 1.0]),
        ((Ellipsis, None, 1), [0.0, 1.0, 0.0]),
        (-2, [0.0, 1.0, 0.0]),
    ],
    ids=["duplicates", "negative", "2d-index", "mask", "reversed-step", "ellipsis-none", "int"],
)
def test_index_gradients(index, expected, backend):
    x = backend.tensor(np.array([1.0, 2.0, 3.0]))
    _, (g,) = value_and_gradients(lambda a: a[index], x)
    np.testing.assert_array_equal(g.numpy(), expected)


def test_mixed_slices_and_arrays_accumulate(backend):
    x = backend.tensor(np.arange(12.0).reshape(3, 4))
    index = (slice(1, None), [0, 0, 3])
    assert_matches(x[index], x.numpy()[index])
    _, (g,) = value_and_gradients(lambda a: a[index], x)
    np.testing.assert_array_equal(g.numpy(), [[0, 0, 0, 0], [2, 0, 0, 1], [2, 0, 0, 1]])


def test_index_with_an_integer_tensor(backend):
    x = backend.tensor(np.array([1.0, 2.0, 3.0]))
    index = backend.tensor(np.array([2, 2]))
    assert_matches(x[index], np.array([3.0, 3.0]))
    _, (g,) = value_and_gradients(lambda a: a[index], x)
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0, 2.0])


def test_out_of_range_index_names_getitem():
    with pytest.raises(IndexError, match="getitem"):
        tg.tensor(np.ones(3))[[0, 5]]


@given(data=tst.st.data())
def test_take(backend, data):
    x = _draw_tensor(data, backend, tst.shapes(max_side=3))
    axis = data.draw(st.none() | st.integers(-x.ndim, x.ndim - 1) if x.ndim else st.none())
    n = x.size if axis is None else x.shape[axis]
    shape = data.draw(tst.shapes(max_dims=2, max_side=3), label="indices shape")
    indices = data.draw(hnp.arrays(np.int64, shape, elements=st.integers(-n, n - 1)), label="idx")
    _check(lambda a: tg.take(a, indices, axis=axis), lambda a: np.take(a, indices, axis=axis), x)
    assert_matches(x.take(indices, axis=axis), np.take(x.numpy(), indices, axis=axis))


def test_take_duplicates_accumulate(backend):
    x = backend.tensor(np.arange(6.0).reshape(2, 3))
    _, (g,) = value_and_gradients(lambda a: tg.take(a, [2, 2, 0], axis=1), x)
    np.testing.assert_array_equal(g.numpy(), [[1, 0, 2], [1, 0, 2]])
    _, (g,) = value_and_gradients(lambda a: tg.take(a, [5, 5, 5]), x)
    np.testing.assert_array_equal(g.numpy(), [[0, 0, 0], [0, 0, 3]])


@given(data=tst.st.data())
def test_take_along_axis(backend, data):
    x = _draw_tensor(data, backend, tst.shapes(min_dims=1, max_side=3))
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1), label="axis")
    n = x.shape[axis]
    length = data.draw(st.integers(1, 4), label="length")
    shape = tuple(length if d == axis % x.ndim else s for d, s in enumerate(x.shape))
    indices = data.draw(hnp.arrays(np.int64, shape, elements=st.integers(0, n - 1)), label="idx")
    _check(
        lambda a: tg.take_along_axis(a, indices, axis=axis),
        lambda a: np.take_along_axis(a, indices, axis=axis),
        x,
    )


def test_take_along_axis_duplicates_accumulate(backend):
    x = backend.tensor(np.array([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]]))
    indices = np.array([[1, 1], [2, 0]])
    _, (g,) = value_and_gradients(lambda a: tg.take_along_axis(a, indices, axis=1), x)
    np.testing.assert_array_equal(g.numpy(), [[0, 2, 0], [1, 0, 1]])


def test_take_along_axis_rank_mismatch_names_the_shapes():
    with pytest.raises(ValueError, match=r"take_along_axis: indices of shape \(2,\)"):
        tg.take_along_axis(tg.tensor(np.ones((2, 3))), np.array([0, 1]), axis=1)


@given(data=tst.st.data())
def test_index_add(backend, data):
    shape = data.draw(tst.shapes(min_dims=1, max_side=3), label="shape")
    index = data.draw(hnp.integer_array_indices(shape, result_shape=tst.shapes(max_dims=2)))
    values_shape = np.zeros(shape)[index].shape
    values = _draw_tensor(data, backend, values_shape)

    def reference(v):
        out = np.zeros(shape)
        np.add.at(out, index, v)
        return out

    _check(lambda v: tg.index_add(v, shape, index), reference, values)


def test_index_add_with_slices(backend):
    values = backend.tensor(np.ones((2, 2)))
    out = tg.index_add(values, (3, 3), (slice(1, None), slice(None, 2)))
    np.testing.assert_array_equal(out.numpy(), [[0, 0, 0], [1, 1, 0], [1, 1, 0]])
    gradcheck(lambda v: tg.index_add(v, (3, 3), (slice(1, None), slice(None, 2))), [values])


@pytest.mark.parametrize(
    "op",
    [
        lambda a: a[[0, 0]],
        lambda a: a[1:],
        lambda a: a[a > 1.5],
        lambda a: tg.take(a, [1, 1]),
        lambda a: tg.take_along_axis(a, np.array([2, 0]), 0),
    ],
    ids=["array", "slice", "mask", "take", "take_along_axis"],
)
def test_float32_stays_float32(op, backend):
    x = backend.tensor(np.array([1.0, 2.0, 3.0], dtype=np.float32))
    y, (g,) = value_and_gradients(op, x)
    assert_dtype(np.float32, y, g)
    assert g.shape == (3,)


@pytest.mark.parametrize(
    ("index", "shape"),
    [
        (lambda x: x[[]], (0, 3)),
        (lambda x: x[:, []], (2, 0)),
        (lambda x: tg.take(x, []), (0,)),
        (lambda x: tg.take(x, [], axis=1), (2, 0)),
        (lambda x: tg.take_along_axis(x, np.zeros((2, 0), dtype=int), axis=1), (2, 0)),
    ],
)
def test_empty_index_lists_select_nothing(index, shape):
    # Issue 11, item 4: an empty list became a float64 array, which NumPy refuses.
    x = tg.tensor(np.arange(6.0).reshape(2, 3))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = index(x)
        total = tg.sum(y)
    assert y.shape == shape
    assert tape.gradient(total, x).numpy().tolist() == [[0.0] * 3] * 2
