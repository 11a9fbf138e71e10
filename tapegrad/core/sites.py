"""Where in the user's code: the first frame outside tapegrad, its source line.

Recording asks for the user's frame on every op (record() walks the few
tapegrad frames above the op with :data:`inside_package`); everything else here
runs only when a line is printed or a warning is given.
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig
import warnings
from types import FrameType
from typing import Any

import numpy as np

# With the separator, so that a user's ``tapegrad_demo.py`` next to the package is not "inside".
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


class _InsidePackage(dict):
    """filename -> whether it is tapegrad's own: a dict lookup per frame, not a string test."""

    def __missing__(self, filename: str) -> bool:
        inside = self[filename] = filename.startswith(_PACKAGE_DIR)
        return inside


inside_package = _InsidePackage()


def caller_site(depth: int = 1) -> tuple[str, int] | None:
    """``(filename, line)`` of the innermost frame outside tapegrad.

    Called for every recorded op, so it only walks up to the user's frame (a
    handful of tapegrad frames) and keeps the filename string as it is: the
    formatting waits until someone reads ``entry.where``. ``depth`` skips frames
    the caller knows are tapegrad's (1: start at the caller of caller_site).
    """
    try:
        frame: FrameType | None = sys._getframe(depth)
    except ValueError:  # a shallower stack than the caller expected
        frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not inside_package[filename]:
            return filename, frame.f_lineno
        frame = frame.f_back
    return None


_NUMPY_DIR = os.path.dirname(os.path.abspath(np.__file__)) + os.sep
# Installed libraries (site-packages): pandas, matplotlib, SciPy, whatever the user's code
# calls that converts a Tensor with np.asarray. tapegrad itself may live there too: it is
# recognised first, by inside_package.
_LIBRARY_PATHS = (*site.getsitepackages(), site.getusersitepackages(),
                  sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"])  # fmt: skip
_LIBRARY_DIRS = tuple({os.path.abspath(path) + os.sep for path in _LIBRARY_PATHS})


def user_site() -> tuple[tuple[str, int] | None, str | None]:
    """``(filename, line)`` of the innermost frame outside tapegrad, NumPy and the installed
    libraries, and the library whose frames were passed on the way, nearest the user's
    ("numpy": NumPy itself converted a value, as for a list holding Tensors handed to one of
    its functions; "pandas" for ``pd.Series(t)``; None). For warnings, which must name the
    user's line, never a library's file."""
    frame: FrameType | None = sys._getframe(1)
    through = None
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(_NUMPY_DIR):
            through = "numpy"
        elif filename.startswith(_LIBRARY_DIRS) and not inside_package[filename]:
            through = str(frame.f_globals.get("__name__", "?")).split(".")[0]
        elif not inside_package[filename]:
            return (filename, frame.f_lineno), through
        frame = frame.f_back
    return None, through


def code_line(code: Any, lasti: int) -> int:
    """The source line of the instruction at byte offset ``lasti`` of ``code``."""
    for start, end, line in code.co_lines():
        if start <= lasti < end and line is not None:
            return line
    return code.co_firstlineno


def format_site(site: tuple[str, int] | None) -> str | None:
    """``("/home/me/train.py", 42)`` -> ``"train.py:42"``."""
    if site is None:
        return None
    return f"{os.path.basename(site[0])}:{site[1]}"


_warned: set[tuple[str, int]] = set()


def warn_once(site: tuple[str, int], message: str) -> None:
    """A UserWarning attributed to the user's ``site``, once per site in this process."""
    if site in _warned:
        return
    _warned.add(site)
    warnings.warn_explicit(message, UserWarning, site[0], site[1])


# NumPy's floating-point warnings ("divide by zero encountered in log") come from C with
# the innermost Python frame as their place: a tapegrad forward, not the user's line that
# asked for the op. The filter lets each one through (appended: any filter of the user's
# comes first), and the hook below passes it on as the user's, once per user line.
_showwarning_before: Any = None


def _user_frame() -> Any:
    """The innermost frame outside tapegrad and the warnings machinery."""
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and (
        inside_package[frame.f_code.co_filename] or frame.f_code.co_filename == warnings.__file__
    ):
        frame = frame.f_back
    return frame


def _showwarning(message: Any, category: Any, filename: str, lineno: int, *rest: Any) -> None:
    if issubclass(category, RuntimeWarning) and inside_package[filename]:
        frame = _user_frame()
        if frame is not None:
            user_globals = frame.f_globals
            warnings.warn_explicit(
                message,
                category,
                frame.f_code.co_filename,
                frame.f_lineno,
                module=user_globals.get("__name__"),
                registry=user_globals.setdefault("__warningregistry__", {}),
            )
            return
    _showwarning_before(message, category, filename, lineno, *rest)


def redirect_numpy_warnings() -> None:
    """Report NumPy's RuntimeWarnings raised inside tapegrad at the user's line (idempotent)."""
    global _showwarning_before
    if _showwarning_before is not None:
        return
    _showwarning_before = warnings.showwarning
    warnings.showwarning = _showwarning  # type: ignore[assignment]  # takes *rest for file, line
    warnings.filterwarnings("always", category=RuntimeWarning, module=r"tapegrad\.", append=True)


def scipy_caller() -> str | None:
    """``scipy.special.logsumexp`` when the innermost frame outside tapegrad is SciPy's:
    the SciPy function the user called (the outermost SciPy frame, named by its public
    module); None when the caller is not SciPy."""
    scipy = sys.modules.get("scipy")
    scipy_file = getattr(scipy, "__file__", None)
    if scipy_file is None:
        return None
    scipy_dir = os.path.dirname(os.path.abspath(scipy_file)) + os.sep
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and inside_package[frame.f_code.co_filename]:
        frame = frame.f_back
    name = None
    while frame is not None and frame.f_code.co_filename.startswith(scipy_dir):
        module = frame.f_globals.get("__name__", "scipy")
        name = name or "scipy"
        if not module.startswith("scipy._lib"):  # decorators and array-API helpers
            public = ".".join(part for part in module.split(".") if not part.startswith("_"))
            name = f"{public}.{frame.f_code.co_name}"
        frame = frame.f_back
    return name
