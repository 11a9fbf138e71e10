"""Smoke test of examples/fit_ode.py: a few Adam steps through odeint, as a user runs it."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("scipy.integrate", reason="the scipy extra is not installed")
pytest.importorskip("matplotlib", reason="the examples extra is not installed")

ROOT = Path(__file__).resolve().parents[2]


def test_fit_ode_lowers_the_loss_and_writes_its_plot(tmp_path):
    plot = tmp_path / "fit.png"
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "fit_ode.py"),
            "--steps",
            "4",
            "--plot",
            str(plot),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    losses = [float(v) for v in re.findall(r"loss\s+(\S+)\s+rates", result.stdout)]
    assert len(losses) == 2 and losses[1] < losses[0], result.stdout
    assert "fitted rates" in result.stdout
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
