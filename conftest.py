"""Collection rules for the doctests under tapegrad/ (tests/conftest.py sets up the tests).

tapegrad.scipy needs the optional SciPy: without it, its modules are not collected.
"""

import importlib.util


def _scipy_installed() -> bool:
    try:  # scipy.special, not scipy: tests/scipy is on sys.path and is not SciPy
        return importlib.util.find_spec("scipy.special") is not None
    except ImportError:
        return False


collect_ignore = [] if _scipy_installed() else ["tapegrad/scipy"]
