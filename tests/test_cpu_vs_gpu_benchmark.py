"""benchmarks/cpu_vs_gpu.py runs its CPU half anywhere and writes its report."""

import importlib.util
import sys
from pathlib import Path

import numpy as np

from tapegrad.backends import devices

PATH = Path(__file__).resolve().parents[1] / "benchmarks" / "cpu_vs_gpu.py"


def load():
    spec = importlib.util.spec_from_file_location("cpu_vs_gpu", PATH)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_every_workload_runs_a_small_step_on_the_cpu():
    bench = load()
    for setup, size in [(bench.mlp_step, 4), (bench.matmul_chain, 8), (bench.small_op_chain, 9)]:
        first = setup("cpu", size)().numpy()
        assert np.all(np.isfinite(first))


def test_the_report_is_written_and_says_when_the_gpu_is_unavailable(tmp_path):
    bench = load()
    assert bench.main(["--quick", "--only", "small", "--out", str(tmp_path)]) == 0
    text = (tmp_path / "cpu_vs_gpu.md").read_text()
    assert "| small-op chain on shape (8,) | ops=1500 |" in text
    if devices.gpu_count() == 0:
        assert "GPU column unavailable" in text and "pip install 'tapegrad[gpu]'" in text
    plotted = (tmp_path / "cpu_vs_gpu.png").exists()
    assert plotted or "matplotlib is not installed" in text
