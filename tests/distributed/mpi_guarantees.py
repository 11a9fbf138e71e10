"""Run under ``mpiexec -n N``: the guarantees of tapegrad.distributed, checked on every rank.

Any failed check raises, which (through tapegrad.distributed's exception hook) ends
every rank with a non-zero exit; each rank prints ``rank R of N: ok`` at the end.
"""

import sys

import numpy as np
from mpi4py import MPI

import tapegrad as tg
import tapegrad.distributed as dist
from tapegrad.distributed.collectives import _world


def everyone(value):
    """Every rank's ``value`` (a host array), through mpi4py itself."""
    return MPI.COMM_WORLD.allgather(np.asarray(value))


def check_world(size):
    dist.init()
    assert dist.world_size() == size == MPI.COMM_WORLD.Get_size()
    assert dist.rank() == MPI.COMM_WORLD.Get_rank()
    assert dist.local_rank() == dist.rank()  # one machine


def check_broadcast(rank, size):
    w64 = tg.Variable(np.full((3, 2), float(rank)), name="w64")
    w32 = tg.Variable(np.arange(4, dtype=np.float32) * (rank + 1))
    flag = tg.Variable(np.array([rank == 0, True]))
    version = w64.version
    root = size - 1
    out = dist.broadcast(
        {"w": [w64, w32], "flag": flag, "n": rank * 10, "x": tg.tensor(rank)}, root
    )
    assert out["w"][0] is w64 and out["w"][1] is w32 and out["flag"] is flag
    np.testing.assert_array_equal(w64.numpy(), np.full((3, 2), float(root)))
    np.testing.assert_array_equal(w32.numpy(), np.arange(4, dtype=np.float32) * (root + 1))
    assert w32.dtype == np.float32 and flag.numpy().tolist() == [root == 0, True]
    assert out["n"] == root * 10 and isinstance(out["n"], int)
    assert out["x"].item() == root
    assert w64.version == version + (rank != root)  # the root's Variables are left alone


def check_all_reduce(rank, size):
    ranks = np.arange(size)
    values = {
        "a": tg.tensor(np.array([1.0, -2.0, 3.0]) * (rank + 1)),
        "b": np.arange(6, dtype=np.float32).reshape(2, 3) - rank,
        "count": rank + 1,
        "scalar": np.float32(rank),
        "none": None,
    }
    if rank % 2:  # insertion order must not matter
        values = dict(reversed(list(values.items())))
    total = dist.all_reduce(values, "sum")
    np.testing.assert_allclose(total["a"].numpy(), np.array([1.0, -2.0, 3.0]) * (ranks + 1).sum())
    assert total["b"].dtype == np.float32 and total["scalar"].dtype == np.float32
    np.testing.assert_array_equal(total["b"], size * np.arange(6).reshape(2, 3) - ranks.sum())
    assert total["count"] == (ranks + 1).sum() and isinstance(total["count"], int)
    assert total["none"] is None and list(total) == list(values)

    mean = dist.all_reduce(values, "mean")
    assert isinstance(mean["count"], float) and mean["count"] == (ranks + 1).mean()
    np.testing.assert_allclose(mean["a"].numpy(), np.array([1.0, -2.0, 3.0]) * (ranks + 1).mean())
    high, low = (
        dist.all_reduce([values["b"], rank], "max"),
        dist.all_reduce((values["b"], rank), "min"),
    )
    np.testing.assert_array_equal(high[0], np.arange(6).reshape(2, 3))
    np.testing.assert_array_equal(low[0], np.arange(6).reshape(2, 3) - (size - 1))
    assert (high[1], low[1]) == (size - 1, 0) and isinstance(low, tuple)


def check_buckets(rank):
    """One collective per bucket: 12 float64 and 3 float32 arrays make two buckets."""
    world = _world()
    calls = []
    original = world.allreduce
    world.allreduce = lambda buffer, op: (calls.append(buffer.dtype), original(buffer, op))[1]
    try:
        nest = [np.full(5, rank, dtype=np.float64) for _ in range(12)]
        nest += [np.full(2, rank, dtype=np.float32) for _ in range(3)]
        dist.all_reduce(nest, "sum")  # first call: the structure check, then the buckets
        calls.clear()
        first = dist.all_reduce(nest, "sum")
        second = dist.all_reduce(nest, "sum")
    finally:
        world.allreduce = original
    assert sorted(map(str, calls)) == ["float32", "float32", "float64", "float64"], calls
    assert first[0] is not second[0]  # results never alias the reused buffers
    np.testing.assert_array_equal(first[0], second[0])


