"""Joining the world: a world of one without MPI, the launcher without mpi4py, init(comm)."""

import importlib.util
import math
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import tapegrad.distributed as dist
from tapegrad.distributed import world
from tapegrad.distributed.mpi_world import _disagreement, _left_message, fingerprint

ROOT = Path(__file__).resolve().parents[2]
LAUNCHER_VARIABLES = (
    "PMI_RANK",
    "PMI_SIZE",
    "PMIX_RANK",
    "OMPI_COMM_WORLD_RANK",
    "OMPI_COMM_WORLD_SIZE",
)


def python(code: str, **env: str) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh Python, outside any launcher unless ``env`` says otherwise."""
    clean = {k: v for k, v in os.environ.items() if k not in LAUNCHER_VARIABLES}
    clean["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env={**clean, **env},
        timeout=60,
    )


BLOCK_MPI4PY = "import sys; sys.modules['mpi4py'] = None  # as if it were not installed\n"


def test_a_plain_process_is_a_world_of_one_and_never_loads_mpi():
    result = python("""
        import sys
        import numpy as np
        import tapegrad.distributed as dist
        assert (dist.rank(), dist.world_size(), dist.local_rank()) == (0, 1, 0)
        assert dist.all_reduce([np.ones(2)], "sum")[0].tolist() == [1.0, 1.0]
        assert "mpi4py" not in sys.modules
        print("ok")
    """)
    assert result.stdout.strip() == "ok", result.stderr


def test_importing_and_using_it_needs_no_mpi4py():
    result = python(BLOCK_MPI4PY + "import tapegrad.distributed as d; print(d.world_size())")
    assert result.stdout.strip() == "1", result.stderr


def test_a_launcher_of_one_process_without_mpi4py_is_a_world_of_one():
    result = python(
        BLOCK_MPI4PY + "import tapegrad.distributed as d; print(d.world_size())",
        PMI_RANK="0",
        PMI_SIZE="1",
    )
    assert result.stdout.strip() == "1", result.stderr


def test_a_launcher_of_many_processes_without_mpi4py_says_what_to_install():
    result = python(
        BLOCK_MPI4PY + "import tapegrad.distributed as d; d.init()",
        OMPI_COMM_WORLD_RANK="1",
        OMPI_COMM_WORLD_SIZE="4",
    )
    assert result.returncode != 0
    assert "started by an MPI launcher (OMPI_COMM_WORLD_RANK is set; 4 processes)" in result.stderr
    assert "pip install 'tapegrad[mpi]'" in result.stderr


@pytest.mark.skipif(importlib.util.find_spec("mpi4py") is None, reason="mpi4py is not installed")
def test_init_takes_an_mpi4py_communicator():
    result = python("""
        import numpy as np
        from mpi4py import MPI
        import tapegrad as tg
        import tapegrad.distributed as dist
        dist.init(comm=MPI.COMM_SELF)
        assert dist.world_size() == 1 and dist.rank() == 0
        w = tg.Variable([1.0])
        assert dist.broadcast([w], root=0)[0] is w
        assert dist.all_reduce({"x": np.arange(3.0)}, "max")["x"].tolist() == [0.0, 1.0, 2.0]
        dist.init()  # idempotent
        dist.init(comm=MPI.COMM_SELF)
        try:
            dist.init(comm=MPI.COMM_WORLD)
        except RuntimeError as exc:
            print(exc)
    """)
    assert "already initialised with another comm" in result.stdout, result.stderr


def test_the_disagreement_message_names_the_first_differing_rank_and_leaf():
    ours = ["all_reduce(op='sum') (call 3)", "[0]: shape (3,) float64 (host)"]
    theirs = ["all_reduce(op='sum') (call 3)", "[0]: shape (4,) float64 (host)"]
    assert _disagreement(ours, 2, theirs).startswith(
        "the ranks disagree (rank 0 passes [0]: shape (3,) float64 (host), "
        "rank 2 passes [0]: shape (4,) float64 (host))"
    )
    assert "(2 leaves on rank 0, 1 on rank 1)" in _disagreement(ours + ours[1:], 1, ours)
    other_call = ["broadcast(root=0) (call 3)"]
    assert "rank 0 passes all_reduce(op='sum') (call 3), rank 1 passes broadcast(root=0)" in (
        _disagreement(ours, 1, other_call)
    )


def test_the_message_for_ranks_that_ended_names_them_and_the_waiting_call():
    assert _left_message([2], 3, "all_reduce(op='sum') (call 7)").startswith(
        "rank 2 has ended (the program returned or called sys.exit) while ranks 0, 1 are at "
        "all_reduce(op='sum') (call 7)"
    )
    assert _left_message([0, 1], 3, "x (call 1)").startswith("ranks 0, 1 have ended")
    assert "while rank 2 is at x (call 1)" in _left_message([0, 1], 3, "x (call 1)")


def test_fingerprints_are_56_bit_and_tell_structures_apart():
    a, b = fingerprint(("all_reduce", ((0, "x"),))), fingerprint(("all_reduce", ((0, "y"),)))
    assert a != b and 0 <= a < 2**56 and a == fingerprint(("all_reduce", ((0, "x"),)))


@pytest.fixture
def fresh_world(monkeypatch):
    """No world yet, and no timeout in the environment."""
    monkeypatch.setattr(world, "_world", None)
    monkeypatch.delenv(world.TIMEOUT_VARIABLE, raising=False)
    for name in LAUNCHER_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_the_timeout_defaults_to_ten_minutes(fresh_world):
    dist.init()
    assert world.world().timeout == world.DEFAULT_TIMEOUT == 600.0


def test_the_timeout_comes_from_the_argument_or_the_environment(fresh_world):
    fresh_world.setenv(world.TIMEOUT_VARIABLE, "2.5")
    dist.init()
    assert world.world().timeout == 2.5
    dist.init(timeout=30)  # an initialised world takes a new timeout
    assert world.world().timeout == 30.0
    dist.init()  # and keeps it when given none
    assert world.world().timeout == 30.0
    dist.init(timeout=math.inf)
    assert world.world().timeout == math.inf


@pytest.mark.parametrize("bad", [0, -1.0, "soon", None, True, math.nan])
def test_a_timeout_that_is_not_a_positive_number_is_refused(fresh_world, bad):
    if bad is None:  # None is the default: a bad environment variable instead
        fresh_world.setenv(world.TIMEOUT_VARIABLE, "ten")
        with pytest.raises(ValueError, match=r"TAPEGRAD_DIST_TIMEOUT must be a positive number"):
            dist.init()
        return
    with pytest.raises(ValueError, match=r"init: timeout must be a positive number of seconds"):
        dist.init(timeout=bad)


@pytest.mark.skipif(importlib.util.find_spec("mpi4py") is None, reason="mpi4py is not installed")
def test_a_world_of_one_under_mpi_agrees_with_itself_and_ends_quietly():
    result = python("""
        import numpy as np
        from mpi4py import MPI
        import tapegrad.distributed as dist
        from tapegrad.distributed.world import world
        dist.init(comm=MPI.COMM_SELF, timeout=5)
        assert world().timeout == 5.0
        for n in (1, 2, 3):
            assert dist.all_reduce([np.ones(n)], "sum")[0].tolist() == [1.0] * n
        assert world().calls == 3
        print("ok")
    """)
    assert result.stdout.strip() == "ok" and result.returncode == 0, result.stderr
