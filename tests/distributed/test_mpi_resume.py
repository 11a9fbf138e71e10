"""A run of examples/distributed_digits.py killed mid-way (one rank sent SIGKILL) and
started again from its last checkpoint ends bit for bit like a run that was not killed.

Here on the same number of ranks; test_mpi_resume_ranks.py resumes on another number.
"""

import os
import signal

import pytest
from mpi_launch import (
    EXAMPLE,
    checkpoint_entries,
    finish,
    needs_mpi,
    rank_pid,
    run_mpi,
    start_mpi,
    wait_for_file,
)

import tapegrad.distributed as dist

pytestmark = [*needs_mpi, pytest.mark.skipif("sys.platform != 'linux'")]
EPOCHS = 12
ARGS = ("--epochs", str(EPOCHS), "--batch-size", "60")  # 60 splits over 1, 2, 3 ranks


def example(ranks, checkpoint, *more):
    """The example on ``ranks`` ranks, checkpointing to ``checkpoint``; must succeed."""
    result = run_mpi(ranks, EXAMPLE, *ARGS, "--checkpoint", str(checkpoint), *more, timeout=180)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def killed(ranks, checkpoint):
    """The example on ``ranks`` ranks, its last rank killed once the first checkpoint is
    on disk; the job must end (non-zero) on its own. Returns the epoch saved last."""
    process = start_mpi(ranks, EXAMPLE, *ARGS, "--checkpoint", str(checkpoint))
    victim = rank_pid(process, ranks - 1)
    wait_for_file(checkpoint, process)
    os.kill(victim, signal.SIGKILL)
    result = finish(process, 90, "the killed run")
    assert result.returncode != 0, result.stdout + result.stderr
    assert "test accuracy" not in result.stdout  # it did not finish
    saved = int(dist.load(checkpoint)["epoch"])  # whole: it loads
    assert 1 <= saved < EPOCHS, saved
    return saved


def test_a_killed_run_resumed_on_the_same_ranks_ends_as_an_uninterrupted_one(tmp_path):
    example(2, tmp_path / "uninterrupted.npz")
    saved = killed(2, tmp_path / "killed.npz")
    resumed = example(2, tmp_path / "killed.npz")
    assert f"resumed from {tmp_path / 'killed.npz'} after epoch {saved}" in resumed.stdout
    want = checkpoint_entries(tmp_path / "uninterrupted.npz")
    assert checkpoint_entries(tmp_path / "killed.npz") == want  # every weight and Adam buffer
