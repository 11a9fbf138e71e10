"""Run under ``mpiexec -n N``: the last rank raises while the others wait in a collective.

The job must end (not hang) with a non-zero exit and the failing rank's traceback.
"""

import numpy as np

import tapegrad.distributed as dist


def main():
    dist.init()
    dist.all_reduce(np.ones(3), "sum")  # the world works
    if dist.rank() == dist.world_size() - 1:
        raise RuntimeError(f"rank {dist.rank()} fails on purpose")
    dist.all_reduce(np.ones(3), "sum")  # waits for the failed rank forever, unless aborted
    print(f"rank {dist.rank()}: not reached", flush=True)


if __name__ == "__main__":
    main()
