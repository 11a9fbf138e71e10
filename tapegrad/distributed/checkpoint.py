"""save and load: one checkpoint for every rank, written atomically by rank 0.

A checkpoint is a NumPy ``.npz`` file: each array of the state is one entry, and the
nest around them (dicts with string keys, lists, tuples, numbers, strings, None) is a
JSON entry beside them. It holds no pickles, so loading one never runs code.
"""

from __future__ import annotations

import errno as errnos
import io
import json
import os
import tempfile
from typing import Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.distributed.mpi_world import fingerprint
from tapegrad.distributed.world import world as _world

_STRUCTURE = "__structure__"
_OK = b"ok"


def save(path: str | os.PathLike[str], state: Any) -> None:
    """Write ``state`` to ``path`` from rank 0; every rank returns once it is on disk.

    Collective: call it on every rank at the same point (each rank's ``state`` is
    normally the same after :class:`DistributedOptimizer` steps; rank 0's is written).
    The file is written whole or not at all: rank 0 writes a temporary file in the same
    directory, flushes it to disk (``fsync``), then renames it over ``path``
    (``os.replace``), so a run killed at any moment leaves the previous checkpoint intact.
    A failure (a leaf it cannot store, a full disk) raises the same error on every rank.

    ``state``: dicts with string keys, lists and tuples of Tensors, arrays (any library:
    stored as NumPy, on the host), NumPy scalars, Python numbers, strings, bools and None;
    for example ``{"model": model.state_dict(), "optimizer": optimizer.state_dict(),
    "epoch": epoch, "seed": seed}``.

    Args:
        path: The file to write (``.npz`` by convention; any name works).
        state: The nest to store.

    Raises:
        TypeError: A leaf cannot be stored, or a dict key is not a string.
        OSError: Rank 0 could not write the file.

    >>> import os, tempfile
    >>> import numpy as np
    >>> import tapegrad.distributed as dist
    >>> path = os.path.join(tempfile.mkdtemp(), "checkpoint.npz")
    >>> dist.save(path, {"epoch": 3, "weights": np.arange(3.0)})
    >>> dist.load(path)
    {'epoch': 3, 'weights': array([0., 1., 2.])}
    """
    world = _world()
    world.agree(fingerprint(("save",)), "save", lambda: ["save"])
    outcome = _OK
    if world.rank == 0:
        try:
            _write(os.fspath(path), state)
        except (OSError, TypeError, ValueError) as exc:
            outcome = _error(exc)
    _raise_if_failed(world.broadcast_bytes(outcome if world.rank == 0 else None, 0), "save")


def load(path: str | os.PathLike[str]) -> Any:
    """The state that :func:`save` wrote at ``path``, read by rank 0 and sent to every rank.

    Collective: call it on every rank at the same point. Only rank 0 needs to see the
    file (no shared file system is needed). Arrays come back as NumPy arrays (and NumPy
    scalars as NumPy scalars), ready for ``load_state_dict``; the nest as it was saved.
    A missing or unreadable file raises the same error on every rank, so every rank can
    catch ``FileNotFoundError`` to start afresh.

    Args:
        path: The file :func:`save` wrote.

    Returns:
        The saved nest.

    Raises:
        FileNotFoundError: There is no file at ``path`` (on rank 0).
        OSError: Rank 0 could not read it.
        ValueError: The file is not a checkpoint that :func:`save` wrote.

    >>> import os, tempfile
    >>> import tapegrad.distributed as dist
    >>> path = os.path.join(tempfile.mkdtemp(), "run.npz")
    >>> dist.save(path, {"step": 10, "lr": 0.5})
    >>> state = dist.load(path)
    >>> state["step"], state["lr"]
    (10, 0.5)
    """
    world = _world()
    world.agree(fingerprint(("load",)), "load", lambda: ["load"])
    data = None
    if world.rank == 0:
        try:
            with open(os.fspath(path), "rb") as file:
                data = _OK + file.read()
        except OSError as exc:
            data = _error(exc)
    data = world.broadcast_bytes(data, 0)
    _raise_if_failed(data, "load")
    return _read(data[len(_OK) :], os.fspath(path))


