"""Tests of tapegrad/numpy/_arrays.py: array creation that keeps the gradient of Tensors
inside lists, full, r_/c_, and the functional forms of the in-place writers."""

import numpy as np
import pytest
from helpers import value_and_gradients

import tapegrad as tg
import tapegrad.numpy as tnp
from tapegrad.testing import gradcheck, gradgradcheck


@pytest.mark.parametrize(
    "structure",
    [
        lambda a, b: [a, b],
        lambda a, b: [[a, 1.0], [b, a * b]],
        lambda a, b: ([a, b], (b, 2.0)),
        lambda a, b: [a[None], np.array([5.0])],
        lambda a, b: [[a, b], [b, a]],
    ],
    ids=["flat", "nested-with-constants", "tuples", "arrays", "2x2"],
)
@pytest.mark.parametrize("dtype", [None, np.float32])
def test_array_of_nested_lists_matches_numpy_and_differentiates(structure, dtype):
    a, b = np.array(0.3), np.array(-1.2)
    expected = np.array(structure(a, b), dtype=dtype)
    got = tnp.array(structure(tg.tensor(a), tg.tensor(b)), dtype=dtype)
    assert isinstance(got, tg.Tensor) and got.dtype == expected.dtype
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)
    if dtype is None:
        gradcheck(lambda p, q: tnp.array(structure(p, q)), [a, b])
        gradgradcheck(lambda p, q: tnp.array(structure(p * p, q)), [a, b])


def test_array_of_vectors_and_ndmin():
    rows = [tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0])]
    np.testing.assert_array_equal(
        tnp.array(rows, ndmin=3).numpy(), np.array([[1, 2], [3, 4.0]], ndmin=3)
    )
    with pytest.raises(ValueError):
        tnp.array([tg.tensor([1.0, 2.0]), tg.tensor([3.0])])  # ragged, as NumPy refuses


def test_plain_inputs_give_numpys_own_results():
    for call in (tnp.array, tnp.asarray, tnp.asanyarray, tnp.ascontiguousarray):
        out = call([[1, 2], [3, 4]])
        assert type(out) is np.ndarray and out.dtype == np.array([[1, 2]]).dtype
    assert type(tnp.full((2,), 3.0)) is np.ndarray
    assert type(tnp.stack([np.ones(2), np.zeros(2)])) is np.ndarray
    assert type(tnp.r_[0:3, 5]) is np.ndarray
    np.testing.assert_array_equal(tnp.c_[np.ones(2), np.zeros(2)], np.c_[np.ones(2), np.zeros(2)])


def test_asarray_returns_a_tensor_itself_and_array_copies_a_variable():
    x = tg.tensor([1.0])
    assert tnp.asarray(x) is x
    v = tg.Variable([1.0, 2.0])
    snapshot = tnp.array(v)
    v.assign([3.0, 4.0])
    assert snapshot.numpy().tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="infs or NaNs"):
        tnp.asarray_chkfinite(tg.tensor([1.0, np.inf]))


def test_full_and_full_like_with_a_tensor_fill_value():
    x = tg.tensor(1.5)
    out, (g,) = value_and_gradients(lambda t: tnp.full((2, 3), t), x)
    np.testing.assert_array_equal(out.numpy(), np.full((2, 3), 1.5))
    assert g.item() == 6.0
    out, (g,) = value_and_gradients(lambda t: tnp.full_like(np.zeros((2, 2)), t), x)
    assert out.shape == (2, 2) and g.item() == 4.0
    assert tnp.full_like(tg.tensor([1, 2]), 7).numpy().tolist() == [7, 7]


def test_stack_of_nested_lists():
    a, b = tg.tensor(1.0), tg.tensor(2.0)
    out, grads = value_and_gradients(lambda p, q: tnp.stack([[p, q], [q, p]], axis=1), a, b)
    np.testing.assert_array_equal(out.numpy(), np.stack([[1.0, 2.0], [2.0, 1.0]], axis=1))
    assert [g.item() for g in grads] == [2.0, 2.0]


@pytest.mark.parametrize(
    "key",
    [
        lambda t: (t, 0.5, np.array([7.0, 8.0])),
        lambda t: (t, slice(0, 3)),
        lambda t: ("0,2", t, t * 2),
        lambda t: ("1,2,0", t, t * 2),
        lambda t: ([t[0], 9.0], t),
    ],
    ids=["scalars", "slice", "directive", "directive-axis", "list"],
)
def test_r_matches_numpy_and_differentiates(key):
    values = np.array([0.5, -1.0, 2.0])
    expected = np.r_[key(values)]
    got = tnp.r_[key(tg.tensor(values))]
    np.testing.assert_allclose(got.numpy(), expected)
    assert got.dtype == expected.dtype
    gradcheck(lambda t: tnp.r_[key(t)], [values])


def test_c_matches_numpy_and_differentiates():
    values = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(
        tnp.c_[tg.tensor(values), values * 2].numpy(), np.c_[values, values * 2]
    )
    gradcheck(lambda t: tnp.c_[t, t * t, np.ones(3)], [values])


@pytest.mark.parametrize("name", ["put", "put_along_axis", "place", "fill_diagonal"])
def test_in_place_writers_on_tensors_need_inplace_false(name):
    x = tg.tensor(np.zeros((2, 2)))
    args = {
        "put": ([0], 1.0),
        "put_along_axis": (np.array([[0], [1]]), 1.0, 1),
        "place": (np.eye(2, dtype=bool), 1.0),
        "fill_diagonal": (1.0,),
    }[name]
    with pytest.raises(TypeError, match="inplace=False"):
        getattr(tnp, name)(x, *args)
    with pytest.raises(TypeError, match=f"numpy.{name} writes into its argument in place"):
        getattr(np, name)(x, *args)
    out = getattr(tnp, name)(x, *args, inplace=False)
    plain = np.zeros((2, 2))
    assert getattr(tnp, name)(plain, *args) is None  # NumPy's own, in place
    np.testing.assert_array_equal(out.numpy(), plain)


def test_vectorize_differentiates_through_the_python_function():
    def piecewise(v, w):
        return v * w if v > 0 else -v  # Python control flow on each element's value

    f = tnp.vectorize(piecewise)
    x = tg.tensor([[1.0, -2.0], [0.5, 3.0]])
    w = tg.tensor([2.0, -1.0])  # broadcast against x, as np.vectorize broadcasts
    expected = np.vectorize(piecewise)(x.numpy(), w.numpy())
    np.testing.assert_array_equal(np.asarray(f(x, w)), expected)
    gradcheck(f, [x, w])
    gradgradcheck(lambda x: f(x, w) ** 2, [x])
    # several outputs, excluded arguments, and NumPy's own results for plain values
    both = tnp.vectorize(lambda v, scale: (v * scale, v + scale), excluded={"scale"})
    first, second = both(x, scale=3.0)
    assert np.asarray(first).tolist() == (x.numpy() * 3).tolist()
    assert np.asarray(second).tolist() == (x.numpy() + 3).tolist()
    assert type(f([1.0, -2.0], 2.0)) is np.ndarray
    with pytest.raises(NotImplementedError, match="signature"):
        tnp.vectorize(np.sum, signature="(n)->()")(x)
