"""tapegrad/data.py: DataLoader's batches, order, reproducibility, resumption and errors."""

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.data import DataLoader

X = np.arange(20.0).reshape(10, 2)
Y = np.arange(10)


@pytest.mark.parametrize(("batch_size", "drop_last", "sizes"), [
    (3, False, [3, 3, 3, 1]), (3, True, [3, 3, 3]), (5, False, [5, 5]), (10, True, [10]),
    (20, False, [10]), (20, True, []),
])  # fmt: skip
def test_batches_and_len(batch_size, drop_last, sizes):
    loader = DataLoader((X, Y), batch_size, drop_last=drop_last)
    batches = list(loader)
    assert len(loader) == len(sizes) == len(batches)
    assert [len(y) for _, y in batches] == sizes
    for x, y in batches:
        assert isinstance(x, tg.Tensor) and isinstance(y, tg.Tensor)
        np.testing.assert_array_equal(x.numpy(), X[y.numpy()])  # rows stay together
    if batches:  # without shuffling: in order
        np.testing.assert_array_equal(
            np.concatenate([y.numpy() for _, y in batches]), Y[: sum(sizes)]
        )


def test_shuffling_is_seeded_covers_everything_and_changes_each_epoch():
    loader = DataLoader([X, Y], batch_size=4, shuffle=True, seed=7)
    epochs = [np.concatenate([y.numpy() for _, y in loader]) for _ in range(3)]
    for order in epochs:
        assert sorted(order.tolist()) == list(range(10))  # each example once per pass
    assert not np.array_equal(epochs[0], epochs[1]) and not np.array_equal(epochs[1], epochs[2])
    again = DataLoader([X, Y], batch_size=4, shuffle=True, seed=7)
    np.testing.assert_array_equal(np.concatenate([y.numpy() for _, y in again]), epochs[0])
    assert loader.epoch == 3


def test_a_resumed_loader_continues_the_same_sequence_of_batches():
    loader = DataLoader((X, Y), batch_size=3, shuffle=True, seed=1)
    for _ in range(2):
        list(loader)
    third = [y.numpy() for _, y in loader]
    resumed = DataLoader((X, Y), batch_size=3, shuffle=True, seed=1)
    resumed.load_state_dict({"epoch": 2})
    for a, (_, b) in zip(third, resumed):
        np.testing.assert_array_equal(a, b.numpy())
    assert resumed.state_dict() == {"epoch": 3}


def test_without_a_seed_the_default_stream_decides():
    tg.random.seed(3)
    first = [y.numpy() for y in DataLoader(Y, 5, shuffle=True)]
    tg.random.seed(3)
    second = [y.numpy() for y in DataLoader(Y, 5, shuffle=True)]
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_a_single_array_gives_batches_and_tensors_keep_their_gradient():
    batches = list(DataLoader(X, batch_size=4))
    assert isinstance(batches[0], tg.Tensor) and batches[0].shape == (4, 2)
    w = tg.Variable(np.ones(2))
    data = tg.tensor(X)
    with tg.GradientTape() as tape:
        tape.watch(data)
        loss = sum(tg.sum(x * w) for x in DataLoader(data, batch_size=4, shuffle=True, seed=0))
    np.testing.assert_array_equal(tape.gradient(loss, data).numpy(), np.ones((10, 2)))
    source = X.copy()
    (copied,) = list(DataLoader((source,), batch_size=10))
    source[0, 0] = 99.0  # arrays are copied into the batches, as tg.tensor copies
    assert copied[0].numpy()[0, 0] == 0.0


@pytest.mark.parametrize(("call", "error", "message"), [
    (lambda: DataLoader((X, Y[:5]), 2), ValueError, r"share their first axis .* \(10, 2\), \(5,\)"),
    (lambda: DataLoader((X, 3.0), 2), ValueError, "share their first axis"),
    (lambda: DataLoader((), 2), ValueError, "arrays is empty"),
    (lambda: DataLoader(X, 0), ValueError, "batch_size must be >= 1, got 0"),
    (lambda: DataLoader(X, 2.5), TypeError, "batch_size must be an int, got float"),
])  # fmt: skip
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_repr():
    assert repr(DataLoader((X, Y), 4, shuffle=True, seed=0)) == (
        "DataLoader(10 examples in 3 batches of 4, shuffle=True, drop_last=False, seed=0)"
    )
