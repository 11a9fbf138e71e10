"""Run under ``mpiexec -n N python mpi_failure.py SCENARIO TIMEOUT``: the last rank goes
wrong in the way SCENARIO names while the others go on; the job must end in bounded time,
with the expected message on every rank.

- ``raise``: the last rank raises; the job ends with its traceback.
- ``return`` / ``exit``: the last rank's program ends early (a return, ``sys.exit(0)``)
  while the others still call collectives.
- ``shorter``: the last rank's training loop has one step fewer.
- ``mismatches``: in turn, for another shape, dtype and number of leaves, on the third call
  (after the same structure passed twice) the last rank passes the other one; every rank
  catches the error and prints it, and a collective afterwards shows that the ranks are
  still in step. Then DistributedOptimizer's third step passes other Variables on the last
  rank, and the ranks go on with two steps taken.
- ``skip``: each step is an all_reduce and a broadcast; the last rank skips one all_reduce.
- ``stuck``: the last rank sleeps far past the timeout before its collective.
- ``killed``: the last rank is killed by SIGKILL while the others wait.
"""

import os
import signal
import sys
import time

import numpy as np

import tapegrad as tg
import tapegrad.distributed as dist


def report(rank, scenario, exc):
    print(f"rank {rank} caught ({scenario}): {exc}", flush=True)


def mismatch(scenario, rank, last):
    for call in range(1, 4):
        odd = rank == last and call == 3
        if scenario == "shape":
            nest = [np.ones((2, 3 + odd))]
        elif scenario == "dtype":
            nest = [np.ones((2, 3), dtype=np.float32 if odd else np.float64)]
        else:
            nest = [np.ones((2, 3))] * (1 + odd)
        try:
            total = dist.all_reduce(nest, "sum")
        except ValueError as exc:
            report(rank, scenario, exc)
        else:
            assert call < 3, "the third call must fail on every rank"
            assert total[0].sum() == 6 * dist.world_size()
    assert dist.all_reduce(rank, "sum") == sum(range(dist.world_size()))  # still in step
    print(f"rank {rank}: in step after {scenario}", flush=True)


def optimizer_mismatch(rank, last):
    a, b = tg.Variable(np.zeros(3)), tg.Variable(np.zeros((2, 2)))
    optimizer = dist.DistributedOptimizer(tg.optim.SGD([a, b], lr=0.1))
    for step in range(1, 4):
        pairs = [(tg.tensor(np.ones(3)), a), (tg.tensor(np.ones((2, 2))), b)]
        if rank == last and step == 3:
            pairs = pairs[1:]
        try:
            optimizer.apply_gradients(pairs)
        except ValueError as exc:
            report(rank, "optimizer", exc)
    print(f"rank {rank}: a = {a.numpy().tolist()}", flush=True)  # two steps taken, not three


def main():
    scenario, timeout = sys.argv[1], float(sys.argv[2])
    dist.init(timeout=timeout)
    rank, last = dist.rank(), dist.world_size() - 1
    dist.all_reduce(np.ones(3), "sum")  # the world works
    if scenario == "mismatches":
        for kind in ("shape", "dtype", "leaves"):
            mismatch(kind, rank, last)
        return optimizer_mismatch(rank, last)
    if rank == last:
        if scenario == "raise":
            raise RuntimeError(f"rank {rank} fails on purpose")
        if scenario == "return":
            return
        if scenario == "exit":
            sys.exit(0)
        if scenario == "stuck":
            time.sleep(600)
        if scenario == "killed":
            os.kill(os.getpid(), signal.SIGKILL)
    steps = 2 if scenario == "shorter" and rank == last else 3
    for step in range(steps):
        if not (scenario == "skip" and rank == last and step == 1):
            dist.all_reduce(np.ones(3), "sum")
        if scenario == "skip":
            dist.broadcast(np.ones(3), root=0)
    print(f"rank {rank}: loop done", flush=True)


if __name__ == "__main__":
    main()
