"""Data-parallel training on MPI: every rank trains the same model on its share of the data.

Launch with ``mpiexec -n 4 python train.py``; the same script run as
``python train.py`` is a world of one (and needs no MPI). Install with
``pip install 'tapegrad[mpi]'`` (mpi4py and MPICH from PyPI), or on a cluster build
mpi4py against its MPI (docs/distributed.md)::

    import tapegrad.distributed as dist

    dist.init()
    dist.broadcast(model.trainable_variables, root=0)  # every rank starts from rank 0's
    optimizer = dist.DistributedOptimizer(tg.optim.Adam(model.trainable_variables))
    for epoch in range(epochs):
        mine = dist.shard(len(x), shuffle=True, seed=0, epoch=epoch)
        for batch in np.array_split(mine, steps):
            with tg.GradientTape() as tape:
                loss = tg.nn.cross_entropy(model(x[batch]), y[batch])
            optimizer.apply_gradients(tape.gradient(loss, model.trainable_variables))
        dist.save("checkpoint.npz", {"model": model.state_dict(), "epoch": epoch, ...})

Every collective is bounded by a timeout (``dist.init(timeout=...)``, ten minutes by
default) and checks, on every call, that all ranks make the same call: a hang or a
mismatch ends the job with an error naming the collective and the ranks involved.

Importing this module never needs mpi4py.

Layer: built on ``tapegrad.core``, ``tapegrad.backends`` and ``tapegrad.ops``; it works with any
optimizer by its ``apply_gradients``, so it imports no ``tapegrad.optim``.

>>> import tapegrad.distributed as dist
>>> dist.rank(), dist.world_size()
(0, 1)
"""

from tapegrad.distributed.checkpoint import load, save
from tapegrad.distributed.collectives import all_reduce, broadcast
from tapegrad.distributed.optimizer import DistributedOptimizer
from tapegrad.distributed.shard import shard
from tapegrad.distributed.world import init, local_rank, rank, world_size

__all__ = [
    "DistributedOptimizer",
    "all_reduce",
    "broadcast",
    "init",
    "load",
    "local_rank",
    "rank",
    "save",
    "shard",
    "world_size",
]
