"""Array namespaces: the one place that knows which library holds a Tensor's data.

Primitives never call ``numpy`` on backend arrays directly. They ask
:func:`namespace` for the namespace of their inputs: NumPy arrays get the
``numpy`` module itself (so the CPU path pays no wrapper cost), any other array
gets its ``__array_namespace__()`` (CuPy, array_api_strict, ...).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

import numpy as np

_ndarray = np.ndarray
_generic = np.generic


def namespace(*arrays: Any) -> ModuleType:
    """The array namespace shared by ``arrays``; Python scalars are ignored.

    Raises ValueError when the arrays live in different namespaces or devices.
    """
    found = None
    for a in arrays:
        cls = type(a)
        if cls is _ndarray or isinstance(a, _generic):
            xp = np
        elif cls in (float, int, bool) or a is None:
            continue
        elif hasattr(a, "__array_namespace__"):
            xp = _foreign_namespace(a)
        else:
            continue
        if found is None:
            found = xp
        elif xp is not found:
            raise ValueError(
                f"arrays from different backends cannot be mixed: {device_of(arrays[0])} "
                f"and {device_of(a)}"
            )
    return np if found is None else found


def _foreign_namespace(a: Any) -> ModuleType:
    try:
        import array_api_compat

        return array_api_compat.array_namespace(a)
    except ImportError:  # pragma: no cover - array_api_compat is optional
        return a.__array_namespace__()


def device_of(a: Any) -> str:
    """``"cpu"`` for host arrays, ``"gpu:N"`` for CuPy arrays."""
    cls = type(a)
    if cls is _ndarray or isinstance(a, (_generic, float, int, bool)):
        return "cpu"
    dev = getattr(a, "device", None)
    if type(a).__module__.startswith("cupy"):
        return f"gpu:{getattr(dev, 'id', 0)}"
    return "cpu" if dev is None or str(dev) in ("cpu", "CPU_DEVICE") else str(dev)


def is_floating(dtype: Any) -> bool:
    """True for real or complex floating dtypes of any namespace."""
    kind = getattr(dtype, "kind", None)
    if kind is not None:
        return kind in "fc"
    name = str(dtype)
    return "float" in name or "complex" in name


def to_host(a: Any) -> np.ndarray:
    """A NumPy copy (or view) of any backend array."""
    if type(a) is _ndarray:
        return a
    if isinstance(a, _generic):
        return np.asarray(a)
    get = getattr(a, "get", None)  # CuPy
    if get is not None:
        return get()
    return np.asarray(a)


def scatter_add(xp: ModuleType, target: Any, index: Any, values: Any) -> Any:
    """``target[index] += values`` with repeated indices accumulating; returns target."""
    if xp is np:
        np.add.at(target, index, values)
        return target
    try:
        import cupyx

        if type(target).__module__.startswith("cupy"):
            cupyx.scatter_add(target, index, values)
            return target
    except ImportError:
        pass
    return _scatter_add_standard(xp, target, index, values)


def _scatter_add_standard(xp: ModuleType, target: Any, index: Any, values: Any) -> Any:
    """A standard-only scatter-add: one-hot matrix product over the flattened target.

    Works in any namespace that has integer-array indexing of a 1-D array and matmul;
    costs O(len(index) * target.size), so it is the fallback, not the fast path.
    """
    flat_positions = np.arange(int(np.prod(target.shape)), dtype=np.int64).reshape(target.shape)
    picked = np.asarray(flat_positions[_host_index(index)])
    values = xp.broadcast_to(values, picked.shape)
    picked = picked.reshape(-1)
    vals = xp.reshape(values, (-1,))
    positions = xp.asarray(picked, device=getattr(target, "device", None))
    columns = xp.arange(int(np.prod(target.shape)), device=getattr(target, "device", None))
    one_hot = xp.astype(positions[:, None] == columns[None, :], vals.dtype)
    total = xp.reshape(vals[None, :] @ one_hot, target.shape)
    return target + total


def _host_index(index: Any) -> Any:
    if isinstance(index, tuple):
        return tuple(_host_index(i) for i in index)
    if hasattr(index, "__array_namespace__") and type(index) is not np.ndarray:
        return to_host(index)
    return index
