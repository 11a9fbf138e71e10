"""Smoke test of examples/digits_*.py: one epoch each, run as a user runs them."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

for package in ("sklearn", "matplotlib", "tqdm"):
    pytest.importorskip(package, reason="the examples extra is not installed")

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("script", ["digits_mlp.py", "digits_cnn.py"])
def test_example_runs_one_epoch_and_writes_its_plot(script, tmp_path):
    plot = tmp_path / "history.png"
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), "--epochs", "1", "--plot", str(plot)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    accuracy = float(re.search(r"test accuracy (\S+)", result.stdout).group(1))
    assert accuracy > 0.5  # one epoch is far above chance (0.1)
    assert "epochs: 100%" in result.stderr  # the tqdm progress bar
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
