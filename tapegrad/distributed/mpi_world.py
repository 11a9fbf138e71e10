"""World (a world of one) and MPIWorld: collectives that time out, and ranks that agree
on every call.

Each tapegrad collective is two steps on a private duplicate of the communicator:

1. **Agreement.** Every rank contributes its *fingerprint*, a 56-bit hash of the call's
   structure (the collective, its op or root, each leaf's path, shape, dtype and home)
   and how many collectives it has made, to one all-reduce of four int64s (the largest
   and the negated smallest of each): they are equal exactly when every rank's are. So
   ranks that disagree (another structure, another call, or a rank that has ended: its
   exit hook sends the fingerprint of "the end of the program") raise ValueError on every
   rank before any buffer travels. Only on a mismatch do the ranks exchange their
   fingerprints and the descriptions of the differing calls, to say what differs.
2. **Transfer**: the buffers, by MPI's non-blocking collectives.

Every wait is a loop of ``Test`` calls: a tight spin first (most collectives end within
it), then sleeps that grow to 1 ms. A rank that has waited longer than the world's
timeout tells every other rank so, listens a moment (a tenth of the timeout, at most
5 s) for the others that are waiting too, prints what it waited for and which ranks
never said they were waiting, then ends the job (``MPI.COMM_WORLD.Abort``).
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

_TAG_WAITING = 29  # "I have timed out waiting at call N", sent just before the end
_SPIN_S = 2e-3  # a tight spin first: small and medium collectives end within it
# ... and longer for large buffers, since MPI moves data only inside Test: spin for as long
# as the bytes could take at 0.5 GB/s before backing off.
_SPIN_S_PER_BYTE = 2e-9
_FIRST_PAUSE_S = 1e-5
_MAX_PAUSE_S = 1e-3
_ENDED = "the end of the program"
_ADVICE = (
    "Check that every rank makes the same tapegrad.distributed calls in the same order "
    "(no rank-dependent branch, early return or skipped step; dist.shard gives every rank "
    "the same number of batches), and that no rank is stuck or slow (a deadlock, slow I/O, "
    "an overloaded or dead node). If a step legitimately takes longer, raise the timeout: "
    "dist.init(timeout=seconds) or TAPEGRAD_DIST_TIMEOUT=seconds."
)


DEFAULT_TIMEOUT = 600.0  # seconds: ten minutes, as PyTorch's init_process_group (NCCL)


class World:
    """A world of one: rank 0 of 1, every collective a no-op. :class:`MPIWorld` is the rest."""

    rank = 0
    size = 1
    local_rank = 0
    comm: Any = None
    timeout = DEFAULT_TIMEOUT

    def allreduce(self, buffer: Any, op: str) -> None:
        """Reduce the host array ``buffer`` across ranks in place (``op``: sum, max, min)."""

    def broadcast(self, buffer: Any, root: int) -> None:
        """Overwrite the host array ``buffer`` with ``root``'s, in place."""

    def broadcast_bytes(self, data: bytes | None, root: int) -> bytes:
        """``root``'s ``data`` (None on the other ranks) on every rank."""
        return data  # type: ignore[return-value]  # a world of one is its own root

    def agree(self, digest: int, what: str, describe: Callable[[], list[str]]) -> None:
        """Raise ValueError on every rank unless every rank is at the same call with the
        same ``digest`` (a fingerprint of its structure); ``describe()`` says what the
        call passes, for the message."""


def fingerprint(signature: Any) -> int:
    """A 56-bit hash of ``signature``'s repr (the same on every rank for equal structures)."""
    digest = hashlib.blake2b(repr(signature).encode(), digest_size=7).digest()
    return int.from_bytes(digest, "little")


_ENDED_DIGEST = fingerprint(("the end of the program",))


def _ranks(ranks: Sequence[int]) -> str:
    return ("rank " if len(ranks) == 1 else "ranks ") + ", ".join(map(str, ranks))


