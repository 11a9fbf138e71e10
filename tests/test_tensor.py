"""Tensor and Variable (docs/decisions.md, "Tensors and Variables")."""

import numpy as np
import pytest

import tapegrad as tg


def test_dtype_rules_follow_numpy():
    assert tg.tensor(1.5).dtype == np.float64
    assert tg.tensor([1, 2]).dtype == np.int64
    assert tg.tensor(np.float32(1.0)).dtype == np.float32
    assert tg.tensor([1, 2], dtype=np.float32).dtype == np.float32
    x = tg.tensor(np.ones(2, dtype=np.float32))
    assert (x * 2.0).dtype == np.float32
    assert (2.0 - x).dtype == np.float32
    assert (x / 3).dtype == np.float32


def test_tensor_copies_its_data():
    data = np.ones(3)
    t = tg.tensor(data)
    data[0] = 5.0
    assert t.numpy()[0] == 1.0


def test_metadata():
    t = tg.tensor(np.zeros((2, 3, 4), dtype=np.float32))
    assert t.shape == (2, 3, 4) and t.ndim == 3 and t.size == 24 and len(t) == 2
    assert t.device == "cpu"
    assert t.T.shape == (4, 3, 2)
    with pytest.raises(TypeError, match="0-d"):
        len(tg.tensor(1.0))


def test_leaving_the_tape():
    t = tg.tensor([[1.0, 2.0]])
    assert isinstance(t.numpy(), np.ndarray)
    assert np.asarray(t).tolist() == [[1.0, 2.0]]
    assert tg.tensor(2.5).item() == 2.5
    assert float(tg.tensor(2.5)) == 2.5 and int(tg.tensor(3)) == 3
    assert bool(tg.tensor(1.0)) is True
    assert [2, 3, 4][tg.tensor(1)] == 3


def test_operators_and_reflected_forms():
    x = tg.tensor([1.0, 2.0])
    a = np.array([3.0, 4.0])
    for result, expected in [
        (x + 1, [2, 3]),
        (1 + x, [2, 3]),
        (x - a, [-2, -2]),
        (a - x, [2, 2]),
        (x * a, [3, 8]),
        (a / x, [3, 2]),
        (x**2, [1, 4]),
        (2**x, [2, 4]),
        (-x, [-1, -2]),
        (abs(-x), [1, 2]),
        (+x, [1, 2]),
    ]:
        assert isinstance(result, tg.Tensor)
        np.testing.assert_allclose(result.numpy(), expected)
    m = np.eye(2)
    assert isinstance(m @ x, tg.Tensor) and isinstance(x @ m, tg.Tensor)


