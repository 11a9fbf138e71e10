"""tapegrad/nn/recurrent.py: RNN, LSTM and GRU against NumPy loops of PyTorch's documented
equations, PyTorch's parameter names and return values, gradients by finite differences."""

import numpy as np
import pytest
from layercheck import check_variable_gradients

import tapegrad as tg
from tapegrad import nn
from tapegrad.testing import gradcheck, gradgradcheck


def sigmoid(x):
    return 1 / (1 + np.exp(-x))


def rnn_cell(x, state, p):
    return (np.tanh(x @ p["ih"] + p["bih"] + state[0] @ p["hh"] + p["bhh"]),)


def lstm_cell(x, state, p):
    h, c = state
    i, f, g, o = np.split(x @ p["ih"] + p["bih"] + h @ p["hh"] + p["bhh"], 4, axis=-1)
    c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
    return sigmoid(o) * np.tanh(c), c


def gru_cell(x, state, p):
    (h,) = state
    xr, xz, xn = np.split(x @ p["ih"] + p["bih"], 3, axis=-1)
    hr, hz, hn = np.split(h @ p["hh"] + p["bhh"], 3, axis=-1)
    r, z = sigmoid(xr + hr), sigmoid(xz + hz)
    n = np.tanh(xn + r * hn)
    return ((1 - z) * n + z * h,)


CELLS = {nn.RNN: (rnn_cell, 1), nn.LSTM: (lstm_cell, 2), nn.GRU: (gru_cell, 1)}


def reference(layer, x, states):
    """The layer's output and final states by the equations, time step by time step."""
    cell, _ = CELLS[type(layer)]
    directions = 2 if layer.bidirectional else 1
    finals = [[] for _ in states]
    for k in range(layer.num_layers):
        outputs = []
        for d, suffix in enumerate(["", "_reverse"][:directions]):
            get = lambda kind, name=f"_l{k}{suffix}": getattr(layer, kind + name)  # noqa: E731
            p = {"ih": get("weight_ih").numpy(), "hh": get("weight_hh").numpy()}
            p["bih"] = get("bias_ih").numpy() if layer.bias else 0.0
            p["bhh"] = get("bias_hh").numpy() if layer.bias else 0.0
            state = tuple(s[k * directions + d] for s in states)
            hs = [None] * len(x)
            for t in reversed(range(len(x))) if d else range(len(x)):
                state = cell(x[t], state, p)
                hs[t] = state[0]
            outputs.append(np.stack(hs))
            for final, value in zip(finals, state):
                final.append(value)
        x = np.concatenate(outputs, axis=-1)
    return x, [np.stack(f) for f in finals]


CONFIGS = [
    {},
    {"num_layers": 2},
    {"bidirectional": True},
    {"num_layers": 2, "bidirectional": True, "batch_first": True},
    {"bias": False},
]


@pytest.mark.parametrize("kind", [nn.RNN, nn.LSTM, nn.GRU], ids=lambda k: k.__name__)
@pytest.mark.parametrize("options", CONFIGS, ids=str)
def test_output_and_states_follow_the_equations(kind, options):
    layer = kind(3, 4, dtype=np.float64, generator=tg.random.Generator(0), **options)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((5, 2, 3))  # (L, N, input)
    directions = 2 if layer.bidirectional else 1
    cells = CELLS[kind][1]
    states = [rng.standard_normal((layer.num_layers * directions, 2, 4)) for _ in range(cells)]
    given = x.swapaxes(0, 1) if layer.batch_first else x
    hx = tuple(states) if cells == 2 else states[0]
    output, final = layer(given, hx)
    final = list(final) if cells == 2 else [final]
    expected, expected_final = reference(layer, x, states)
    if layer.batch_first:
        expected = expected.swapaxes(0, 1)
    np.testing.assert_allclose(output.numpy(), expected, rtol=1e-12, atol=1e-14)
    for got, want in zip(final, expected_final):
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-12, atol=1e-14)
    # Zero initial states by default; an unbatched (L, input) sequence gives unbatched results.
    zeros = [np.zeros_like(s) for s in states]
    expected = reference(layer, x, zeros)[0]
    expected = expected.swapaxes(0, 1) if layer.batch_first else expected
    np.testing.assert_allclose(layer(given)[0].numpy(), expected, rtol=1e-12, atol=1e-14)
    single, _ = layer(x[:, 0])
    np.testing.assert_allclose(
        single.numpy(), reference(layer, x[:, :1], zeros)[0][:, 0], rtol=1e-12
    )


