"""tapegrad.distributed under a real ``mpiexec``: 2 and 3 ranks on this machine.

Each test launches the mpi_*.py program beside this file and bounds it with a
timeout, so a hang fails the test (and its ranks are killed) instead of blocking.
"""

import importlib.util
import os
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _mpiexec() -> list[str] | None:
    """The launcher beside this Python (the one the mpi extra installs), else on PATH;
    with Open MPI's flags for running as root and on more ranks than cores."""
    beside = Path(sys.executable).with_name("mpiexec")
    found = str(beside) if beside.exists() else shutil.which("mpiexec")
    if found is None:
        return None
    version = subprocess.run([found, "--version"], capture_output=True, text=True, timeout=30)
    if "Open MPI" in version.stdout + version.stderr:
        return [found, "--allow-run-as-root", "--oversubscribe"]
    return [found]


MPIEXEC = _mpiexec()
pytestmark = [
    pytest.mark.skipif(
        importlib.util.find_spec("mpi4py") is None,
        reason="mpi4py is not installed (pip install 'tapegrad[mpi]')",
    ),
    pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec beside this Python or on PATH"),
]


def run_mpi(
    ranks: int, program: Path, *args: str, timeout: float = 60
) -> subprocess.CompletedProcess:
    """``mpiexec -n ranks python program args``; every process is killed on timeout."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    command = [*MPIEXEC, "-n", str(ranks), sys.executable, str(program), *args]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # one process group: mpiexec and its ranks
    )
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        pytest.fail(f"{program.name} on {ranks} ranks hung for {timeout} s:\n{stdout}\n{stderr}")
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


@pytest.mark.parametrize("ranks", [2, 3])
def test_the_guarantees_hold_on_every_rank(ranks):
    result = run_mpi(ranks, HERE / "mpi_guarantees.py", str(ranks))
    assert result.returncode == 0, result.stdout + result.stderr
    for rank in range(ranks):
        assert f"rank {rank} of {ranks}: ok" in result.stdout


@pytest.mark.parametrize("ranks", [2, 3])
def test_an_exception_on_one_rank_ends_every_rank_with_its_error(ranks):
    result = run_mpi(ranks, HERE / "mpi_failure.py", timeout=30)
    assert result.returncode != 0
    failing = ranks - 1
    assert f"RuntimeError: rank {failing} fails on purpose" in result.stderr, result.stderr
    assert f"rank {failing} of {ranks} failed; ending every rank" in result.stderr
    assert "not reached" not in result.stdout


def test_the_example_reaches_the_same_accuracy_on_two_ranks_as_on_one():
    example = ROOT / "examples" / "distributed_digits.py"
    pytest.importorskip("sklearn", reason="the example needs scikit-learn (the examples extra)")
    args = ("--epochs", "2")
    alone = subprocess.run(
        [sys.executable, str(example), *args], capture_output=True, text=True, timeout=120
    )
    assert alone.returncode == 0, alone.stderr
    together = run_mpi(2, example, *args, timeout=120)
    assert together.returncode == 0, together.stdout + together.stderr
    accuracy = [
        float(re.search(r"test accuracy (\S+)", r.stdout).group(1)) for r in (alone, together)
    ]
    assert "on 1 process" in alone.stdout and "on 2 processes" in together.stdout
    assert together.stdout.count("test accuracy") == 1  # rank 0 reports
    assert min(accuracy) > 0.85
    assert abs(accuracy[0] - accuracy[1]) <= 0.02, accuracy
