"""Devices: where a Tensor's data lives ("cpu" through NumPy, "gpu:N" through CuPy).

CuPy is imported only when a GPU is asked for, so tapegrad imports and runs
on machines without it.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.wording import a

_default_device: contextvars.ContextVar[str] = contextvars.ContextVar(
    "tapegrad_device", default="cpu"
)

INSTALL_HINT = (
    "install CuPy with the gpu extra (pip install 'tapegrad[gpu]'; if pip cannot find a "
    "CuPy wheel for your CUDA, pip install cupy-cuda12x or cupy-cuda11x, and array-api-compat)"
)


def normalize(device: str | None) -> str:
    """``None`` -> the default device; ``"gpu"``/``"cuda"`` -> ``"gpu:0"``; checks the spelling.

    >>> from tapegrad.backends import devices
    >>> devices.normalize("cuda:1"), devices.normalize("CPU")
    ('gpu:1', 'cpu')
    """
    if device is None:
        return _default_device.get()
    name = str(device).strip().lower()
    if name == "cpu":
        return "cpu"
    if name in ("gpu", "cuda"):
        return "gpu:0"
    kind, _, number = name.partition(":")
    if kind in ("gpu", "cuda") and number.isdigit():
        return f"gpu:{int(number)}"
    raise ValueError(f"unknown device {device!r}: use 'cpu', 'gpu' or 'gpu:N'")


def gpu_index(device: str) -> int:
    """``"gpu:N"`` -> N."""
    return int(device.partition(":")[2])


_cupy_module: ModuleType | None = None


def cupy(asked: str = "gpu") -> ModuleType:
    """The CuPy module, once CuPy, array-api-compat and a GPU are known to work.

    Raises RuntimeError naming the device as the user wrote it (``asked``) and saying
    how to install the gpu extra otherwise.
    """
    global _cupy_module
    if _cupy_module is not None:
        return _cupy_module
    try:
        import cupy as cp
    except ImportError as exc:
        raise RuntimeError(
            f"device {asked!r} needs CuPy, which is not installed: {INSTALL_HINT} "
            f"({type(exc).__name__}: {exc})"
        ) from exc
    try:
        import array_api_compat.cupy  # noqa: F401 - CuPy under the array API's names
    except ImportError as exc:
        raise RuntimeError(
            f"device {asked!r} needs array-api-compat beside CuPy: pip install array-api-compat "
            f"({type(exc).__name__}: {exc})"
        ) from exc
    try:
        count = cp.cuda.runtime.getDeviceCount()
    except Exception as exc:  # a CUDA driver/runtime error
        raise RuntimeError(
            f"device {asked!r}: CuPy is installed but cannot reach a CUDA GPU; check the "
            f"driver and that a GPU is visible ({type(exc).__name__}: {exc})"
        ) from exc
    if count == 0:
        raise RuntimeError(f"device {asked!r} needs a CUDA GPU, but CuPy sees none")
    _cupy_module = cp
    return cp


def gpu_count() -> int:
    """How many GPUs CuPy sees; 0 without CuPy (never raises).

    >>> from tapegrad.backends import devices
    >>> devices.gpu_count() >= 0
    True
    """
    try:
        return cupy().cuda.runtime.getDeviceCount()
    except RuntimeError:
        return 0


def placement(device: str | None) -> backend.Placement:
    """The namespace and device object behind a device name (``None``: the default)."""
    target = normalize(device)
    if target == "cpu":
        return backend.HOST
    cp = cupy(str(device) if device is not None else target)
    import array_api_compat.cupy as xp

    index = gpu_index(target)
    count = cp.cuda.runtime.getDeviceCount()
    if index >= count:
        raise ValueError(f"device {target!r} does not exist: CuPy sees {count} GPU(s)")
    return backend.Placement(xp, cp.cuda.Device(index), target)


def make_array(data: Any, dtype: Any, device: str | None) -> Any:
    """A fresh backend array from ``data`` on ``device``.

    With ``device=None``, an array of another library (CuPy, array_api_strict)
    stays in its library and on its device; anything else goes to the default device.
    """
    foreign = backend.is_foreign(data)
    if device is None and foreign:
        xp = backend.namespace(data)
        return xp.asarray(data, dtype=backend.dtype_in(xp, dtype), copy=True, device=data.device)
    to = placement(device)
    if to.xp is np:
        array = np.array(backend.to_host(data) if foreign else data, dtype=dtype, copy=True)
        check_numeric("tensor", data, array)
        return array
    if foreign and (backend.namespace(data) is not to.xp or backend.device_of(data) != to.name):
        data = backend.to_host(data)
    return to.xp.asarray(data, dtype=backend.dtype_in(to.xp, dtype), copy=True, device=to.device)


def check_numeric(op: str, data: Any, array: Any) -> None:
    """TypeError naming ``op`` when NumPy made ``data`` into an array of something not numbers."""
    if isinstance(array, np.ndarray) and array.dtype.kind in "OUSV":  # object, str, bytes, ...
        raise TypeError(
            f"{op}: cannot make a Tensor of {type(data).__name__} data {_short(data)} "
            f"(NumPy makes it {a(array.dtype)} array); Tensors hold booleans, integers, "
            "floats or complex numbers"
        )


def _short(data: Any) -> str:
    text = repr(data)
    return text if len(text) <= 40 else text[:37] + "..."


def build(device: str | None, make: Any) -> Any:
    """``make(xp, device=...)`` run in the namespace of ``device`` (None: the default).

    NumPy gets no ``device`` keyword, so the CPU path calls plain ``np.zeros`` and friends.
    """
    to = placement(device)
    if to.xp is np:
        return make(np)
    with to.device:  # CuPy creates arrays on its current device, whatever device= says
        return make(to.xp, device=to.device)


def set_default_device(device: str) -> None:
    """Make ``device`` the default for new Tensors in this thread/context.

    Args:
        device: ``"cpu"``, ``"gpu"`` or ``"gpu:N"``.

    Raises:
        ValueError: ``device`` is unknown.
        RuntimeError: A GPU device was asked for and CuPy is not installed.

    >>> import tapegrad as tg
    >>> tg.set_default_device("cpu")
    >>> tg.default_device()
    'cpu'
    """
    to = placement(device)  # fails now, not at the first Tensor, when no GPU is there
    if to.xp is not np:
        to.device.use()  # CuPy runs kernels on its current device
    _default_device.set(to.name)


def default_device() -> str:
    """The device new Tensors go to when none is given (``"cpu"`` unless changed).

    Returns:
        The device string, such as ``"cpu"`` or ``"gpu:0"``.

    >>> import tapegrad as tg
    >>> tg.default_device()
    'cpu'
    """
    return _default_device.get()


@contextlib.contextmanager
def device_scope(device: str) -> Iterator[str]:
    """New Tensors default to ``device`` inside the ``with`` block (for a GPU, CuPy's
    current device is that GPU there too, so its kernels run on it).

    Args:
        device: ``"cpu"``, ``"gpu"`` or ``"gpu:N"``.

    Returns:
        A context manager that yields the device string.

    Raises:
        ValueError: ``device`` is unknown.
        RuntimeError: A GPU device was asked for and CuPy is not installed.

    >>> import tapegrad as tg
    >>> with tg.device_scope("cpu"):
    ...     tg.zeros(2).device
    'cpu'
    """
    to = placement(device)
    token = _default_device.set(to.name)
    try:
        with contextlib.nullcontext() if to.xp is np else to.device:
            yield to.name
    finally:
        _default_device.reset(token)
