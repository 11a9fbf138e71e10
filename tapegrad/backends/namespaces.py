"""Array namespaces: the one place that knows which library holds a Tensor's data.

Primitives never call ``numpy`` on backend arrays directly. They ask
:func:`namespace` for the namespace of their inputs: NumPy arrays get the
``numpy`` module itself (so the CPU path pays no wrapper cost), CuPy arrays get
``array_api_compat.cupy`` (CuPy with the array API's names), any other array
its own ``__array_namespace__()`` (array_api_strict, ...).

Three operations that the array API standard lacks are dispatched here: to the
native kernel where the namespace has one, else to the standard-only versions in
:mod:`tapegrad.standard`.
"""

from __future__ import annotations

import contextlib
import sys
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from tapegrad.backends import standard

_ndarray = np.ndarray
_generic = np.generic
_SCALARS = (float, int, bool, complex)
_UNKNOWN = object()

# type -> namespace (or None for objects that are not arrays); the namespace of an
# array depends only on its type, and looking it up is the slow part.
_namespaces: dict[type, Any] = {_ndarray: np}  # a namespace, None, or _UNKNOWN


class MixedDevicesError(ValueError):
    """An op received arrays from two devices (or two array libraries)."""


def namespace(*arrays: Any) -> ModuleType:
    """The array namespace shared by ``arrays``; Python scalars and None are ignored.

    Raises :class:`MixedDevicesError` (a ValueError) naming both devices when the
    arrays live on different devices or in different array libraries.

    >>> import numpy as np
    >>> from tapegrad.backends import namespaces as backend
    >>> backend.namespace(np.ones(2), 3.0) is np
    True
    """
    found = None
    first = None
    xp: Any
    for a in arrays:
        cls = type(a)
        if cls is _ndarray:
            xp = np
        elif cls in _SCALARS or a is None:
            continue
        else:
            xp = _namespaces.get(cls, _UNKNOWN)
            if xp is _UNKNOWN:
                xp = _lookup(cls, a)
            if xp is None:
                continue
        if found is None:
            found, first = xp, a
        elif xp is not found or (xp is not np and device_of(a) != device_of(first)):
            raise MixedDevicesError(mixed_message(first, a))
    return np if found is None else found


def _lookup(cls: type, a: Any) -> ModuleType | None:
    xp: ModuleType | None
    if issubclass(cls, (_generic, _ndarray)):
        xp = np
    elif cls.__module__.startswith("cupy"):
        xp = _compat_namespace(a, "CuPy arrays")
    elif hasattr(a, "__array_namespace__"):
        try:
            xp = _compat_namespace(a, "")
        except ImportError:
            xp = a.__array_namespace__()
    else:
        xp = None
    _namespaces[cls] = xp
    return xp


def _compat_namespace(a: Any, who: str) -> ModuleType:
    try:
        import array_api_compat
    except ImportError as exc:
        if not who:
            raise
        raise RuntimeError(
            f"{who} need the array-api-compat package: install the gpu extra "
            "(pip install 'tapegrad[gpu]')"
        ) from exc
    return array_api_compat.array_namespace(a)


def mixed_message(a: Any, b: Any) -> str:
    """``cannot mix devices cpu and gpu:0``, or the two libraries when the devices agree."""
    da, db = device_of(a), device_of(b)
    if da != db:
        return f"cannot mix devices {da} and {db} (move one with Tensor.to(device))"
    return (
        f"cannot mix arrays of {library_of(a)} and {library_of(b)} (both on {da}); "
        "convert one with tg.tensor(..., device=...) or Tensor.to(device)"
    )


def library_of(a: Any) -> str:
    """``"numpy"``, ``"cupy"``, ``"array_api_strict"``: the top-level module of ``a``'s type."""
    if isinstance(a, _SCALARS):
        return "python"
    return type(a).__module__.partition(".")[0]


def is_cupy(a: Any) -> bool:
    """Whether ``a`` is a CuPy array (checked without importing CuPy)."""
    return type(a).__module__.startswith("cupy")