def test_reflected_ndarray_ops_record():
    x = tg.tensor([1.0, 2.0])
    a = np.array([3.0, 4.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = np.sum(a * x + a @ x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), a + 2 * a)


def test_comparisons_are_boolean_and_record_nothing():
    x = tg.tensor([1.0, 2.0, 3.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        masks = [x < 2, x <= 2, x > 2, x >= 2, x == 2, x != 2]
    assert len(tape) == 0
    assert all(m.dtype == np.bool_ for m in masks)
    assert (x == 2).numpy().tolist() == [False, True, False]


def test_indexing_forms():
    x = tg.tensor(np.arange(12.0).reshape(3, 4))
    assert x[1].numpy().tolist() == [4, 5, 6, 7]
    assert x[:, 1:3].shape == (3, 2)
    assert x[[0, 0, 2]].shape == (3, 4)
    assert x[x > 5].numpy().tolist() == [6, 7, 8, 9, 10, 11]
    assert x[None, ..., -1].shape == (1, 3)
    assert x[tg.tensor([2, 0])].numpy()[:, 0].tolist() == [8, 0]


def test_iteration_yields_rows():
    rows = list(tg.tensor(np.arange(6.0).reshape(3, 2)))
    assert [r.numpy().tolist() for r in rows] == [[0, 1], [2, 3], [4, 5]]


def test_tensors_are_hashable_by_identity():
    a, b = tg.tensor(1.0), tg.tensor(1.0)
    assert len({a, b}) == 2


def test_method_forms():
    x = tg.tensor(np.arange(1.0, 7.0).reshape(2, 3))
    np.testing.assert_allclose(x.sum(axis=0).numpy(), [5, 7, 9])
    np.testing.assert_allclose(x.mean().numpy(), 3.5)
    np.testing.assert_allclose(x.reshape(3, 2).numpy(), x.numpy().reshape(3, 2))
    np.testing.assert_allclose(x.transpose().numpy(), x.numpy().T)
    np.testing.assert_allclose(x.exp().log().numpy(), x.numpy())
    np.testing.assert_allclose(x.max(axis=1).numpy(), [3, 6])
    assert x.argmax().item() == 5
    assert x.astype(np.float32).dtype == np.float32
    assert repr(tg.tensor([1.0])) == "tensor([1.], dtype=float64)"


def test_variable_assign_family():
    w = tg.Variable([1.0, 2.0], name="w")
    assert w.version == 0 and w.trainable and w.name == "w"
    w.assign([5.0, 6.0])
    w.assign_add(tg.tensor([1.0, 1.0]))
    w.assign_sub(np.array([2.0, 2.0]))
    assert w.numpy().tolist() == [4.0, 5.0] and w.version == 3
    assert "Variable('w'" in repr(w)


def test_variable_assign_copies():
    w = tg.Variable([0.0, 0.0])
    source = np.array([1.0, 2.0])
    w.assign(source)
    source[0] = 9.0
    assert w.numpy().tolist() == [1.0, 2.0]


def test_numpy_protocol_returns_tensors():
    x = tg.tensor([[1.0, 2.0], [3.0, 4.0]])
    assert isinstance(np.exp(x), tg.Tensor)
    assert np.sum(x, axis=0).numpy().tolist() == [4.0, 6.0]
    assert isinstance(np.ones((2, 2)) @ x, tg.Tensor)


@pytest.mark.parametrize("method", ["assign", "assign_add", "assign_sub"])
def test_variable_update_of_wrong_shape_names_the_method_and_leaves_it_alone(method):
    # A delta that does not broadcast must not surface as NumPy's bare broadcasting error.
    w = tg.Variable([1.0, 2.0], name="w")
    with pytest.raises(ValueError, match=rf"{method}: Variable 'w' is \(2,\) float64, got \(3,\)"):
        getattr(w, method)(np.ones(3))
    assert w.version == 0 and w.numpy().tolist() == [1.0, 2.0]


@pytest.mark.parametrize(
    ("initial", "value"),
    [
        ([1, 2], [1.7, 2.9]),
        ([1, 2], np.array([0.5, 1.5], np.float32)),
        ([1.0, 2.0], np.array([1j, 2.0])),
    ],
    ids=["float-into-int", "float32-into-int", "complex-into-float"],
)
def test_variable_assign_never_truncates_to_a_lower_kind(initial, value):
    # NumPy's cast would silently drop the fraction (or the imaginary part).
    v = tg.Variable(initial, name="v")
    before = v.numpy().copy()
    with pytest.raises(ValueError, match=r"assign: Variable 'v' is \(2,\)"):
        v.assign(value)
    assert v.version == 0 and np.array_equal(v.numpy(), before)


def test_variable_assign_casts_within_a_kind():
    v = tg.Variable(np.zeros(2, np.float32))
    v.assign(np.array([1.5, 2.5]))  # float64 into float32, as optimizers' updates do
    v.assign([3, 4])  # integers into floats
    assert v.dtype == np.float32 and v.numpy().tolist() == [3.0, 4.0] and v.version == 2


def test_variable_updates_cast_within_a_kind_like_assign():
    w = tg.Variable(np.ones(2, dtype=np.float32))
    w.assign_add(np.array([0.5, 0.5]))  # float64 delta into a float32 Variable
    w.assign_sub(np.array([0.25, 0.25]))
    assert w.dtype == np.float32 and w.numpy().tolist() == [1.25, 1.25]
    counter = tg.Variable(np.array([1, 2]))
    with pytest.raises(ValueError, match=r"assign_add: .* int64, got .* float64"):
        counter.assign_add(np.array([0.5, 0.5]))
    assert counter.version == 0


def test_arrays_handed_out_are_read_only():
    # A write into a saved array would silently change a gradient (issue 11, item 1).
    v = tg.Variable([1.0, 2.0])
    t = tg.tensor([3.0, 4.0])
    with tg.GradientTape() as tape:
        tape.watch(t)
        y = tg.sum(v * v) + tg.sum(t * t)
    for array in (v.data, t.data, v.numpy(), np.asarray(t), (y * 1.0).data):
        with pytest.raises(ValueError, match="read-only"):
            array[...] = 10.0
    gv, gt = tape.gradient(y, [v, t])
    assert gv.numpy().tolist() == [2.0, 4.0] and gt.numpy().tolist() == [6.0, 8.0]
    # A copy is the way to a writeable array; np.array copies.
    copy = np.array(v)
    copy[0] = 10.0
    assert v.numpy()[0] == 1.0
    with pytest.raises(AttributeError, match="immutable.*Variable.assign"):
        v.data = np.zeros(2)
    # Assigning still works, and leaves the saved value alone.
    v.assign([5.0, 6.0])
    assert v.numpy().tolist() == [5.0, 6.0]


@pytest.mark.parametrize("data", ["abc", [1, "a"], None, {"a": 1}, object()])
def test_non_numeric_data_is_refused(data):
    with pytest.raises(TypeError, match=r"tensor: cannot make a Tensor of .* Tensors hold"):
        tg.tensor(data)
    with pytest.raises(TypeError, match="cannot make a Tensor"):
        tg.Variable(data)
    with pytest.raises(TypeError, match="asarray: cannot make a Tensor"):
        tg.stop_gradient(data)


@pytest.mark.parametrize("data", [1.3, 2, True, 1 + 2j, [1.0, 2.0], ([1, 2], [3, 4])])
def test_tensor_of_python_data_is_tg_tensor_of_it(data):
    # tg.Tensor(1.3) as PyTorch users write it: an array, not a float that has no shape.
    t, expected = tg.Tensor(data), tg.tensor(data)
    assert (t.shape, t.dtype) == (expected.shape, expected.dtype)
    np.testing.assert_array_equal(t.numpy(), expected.numpy())
    assert repr(t) == repr(expected)
