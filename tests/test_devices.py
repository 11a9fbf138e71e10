"""tapegrad/backends/devices.py, tapegrad/ops/device.py and tapegrad/random.py: the device API.

The GPU tests at the end run only where CuPy sees a GPU (``--backend cupy`` on
such a machine); everything else runs everywhere.
"""

import sys
import threading
import types

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.backends import devices
from tapegrad.backends import namespaces as backend
from tapegrad.testing import gradcheck, gradgradcheck

HAS_GPU = devices.gpu_count() > 0
needs_gpu = pytest.mark.skipif(not HAS_GPU, reason="needs CuPy and a CUDA GPU")
without_gpu = pytest.mark.skipif(HAS_GPU, reason="checks the errors seen without a GPU")


@pytest.mark.parametrize(
    ("given", "expected"),
    [("cpu", "cpu"), ("CPU", "cpu"), ("gpu", "gpu:0"), ("cuda", "gpu:0"), ("gpu:2", "gpu:2")],
)
def test_device_names(given, expected):
    assert devices.normalize(given) == expected


@pytest.mark.parametrize("bad", ["tpu", "gpu:x", "gpu:-1", ""])
def test_unknown_device_names_are_rejected(bad):
    with pytest.raises(ValueError, match="unknown device"):
        tg.tensor(1.0, device=bad)


def test_cpu_tensors_and_numpy_always_gives_a_host_ndarray(backend):
    x = backend.tensor(np.arange(3.0))
    assert x.device == "cpu"
    assert type(x.numpy()) is np.ndarray and x.numpy().tolist() == [0.0, 1.0, 2.0]
    assert type(x.sum().numpy()) is np.ndarray


def test_default_device_scope_nests_and_restores():
    assert tg.default_device() == "cpu"
    with tg.device_scope("cpu") as inner:
        assert inner == "cpu" and tg.zeros(2).device == "cpu"
    assert tg.default_device() == "cpu"


def test_the_default_device_is_per_thread():
    seen = []
    with tg.device_scope("cpu"):
        thread = threading.Thread(target=lambda: seen.append(tg.default_device()))
        thread.start()
        thread.join()
    assert seen == ["cpu"]


@without_gpu
@pytest.mark.parametrize(
    "ask",
    [
        lambda: tg.tensor([1.0], device="gpu"),
        lambda: tg.Variable([1.0], device="gpu:0"),
        lambda: tg.zeros(3, device="gpu"),
        lambda: tg.random.normal(3, device="gpu"),
        lambda: tg.set_default_device("gpu"),
        lambda: tg.device_scope("cuda").__enter__(),
    ],
    ids=["tensor", "Variable", "zeros", "random", "set_default_device", "device_scope"],
)
def test_asking_for_a_gpu_without_one_says_how_to_install_it(ask):
    with pytest.raises(RuntimeError, match=r"pip install 'tapegrad\[gpu\]'"):
        ask()
    assert tg.default_device() == "cpu"


def test_a_missing_cupy_gives_the_install_hint_even_where_cupy_exists(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # makes "import cupy" fail
    monkeypatch.setattr(devices, "_cupy_module", None)
    with pytest.raises(RuntimeError, match=r"tapegrad\[gpu\].*\((ModuleNotFoundError|ImportError)"):
        devices.cupy()
    assert devices.gpu_count() == 0


def test_the_gpu_error_names_cupy_and_the_device_as_written(monkeypatch):
    monkeypatch.setitem(sys.modules, "cupy", None)  # makes "import cupy" fail
    monkeypatch.setattr(devices, "_cupy_module", None)
    with pytest.raises(RuntimeError, match=r"^device 'cuda' needs CuPy, which is not installed"):
        tg.tensor([1.0], device="cuda")
    with pytest.raises(RuntimeError, match=r"^device 'cuda:1' needs CuPy"):
        tg.zeros(2, device="cuda:1")


def test_cupy_that_sees_no_gpu_says_so(monkeypatch):
    # A stand-in for CuPy on a machine whose driver reports no device.
    runtime = types.SimpleNamespace(getDeviceCount=lambda: 0)
    monkeypatch.setitem(
        sys.modules, "cupy", types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=runtime))
    )
    monkeypatch.setitem(sys.modules, "array_api_compat", types.ModuleType("array_api_compat"))
    monkeypatch.setitem(
        sys.modules, "array_api_compat.cupy", types.ModuleType("array_api_compat.cupy")
    )
    monkeypatch.setattr(devices, "_cupy_module", None)
    with pytest.raises(RuntimeError, match=r"device 'gpu' needs a CUDA GPU, but CuPy sees none"):
        tg.tensor([1.0], device="gpu")
    assert devices.gpu_count() == 0


@without_gpu
def test_a_failed_move_leaves_the_tape_as_it_was():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
        with pytest.raises(RuntimeError, match="gpu"):
            y.to("gpu")
    assert len(tape) == 1


