"""What goes wrong on one rank ends the job in bounded time, with a clear message on every
rank (tests/distributed/mpi_failure.py under a real ``mpiexec``, 2 and 3 ranks); the
mismatches that raise, and let the ranks go on, are in test_mpi_mismatches.py.

The collective timeout is a few seconds; the kill timeout of each run is far above it, so
every run must end by tapegrad's own detection, never by the test's kill.
"""

import pytest
from mpi_launch import HERE, needs_mpi, run_mpi

pytestmark = needs_mpi
PROGRAM = HERE / "mpi_failure.py"
TIMEOUT = "2"  # seconds a rank may wait in one collective
KILL_AFTER = 90  # seconds before the test kills a run: a hang


def run(ranks: int, scenario: str):
    """mpi_failure.py's ``scenario`` on ``ranks`` ranks, killed (a failure) after KILL_AFTER s."""
    return run_mpi(ranks, PROGRAM, scenario, TIMEOUT, timeout=KILL_AFTER)


@pytest.mark.parametrize("ranks", [2, 3])
def test_an_exception_on_one_rank_ends_every_rank_with_its_error(ranks):
    result = run(ranks, "raise")
    assert result.returncode != 0
    failing = ranks - 1
    assert f"RuntimeError: rank {failing} fails on purpose" in result.stderr, result.stderr
    assert f"rank {failing} of {ranks} failed; ending every rank" in result.stderr
    assert "loop done" not in result.stdout


@pytest.mark.parametrize(
    ("ranks", "scenario"), [(2, "return"), (3, "exit"), (2, "shorter"), (3, "shorter")]
)
def test_a_rank_that_ends_early_is_named_on_every_rank(ranks, scenario):
    result = run(ranks, scenario)
    assert result.returncode != 0
    last = ranks - 1
    waiting = "rank 0 is" if ranks == 2 else "ranks 0, 1 are"
    expected = f"rank {last} has ended (the program returned or called sys.exit) while {waiting} at"
    for rank in range(last):
        assert f"rank {rank} of {ranks} failed; ending every rank" in result.stderr
    assert result.stderr.count(expected) >= ranks, result.stderr  # each waiting rank, and its own
    assert f"rank {last} of {ranks} ended its program while the other ranks still expect" in (
        result.stderr
    )
    call = 4 if scenario == "shorter" else 2  # the first call the last rank never makes
    assert f"all_reduce(op='sum') (call {call})" in result.stderr, result.stderr
    for rank in range(last):
        assert f"rank {rank}: loop done" not in result.stdout


@pytest.mark.parametrize("ranks", [2, 3])
def test_a_stuck_rank_ends_the_job_at_the_timeout_naming_it(ranks):
    result = run(ranks, "stuck")
    assert result.returncode != 0
    last = ranks - 1
    # Every waiting rank that reports before the job ends names the absent rank; rank 0
    # and the ranks between time out together, so at least one of them does.
    expected = f"s in all_reduce (call 2) for rank {last}, which never reached it."
    assert expected in result.stderr, result.stderr
    assert "TAPEGRAD_DIST_TIMEOUT=seconds" in result.stderr
    assert "loop done" not in result.stdout


@pytest.mark.parametrize("ranks", [2, 3])
def test_a_rank_killed_by_a_signal_ends_the_job(ranks):
    result = run(ranks, "killed")
    assert result.returncode != 0
    assert "loop done" not in result.stdout
    # The launcher sees the killed process and ends the others, or they time out.
    assert "signal 9" in result.stdout + result.stderr or "timeout" in result.stderr, (
        result.stdout + result.stderr
    )
