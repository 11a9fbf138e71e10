"""The world: which processes take part, how they reach each other, and what ends them.

A script started by an MPI launcher (``mpiexec -n 4 python train.py``, Slurm's
``srun``) joins an MPI world of every rank the launcher started; started any
other way, it is a world of one and never touches MPI, so one script serves both.
The launcher is recognised by the variables it sets for its processes (PMI for
MPICH, Intel MPI, MVAPICH and Slurm; PMIx and ``OMPI_COMM_WORLD_*`` for Open MPI);
``init(comm=...)`` takes any mpi4py communicator instead.
"""

from __future__ import annotations

import hashlib
import os
import sys
import time
from typing import Any

import numpy as np

# Variables that an MPI launcher sets in every process it starts: rank first, then size.
_LAUNCHER_RANK = ("PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK")
_LAUNCHER_SIZE = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE")

INSTALL_HINT = (
    "pip install 'tapegrad[mpi]' (mpi4py and MPICH), or on a cluster build mpi4py "
    "against its MPI: see docs/distributed.md"
)


class World:
    """A world of one: rank 0 of 1, every collective a no-op. :class:`MPIWorld` is the rest."""

    rank = 0
    size = 1
    local_rank = 0
    comm: Any = None

    def allreduce(self, buffer: Any, op: str) -> None:
        """Reduce the host array ``buffer`` across ranks in place (``op``: sum, max, min)."""

    def broadcast(self, buffer: Any, root: int) -> None:
        """Overwrite the host array ``buffer`` with ``root``'s, in place."""

    def agree(self, signature: tuple[Any, ...], what: str, describe: Any) -> None:
        """Raise ValueError on every rank unless every rank passed an equal ``signature``."""


class MPIWorld(World):
    """Every rank of an mpi4py communicator (a private duplicate of it, so tapegrad's
    messages never meet the user's own)."""

    def __init__(self, comm: Any, mpi: Any) -> None:
        self.mpi = mpi
        self.given = comm
        self.comm = comm.Dup()
        self.rank = self.comm.Get_rank()
        self.size = self.comm.Get_size()
        node = self.comm.Split_type(mpi.COMM_TYPE_SHARED)
        self.local_rank = node.Get_rank()
        node.Free()
        self._ops = {"sum": mpi.SUM, "max": mpi.MAX, "min": mpi.MIN}
        self._agreed: set[tuple[Any, ...]] = set()

    def allreduce(self, buffer: Any, op: str) -> None:
        self.comm.Allreduce(self.mpi.IN_PLACE, buffer, op=self._ops[op])

    def broadcast(self, buffer: Any, root: int) -> None:
        # As bytes: any dtype travels, float16 and bool included.
        self.comm.Bcast([buffer.view(np.uint8), self.mpi.BYTE], root=root)

    def agree(self, signature: tuple[Any, ...], what: str, describe: Any) -> None:
        """Compare a 56-bit hash of ``signature`` across ranks, once per new signature.

        One all-reduce of two integers finds both the largest and the smallest hash:
        they are equal exactly when every rank's is. Only on a mismatch do the ranks
        exchange ``describe(signature)`` to say what differs.
        """
        if signature in self._agreed:
            return
        digest = hashlib.blake2b(repr(signature).encode(), digest_size=7).digest()
        mine = int.from_bytes(digest, "little")
        extremes = np.array([mine, -mine], dtype=np.int64)
        self.comm.Allreduce(self.mpi.IN_PLACE, extremes, op=self.mpi.MAX)
        if extremes[0] != mine or extremes[1] != -mine:
            raise ValueError(_disagreement(what, self.comm.allgather(describe(signature))))
        self._agreed.add(signature)


def _disagreement(what: str, descriptions: list[list[str]]) -> str:
    """The message naming the first rank whose call differs from rank 0's, and where.

    A description is the call (its first line), then one line per leaf.
    """
    first = descriptions[0]
    rank, other = next((r, d) for r, d in enumerate(descriptions) if d != first)
    where = next((i for i, (a, b) in enumerate(zip(first, other)) if a != b), None)
    if where is None:
        detail = f"{len(first) - 1} leaves on rank 0, {len(other) - 1} on rank {rank}"
    else:
        detail = f"rank 0 passes {first[where]}, rank {rank} passes {other[where]}"
    return (
        f"{what}: the ranks disagree ({detail}); every rank must pass the same structure, "
        "shapes and dtypes"
    )


