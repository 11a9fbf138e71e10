"""Collectives on CuPy buffers: NCCL, CUDA-aware MPI, or through the host.

``TAPEGRAD_GPU_TRANSPORT`` picks one (the same on every rank):

- ``auto`` (the default): NCCL through ``cupy.cuda.nccl`` when this CuPy has it,
  else through the host (each bucket copied to host memory, reduced by MPI, copied
  back: works with any MPI, costs two PCIe copies per bucket).
- ``nccl``: NCCL, or an error saying it is missing.
- ``mpi``: hand MPI the device pointers (mpi4py passes CuPy arrays through the CUDA
  array interface). Only for an MPI built CUDA-aware (Open MPI with UCX or
  ``--with-cuda``, MVAPICH2-GDR, Cray MPICH with ``MPICH_GPU_SUPPORT_ENABLED=1``);
  any other MPI crashes or reads garbage, and tapegrad cannot tell which you have.
- ``host``: always through the host.

NCCL's communicator is made on the first GPU collective, which every rank reaches
together (their structures agreed first): rank 0 makes the unique id, MPI
broadcasts it, each rank joins with the GPU that is current for its buffer.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from tapegrad.distributed.mpi_world import World

TRANSPORT_VARIABLE = "TAPEGRAD_GPU_TRANSPORT"
_CHOICES = ("auto", "nccl", "mpi", "host")


def transport(world: World) -> Any:
    """What reduces this world's CuPy buffers in place; None: stage them through the host.

    Chosen once per world, the first time a CuPy array is reduced or broadcast.
    """
    if world.size == 1:
        return _NOTHING_TO_EXCHANGE  # even under mpiexec -n 1: no MPI call on device memory
    chosen = getattr(world, "gpu_transport", _UNSET)
    if chosen is _UNSET:
        chosen = world.gpu_transport = _choose(world)  # type: ignore[attr-defined]  # cached
    return chosen


_UNSET = object()
_NOTHING_TO_EXCHANGE = World()  # a world of one's collectives: no-ops


def _choose(world: World) -> Any:
    choice = os.environ.get(TRANSPORT_VARIABLE, "auto").strip().lower()
    if choice not in _CHOICES:
        raise ValueError(f"{TRANSPORT_VARIABLE}={choice!r}: use one of {', '.join(_CHOICES)}")
    if choice == "host":
        return None
    if choice == "mpi":
        return CudaAwareMPI(world)
    try:
        from cupy.cuda import nccl
    except ImportError:
        nccl = None
    if nccl is not None and getattr(nccl, "available", False):
        return NCCL(world, nccl)
    if choice == "nccl":
        raise RuntimeError(
            f"{TRANSPORT_VARIABLE}=nccl, but this CuPy has no NCCL (cupy.cuda.nccl.available "
            "is False): install NCCL (pip install nvidia-nccl-cu12) or choose mpi or host"
        )
    return None


def _stream_pointer() -> int:
    import cupy

    return cupy.cuda.get_current_stream().ptr


class NCCL:
    """In-place all-reduce and broadcast of CuPy buffers through NCCL, one GPU per rank."""

    def __init__(self, world: World, nccl: Any) -> None:
        self.world = world
        self.nccl = nccl
        self.communicator: Any = None
        self.device: int | None = None
        self._ops = {"sum": nccl.NCCL_SUM, "max": nccl.NCCL_MAX, "min": nccl.NCCL_MIN}
        names = ("int8", "uint8", "int32", "uint32", "int64", "uint64")
        self._types = {name: getattr(nccl, f"NCCL_{name.upper()}") for name in names}
        for bits in (16, 32, 64):
            self._types[f"float{bits}"] = getattr(nccl, f"NCCL_FLOAT{bits}")

    def _join(self, buffer: Any) -> Any:
        if self.communicator is None:
            world = self.world
            unique_id = world.comm.bcast(self.nccl.get_unique_id() if world.rank == 0 else None)
            with buffer.device:
                self.communicator = self.nccl.NcclCommunicator(world.size, unique_id, world.rank)
            self.device = buffer.device.id
        elif buffer.device.id != self.device:
            raise NotImplementedError(
                f"NCCL: this rank's communicator is on gpu:{self.device}, the arrays on "
                f"gpu:{buffer.device.id}; keep one GPU per rank"
            )
        return self.communicator

    def allreduce(self, buffer: Any, op: str) -> None:
        if buffer.dtype.kind == "c":  # a complex sum is the sums of its parts
            buffer = buffer.view(np.dtype(buffer.dtype.char.lower()))
        kind = self._types.get(buffer.dtype.name)
        if kind is None:
            raise TypeError(f"NCCL cannot reduce {buffer.dtype} arrays")
        communicator = self._join(buffer)
        with buffer.device:
            pointer = buffer.data.ptr
            communicator.allReduce(
                pointer, pointer, buffer.size, kind, self._ops[op], _stream_pointer()
            )

    def broadcast(self, buffer: Any, root: int) -> None:
        communicator = self._join(buffer)
        raw = buffer.view(np.uint8)
        with buffer.device:
            communicator.bcast(
                raw.data.ptr, raw.size, self.nccl.NCCL_UINT8, root, _stream_pointer()
            )


class CudaAwareMPI:
    """MPI reading and writing device memory directly (an MPI built CUDA-aware)."""

    def __init__(self, world: World) -> None:
        self.world = world

    def allreduce(self, buffer: Any, op: str) -> None:
        _finish_pending_work(buffer)
        self.world.allreduce(buffer, op)

    def broadcast(self, buffer: Any, root: int) -> None:
        _finish_pending_work(buffer)
        self.world.broadcast(buffer, root)


def _finish_pending_work(buffer: Any) -> None:
    """Wait for the kernels that fill ``buffer``: MPI reads it outside CuPy's stream order."""
    import cupy

    with buffer.device:
        cupy.cuda.get_current_stream().synchronize()
