"""Fixtures for tapegrad.distributed's in-process tests.

The mpi_*.py files are programs run under ``mpiexec`` by test_mpi.py, not test modules.
"""

import pytest

from tapegrad.distributed import world

collect_ignore_glob = ["mpi_*.py"]


class LoopbackWorld(world.World):
    """A world of ``size`` ranks that all pass the same values, in one process: a sum
    multiplies by ``size``, max, min and broadcast leave the buffer as it is. Records
    each collective as ``(name, dtype, length)`` and each agreement as ``(digest, what)``."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.calls: list[tuple[str, str, int]] = []
        self.agreed: list[tuple[int, str]] = []

    def allreduce(self, buffer, op):
        self.calls.append((f"allreduce {op}", str(buffer.dtype), len(buffer)))
        if op == "sum":
            buffer *= self.size

    def broadcast(self, buffer, root):
        self.calls.append((f"broadcast {root}", str(buffer.dtype), len(buffer)))

    def broadcast_bytes(self, data, root):
        return data

    def agree(self, digest, what, describe):
        assert describe()  # describable
        self.agreed.append((digest, what))


@pytest.fixture
def loopback(monkeypatch):
    """Make tapegrad.distributed see a LoopbackWorld of 3 ranks (and forget cached plans)."""
    from tapegrad.distributed import collectives

    fake = LoopbackWorld(3)
    monkeypatch.setattr(world, "_world", fake)
    monkeypatch.setattr(collectives, "_plans", {})
    return fake


@pytest.fixture
def world_of_one(monkeypatch):
    """A fresh world of one, whatever an earlier test left behind."""
    from tapegrad.distributed import collectives

    monkeypatch.setattr(world, "_world", world.World())
    monkeypatch.setattr(collectives, "_plans", {})
