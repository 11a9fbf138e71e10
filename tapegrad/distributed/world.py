"""The world: which processes take part, how they reach each other, and what ends them.

A script started by an MPI launcher (``mpiexec -n 4 python train.py``, Slurm's
``srun``) joins an MPI world of every rank the launcher started; started any
other way, it is a world of one and never touches MPI, so one script serves both.
The launcher is recognised by the variables it sets for its processes (PMI for
MPICH, Intel MPI, MVAPICH and Slurm; PMIx and ``OMPI_COMM_WORLD_*`` for Open MPI);
``init(comm=...)`` takes any mpi4py communicator instead.
"""

from __future__ import annotations

import atexit
import math
import os
import sys
import time
from typing import Any

from tapegrad.distributed.mpi_world import DEFAULT_TIMEOUT, MPIWorld, World

TIMEOUT_VARIABLE = "TAPEGRAD_DIST_TIMEOUT"

# Variables that an MPI launcher sets in every process it starts: rank first, then size.
_LAUNCHER_RANK = ("PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK")
_LAUNCHER_SIZE = ("PMI_SIZE", "OMPI_COMM_WORLD_SIZE")

INSTALL_HINT = (
    "pip install 'tapegrad[mpi]' (mpi4py and MPICH), or on a cluster build mpi4py "
    "against its MPI: see docs/distributed.md"
)


_world: World | None = None


def init(comm: Any = None, timeout: float | None = None) -> None:
    """Join the world: MPI when launched by ``mpiexec``/``srun``, else a world of one.

    Idempotent; every other function here calls it on first use. Call it on every
    rank (it is collective under MPI). ``comm``: an mpi4py communicator to use
    instead of ``MPI.COMM_WORLD`` (a subset of ranks, or a launcher tapegrad does not
    recognise). Under MPI with more than one rank:

    - an uncaught exception on any rank prints that rank's traceback and aborts every
      rank (``MPI.COMM_WORLD.Abort(1)``);
    - a rank that waits in a collective (``init`` itself included) longer than
      ``timeout`` seconds prints what it waited for, and for which ranks where it
      knows, then aborts every rank;
    - every collective first checks that all ranks make the same call (the same
      collective, structure, shapes and dtypes, at the same count of calls), and
      raises ValueError on every rank if not, before any buffer travels;
    - a rank whose program ends while others still expect it (it returned early or
      called ``sys.exit``) makes them raise ValueError naming it, at their next
      collective, and ends the job.

    So a failure ends the job with an error instead of leaving the others waiting.

    Args:
        comm: An mpi4py communicator, or None for ``MPI.COMM_WORLD`` (or a world of one).
        timeout: Seconds a rank may wait in one collective (``math.inf``: forever). None:
            ``TAPEGRAD_DIST_TIMEOUT`` if set, else 600 (ten minutes). Given to an
            initialised world, it changes its timeout.

    Raises:
        RuntimeError: The world was already initialised with another communicator.
        ValueError: ``timeout`` (or ``TAPEGRAD_DIST_TIMEOUT``) is not a positive number.

    >>> import tapegrad.distributed as dist
    >>> dist.init(timeout=60)  # a plain `python` process: a world of one
    >>> dist.rank(), dist.world_size()
    (0, 1)
    """
    global _world
    if _world is not None:
        if comm is not None and comm is not getattr(_world, "given", None):
            raise RuntimeError("tapegrad.distributed.init: already initialised with another comm")
        if timeout is not None:
            _world.timeout = _seconds(timeout, "timeout")
        return
    seconds = _default_timeout() if timeout is None else _seconds(timeout, "timeout")
    if comm is None:
        launched = next((name for name in _LAUNCHER_RANK if name in os.environ), None)
        mpi = _import_mpi(launched) if launched else None
        if mpi is None:
            _world = World()
            _world.timeout = seconds
            return
        comm = mpi.COMM_WORLD
    else:
        from mpi4py import MPI as mpi
    joined = MPIWorld(comm, mpi, seconds)
    _world = joined
    if joined.size > 1:
        _abort_on_uncaught_exception(joined, mpi)
        atexit.register(joined.goodbye)


def _seconds(value: Any, name: str) -> float:
    """``value`` as a positive number of seconds, or ValueError naming ``name``."""
    try:
        seconds = float(value)
    except (TypeError, ValueError):
        seconds = math.nan
    if isinstance(value, bool) or not seconds > 0:
        raise ValueError(
            f"tapegrad.distributed.init: {name} must be a positive number of seconds "
            f"(math.inf for none); got {value!r}"
        )
    return seconds


def _default_timeout() -> float:
    value = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    return _seconds(value, TIMEOUT_VARIABLE) if value else DEFAULT_TIMEOUT


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


def _abort_on_uncaught_exception(world: World, mpi: Any) -> None:
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