def is_foreign(a: Any) -> bool:
    """Whether ``a`` is an array of a library other than NumPy (CuPy, array_api_strict...)."""
    if isinstance(a, (_ndarray, _generic)):
        return False
    return is_cupy(a) or hasattr(a, "__array_namespace__")


def device_of(a: Any) -> str:
    """``"cpu"`` for host arrays, ``"gpu:N"`` for CuPy arrays; other devices by name."""
    cls = type(a)
    if cls is _ndarray or cls in _SCALARS or isinstance(a, _generic):
        return "cpu"
    if cls.__module__.startswith("cupy"):
        return f"gpu:{a.device.id}"
    dev = getattr(a, "device", None)
    if dev is None:
        return "cpu"
    name = str(dev)
    return "cpu" if "cpu" in name.lower() else name


def is_real_floating(dtype: Any) -> bool:
    """True for real floating dtypes of any namespace."""
    kind = getattr(dtype, "kind", None)
    if kind is not None:
        return kind == "f"
    return "float" in str(dtype) and "complex" not in str(dtype)


def is_complex(dtype: Any) -> bool:
    """True for complex floating dtypes of any namespace."""
    kind = getattr(dtype, "kind", None)
    if kind is not None:
        return kind == "c"
    return "complex" in str(dtype)


def is_floating(dtype: Any) -> bool:
    """True for real or complex floating dtypes of any namespace: the ones a tape can
    differentiate."""
    kind = getattr(dtype, "kind", None)
    if kind is not None:
        return kind in "fc"
    name = str(dtype)
    return "float" in name or "complex" in name


def dtype_in(xp: ModuleType, dtype: Any) -> Any:
    """``dtype`` (a NumPy dtype, type or name) as ``xp``'s own dtype object."""
    if dtype is None:
        return None
    if xp is np:
        if isinstance(dtype, (type, np.dtype, str)):
            return dtype
        return np.dtype(dtype_name(dtype))  # another namespace's dtype object
    try:
        name = np.dtype(dtype).name
    except TypeError:  # already one of xp's dtypes
        return dtype
    return getattr(xp, name)


def dtype_name(dtype: Any) -> str:
    """``"float32"``, ``"int64"`` ...: the name of a dtype of any namespace."""
    try:
        return np.dtype(dtype).name
    except TypeError:
        return str(dtype).rpartition(".")[2]


def to_host(a: Any) -> np.ndarray:
    """A NumPy copy (or view) of any backend array."""
    if type(a) is _ndarray:
        return a
    if isinstance(a, _generic):
        return np.asarray(a)
    if is_cupy(a):
        return a.get()
    try:
        return np.asarray(a)
    except (TypeError, ValueError, RuntimeError):
        return np.from_dlpack(a)


@dataclass(frozen=True)
class Placement:
    """Where an array lives: its namespace and that namespace's device object."""

    xp: ModuleType
    device: Any  # None for NumPy
    name: str  # "cpu", "gpu:0", or the device's own name

    def __repr__(self) -> str:
        if self.xp is np:
            return "cpu"
        library = self.xp.__name__.removeprefix("array_api_compat.")
        return self.name if library == "cupy" else f"{library}:{self.name}"


HOST = Placement(np, None, "cpu")


def placement_of(a: Any) -> Placement:
    """The :class:`Placement` of array ``a`` (NumPy's for scalars)."""
    xp = namespace(a)
    if xp is np:
        return HOST
    return Placement(xp, a.device, device_of(a))


def move(a: Any, to: Placement) -> Any:
    """``a`` in ``to``'s namespace and on its device (``a`` itself when it is there)."""
    if to.xp is np:
        return to_host(a) if not isinstance(a, _SCALARS) else np.asarray(a)
    if namespace(a) is to.xp and device_of(a) == to.name:
        return a
    # Through the host: it works between any two libraries and any two devices.
    host = a if type(a) is _ndarray else to_host(a)
    return to.xp.asarray(host, device=to.device)