def _error(exc: Exception) -> bytes:
    """An error as bytes, to raise again on every rank."""
    code = exc.errno if isinstance(exc, OSError) else None
    return json.dumps([type(exc).__name__, code, str(exc)]).encode()


def _raise_if_failed(outcome: bytes, what: str) -> None:
    if outcome.startswith(_OK):
        return
    kind, code, text = json.loads(outcome)
    if kind == "TypeError":
        raise TypeError(text)
    if kind == "ValueError":
        raise ValueError(text)
    if code is not None:
        raise OSError(code, f"{what} (on rank 0): {os.strerror(code)}: {text}")
    raise OSError(f"{what} (on rank 0): {text}")


def _write(path: str, state: Any) -> None:
    arrays: dict[str, np.ndarray] = {}
    structure = _encode(state, arrays, "state")
    arrays[_STRUCTURE] = np.frombuffer(json.dumps(structure).encode(), dtype=np.uint8)
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(
        dir=directory, prefix=f".{os.path.basename(path)}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as file:
            np.savez(file, allow_pickle=False, **arrays)
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise
    _sync_directory(directory)  # the rename itself survives a crash


def _sync_directory(directory: str) -> None:
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:  # a platform without directory descriptors (Windows)
        return
    try:
        os.fsync(descriptor)
    except OSError as exc:
        if exc.errno not in (errnos.EINVAL, errnos.ENOTSUP):
            raise
    finally:
        os.close(descriptor)


def _encode(nest: Any, arrays: dict[str, np.ndarray], path: str) -> Any:
    """``nest`` as JSON, its arrays moved into ``arrays`` (each named by its index)."""
    if isinstance(nest, dict):
        for key in nest:
            if not isinstance(key, str):
                raise TypeError(
                    f"save: {path} has the key {key!r} ({type(key).__name__}); "
                    "checkpoints take string keys"
                )
        return {
            "dict": [
                [key, _encode(value, arrays, f"{path}[{key!r}]")] for key, value in nest.items()
            ]
        }
    if isinstance(nest, (list, tuple)):
        kind = "list" if isinstance(nest, list) else "tuple"
        return {kind: [_encode(item, arrays, f"{path}[{i}]") for i, item in enumerate(nest)]}
    if nest is None or isinstance(nest, (bool, int, float, str)):
        return {"value": nest}
    scalar = isinstance(nest, np.generic)
    if isinstance(nest, Tensor):
        nest = nest.data
    if not hasattr(nest, "shape") or not hasattr(nest, "dtype"):
        raise TypeError(
            f"save: {path} is a {type(nest).__name__}; checkpoints take Tensors, arrays, "
            "numbers, strings and None, in dicts (string keys), lists and tuples"
        )
    array = np.asarray(
        nest if isinstance(nest, (np.ndarray, np.generic)) else backend.to_host(nest)
    )
    if array.dtype.hasobject:
        raise TypeError(f"save: {path} is an array of Python objects, which checkpoints refuse")
    name = f"a{len(arrays)}"
    arrays[name] = array
    return {"scalar" if scalar else "array": name}


def _read(data: bytes, path: str) -> Any:
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as entries:
            arrays = {name: entries[name] for name in entries.files}
        structure = json.loads(arrays.pop(_STRUCTURE).tobytes())
        return _decode(structure, arrays)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ValueError(f"load: {path} is not a checkpoint written by save ({exc})") from exc


def _decode(node: dict[str, Any], arrays: dict[str, np.ndarray]) -> Any:
    ((kind, value),) = node.items()
    if kind == "dict":
        return {key: _decode(item, arrays) for key, item in value}
    if kind in ("list", "tuple"):
        items = [_decode(item, arrays) for item in value]
        return items if kind == "list" else tuple(items)
    if kind == "value":
        return value
    if kind == "scalar":
        return arrays[value][()]
    if kind == "array":
        return arrays[value]
    raise ValueError(f"unknown entry {kind!r}")
