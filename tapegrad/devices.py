"""Devices: where a Tensor's data lives ("cpu" through NumPy, "gpu:N" through CuPy)."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np

from tapegrad import backend

_default_device: contextvars.ContextVar[str] = contextvars.ContextVar("device", default="cpu")


def normalize(device: str | None) -> str:
    """``None`` -> the default device; ``"gpu"`` -> ``"gpu:0"``; checks the spelling."""
    if device is None:
        return _default_device.get()
    device = str(device).lower()
    if device in ("cpu", "gpu", "cuda"):
        return "gpu:0" if device != "cpu" else "cpu"
    kind, _, number = device.partition(":")
    if kind in ("gpu", "cuda") and number.isdigit():
        return f"gpu:{int(number)}"
    raise ValueError(f"unknown device {device!r}: use 'cpu', 'gpu' or 'gpu:N'")


def cupy() -> ModuleType:
    """The CuPy module, or a clear error saying how to get it."""
    try:
        import cupy as cp

        cp.cuda.runtime.getDeviceCount()
    except Exception as exc:  # ImportError, or CUDA not usable
        raise RuntimeError(
            "device 'gpu' needs CuPy and a CUDA GPU: install the gpu extra "
            "(pip install 'tapegrad[gpu]', or a cupy-cudaXXx wheel matching your CUDA), "
            f"then check that a GPU is visible ({type(exc).__name__}: {exc})"
        ) from exc
    return cp


def make_array(data: Any, dtype: Any, device: str | None) -> Any:
    """A fresh backend array from ``data`` on ``device`` (or where ``data`` already lives)."""
    is_foreign = not isinstance(data, (np.ndarray, np.generic)) and hasattr(
        data, "__array_namespace__"
    )
    if device is None and is_foreign:
        xp = backend.namespace(data)
        return xp.asarray(data, dtype=dtype, copy=True)
    target = normalize(device)
    if target == "cpu":
        if is_foreign:
            data = backend.to_host(data)
        return np.array(data, dtype=dtype, copy=True)
    cp = cupy()
    with cp.cuda.Device(int(target.split(":")[1])):
        if is_foreign and backend.device_of(data) != target:
            data = backend.to_host(data)
        return cp.array(data, dtype=dtype, copy=True)


def set_default_device(device: str) -> None:
    """Make ``device`` the default for new Tensors in this thread/context."""
    _default_device.set(normalize(device))


def default_device() -> str:
    return _default_device.get()


@contextlib.contextmanager
def device_scope(device: str) -> Iterator[str]:
    """``with tg.device_scope("gpu"):`` new Tensors default to ``device`` inside."""
    token = _default_device.set(normalize(device))
    try:
        yield _default_device.get()
    finally:
        _default_device.reset(token)
