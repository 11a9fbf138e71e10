"""Hypothesis profiles: ``ci`` (derandomized, the default), ``dev`` (more examples) and
``long`` (thousands, for the random-program tests before a release).

Pick one with ``HYPOTHESIS_PROFILE=dev python -m pytest``.
"""

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci",
    max_examples=20,
    derandomize=True,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev",
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "long",
    max_examples=5000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

np.seterr(all="ignore")  # ops at domain edges are checked by value, not by warning

if os.environ.get("PYTEST_XDIST_WORKER"):
    # `pytest -n auto` runs one worker per core: BLAS threads on top would oversubscribe them.
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - scikit-learn (in the test extra) brings it
        pass
    else:
        threadpool_limits(1)


def pytest_addoption(parser):
    parser.addoption(
        "--backend",
        default=None,
        help="array backends to run the op suite on: numpy, strict, cupy, all "
        "(comma-separated; default: numpy and strict, when array_api_strict is installed)",
    )


def pytest_configure(config):
    from backends import select

    try:
        select(config.getoption("--backend"))
    except (ValueError, RuntimeError) as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_report_header(config):
    from backends import select

    chosen = select(config.getoption("--backend"))
    return "tapegrad backends: " + ", ".join(b.name for b in chosen)


def pytest_generate_tests(metafunc):
    if "backend" in metafunc.fixturenames:
        from backends import select

        chosen = select(metafunc.config.getoption("--backend"))
        metafunc.parametrize("backend", chosen, ids=[b.name for b in chosen])
