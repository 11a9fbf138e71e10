"""The peer libraries, imported when installed and pinned to one thread."""

from __future__ import annotations

import importlib
from typing import Any


def load(name: str) -> Any:
    """The module ``name``, or None when it is not installed (or fails to import)."""
    try:
        return importlib.import_module(name)
    except Exception:
        return None


def torch() -> Any:
    module = load("torch")
    if module is not None:
        module.set_num_threads(1)
        try:
            module.set_num_interop_threads(1)
        except RuntimeError:  # already set: only allowed once per process
            pass
    return module


def jax() -> Any:
    module = load("jax")
    if module is not None:
        module.config.update("jax_enable_x64", True)
        module.config.update("jax_platforms", "cpu")
    return module


def versions() -> dict[str, str]:
    """Installed peers and their versions."""
    from importlib import metadata

    found = {}
    for name in ("numpy", "torch", "autograd", "mygrad", "jax"):
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return found
