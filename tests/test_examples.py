"""Smoke tests of the examples, run as a user runs them: the digits scripts for one epoch,
and resume_training.py stopped and resumed in separate processes."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

for package in ("sklearn", "matplotlib", "tqdm"):
    pytest.importorskip(package, reason="the examples extra is not installed")

ROOT = Path(__file__).resolve().parents[1]


def run(script, *args):
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / script), *map(str, args)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result


# One epoch is far above chance (0.1); the LSTM needs a few more to pass the others.
@pytest.mark.parametrize(
    ("script", "accuracy"),
    [
        ("digits_mlp.py", 0.5),
        ("digits_cnn.py", 0.5),
        ("digits_lstm.py", 0.3),
        ("private_digits.py", 0.5),
    ],
)
def test_example_runs_one_epoch_and_writes_its_plot(script, accuracy, tmp_path):
    plot = tmp_path / "history.png"
    result = run(script, "--epochs", 1, "--plot", plot)
    assert float(re.search(r"test accuracy (\S+)", result.stdout).group(1)) > accuracy
    assert "epochs: 100%" in result.stderr  # the tqdm progress bar
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_resumed_run_ends_with_the_uninterrupted_runs_weights(tmp_path):
    checkpoint = tmp_path / "run.npz"
    whole = run("resume_training.py", "--epochs", 2, "--checkpoint", checkpoint)
    assert not checkpoint.exists()
    stopped = run(
        "resume_training.py", "--epochs", 2, "--stop-after", 1, "--checkpoint", checkpoint
    )
    assert "stopped after epoch 1" in stopped.stdout and checkpoint.exists()
    resumed = run("resume_training.py", "--epochs", 2, "--resume", "--checkpoint", checkpoint)
    assert "resumed" in resumed.stdout and "epoch 1:" not in resumed.stdout
    fingerprints = [re.search(r"fingerprint (\w+)", r.stdout).group(1) for r in (whole, resumed)]
    assert fingerprints[0] == fingerprints[1]