def test_to_cpu_on_numpy_records_and_passes_the_gradient():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = (x.to("cpu") ** 2).sum()
    assert "to_device" in str(tape)
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 4.0]


def test_gradients_live_on_their_sources_device():
    xs = pytest.importorskip("array_api_strict")
    x = tg.tensor(xs.asarray([1.0, 2.0, 3.0]))
    with tg.GradientTape() as tape:
        tape.watch(x)
        on_host = x.to("cpu")
        y = (on_host * on_host).sum()
    assert type(on_host.data) is np.ndarray
    g = tape.gradient(y, x)
    assert isinstance(g.data, type(x.data)) and g.numpy().tolist() == [2.0, 4.0, 6.0]
    gradcheck(lambda x: tg.to_device(x, "cpu") ** 3, [x])
    gradgradcheck(lambda x: tg.to_device(x, "cpu") ** 3, [x])


def test_tensor_of_a_foreign_array_keeps_its_library_unless_a_device_is_given():
    xs = pytest.importorskip("array_api_strict")
    a = xs.asarray([1.0, 2.0], dtype=xs.float32)
    assert isinstance(tg.tensor(a).data, type(a))
    assert tg.tensor(a, dtype=np.float64).dtype == xs.float64
    on_host = tg.tensor(a, device="cpu")
    assert type(on_host.data) is np.ndarray and on_host.dtype == np.float32


# --- random numbers ---------------------------------------------------------------------


def test_random_numbers_repeat_with_a_seed_and_follow_like():
    xs = pytest.importorskip("array_api_strict")
    tg.random.seed(7)
    a = tg.random.normal((2, 3), mean=1.0, std=2.0)
    tg.random.seed(7)
    b = tg.random.normal((2, 3), mean=1.0, std=2.0, like=tg.tensor(xs.asarray([0.0])))
    assert type(a.data) is np.ndarray and isinstance(b.data, type(xs.asarray(0.0)))
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    u = tg.random.uniform(500, -2.0, -1.0, dtype=np.float32)
    assert u.dtype == np.float32 and u.numpy().min() >= -2.0 and u.numpy().max() < -1.0
    assert tg.random.uniform(4, like=tg.tensor(np.ones(1, np.float32))).dtype == np.float32
    tg.random.seed(None)


def test_random_rejects_integer_dtypes():
    with pytest.raises(TypeError, match="normal: dtype must be float32 or float64"):
        tg.random.normal(3, dtype=np.int64)


# --- on a GPU (CuPy) -----------------------------------------------------------------------


@needs_gpu
def test_gpu_tensors_numpy_and_device():
    x = tg.tensor([[1.0, 2.0]], device="gpu")
    assert x.device == "gpu:0" and backend.is_cupy(x.data)
    assert type(x.numpy()) is np.ndarray and x.numpy().tolist() == [[1.0, 2.0]]
    assert x.to("cpu").device == "cpu" and tg.tensor(x).device == "gpu:0"


@needs_gpu
def test_mixing_cpu_and_gpu_raises_naming_both():
    with pytest.raises(ValueError, match=r"^add: cannot mix devices cpu and gpu:0"):
        tg.tensor([1.0]) + tg.tensor([1.0], device="gpu")


@needs_gpu
def test_gpu_gradients_through_moves_and_default_device():
    w = tg.Variable(np.ones((3, 2), np.float32), device="gpu")
    x = tg.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    with tg.GradientTape() as tape:
        y = tg.tanh(x.to("gpu") @ w)
        loss = tg.sum(y[[0, 0, 1]] ** 2).to("cpu")
    g = tape.gradient(loss, w)
    assert g.device == "gpu:0" and g.dtype == np.float32
    with tg.GradientTape() as tape0:
        w0 = tg.tensor(np.ones((3, 2), np.float32))
        tape0.watch(w0)
        loss0 = tg.sum(tg.tanh(x @ w0)[[0, 0, 1]] ** 2)
    np.testing.assert_allclose(g.numpy(), tape0.gradient(loss0, w0).numpy(), rtol=1e-5)
    with tg.device_scope("gpu"):
        assert tg.zeros(2).device == "gpu:0" and tg.tensor([1.0]).device == "gpu:0"
        assert tg.random.normal(3).device == "gpu:0"
    assert tg.zeros(2).device == "cpu"


@needs_gpu
def test_gpu_scatter_add_matches_np_add_at():
    index = (np.array([0, 2, 0, 0]),)
    values = np.arange(4.0)
    expected = np.zeros(3)
    np.add.at(expected, index, values)
    got = tg.index_add(tg.tensor(values, device="gpu"), shape=(3,), index=index)
    assert got.device == "gpu:0"
    np.testing.assert_array_equal(got.numpy(), expected)
