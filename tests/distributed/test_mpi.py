"""tapegrad.distributed under a real ``mpiexec``: 2 and 3 ranks on this machine.

Each test launches the mpi_*.py program beside this file and bounds it with a
timeout, so a hang fails the test (and its ranks are killed) instead of blocking.
"""

import re
import subprocess
import sys

import pytest
from mpi_launch import HERE, ROOT, needs_mpi, run_mpi

pytestmark = needs_mpi


@pytest.mark.parametrize("ranks", [2, 3])
def test_the_guarantees_hold_on_every_rank(ranks):
    result = run_mpi(ranks, HERE / "mpi_guarantees.py", str(ranks))
    assert result.returncode == 0, result.stdout + result.stderr
    for rank in range(ranks):
        assert f"rank {rank} of {ranks}: ok" in result.stdout


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
