"""shard: equal counts, covering, disjoint when the ranks divide the data, seeded, and
padded by repetition as PyTorch's DistributedSampler (all ranks simulated in one process)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tapegrad.distributed as dist


def every_rank(n, size, **kwargs):
    return [dist.shard(n, rank=r, world_size=size, **kwargs) for r in range(size)]


@given(
    n=st.integers(0, 300),
    size=st.integers(1, 9),
    seed=st.integers(0, 2**32),
    epoch=st.integers(0, 50),
    shuffle=st.booleans(),
)
def test_shards_are_equal_covering_and_disjoint_up_to_padding(n, size, seed, epoch, shuffle):
    shards = every_rank(n, size, shuffle=shuffle, seed=seed, epoch=epoch)
    per_rank = -(-n // size)
    assert all(len(s) == per_rank and s.dtype == np.int64 for s in shards)
    joined = np.concatenate(shards)
    assert set(joined.tolist()) == set(range(n))
    counts = np.bincount(joined, minlength=n) if n else np.zeros(0)
    # Padding repeats the order from its start: every index is seen equally often, or
    # once more (several times more only when there are fewer examples than ranks).
    assert counts.sum() == per_rank * size
    if n:
        assert counts.max() - counts.min() <= 1
    if n % size == 0:
        assert counts.max(initial=1) == 1
    again = every_rank(n, size, shuffle=shuffle, seed=seed, epoch=epoch)
    assert all(np.array_equal(a, b) for a, b in zip(shards, again))


def test_without_shuffling_ranks_take_every_size_th_index_padded_from_the_start():
    assert [s.tolist() for s in every_rank(7, 3, shuffle=False)] == [
        [0, 3, 6],
        [1, 4, 0],
        [2, 5, 1],
    ]
    assert [s.tolist() for s in every_rank(2, 5, shuffle=False)] == [[0], [1], [0], [1], [0]]
    assert [s.tolist() for s in every_rank(0, 2)] == [[], []]


def test_each_epoch_and_each_seed_gives_another_order():
    orders = {
        tuple(np.concatenate(every_rank(50, 2, seed=seed, epoch=epoch)))
        for seed in (0, 1)
        for epoch in (0, 1, 2)
    }
    assert len(orders) == 6


def test_the_default_is_this_processs_share_of_a_shuffled_order(world_of_one):
    mine = dist.shard(10)
    assert sorted(mine.tolist()) == list(range(10)) and mine.tolist() != list(range(10))


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match=r"rank must be in \[0, 2\); got rank 2"):
        dist.shard(4, rank=2, world_size=2)
    with pytest.raises(ValueError, match="n, seed and epoch must be >= 0; got -1, 0, 0"):
        dist.shard(-1, rank=0, world_size=1)