def make_model(seed, dtype):
    generator = tg.random.Generator(seed)
    return tg.nn.Sequential(
        tg.nn.Linear(5, 7, dtype=dtype, generator=generator),
        tg.nn.Tanh(),
        tg.nn.Linear(7, 3, dtype=dtype, generator=generator),
    )


def data(size, per_rank, dtype):
    source = np.random.default_rng(42)
    x = source.normal(size=(size * per_rank, 5)).astype(dtype)
    y = source.integers(0, 3, size=size * per_rank)
    return tg.tensor(x), tg.tensor(y)


def train(model, extra, unused, optimizer, x, y, steps, extra_scale):
    """``steps`` steps on (x, y); ``extra``'s loss term is multiplied by ``extra_scale``
    (None: left out, so its gradient is None); ``unused`` never gets a gradient."""
    variables = [*model.trainable_variables, extra, unused]
    for _ in range(steps):
        with tg.GradientTape() as tape:
            loss = tg.nn.cross_entropy(model(x), y)
            if extra_scale is not None:
                loss = loss + extra_scale * (extra * extra).sum()
        optimizer.apply_gradients(tape.gradient(loss, variables))
    return variables


def check_optimizer_matches_one_process(rank, size, make_optimizer, dtype, bucket_bytes):
    """N ranks with DistributedOptimizer take the steps one process takes on all batches.

    ``extra`` has a gradient on rank 0 only (None elsewhere: zeros in the mean);
    ``unused`` has none anywhere and must keep its value and get no optimizer state.
    """
    per_rank = 4
    x, y = data(size, per_rank, dtype)
    mine = slice(rank * per_rank, (rank + 1) * per_rank)

    model = make_model(seed=rank, dtype=dtype)  # different on every rank until broadcast
    extra = tg.Variable(np.array([0.5, -1.0], dtype=dtype))
    unused = tg.Variable(np.array([2.0], dtype=dtype))
    variables = [*model.trainable_variables, extra, unused]
    dist.broadcast(variables, root=0)
    optimizer = dist.DistributedOptimizer(make_optimizer(variables), bucket_bytes=bucket_bytes)
    scale = 1.0 if rank == 0 else None
    trained = train(model, extra, unused, optimizer, x[mine], y[mine], 3, scale)

    # Bitwise equal on every rank.
    for v in trained:
        copies = everyone(v.numpy())
        assert all(c.tobytes() == copies[0].tobytes() for c in copies), v
        assert v.dtype == dtype
    assert optimizer.state[-1] == {} and optimizer.iterations == 3  # `unused` untouched

    # One process on the concatenated batch: the mean loss over all ranks' examples,
    # plus rank 0's extra term, which counts once in the mean over ranks.
    reference = make_model(seed=0, dtype=dtype)
    ref_extra = tg.Variable(np.array([0.5, -1.0], dtype=dtype))
    ref_unused = tg.Variable(np.array([2.0], dtype=dtype))
    ref_variables = [*reference.trainable_variables, ref_extra, ref_unused]
    ref_optimizer = make_optimizer(ref_variables)
    expected = train(reference, ref_extra, ref_unused, ref_optimizer, x, y, 3, 1.0 / size)
    rtol = 1e-12 if dtype == np.float64 else 1e-5
    for got, want in zip(trained, expected):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=rtol, atol=rtol)
    np.testing.assert_array_equal(unused.numpy(), [2.0])


class PairsOptimizer:
    """Takes TensorFlow's (gradient, variable) pairs: the wrapper must hand them on so."""

    def __init__(self):
        self.received = None

    def apply_gradients(self, pairs):
        self.received = list(pairs)


