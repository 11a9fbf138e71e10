"""benchmarks/distributed.py: its report and its training step (no timings checked)."""

import pytest

from benchmarks import distributed as bench


def test_the_report_gives_the_bandwidth_the_speed_up_and_the_prediction():
    sweep = {
        "ranks": 2,
        "allreduce": [
            {
                "bytes": 1024**2,
                "mpi_s": [1e-3, 5e-4],
                "timed_s": [1.1e-3, 6e-4],
                "agree_s": [5e-6, 4e-6],
                "tapegrad_s": [2e-3, 1e-3],
            }
        ],
    }
    step = {"batch": 256, "parameters": 1000, "update_s": 0.05}
    single = {**step, "ranks": 1, "step_s": 0.2, "compute_s": 0.15, "reduce_s": 0.001}
    multi = {**step, "ranks": 2, "step_s": 0.125, "compute_s": 0.075, "reduce_s": 0.01}
    text = bench.report(sweep, [(single, multi)])
    assert (
        "| 1.0 MiB | 1,000 us (500) | 1000.0 MiB/s (2.0 GiB/s) | 1,100 us (600) | 5 us (4) "
        "| 2,000 us (1,000) | 500.0 MiB/s (1000.0 MiB/s) |"
    ) in text
    # 0.15 / 2 + 0.01 + 0.05 seconds predicted on 2; 1 process does no all-reduce.
    assert "| 256 | 2 | 125.0 ms | 75.0 ms | 50.0 ms | 10.0 ms | 1.60x | 135.0 ms |" in text
    assert "| 256 | 1 | 200.0 ms | 150.0 ms | 50.0 ms | – | 1.00x | 200.0 ms |" in text


@pytest.mark.usefixtures("world_of_one")
def test_a_training_step_runs_in_a_world_of_one():
    result = bench.step_worker(batch=4, steps=1)
    assert result["ranks"] == 1 and result["parameters"] == 2_109_450
    assert result["step_s"] >= result["compute_s"] > 0