def on_device(a: Any) -> contextlib.AbstractContextManager[Any]:
    """A context making ``a``'s GPU CuPy's current device (CuPy creates arrays and runs
    kernels there, whatever ``device=`` says); nothing for other arrays."""
    return a.device if is_cupy(a) else contextlib.nullcontext()


def zeros(xp: ModuleType, shape: tuple[int, ...], like: Any) -> Any:
    """Zeros of ``shape`` with ``like``'s dtype, namespace and device."""
    if xp is np:
        return np.zeros(shape, dtype=like.dtype)
    with on_device(like):
        return xp.zeros(shape, dtype=like.dtype, device=like.device)


def index_on(xp: ModuleType, like: Any, index: tuple[Any, ...]) -> tuple[Any, ...]:
    """``index`` with its host arrays (and lists) moved to ``like``'s namespace and device."""
    out = []
    for item in index:
        if isinstance(item, list):
            item = np.asarray(item)
        if type(item) is _ndarray:
            item = xp.asarray(item, device=like.device)
        out.append(item)
    return tuple(out)


def gather(xp: ModuleType, x: Any, index: tuple[Any, ...]) -> Any:
    """``x[index]`` with NumPy's indexing rules in any namespace."""
    if xp is np:
        return x[index]
    if is_cupy(x):
        return x[index_on(xp, x, index)]
    return standard.gather(xp, x, index)


def scatter_add(xp: ModuleType, target: Any, index: tuple[Any, ...], values: Any) -> Any:
    """``target[index] += values`` with repeated indices accumulating; returns the result.

    NumPy and CuPy update ``target`` in place (``np.add.at``, ``cupyx.scatter_add``);
    other namespaces get a new array from :func:`tapegrad.backends.standard.scatter_add`.
    """
    if xp is np:
        np.add.at(target, index, values)
        return target
    if is_cupy(target):
        import cupyx

        cupyx.scatter_add(target, index_on(xp, target, index), values)
        return target
    return standard.scatter_add(xp, target, index, values)


def index_set(xp: ModuleType, target: Any, index: tuple[Any, ...], values: Any) -> Any:
    """``target[index] = values`` for an index whose positions do not repeat."""
    if xp is np:
        target[index] = values
        return target
    if is_cupy(target):
        target[index_on(xp, target, index)] = values
        return target
    # The standard's __setitem__ takes fewer kinds of index than NumPy's;
    # positions that do not repeat make scatter-add the same as setting.
    return standard.scatter_add(xp, target, index, values)


def einsum(xp: ModuleType, terms: tuple[str, ...], output: str, *operands: Any) -> Any:
    """``einsum`` with explicit subscripts: the native kernel, else broadcast-multiply-sum."""
    kernel = getattr(xp, "einsum", None)
    if kernel is not None:
        return kernel(",".join(terms) + "->" + output, *operands)
    return standard.einsum(xp, terms, output, *operands)


def via_numpy(function: Any, xp: ModuleType, *arrays: Any, **params: Any) -> Any:
    """``function`` (a NumPy function) on arrays of namespace ``xp``: called directly on
    NumPy arrays; otherwise on host copies, its array results moved back next to the first
    array. For the few functions the array API standard lacks (frexp, unique's options...)."""
    if xp is np:
        return function(*arrays, **params)
    like = next(a for a in arrays if hasattr(a, "shape"))
    to = placement_of(like)
    host = [to_host(a) if hasattr(a, "shape") else a for a in arrays]
    out = function(*host, **params)
    if isinstance(out, tuple):
        return tuple(move(o, to) if isinstance(o, _ndarray) else o for o in out)
    return move(np.asarray(out), to)


def _one_name() -> int:
    held = np.empty(0)
    return sys.getrefcount(held)


# What sys.getrefcount gives for an array held by one local name, on this interpreter
# (interpreters differ in the references a call's argument adds). The raw sweep and the
# optimizers write into an array in place only when nothing else holds it.
ONE_NAME = _one_name()
