"""Buckets: many arrays reduced with a few collectives on flat buffers.

A :class:`Plan` lays the arrays of one structure out in contiguous 1-D buffers,
one run of buffers per (home, dtype) in the order the arrays come, each buffer
holding up to ``bucket_bytes`` (an array larger than that gets a buffer of its
own). Each call copies the arrays in, runs one collective per buffer, and copies
the results out; the buffers are made once and reused by every later call, and
a float32 array travels as float32.

An array's *home* is where its buffer lives: ``"host"`` (NumPy, reduced by MPI;
also arrays of other libraries, staged through host memory) or ``"gpu"`` (CuPy,
reduced by NCCL or CUDA-aware MPI, see :mod:`tapegrad.distributed.gpu`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.distributed import gpu
from tapegrad.distributed.mpi_world import World

BUCKET_BYTES = 25 * 2**20  # PyTorch DistributedDataParallel's default bucket size


class Spec(NamedTuple):
    """What a rank must agree on for one array: where its buffer lives, dtype, shape."""

    home: str
    dtype: np.dtype
    shape: tuple[int, ...]


def home_of(array: Any, world: World) -> str:
    """``"gpu"`` for a CuPy array this world reduces on the device, else ``"host"``."""
    if backend.is_cupy(array) and gpu.transport(world) is not None:
        return "gpu"
    return "host"


def spec_of(array: Any, world: World) -> Spec:
    dtype = np.dtype(backend.dtype_name(array.dtype))
    return Spec(home_of(array, world), dtype, tuple(array.shape))


class Slot(NamedTuple):
    """Where array ``index`` lies in a bucket's buffer."""

    index: int  # type: ignore[assignment]  # shadows tuple.index, which no code calls
    start: int
    stop: int
    shape: tuple[int, ...]


class Bucket:
    """One flat buffer and the arrays it carries.

    ``counted``: the buffer ends with one count per array, 1 where this rank has
    the array and 0 where it passed None (its slots then hold zeros); after a sum,
    a count of 0 means no rank had it, and its result is None again.
    """

    def __init__(self, spec: Spec, slots: list[Slot], counted: bool, like: Any) -> None:
        self.home = spec.home
        self.slots = slots
        self.size = slots[-1].stop
        self.counted = counted
        length = self.size + (len(slots) if counted else 0)
        if self.home == "gpu":
            import cupy

            with like.device:
                self.buffer = cupy.empty(length, dtype=spec.dtype)
        else:
            self.buffer = np.empty(length, dtype=spec.dtype)

    def pack(self, arrays: Sequence[Any]) -> None:
        buffer = self.buffer
        for slot in self.slots:
            array = arrays[slot.index]
            if array is None:
                buffer[slot.start : slot.stop] = 0
            elif self.home == "host" and type(array) is not np.ndarray:
                buffer[slot.start : slot.stop] = backend.to_host(array).reshape(-1)
            else:
                buffer[slot.start : slot.stop] = array.reshape(-1)
        if self.counted:
            present = np.array(
                [arrays[slot.index] is not None for slot in self.slots], dtype=buffer.dtype
            )
            if self.home == "gpu":  # CuPy does not copy host arrays implicitly
                import cupy

                with buffer.device:
                    present = cupy.asarray(present)
            buffer[self.size :] = present

    def unpack(self, results: list[Any], divide_by: int | None) -> None:
        """Fresh arrays (the buffer is reused) into ``results``; divided for a mean."""
        buffer = self.buffer
        counts = backend.to_host(buffer[self.size :]) if self.counted else None
        for j, slot in enumerate(self.slots):
            if counts is not None and counts[j] == 0:
                continue
            view = buffer[slot.start : slot.stop].reshape(slot.shape)
            results[slot.index] = view / divide_by if divide_by else view.copy()


class Plan:
    """The buckets for one list of specs (None: an absent array, which takes no room)."""

    def __init__(
        self,
        specs: Sequence[Spec | None],
        likes: Sequence[Any],
        world: World,
        bucket_bytes: int = BUCKET_BYTES,
        counted: bool = False,
    ) -> None:
        self.count = len(specs)
        self.specs = list(specs)
        self.world = world
        self.buckets: list[Bucket] = []
        filling: dict[Spec, tuple[list[Slot], Any]] = {}  # (home, dtype) -> open bucket
        for index, spec in enumerate(specs):
            if spec is None:
                continue
            key = Spec(spec.home, spec.dtype, ())
            slots, like = filling.get(key, ([], likes[index]))
            start = slots[-1].stop if slots else 0
            size = math.prod(spec.shape)
            if slots and (start + size) * spec.dtype.itemsize > bucket_bytes:
                self.buckets.append(Bucket(key, slots, counted, like))
                slots, like, start = [], likes[index], 0
            slots.append(Slot(index, start, start + size, spec.shape))
            filling[key] = (slots, like)
        for key, (slots, like) in filling.items():
            self.buckets.append(Bucket(key, slots, counted, like))

    def _transport(self, bucket: Bucket) -> Any:
        return gpu.transport(self.world) if bucket.home == "gpu" else self.world

    def all_reduce(self, arrays: Sequence[Any], op: str) -> list[Any]:
        """The reduced arrays, on their buffers' homes; ``op``: sum, mean, max or min."""
        results: list[Any] = [None] * self.count
        divide_by = self.world.size if op == "mean" else None
        for bucket in self.buckets:
            bucket.pack(arrays)
            self._transport(bucket).allreduce(bucket.buffer, "sum" if op == "mean" else op)
            bucket.unpack(results, divide_by)
        return results

    def broadcast(self, arrays: Sequence[Any], root: int) -> list[Any]:
        """Root's arrays on every rank, on their buffers' homes."""
        results: list[Any] = [None] * self.count
        for bucket in self.buckets:
            if self.world.rank == root:
                bucket.pack(arrays)
            self._transport(bucket).broadcast(bucket.buffer, root)
            bucket.unpack(results, None)
        return results
