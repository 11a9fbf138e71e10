"""tapegrad/nn/layers.py and init.py: values against NumPy, gradients by finite differences
(with respect to the input and to each layer's own Variables), initialisation, modes, errors."""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layercheck import check_variable_gradients

import tapegrad as tg
from tapegrad import nn
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

batch_shapes = tst.shapes(max_dims=2, max_side=3)


@given(batch=batch_shapes, sizes=st.tuples(st.integers(1, 4), st.integers(1, 4)), data=st.data())
def test_linear_value_and_gradient(backend, batch, sizes, data):
    fan_in, fan_out = sizes
    x = backend.tensor(data.draw(tst.arrays((*batch, fan_in)), label="x"))
    w = backend.tensor(data.draw(tst.arrays((fan_in, fan_out)), label="w"))
    b = backend.tensor(data.draw(tst.arrays((fan_out,)), label="b"))
    expected = x.numpy() @ w.numpy() + b.numpy()
    np.testing.assert_allclose(nn.linear(x, w, b).numpy(), expected, rtol=1e-12, atol=1e-12)
    gradcheck(nn.linear, [x, w, b])
    gradcheck(nn.linear, [x, w])


@settings(max_examples=5)
@given(data=st.data())
def test_linear_second_derivative(data):
    x, w = (tg.tensor(data.draw(tst.arrays(s))) for s in ((2, 3), (3, 2)))
    gradgradcheck(lambda x, w: tg.tanh(nn.linear(x, w)), [x, w])


def test_linear_layer_gradients_and_initialisation():
    layer = nn.Linear(4, 3, dtype=np.float64)
    x = tg.random.normal((5, 4))
    check_variable_gradients(lambda: layer(x), layer.trainable_variables)
    gradcheck(layer, [x])
    big = nn.Linear(400, 300, generator=tg.random.Generator(0))
    assert big.weight.shape == (400, 300) and big.weight.dtype == np.float32
    # Kaiming-uniform with a = sqrt(5): U(-1/sqrt(fan_in), 1/sqrt(fan_in)), variance bound**2/3.
    bound = 1 / math.sqrt(400)
    w = big.weight.numpy()
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound
    assert abs(w.var() - bound**2 / 3) < 0.05 * bound**2 / 3
    assert np.abs(big.bias.numpy()).max() <= bound
    assert nn.Linear(2, 2, bias=False).bias is None


def test_layers_are_reproducible_from_the_seed():
    tg.random.seed(3)
    first = nn.Linear(3, 2).weight.numpy()
    tg.random.seed(3)
    np.testing.assert_array_equal(nn.Linear(3, 2).weight.numpy(), first)
    a, b = (nn.Conv2d(1, 2, 3, generator=tg.random.Generator(7)) for _ in range(2))
    np.testing.assert_array_equal(a.weight.numpy(), b.weight.numpy())


@given(shape=tst.shapes(min_dims=1, max_dims=4, max_side=3), data=st.data())
def test_flatten(backend, shape, data):
    start = data.draw(st.integers(-len(shape), len(shape) - 1), label="start_dim")
    x = backend.tensor(data.draw(tst.arrays(shape), label="x"))
    flat = nn.Flatten(start)(x)
    kept = shape[: start % len(shape)]
    assert flat.shape == (*kept, math.prod(shape[len(kept) :]))
    np.testing.assert_array_equal(flat.numpy().ravel(), x.numpy().ravel())
    gradcheck(nn.Flatten(start), [x])


def test_dropout_is_active_only_in_training_mode():
    layer = nn.Dropout(0.25, generator=tg.random.Generator(0))
    x = tg.ones((200, 50))
    y = layer(x).numpy()
    assert set(np.unique(y)) == {0.0, 1 / 0.75}
    assert abs((y == 0).mean() - 0.25) < 0.02
    model = nn.Sequential(nn.Linear(50, 50), layer)
    model.eval()
    assert not layer.training
    np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
    model.train()
    assert (layer(x).numpy() == 0).any()
    assert nn.dropout(x, 0.0) is x
    np.testing.assert_array_equal(nn.dropout(x, 1.0).numpy(), np.zeros((200, 50)))


def test_dropout_masks_follow_the_seed_and_the_gradient_is_the_mask():
    tg.random.seed(5)
    first = nn.Dropout(0.5)(tg.ones(20)).numpy()
    tg.random.seed(5)
    x = tg.tensor(np.linspace(-1, 1, 20))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = nn.Dropout(0.5)(x)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), first)
    # For a fixed mask, dropout is linear: the check holds with the generator's state reset.
    gradcheck(lambda x: nn.dropout(x, 0.3, generator=tg.random.Generator(1)), [x])


