"""Ranks that disagree on a call raise on every rank before any buffer is reduced, however
many calls passed before (tests/distributed/mpi_failure.py under a real ``mpiexec``)."""

import pytest
from mpi_launch import needs_mpi
from test_mpi_failures import run

pytestmark = needs_mpi


@pytest.mark.parametrize("ranks", [2, 3])
def test_a_later_mismatch_raises_on_every_rank_before_any_reduction(ranks):
    result = run(ranks, "mismatches")
    assert result.returncode == 0, result.stdout + result.stderr
    last = ranks - 1
    f64, f32 = "[0]: shape (2, 3) float64 (host)", "[0]: shape (2, 3) float32 (host)"
    details = {
        "shape": f"rank 0 passes {f64}, rank {last} passes [0]: shape (2, 4) float64 (host)",
        "dtype": f"rank 0 passes {f64}, rank {last} passes {f32}",
        "leaves": f"1 leaves on rank 0, 2 on rank {last}",
    }
    for rank in range(ranks):
        for scenario, detail in details.items():
            message = (
                f"rank {rank} caught ({scenario}): all_reduce: the ranks disagree ({detail}); "
                "every rank must make the same calls in the same order"
            )
            assert message in result.stdout, result.stdout
            assert f"rank {rank}: in step after {scenario}" in result.stdout
        message = (
            f"rank {rank} caught (optimizer): DistributedOptimizer(SGD).apply_gradients: the "
            "ranks disagree (rank 0 passes variable 0: shape (3,) float64 (host), rank "
            f"{last} passes variable 0: shape (2, 2) float64 (host))"
        )
        assert message in result.stdout, result.stdout
        assert f"rank {rank}: a = [-0.2, -0.2, -0.2]" in result.stdout  # two steps, not three


@pytest.mark.parametrize("ranks", [2, 3])
def test_a_skipped_collective_is_caught_at_the_next_call(ranks):
    result = run(ranks, "skip")
    assert result.returncode != 0
    message = (
        f"the ranks disagree (rank 0 passes all_reduce(op='sum') (call 4), rank {ranks - 1} "
        "passes broadcast(root=0) (call 4))"
    )
    assert result.stderr.count(message) == ranks, result.stderr
    assert "loop done" not in result.stdout