def test_parameter_names_shapes_and_initialisation_are_pytorchs():
    lstm = nn.LSTM(3, 5, num_layers=2, bidirectional=True, generator=tg.random.Generator(0))
    shapes = dict((name, v.shape) for name, v in lstm.named_variables())
    assert list(shapes)[:5] == [
        "weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0", "weight_ih_l0_reverse"
    ]  # fmt: skip
    assert shapes["weight_ih_l0"] == (3, 20) and shapes["weight_hh_l1_reverse"] == (5, 20)
    assert shapes["weight_ih_l1"] == (10, 20) and shapes["bias_hh_l1_reverse"] == (20,)
    assert len(shapes) == 16 and lstm.weight_ih_l0.dtype == np.float32
    bound = 1 / np.sqrt(5)
    values = np.concatenate([v.numpy().ravel() for v in lstm.variables])
    assert np.abs(values).max() <= bound and np.abs(values).max() > 0.95 * bound
    assert [n for n, _ in nn.GRU(2, 3, bias=False).named_variables()] == [
        "weight_ih_l0",
        "weight_hh_l0",
    ]
    assert nn.GRU(2, 3).weight_hh_l0.shape == (3, 9) and nn.RNN(2, 3).weight_ih_l0.shape == (2, 3)
    assert repr(nn.LSTM(3, 5, num_layers=2, batch_first=True)).startswith(
        "LSTM(3, 5, num_layers=2, batch_first=True)"
    )


def test_relu_rnn():
    rnn = nn.RNN(2, 3, nonlinearity="relu", dtype=np.float64)
    x = tg.random.normal((4, 1, 2))
    output, h_n = rnn(x)
    p = {"ih": rnn.weight_ih_l0.numpy(), "hh": rnn.weight_hh_l0.numpy()}
    h = np.zeros((1, 3))
    for t in range(4):
        h = np.maximum(
            x.numpy()[t] @ p["ih"] + rnn.bias_ih_l0.numpy() + h @ p["hh"] + rnn.bias_hh_l0.numpy(),
            0,
        )
    np.testing.assert_allclose(h_n.numpy()[0], h, rtol=1e-12)
    with pytest.raises(ValueError, match="nonlinearity must be 'tanh' or 'relu'"):
        nn.RNN(2, 3, nonlinearity="gelu")


@pytest.mark.parametrize("kind", [nn.RNN, nn.LSTM, nn.GRU], ids=lambda k: k.__name__)
def test_gradients_by_finite_differences(kind):
    layer = kind(2, 2, num_layers=2, bidirectional=True, dtype=np.float64)
    x = tg.random.normal((3, 2, 2))
    cells = CELLS[kind][1]
    states = [tg.random.normal((4, 2, 2)) for _ in range(cells)]

    def run(x, *states):
        output, final = layer(x, tuple(states) if cells == 2 else states[0])
        return [output, *(final if cells == 2 else [final])]

    gradcheck(run, [x, *states])
    check_variable_gradients(lambda: run(x, *states)[0], layer.trainable_variables)


def test_lstm_second_derivative():
    layer = nn.LSTM(2, 2, dtype=np.float64)
    gradgradcheck(lambda x: layer(x)[0], [tg.random.normal((2, 1, 2))])


def test_dropout_between_layers_only_in_training():
    layer = nn.GRU(3, 4, num_layers=2, dropout=0.5, generator=tg.random.Generator(0))
    x = tg.random.normal((5, 2, 3), dtype="float32")
    first, second = layer(x)[0].numpy(), layer(x)[0].numpy()
    assert not np.array_equal(first, second)  # a new mask each call
    layer.eval()
    np.testing.assert_array_equal(layer(x)[0].numpy(), layer(x)[0].numpy())


def test_errors_name_the_shapes():
    lstm = nn.LSTM(3, 4, num_layers=2)
    with pytest.raises(ValueError, match=r"expected input of shape \(L, N, 3\).*got \(5, 2, 7\)"):
        lstm(tg.ones((5, 2, 7)))
    with pytest.raises(ValueError, match=r"h_0 of shape \(1, 2, 4\), expected \(2, 2, 4\)"):
        lstm(tg.ones((5, 2, 3)), (tg.zeros((1, 2, 4)), tg.zeros((2, 2, 4))))
    with pytest.raises(ValueError, match=r"hx must be a pair \(h_0, c_0\)"):
        lstm(tg.ones((5, 2, 3)), (tg.zeros((2, 2, 4)),))
    with pytest.raises(ValueError, match="hidden_size must be a positive int"):
        nn.GRU(3, 0)
