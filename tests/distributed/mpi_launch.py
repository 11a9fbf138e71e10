"""Launching the mpi_*.py programs under a real ``mpiexec`` for the tests beside this file.

Each run is bounded by a timeout, so a hang fails the test (and its ranks are killed)
instead of blocking; the kill timeout is far above the collective timeouts the programs
are given, so a run that ends does so by tapegrad's own detection.
"""

import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import time
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
needs_mpi = [
    pytest.mark.skipif(
        importlib.util.find_spec("mpi4py") is None,
        reason="mpi4py is not installed (pip install 'tapegrad[mpi]')",
    ),
    pytest.mark.skipif(MPIEXEC is None, reason="no mpiexec beside this Python or on PATH"),
]


def environment() -> dict[str, str]:
    """This environment with the checkout importable."""
    path = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    return dict(os.environ, PYTHONPATH=path)


def start_mpi(ranks: int, program: Path, *args: str) -> subprocess.Popen:
    """``mpiexec -n ranks python program args``, started in a process group of its own."""
    command = [*MPIEXEC, "-n", str(ranks), sys.executable, str(program), *args]
    return subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environment(),
        start_new_session=True,  # one process group: mpiexec and its ranks
    )


def finish(process: subprocess.Popen, timeout: float, what: str) -> subprocess.CompletedProcess:
    """Wait for ``process``; on timeout kill its whole group and fail the test."""
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
        pytest.fail(f"{what} hung for {timeout} s:\n{stdout}\n{stderr}")
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def run_mpi(
    ranks: int, program: Path, *args: str, timeout: float = 60
) -> subprocess.CompletedProcess:
    """``mpiexec -n ranks python program args``; every process is killed on timeout."""
    process = start_mpi(ranks, program, *args)
    return finish(process, timeout, f"{program.name} {' '.join(args)} on {ranks} ranks")


EXAMPLE = ROOT / "examples" / "distributed_digits.py"


def _descendants(pid: int) -> set[int]:
    """The processes below ``pid`` (the launcher puts each rank in a session of its own,
    so its process group does not find them)."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def rank_pid(process: subprocess.Popen, rank: int, timeout: float = 60) -> int:
    """The process id of ``rank`` among those that ``start_mpi`` started (Linux: /proc)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for pid in _descendants(process.pid):
            try:
                environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
            except OSError:  # gone already
                continue
            if f"PMI_RANK={rank}".encode() in environ:
                return pid
        time.sleep(0.05)
    raise AssertionError(f"no process of rank {rank} under {process.args}")


def wait_for_file(path: Path, process: subprocess.Popen, timeout: float = 120) -> None:
    """Return once ``path`` exists; fail if ``process`` ends first or time runs out."""
    deadline = time.monotonic() + timeout
    while not path.exists():
        if process.poll() is not None:
            out, err = process.communicate()
            pytest.fail(f"the run ended before writing {path}:\n{out}\n{err}")
        if time.monotonic() > deadline:
            os.killpg(process.pid, signal.SIGKILL)
            pytest.fail(f"no {path} after {timeout} s")
        time.sleep(0.02)


def checkpoint_entries(path: Path) -> dict[str, bytes]:
    """Every entry of a checkpoint file, as bytes (its nest and each array, with dtype and
    shape), to compare two checkpoints bit for bit."""
    import numpy as np

    with np.load(path, allow_pickle=False) as entries:
        return {
            name: f"{entries[name].dtype} {entries[name].shape}".encode() + entries[name].tobytes()
            for name in entries.files
        }
