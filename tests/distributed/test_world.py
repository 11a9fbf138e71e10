"""Joining the world: a world of one without MPI, the launcher without mpi4py, init(comm)."""

import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tapegrad.distributed.world import _disagreement

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
    ours = ["all_reduce(op='sum')", "[0]: shape (3,) float64 (host)"]
    theirs = ["all_reduce(op='sum')", "[0]: shape (4,) float64 (host)"]
    message = _disagreement("all_reduce", [ours, ours, theirs])
    assert message.startswith(
        "all_reduce: the ranks disagree (rank 0 passes [0]: shape (3,) float64 (host), "
        "rank 2 passes [0]: shape (4,) float64 (host))"
    )
    assert "2 leaves on rank 0, 1 on rank 1" in _disagreement("x", [ours + ours[1:], ours])