def check_pairs(rank, size):
    v = tg.Variable([1.0, 2.0])
    optimizer = dist.DistributedOptimizer(PairsOptimizer())
    optimizer.apply_gradients([(tg.tensor([rank, 1.0]), v)])
    ((gradient, variable),) = optimizer.received
    assert variable is v
    np.testing.assert_allclose(gradient, [np.arange(size).mean(), 1.0])


def check_shard(rank, size):
    for n in (12, 13, 2):
        per_rank = -(-n // size)
        for epoch in (0, 1):
            mine = dist.shard(n, shuffle=True, seed=7, epoch=epoch)
            shards = everyone(mine)
            assert all(len(s) == per_rank for s in shards)
            joined = np.concatenate(shards)
            assert set(joined.tolist()) == set(range(n))  # covering
            if n % size == 0:
                assert len(np.unique(joined)) == n  # disjoint
        again = dist.shard(n, shuffle=True, seed=7, epoch=1)
        np.testing.assert_array_equal(mine, again)  # seeded
    orders = [np.concatenate(everyone(dist.shard(60, epoch=e))) for e in (0, 1)]
    assert not np.array_equal(*orders)  # reshuffled per epoch


def check_mismatches_raise_everywhere(rank, size):
    cases = [
        ([np.zeros(3 + (rank == 1))], "sum", "[0]: shape (3,) float64", "[0]: shape (4,)"),
        ([np.zeros(3)] * (1 + (rank == 1)), "sum", "1 leaves on rank 0", "2 on rank 1"),
        ({"a" if rank != 1 else "b": 1.0}, "sum", "['a']", "['b']"),
        ([np.zeros(2, dtype=np.float32 if rank == 1 else np.float64)], "max", "float64", "float32"),
        ([1.0], "max" if rank == 1 else "min", "op='min'", "op='max'"),
    ]
    for nest, op, rank0_part, rank1_part in cases:
        try:
            dist.all_reduce(nest, op)
        except ValueError as exc:
            message = str(exc)
            assert "the ranks disagree" in message and "rank 1" in message, message
            assert rank0_part in message and rank1_part in message, message
        else:
            raise AssertionError(f"rank {rank}: no error for {nest!r}")
    model = make_model(0, np.float64) if rank != 1 else tg.nn.Linear(5, 4, dtype=np.float64)
    optimizer = dist.DistributedOptimizer(tg.optim.SGD(model.trainable_variables, lr=0.1))
    try:
        optimizer.apply_gradients([None] * len(model.trainable_variables))
    except ValueError as exc:
        assert "variable 0: shape (5, 7)" in str(exc) and "shape (5, 4)" in str(exc), exc
    else:
        raise AssertionError(f"rank {rank}: no error for different models")
    # The ranks are still in step: a collective after the errors works.
    assert dist.all_reduce(1, "sum") == size


def check_other_array_library(rank, size):
    """Arrays of another library (array_api_strict) travel through the host and come back."""
    try:
        import array_api_strict as xp
    except ImportError:
        return
    out = dist.all_reduce([xp.asarray([1.0, 2.0]) * (rank + 1)], "sum")[0]
    assert type(out).__module__.startswith("array_api_strict")
    np.testing.assert_allclose(np.asarray(out), np.array([1.0, 2.0]) * np.arange(1, size + 1).sum())


def sgd(variables):
    return tg.optim.SGD(variables, lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.01)


def adam(variables):
    return tg.optim.Adam(variables, lr=0.05)


def main():
    size = int(sys.argv[1])
    check_world(size)
    rank = dist.rank()
    check_broadcast(rank, size)
    check_all_reduce(rank, size)
    check_buckets(rank)
    for make_optimizer in (sgd, adam):
        for dtype in (np.float64, np.float32):
            check_optimizer_matches_one_process(rank, size, make_optimizer, dtype, 2**20)
    check_optimizer_matches_one_process(rank, size, adam, np.float64, 64)  # many buckets
    check_pairs(rank, size)
    check_shard(rank, size)
    check_mismatches_raise_everywhere(rank, size)
    check_other_array_library(rank, size)
    print(f"rank {rank} of {size}: ok", flush=True)


if __name__ == "__main__":
    main()
