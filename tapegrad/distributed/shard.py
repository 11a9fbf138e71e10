"""shard: this rank's share of a data set's indices, as PyTorch's DistributedSampler."""

from __future__ import annotations

import numpy as np

from tapegrad.distributed.world import world as _world


def shard(
    n: int,
    shuffle: bool = True,
    seed: int = 0,
    epoch: int = 0,
    *,
    rank: int | None = None,
    world_size: int | None = None,
) -> np.ndarray:
    """The indices into a data set of ``n`` examples that this rank trains on this epoch.

    Every rank gets ``ceil(n / world_size)`` indices; together they cover ``0 .. n-1``,
    and they are disjoint when ``world_size`` divides ``n``. Otherwise the order is
    padded by repeating its start, as PyTorch's ``DistributedSampler`` does, so a
    few examples are seen twice an epoch (equal counts keep the ranks in step).
    With ``shuffle``, the order is a permutation drawn from ``(seed, epoch)``: the
    same on every rank (pass the same ``seed`` everywhere), a new one each epoch.
    ``rank`` and ``world_size`` default to this process's.

    Args:
        n: The number of examples.
        shuffle: Whether to permute the order.
        seed: Seeds the permutation; the same on every rank.
        epoch: The epoch, so each gets a new permutation.
        rank: The rank to shard for; this process's when None.
        world_size: The number of ranks; this world's when None.

    Returns:
        A NumPy array of ``ceil(n / world_size)`` indices.

    Raises:
        ValueError: ``n``, ``seed`` or ``epoch`` is negative, or ``rank`` is not in
            ``[0, world_size)``.

    >>> import tapegrad.distributed as dist
    >>> [dist.shard(5, shuffle=False, rank=r, world_size=2).tolist() for r in (0, 1)]
    [[0, 2, 4], [1, 3, 0]]
    """
    if rank is None or world_size is None:
        world = _world()
        rank = world.rank if rank is None else rank
        world_size = world.size if world_size is None else world_size
    if not 0 <= rank < world_size:
        raise ValueError(f"shard: rank must be in [0, {world_size}); got rank {rank}")
    if n < 0 or seed < 0 or epoch < 0:
        raise ValueError(f"shard: n, seed and epoch must be >= 0; got {n}, {seed}, {epoch}")
    order = np.random.default_rng([seed, epoch]).permutation(n) if shuffle else np.arange(n)
    per_rank = -(-n // world_size)
    total = per_rank * world_size
    if total > n:
        order = np.resize(order, total)  # repeats the order from its start
    return order[rank:total:world_size]
