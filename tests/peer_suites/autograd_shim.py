"""Stand-in ``autograd`` modules that point at tapegrad, so HIPS autograd's own test files
import tapegrad when they ``import autograd``. Nothing of autograd is copied here: its
test files are read from its source distribution at run time (see ``find_sdist``).

``installed()`` puts the stand-ins into ``sys.modules`` for the duration of a ``with``
block (and puts back whatever was there), so a test module imported inside it binds
tapegrad's functions and the rest of the test session never sees a fake ``autograd``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

try:
    import fcntl
except ImportError:  # not on Windows: no lock
    fcntl = None  # type: ignore[assignment]

import autograd_test_util
import numpy as np

import tapegrad as tg
import tapegrad.numpy as tnp

VERSION = "1.9.1"
# The distributions autograd.scipy.stats has as submodules (SciPy has them as objects).
STATS_SUBMODULES = (
    "beta",
    "chi2",
    "dirichlet",
    "gamma",
    "multivariate_normal",
    "norm",
    "poisson",
    "t",
)


# --- autograd's differential operators on tapegrad's transforms ---------------------------
# autograd spells it ``argnum``; tapegrad (as JAX) ``argnums``. The meaning is the same.
def grad(fun: Callable[..., Any], argnum: int = 0) -> Callable[..., Any]:
    return tg.grad(fun, argnums=argnum)


def value_and_grad(fun: Callable[..., Any], argnum: int = 0) -> Callable[..., Any]:
    return tg.value_and_grad(fun, argnums=argnum)


def elementwise_grad(fun: Callable[..., Any], argnum: int = 0) -> Callable[..., Any]:
    # autograd's elementwise_grad is the VJP with a cotangent of ones: the gradient of the sum.
    return tg.grad(lambda *args, **kwargs: tnp.sum(fun(*args, **kwargs)), argnums=argnum)


def jacobian(fun: Callable[..., Any], argnum: int = 0) -> Callable[..., Any]:
    return tg.jacobian(fun, argnums=argnum)


def hessian(fun: Callable[..., Any], argnum: int = 0) -> Callable[..., Any]:
    return tg.hessian(fun, argnums=argnum)


def _module(name: str, **attributes: Any) -> ModuleType:
    module = ModuleType(name, f"tapegrad's stand-in for {name} (tests/peer_suites)")
    for key, value in attributes.items():
        setattr(module, key, value)
    return module


def stand_ins() -> dict[str, Any]:
    """The ``sys.modules`` entries: autograd's module names -> tapegrad's modules."""
    from tapegrad.scipy import integrate, linalg, signal, special, stats

    stats_submodules = {name: getattr(stats, name) for name in STATS_SUBMODULES}
    test_util = _module(
        "autograd.test_util",
        check_grads=autograd_test_util.check_grads,
        combo_check=autograd_test_util.combo_check,
    )
    scipy = _module(
        "autograd.scipy",
        integrate=integrate,
        linalg=linalg,
        signal=signal,
        special=special,
        stats=stats,
    )
    autograd = _module(
        "autograd",
        grad=grad,
        value_and_grad=value_and_grad,
        elementwise_grad=elementwise_grad,
        jacobian=jacobian,
        hessian=hessian,
        numpy=tnp,
        scipy=scipy,
        test_util=test_util,
    )
    entries: dict[str, Any] = {
        "autograd": autograd,
        "autograd.numpy": tnp,
        "autograd.numpy.random": np.random,
        "autograd.numpy.linalg": tnp.linalg,
        "autograd.numpy.fft": tnp.fft,
        "autograd.scipy": scipy,
        "autograd.scipy.integrate": integrate,
        "autograd.scipy.linalg": linalg,
        "autograd.scipy.signal": signal,
        "autograd.scipy.special": special,
        "autograd.scipy.stats": stats,
        "autograd.test_util": test_util,
    }
    for name, distribution in stats_submodules.items():
        entries[f"autograd.scipy.stats.{name}"] = distribution
    return entries


@contextlib.contextmanager
def installed() -> Iterator[None]:
    """The stand-ins in ``sys.modules`` inside the block; the previous entries after it."""
    entries = stand_ins()
    saved = {name: sys.modules.get(name) for name in entries}
    sys.modules.update(entries)
    try:
        yield
    finally:
        for name, previous in saved.items():
            if previous is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = previous


def load_test_module(sdist: Path, name: str) -> ModuleType:
    """Import ``tests/<name>.py`` of the unpacked sdist against the stand-ins (with the
    sdist's ``tests/numpy_utils.py``, which some of them import, under its own name)."""
    tests = sdist / "tests"
    with installed():
        saved_utils = sys.modules.get("numpy_utils")
        try:
            sys.modules["numpy_utils"] = _import_file("numpy_utils", tests / "numpy_utils.py")
            return _import_file(f"autograd_suite_{name}", tests / f"{name}.py")
        finally:
            if saved_utils is None:
                sys.modules.pop("numpy_utils", None)
            else:
                sys.modules["numpy_utils"] = saved_utils


def _import_file(module_name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- finding autograd's source distribution ----------------------------------------------
def find_sdist() -> tuple[Path | None, str]:
    """The unpacked autograd sdist, or None and why not.

    In order: ``$AUTOGRAD_SDIST`` (an unpacked sdist folder or its ``.tar.gz``), a copy
    unpacked earlier in the temporary folder, then ``pip download`` of autograd's sdist
    (unless ``AUTOGRAD_SDIST=none``). Never raises.
    """
    given = os.environ.get("AUTOGRAD_SDIST")
    if given == "none":
        return None, "AUTOGRAD_SDIST=none"
    if given:
        path = Path(given)
        if path.is_file():
            return _unpacked(path)
        if (path / "tests" / "test_scipy.py").is_file():
            return path, ""
        return None, f"AUTOGRAD_SDIST={given} holds no tests/test_scipy.py"
    cache = Path(tempfile.gettempdir()) / "tapegrad-peer-suites"
    try:
        cache.mkdir(exist_ok=True)
        lock = open(cache / ".lock", "w")  # noqa: SIM115 (held until the function returns)
    except OSError as exc:
        return None, f"cannot use {cache}: {exc}"
    with lock:
        # One process at a time (each pytest-xdist worker loads the suite): the others
        # wait, then find the copy the first one unpacked.
        if fcntl is not None:
            fcntl.flock(lock, fcntl.LOCK_EX)
        return _cached(cache)


def _cached(cache: Path) -> tuple[Path | None, str]:
    unpacked = cache / f"autograd-{VERSION}"
    if (unpacked / "tests" / "test_scipy.py").is_file():
        return unpacked, ""
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             "--timeout", "15", "--retries", "1", "-d", str(cache), f"autograd=={VERSION}"],
            capture_output=True, text=True, timeout=180, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"pip download of autograd {VERSION} failed: {exc}"
    archive = cache / f"autograd-{VERSION}.tar.gz"
    if done.returncode != 0 or not archive.is_file():
        last = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"pip download of autograd {VERSION}'s sdist failed: {last}"
    return _unpacked(archive)


def _unpacked(archive: Path) -> tuple[Path | None, str]:
    try:
        with tarfile.open(archive) as tar:
            top = tar.getnames()[0].split("/")[0]
            tar.extractall(archive.parent, filter="data")
    except (OSError, IndexError, TypeError, tarfile.TarError) as exc:  # TypeError: no filter=
        return None, f"cannot unpack {archive}: {exc}"
    sdist = archive.parent / top
    if not (sdist / "tests" / "test_scipy.py").is_file():
        return None, f"{archive} holds no tests/test_scipy.py"
    return sdist, ""