class MPIWorld(World):
    """Every rank of an mpi4py communicator (a private duplicate of it, so tapegrad's
    messages never meet the user's own), each collective bounded by ``timeout`` seconds."""

    def __init__(self, comm: Any, mpi: Any, timeout: float) -> None:
        self.mpi = mpi
        self.given = comm
        self.timeout = timeout
        self.calls = 0  # collectives made so far, this rank's count
        self.current = "init"  # the collective under way, for messages
        self.left: list[int] = []  # ranks known to have ended
        self.rank = comm.Get_rank()
        self.size = comm.Get_size()
        self.comm, request = comm.Idup()
        self._wait([request], "init (the duplicate of the communicator)")
        hosts = np.zeros(self.size, dtype=np.int64)
        hosts[self.rank] = fingerprint(mpi.Get_processor_name())
        self._wait([self.comm.Iallgather(mpi.IN_PLACE, hosts)], "init (the host names)")
        self.local_rank = int(np.count_nonzero(hosts[: self.rank] == hosts[self.rank]))
        self._ops = {"sum": mpi.SUM, "max": mpi.MAX, "min": mpi.MIN}
        self._extremes = np.zeros(4, dtype=np.int64)
        self._length = np.zeros(1, dtype=np.int64)

    # --- the transfers ---------------------------------------------------------------
    def allreduce(self, buffer: Any, op: str) -> None:
        request = self.comm.Iallreduce(self.mpi.IN_PLACE, buffer, op=self._ops[op])
        self._wait([request], nbytes=buffer.nbytes)

    def broadcast(self, buffer: Any, root: int) -> None:
        # As bytes: any dtype travels, float16 and bool included.
        request = self.comm.Ibcast([buffer.view(np.uint8), self.mpi.BYTE], root=root)
        self._wait([request], nbytes=buffer.nbytes)

    def broadcast_bytes(self, data: bytes | None, root: int) -> bytes:
        length = self._length
        if self.rank == root:
            payload = np.frombuffer(data or b"", dtype=np.uint8).copy()
            length[0] = len(payload)
        self._wait([self.comm.Ibcast(length, root=root)])
        if self.rank != root:
            payload = np.empty(int(length[0]), dtype=np.uint8)
        if len(payload):
            self._wait([self.comm.Ibcast(payload, root=root)])
        return payload.tobytes()

    # --- the agreement ----------------------------------------------------------------
    def agree(self, digest: int, what: str, describe: Callable[[], list[str]]) -> None:
        """Raise ValueError on every rank unless every rank is at the same call with the
        same ``digest``. ``describe()``: the call and one line per leaf, for the message."""
        if self.left:
            raise ValueError(
                f"{what}: {_ranks(self.left)} of {self.size} ended earlier, so no "
                "collective can complete; every rank must make the same calls"
            )
        self.calls += 1
        self.current = f"{what} (call {self.calls})"
        extremes = self._extremes
        extremes[0], extremes[1], extremes[2], extremes[3] = (
            digest,
            -digest,
            self.calls,
            -self.calls,
        )
        self._wait([self.comm.Iallreduce(self.mpi.IN_PLACE, extremes, op=self._ops["max"])])
        if (extremes != (digest, -digest, self.calls, -self.calls)).any():
            raise ValueError(f"{what}: {self._explain(digest, describe)}")

    def _explain(self, digest: int, describe: Callable[[], list[str]]) -> str:
        """Every rank's fingerprint, then the descriptions of rank 0's call and of the
        first call that differs from it: the message, the same on every rank."""
        prints = np.zeros((self.size, 2), dtype=np.int64)
        prints[self.rank] = digest, self.calls
        self._wait([self.comm.Iallgather(self.mpi.IN_PLACE, prints)])
        other = int(np.flatnonzero((prints != prints[0]).any(axis=1))[0])
        mine = describe()
        mine[0] = f"{mine[0]} (call {self.calls})"
        first = self._broadcast_json(mine if self.rank == 0 else None, 0)
        theirs = self._broadcast_json(mine if self.rank == other else None, other)
        ended = [r for r in range(self.size) if prints[r, 0] == _ENDED_DIGEST]
        if not ended:
            return _disagreement(first, other, theirs)
        self.left = [r for r in ended if r != self.rank]
        return _left_message(ended, self.size, theirs[0] if 0 in ended else first[0])

    def _broadcast_json(self, value: Any, root: int) -> Any:
        data = json.dumps(value).encode() if self.rank == root else None
        return json.loads(self.broadcast_bytes(data, root))

    # --- the end ----------------------------------------------------------------------
    def goodbye(self) -> None:
        """At exit: a last agreement, so that ranks still expecting this one learn that it
        has ended (and this rank learns if they have not), instead of waiting forever."""
        if self.left or self.mpi.Is_finalized():
            return
        try:
            self.agree(_ENDED_DIGEST, "exit", lambda: [_ENDED])
        except ValueError as exc:
            sys.stderr.write(
                f"tapegrad.distributed: rank {self.rank} of {self.size} ended its program "
                f"while the other ranks still expect it ({str(exc).removeprefix('exit: ')}); "
                "ending every rank (MPI Abort)\n"
            )
            sys.stderr.flush()
            time.sleep(1.5)  # the other ranks print their own error, then end the job
            self.mpi.COMM_WORLD.Abort(1)

    # --- waiting ----------------------------------------------------------------------
    def _wait(self, requests: list[Any], phase: str = "", nbytes: int = 0) -> None:
        """Test ``requests`` (moving ``nbytes``) until they complete; past the timeout,
        end the job."""
        test = (
            requests[0].Test if len(requests) == 1 else lambda: self.mpi.Request.Testall(requests)
        )
        if test():
            return
        start = time.perf_counter()
        spin_until = start + max(_SPIN_S, nbytes * _SPIN_S_PER_BYTE)
        deadline = start + self.timeout
        pause = _FIRST_PAUSE_S
        while not test():
            now = time.perf_counter()
            if now < spin_until:
                continue
            if now > deadline:
                self._time_out(phase, now - start)
            time.sleep(pause)
            pause = min(2 * pause, _MAX_PAUSE_S)

    def _time_out(self, phase: str, waited: float) -> None:
        """Tell the others, hear which of them wait too, say who never came; end the job."""
        comm, mpi = self.given, self.mpi
        note = np.array([self.calls], dtype=np.int64)
        for r in range(self.size):
            if r != self.rank:
                comm.Isend(note, dest=r, tag=_TAG_WAITING)  # never waited for
        waiting = {self.rank: self.calls}
        listen_until = time.perf_counter() + min(5.0, 0.1 * self.timeout)
        heard = np.zeros(1, dtype=np.int64)
        status = mpi.Status()
        while time.perf_counter() < listen_until and len(waiting) < self.size:
            if comm.Iprobe(source=mpi.ANY_SOURCE, tag=_TAG_WAITING, status=status):
                comm.Recv(heard, source=status.Get_source(), tag=_TAG_WAITING)
                waiting[status.Get_source()] = int(heard[0])
            else:
                time.sleep(1e-3)
        absent = [r for r in range(self.size) if r not in waiting]
        elsewhere = [f"rank {r} at call {c}" for r, c in sorted(waiting.items()) if c != self.calls]
        where = f"rank {self.rank} of {self.size} waited {waited:.1f} s in {phase or self.current}"
        if absent:
            reason = f"for {_ranks(absent)}, which never reached it"
        else:
            reason = (
                "though every rank is waiting too: a rank stopped in the middle of a transfer, "
                "or the ranks are at different collectives"
            )
        if elsewhere:
            reason += f" (also waiting: {', '.join(elsewhere)})"
        sys.stderr.write(
            f"tapegrad.distributed: timeout: {where} {reason}. {_ADVICE} "
            "Ending every rank (MPI Abort).\n"
        )
        sys.stdout.flush()
        sys.stderr.flush()
        time.sleep(0.5)  # the launcher forwards the message before Abort tears the pipes down
        mpi.COMM_WORLD.Abort(1)


def _left_message(ended: list[int], size: int, call: str) -> str:
    waiting = [r for r in range(size) if r not in ended]
    verb = "has" if len(ended) == 1 else "have"
    return (
        f"{_ranks(ended)} {verb} ended (the program returned or called sys.exit) while "
        f"{_ranks(waiting)} {'is' if len(waiting) == 1 else 'are'} at {call}; every rank "
        "must make the same calls: check for a rank-dependent early exit, a shorter loop "
        "or a skipped step (dist.shard gives every rank the same number of batches)"
    )


def _disagreement(first: list[str], rank: int, other: list[str]) -> str:
    """What differs between rank 0's call and rank ``rank``'s, and where.

    A description is the call (its first line, with the call number), then one line per leaf.
    """
    where = next((i for i, (a, b) in enumerate(zip(first, other)) if a != b), None)
    if where is None:
        detail = f"{len(first) - 1} leaves on rank 0, {len(other) - 1} on rank {rank}"
    else:
        detail = f"rank 0 passes {first[where]}, rank {rank} passes {other[where]}"
    return (
        f"the ranks disagree ({detail}); every rank must make the same calls in the same "
        "order, with the same structure, shapes and dtypes"
    )
