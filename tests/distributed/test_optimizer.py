"""DistributedOptimizer in one process: a world of one hands the gradients through; a
loopback world of 3 identical ranks averages them (the real thing runs in test_mpi.py)."""

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.distributed as dist


def variables(dtype=np.float64):
    return [
        tg.Variable(np.arange(6, dtype=dtype).reshape(2, 3), name="w"),
        tg.Variable(np.ones(3, dtype=dtype), name="b"),
        tg.Variable(np.float64(2.0).astype(dtype), name="s"),
    ]


def gradients(dtype=np.float64):
    return [
        tg.tensor(np.full((2, 3), 0.5, dtype=dtype)),
        np.array([1.0, -1.0, 0.0], dtype=dtype),
        tg.tensor(np.asarray(3.0, dtype=dtype)),
    ]


def steps(optimizer, grads, n=3):
    for _ in range(n):
        optimizer.apply_gradients(grads)
    return [v.numpy() for v in optimizer.variables]


@pytest.mark.parametrize("world", ["world_of_one", "loopback"])
def test_it_takes_the_wrapped_optimizers_steps(world, request):
    request.getfixturevalue(world)
    plain = steps(tg.optim.Adam(variables(), lr=0.1), gradients())
    wrapped = steps(dist.DistributedOptimizer(tg.optim.Adam(variables(), lr=0.1)), gradients())
    for a, b in zip(plain, wrapped):
        assert a.tobytes() == b.tobytes()


def test_one_collective_per_bucket_and_float32_stays_float32(loopback):
    vs = variables(np.float32)
    optimizer = dist.DistributedOptimizer(tg.optim.SGD(vs, lr=0.1), bucket_bytes=16)
    optimizer.apply_gradients(gradients(np.float64))  # float64 gradients, float32 Variables
    assert all(v.dtype == np.float32 for v in vs)
    # w (24 bytes) alone; b and s (12 + 4) together; each bucket ends with one count per
    # Variable in it. Every step is agreed on, with the same fingerprint.
    assert loopback.calls == [("allreduce sum", "float32", 7), ("allreduce sum", "float32", 6)]
    optimizer.apply_gradients(gradients(np.float32))
    assert len(loopback.calls) == 4 and len(loopback.agreed) == 2
    assert loopback.agreed[0] == loopback.agreed[1]


def test_none_on_every_rank_leaves_the_variable_and_its_state_alone(loopback):
    vs = variables()
    optimizer = dist.DistributedOptimizer(tg.optim.SGD(vs, lr=0.1, momentum=0.9))
    grads = gradients()
    grads[1] = None
    optimizer.apply_gradients(grads)
    np.testing.assert_array_equal(vs[1].numpy(), np.ones(3))
    assert optimizer.state[1] == {} and "momentum_buffer" in optimizer.state[0]
    np.testing.assert_allclose(vs[0].numpy(), np.arange(6).reshape(2, 3) - 0.05)


def test_pairs_are_handed_on_as_pairs(loopback):
    received = []

    class PairsOptimizer:
        def apply_gradients(self, pairs):
            received.extend(pairs)

    v, u = tg.Variable([1.0, 2.0]), tg.Variable([3.0])
    dist.DistributedOptimizer(PairsOptimizer()).apply_gradients(
        [(tg.tensor([4.0, 5.0]), v), (None, u)]
    )
    assert [var for _, var in received] == [v, u] and received[1][0] is None
    np.testing.assert_array_equal(received[0][0], [4.0, 5.0])


def test_attributes_are_the_wrapped_optimizers(world_of_one):
    inner = tg.optim.SGD(variables(), lr=0.1)
    optimizer = dist.DistributedOptimizer(inner)
    optimizer.lr = 0.5
    assert inner.lr == 0.5 and optimizer.learning_rate == 0.5
    assert optimizer.variables is inner.variables and optimizer.iterations == 0
    assert repr(optimizer).startswith("DistributedOptimizer(SGD(lr=0.5, momentum=0.0")


def test_bad_gradients_are_refused_before_anything_travels(loopback):
    optimizer = dist.DistributedOptimizer(tg.optim.SGD(variables(), lr=0.1))
    with pytest.raises(ValueError, match="apply_gradients: 2 gradients for 3 variables"):
        optimizer.apply_gradients(gradients()[:2])
    bad = gradients()
    bad[1] = np.ones(4)
    with pytest.raises(ValueError, match=r"gradient 1 has shape \(4,\), its Variable 'b' \(3,\)"):
        optimizer.apply_gradients(bad)
    assert loopback.calls == []
    with pytest.raises(TypeError, match="DistributedOptimizer: list has no apply_gradients"):
        dist.DistributedOptimizer([])
    with pytest.raises(ValueError, match="bucket_bytes must be >= 1, got 0"):
        dist.DistributedOptimizer(tg.optim.SGD(variables(), lr=0.1), bucket_bytes=0)