@given(
    num=st.integers(1, 5),
    dim=st.integers(1, 3),
    index_shape=tst.shapes(max_dims=2, max_side=4),
    data=st.data(),
)
def test_embedding_value_and_gradient(num, dim, index_shape, data):
    weight = tg.tensor(data.draw(tst.arrays((num, dim)), label="weight"))
    indices = data.draw(tst.hnp.arrays(np.int64, index_shape, elements=st.integers(0, num - 1)))
    out = nn.embedding(indices, weight)
    np.testing.assert_array_equal(out.numpy(), weight.numpy()[indices])
    # Repeated indices accumulate in the gradient.
    gradcheck(lambda w: nn.embedding(indices, w), [weight])


def test_embedding_layer():
    table = nn.Embedding(6, 3, dtype=np.float64)
    indices = tg.tensor([[0, 5, 5], [2, 2, 2]])
    assert table(indices).shape == (2, 3, 3)
    assert table.weight.dtype == np.float64 and nn.Embedding(6, 3).weight.dtype == np.float32
    check_variable_gradients(lambda: table(indices), table.trainable_variables)


@pytest.mark.parametrize(
    ("indices", "message"),
    [
        ([0, 6], r"\[0, 6\], outside \[0, 6\)"),
        ([-1], "outside"),
        ([0.0, 1.0], "integers, got float64"),
        ([True], "integers, got bool"),
    ],
)
def test_embedding_rejects_bad_indices(indices, message):
    with pytest.raises(ValueError, match=message):
        nn.Embedding(6, 2)(indices)


@given(
    batch=batch_shapes, normalized=tst.shapes(min_dims=1, max_dims=2, max_side=3), data=st.data()
)
def test_layer_norm_value_and_gradient(backend, batch, normalized, data):
    x = backend.tensor(data.draw(tst.arrays((*batch, *normalized)), label="x"))
    w = backend.tensor(data.draw(tst.arrays(normalized), label="w"))
    b = backend.tensor(data.draw(tst.arrays(normalized), label="b"))
    axes = tuple(range(-len(normalized), 0))
    host = x.numpy()
    centred = host - host.mean(axis=axes, keepdims=True)
    expected = centred / np.sqrt((centred**2).mean(axis=axes, keepdims=True) + 1e-5)
    out = nn.layer_norm(x, normalized, w, b)
    np.testing.assert_allclose(out.numpy(), expected * w.numpy() + b.numpy(), atol=1e-12)
    gradcheck(lambda x, w, b: nn.layer_norm(x, normalized, w, b), [x, w, b], atol=1e-4)


@settings(max_examples=5)
@given(data=st.data())
def test_layer_norm_second_derivative(data):
    x = tg.tensor(data.draw(tst.arrays((2, 3)), label="x"))
    gradgradcheck(lambda x: nn.layer_norm(x, 3), [x], atol=1e-4)


def test_layer_norm_layer():
    norm = nn.LayerNorm((2, 3), dtype=np.float64)
    assert [v.shape for v in norm.trainable_variables] == [(2, 3), (2, 3)]
    norm.weight.assign(tg.random.normal((2, 3)))
    x = tg.random.normal((4, 2, 3))
    check_variable_gradients(lambda: norm(x), norm.trainable_variables)
    assert nn.LayerNorm(3, elementwise_affine=False).variables == []
    with pytest.raises(ValueError, match=r"\(4, 3, 2\) does not end in normalized_shape \(2, 3\)"):
        norm(tg.ones((4, 3, 2)))


def test_linear_rejects_mismatched_input():
    with pytest.raises(ValueError, match=r"linear: input of shape \(2, 5\) .* \(3, 4\)"):
        nn.Linear(3, 4)(tg.ones((2, 5)))


@pytest.mark.parametrize("p", [-0.1, 1.5])
def test_dropout_rejects_bad_probability(p):
    with pytest.raises(ValueError, match="p must be in"):
        nn.Dropout(p)
    with pytest.raises(ValueError, match="p must be in"):
        nn.dropout(tg.ones(3), p)


def test_init_functions():
    g = tg.random.Generator(0)
    w = nn.init.xavier_uniform((200, 100), 200, 100, generator=g).numpy()
    bound = math.sqrt(6 / 300)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.99 * bound
    n = nn.init.normal((300, 300), std=0.5, dtype=np.float64, generator=g).numpy()
    assert n.dtype == np.float64 and abs(n.std() - 0.5) < 0.01
    relu = nn.init.kaiming_uniform((1000, 10), fan_in=1000, a=0.0, generator=g).numpy()
    assert np.abs(relu).max() <= math.sqrt(6 / 1000)
    with pytest.raises(ValueError, match="fan_in must be positive"):
        nn.init.kaiming_uniform((0, 3), fan_in=0)