_world: World | None = None


def init(comm: Any = None) -> None:
    """Join the world: MPI when launched by ``mpiexec``/``srun``, else a world of one.

    Idempotent; every other function here calls it on first use. Call it on every
    rank (it is collective under MPI). ``comm``: an mpi4py communicator to use
    instead of ``MPI.COMM_WORLD`` (a subset of ranks, or a launcher tapegrad does not
    recognise). Under MPI with more than one rank, an uncaught exception on any rank
    prints that rank's traceback and aborts every rank (``MPI.COMM_WORLD.Abort(1)``),
    so a failure ends the job with an error instead of leaving the others waiting.

    Args:
        comm: An mpi4py communicator, or None for ``MPI.COMM_WORLD`` (or a world of one).

    Raises:
        RuntimeError: The world was already initialised with another communicator.

    >>> import tapegrad.distributed as dist
    >>> dist.init()  # a plain `python` process: a world of one
    >>> dist.rank(), dist.world_size()
    (0, 1)
    """
    global _world
    if _world is not None:
        if comm is not None and comm is not getattr(_world, "given", None):
            raise RuntimeError("tapegrad.distributed.init: already initialised with another comm")
        return
    if comm is None:
        launched = next((name for name in _LAUNCHER_RANK if name in os.environ), None)
        mpi = _import_mpi(launched) if launched else None
        if mpi is None:
            _world = World()
            return
        comm = mpi.COMM_WORLD
    else:
        from mpi4py import MPI as mpi
    _world = MPIWorld(comm, mpi)
    if _world.size > 1:
        _abort_on_uncaught_exception(_world, mpi)


def _import_mpi(launched: str) -> Any:
    """mpi4py's MPI module; None for a launcher's world of one without mpi4py."""
    try:
        from mpi4py import MPI
    except ImportError as exc:
        size = next((os.environ[name] for name in _LAUNCHER_SIZE if name in os.environ), "?")
        if size == "1":
            return None
        # Going on alone would train world-size independent copies of the model.
        raise RuntimeError(
            f"tapegrad.distributed: this process was started by an MPI launcher "
            f"({launched} is set; {size} processes) but mpi4py cannot be imported ({exc}); "
            + INSTALL_HINT
        ) from exc
    return MPI


def _abort_on_uncaught_exception(world: MPIWorld, mpi: Any) -> None:
    """Make an uncaught exception print its traceback, then end every rank."""
    previous = sys.excepthook

    def abort_every_rank(kind: type[BaseException], value: BaseException, tb: Any) -> None:
        sys.stderr.write(
            f"tapegrad.distributed: rank {world.rank} of {world.size} failed; "
            "ending every rank (MPI Abort)\n"
        )
        previous(kind, value, tb)
        sys.stdout.flush()
        sys.stderr.flush()
        # The launcher forwards output through pipes that Abort tears down: on a loaded
        # machine the traceback was lost unless the launcher had a moment to pass it on.
        time.sleep(0.5)
        mpi.COMM_WORLD.Abort(1)

    sys.excepthook = abort_every_rank


def world() -> World:
    """The world this process belongs to (joined on first use)."""
    if _world is None:
        init()
    return _world  # type: ignore[return-value]


def rank() -> int:
    """This process's rank: 0 to ``world_size() - 1`` (0 in a world of one).

    Returns:
        The rank, an int.

    >>> import tapegrad.distributed as dist
    >>> dist.rank()
    0
    """
    return world().rank


def world_size() -> int:
    """How many processes take part (1 when not launched by an MPI launcher).

    Returns:
        The number of ranks, an int.

    >>> import tapegrad.distributed as dist
    >>> dist.world_size()
    1
    """
    return world().size


def local_rank() -> int:
    """This process's rank among those on the same machine: pick a GPU with it,
    ``tg.set_default_device(f"gpu:{dist.local_rank()}")``.

    Returns:
        The rank on this machine, an int.

    >>> import tapegrad.distributed as dist
    >>> dist.local_rank()
    0
    """
    return world().local_rank
