"""The GPU transports without a GPU: which one is chosen, and NCCL's calls checked against a
fake ``cupy.cuda.nccl`` that reduces host memory through the pointers it is given, as if
every rank had passed the same values. (On a GPU machine, test_mpi.py's checks apply.)"""

import ctypes
import importlib.util
from types import SimpleNamespace

import numpy as np
import pytest

from tapegrad.distributed import buckets, gpu
from tapegrad.distributed.world import World

CODES = {"int8": 0, "uint8": 1, "int32": 2, "uint32": 3, "int64": 4, "uint64": 5}
CODES.update(float16=6, float32=7, float64=8)  # NCCL's numbering


class FakeNCCL:
    """The parts of ``cupy.cuda.nccl`` tapegrad uses; collectives act on the raw memory."""

    available = True
    NCCL_SUM, NCCL_MAX, NCCL_MIN = 0, 2, 3
    NCCL_INT8, NCCL_UINT8, NCCL_INT32, NCCL_UINT32, NCCL_INT64, NCCL_UINT64 = range(6)
    NCCL_FLOAT16, NCCL_FLOAT32, NCCL_FLOAT64 = 6, 7, 8

    def __init__(self, ranks):
        self.ranks = ranks
        self.calls = []

    def get_unique_id(self):
        return tuple(range(128))

    def NcclCommunicator(self, ndev, unique_id, rank):  # noqa: N802 - NCCL's name
        self.calls.append(("init", ndev, unique_id[:3], rank))
        return self

    def memory(self, pointer, count, code):
        dtype = np.dtype(next(name for name, c in CODES.items() if c == code))
        raw = (ctypes.c_char * (count * dtype.itemsize)).from_address(pointer)
        return np.frombuffer(raw, dtype=dtype)

    def allReduce(self, send, receive, count, code, op, stream):  # noqa: N802
        self.calls.append(("allReduce", send == receive, count, code, op, stream))
        if op == self.NCCL_SUM:
            self.memory(receive, count, code)[:] *= self.ranks

    def bcast(self, pointer, count, code, root, stream):
        self.calls.append(("bcast", count, code, root, stream))


class FakeDeviceArray:
    """A host array dressed as a CuPy array: ``.data.ptr``, ``.device`` (a context)."""

    def __init__(self, host, device=0):
        self.host = host
        self.device = _Device(device)

    dtype = property(lambda self: self.host.dtype)
    size = property(lambda self: self.host.size)
    data = property(lambda self: SimpleNamespace(ptr=self.host.ctypes.data))

    def view(self, dtype):
        return FakeDeviceArray(self.host.view(dtype), self.device.id)


class _Device:
    """CuPy's Device: an ``id``, and a context making it current."""

    def __init__(self, id):
        self.id = id

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class TwoRanks(World):
    size, rank = 2, 0

    def __init__(self):
        self.comm = SimpleNamespace(bcast=lambda value, root=0: value)


@pytest.fixture
def nccl(monkeypatch):
    monkeypatch.setattr(gpu, "_stream_pointer", lambda: 77)
    fake = FakeNCCL(ranks=2)
    return fake, gpu.NCCL(TwoRanks(), fake)


def test_nccl_reduces_in_place_with_the_buffers_dtype_and_count(nccl):
    fake, transport = nccl
    buffer = FakeDeviceArray(np.array([1.0, -2.0, 3.0], dtype=np.float32))
    transport.allreduce(buffer, "sum")
    np.testing.assert_array_equal(buffer.host, [2.0, -4.0, 6.0])
    transport.allreduce(buffer, "max")
    np.testing.assert_array_equal(buffer.host, [2.0, -4.0, 6.0])
    assert fake.calls == [
        ("init", 2, (0, 1, 2), 0),  # made once, from rank 0's unique id
        ("allReduce", True, 3, CODES["float32"], FakeNCCL.NCCL_SUM, 77),
        ("allReduce", True, 3, CODES["float32"], FakeNCCL.NCCL_MAX, 77),
    ]


def test_nccl_sums_complex_numbers_as_pairs_of_reals(nccl):
    fake, transport = nccl
    buffer = FakeDeviceArray(np.array([1 + 2j, -3j]))
    transport.allreduce(buffer, "sum")
    np.testing.assert_array_equal(buffer.host, [2 + 4j, -6j])
    assert fake.calls[-1][2:4] == (4, CODES["float64"])


def test_nccl_broadcasts_bytes_and_refuses_what_it_cannot_reduce(nccl):
    fake, transport = nccl
    transport.broadcast(FakeDeviceArray(np.zeros(3, dtype=np.float16)), root=1)
    assert fake.calls[-1] == ("bcast", 6, CODES["uint8"], 1, 77)
    with pytest.raises(TypeError, match="NCCL cannot reduce bool arrays"):
        transport.allreduce(FakeDeviceArray(np.zeros(2, dtype=bool)), "sum")
    with pytest.raises(NotImplementedError, match="communicator is on gpu:0, the arrays on gpu:1"):
        transport.allreduce(FakeDeviceArray(np.zeros(2), device=1), "sum")


def test_the_transport_follows_the_environment(monkeypatch):
    launched_alone = TwoRanks()  # e.g. mpiexec -n 1: an MPI world of one
    launched_alone.size = 1
    assert type(gpu.transport(launched_alone)) is World  # no-op collectives, never MPI's
    for choice, kind in (("host", type(None)), ("mpi", gpu.CudaAwareMPI)):
        monkeypatch.setenv(gpu.TRANSPORT_VARIABLE, choice)
        assert isinstance(gpu.transport(TwoRanks()), kind)
    monkeypatch.setenv(gpu.TRANSPORT_VARIABLE, "carrier pigeon")
    with pytest.raises(ValueError, match="use one of auto, nccl, mpi, host"):
        gpu.transport(TwoRanks())


@pytest.mark.skipif(importlib.util.find_spec("cupy") is not None, reason="CuPy is installed")
def test_without_cupy_auto_goes_through_the_host_and_nccl_says_it_is_missing(monkeypatch):
    monkeypatch.setenv(gpu.TRANSPORT_VARIABLE, "auto")
    assert gpu.transport(TwoRanks()) is None
    monkeypatch.setenv(gpu.TRANSPORT_VARIABLE, "nccl")
    with pytest.raises(RuntimeError, match="this CuPy has no NCCL"):
        gpu.transport(TwoRanks())


def test_a_cupy_array_lives_on_the_gpu_only_when_a_transport_takes_it(monkeypatch):
    fake_cupy_array = type("ndarray", (), {"__module__": "cupy._core.core"})()
    world = TwoRanks()
    world.gpu_transport = None
    assert buckets.home_of(fake_cupy_array, world) == "host"
    world.gpu_transport = object()
    assert buckets.home_of(fake_cupy_array, world) == "gpu"
    assert buckets.home_of(np.ones(2), world) == "host"
