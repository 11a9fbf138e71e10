"""scipy.linalg's matrix functions: expm, logm, sqrtm, fractional_matrix_power, the
trigonometric and hyperbolic ones, expm_frechet (method, compute_expm), khatri_rao and the
Sylvester and Lyapunov solvers (method)."""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample, spd, square


def _small(x: Any, y: Any) -> Any:
    """A 3 x 3 matrix of norm below 1 (a stable discrete Lyapunov equation, a tame tanm)."""
    return (x @ y.T) * 0.25


# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "linalg.expm", "linalg.logm", "linalg.sqrtm", "linalg.fractional_matrix_power",
    "linalg.cosm", "linalg.sinm", "linalg.tanm", "linalg.coshm", "linalg.sinhm", "linalg.tanhm",
    "linalg.expm_frechet", "linalg.khatri_rao", "linalg.solve_sylvester",
    "linalg.solve_continuous_lyapunov", "linalg.solve_discrete_lyapunov",
]  # fmt: skip

ROWS: list[Sample] = [
    Sample("linalg.expm", "default", lambda m, x, y: m.linalg.expm(square(x, y) * 0.5)),
    Sample(
        "linalg.expm",
        "a stack",
        lambda m, x, y: m.linalg.expm(
            m.linalg.block_diag(x[:, :2], y[:, :1])[None, :3, :3] * np.array([[[1.0]], [[-0.5]]])
        ),
    ),
    Sample("linalg.logm", "default", lambda m, x, y: m.linalg.logm(spd(x))),
    Sample("linalg.logm", "not symmetric", lambda m, x, y: m.linalg.logm(square(x, y))),
    Sample("linalg.sqrtm", "default", lambda m, x, y: m.linalg.sqrtm(square(x, y))),
    Sample(
        "linalg.fractional_matrix_power",
        "t=0.3",
        lambda m, x, y: m.linalg.fractional_matrix_power(spd(x), 0.3),
    ),
    Sample(
        "linalg.fractional_matrix_power",
        "t=-1.5",
        lambda m, x, y: m.linalg.fractional_matrix_power(square(x, y), -1.5),
    ),
    Sample(
        "linalg.fractional_matrix_power",
        "t=2 (an integer)",
        lambda m, x, y: m.linalg.fractional_matrix_power(square(x, y), 2),
    ),
    Sample("linalg.cosm", "default", lambda m, x, y: m.linalg.cosm(square(x, y))),
    Sample("linalg.sinm", "default", lambda m, x, y: m.linalg.sinm(square(x, y))),
    Sample("linalg.tanm", "default", lambda m, x, y: m.linalg.tanm(_small(x, y))),
    Sample("linalg.coshm", "default", lambda m, x, y: m.linalg.coshm(square(x, y) * 0.5)),
    Sample("linalg.sinhm", "default", lambda m, x, y: m.linalg.sinhm(square(x, y) * 0.5)),
    Sample("linalg.tanhm", "default", lambda m, x, y: m.linalg.tanhm(square(x, y) * 0.5)),
    Sample(
        "linalg.expm_frechet",
        "compute_expm=True",
        lambda m, x, y: m.linalg.expm_frechet(_small(x, y), spd(y), compute_expm=True)[1],
    ),
    Sample(
        "linalg.expm_frechet",
        "the expm",
        lambda m, x, y: m.linalg.expm_frechet(_small(x, y), spd(y))[0],
    ),
    Sample(
        "linalg.expm_frechet",
        "compute_expm=False, method=SPS",
        lambda m, x, y: m.linalg.expm_frechet(
            square(x, y) * 0.5, spd(y), method="SPS", compute_expm=False
        ),
    ),
    Sample(
        "linalg.expm_frechet",
        "method=blockEnlarge",
        lambda m, x, y: m.linalg.expm_frechet(
            _small(x, y), spd(y), method="blockEnlarge", compute_expm=False
        ),
    ),
    Sample("linalg.khatri_rao", "default", lambda m, x, y: m.linalg.khatri_rao(x, y[:2])),
    Sample(
        "linalg.solve_sylvester",
        "default",
        lambda m, x, y: m.linalg.solve_sylvester(square(x, y), spd(y), x[:, :3]),
    ),
    Sample(
        "linalg.solve_continuous_lyapunov",
        "default",
        lambda m, x, y: m.linalg.solve_continuous_lyapunov(square(x, y), spd(y)),
    ),
    Sample(
        "linalg.solve_discrete_lyapunov",
        "method=None",
        lambda m, x, y: m.linalg.solve_discrete_lyapunov(_small(x, y), spd(y)),
    ),
    Sample(
        "linalg.solve_discrete_lyapunov",
        "method=direct",
        lambda m, x, y: m.linalg.solve_discrete_lyapunov(_small(x, y), y[:, :3], method="direct"),
    ),
    Sample(
        "linalg.solve_discrete_lyapunov",
        "method=bilinear",
        lambda m, x, y: m.linalg.solve_discrete_lyapunov(_small(x, y), spd(x), method="bilinear"),
    ),
]

REFUSALS: list[Refusal] = [
    Refusal("linalg.funm", "funm", lambda m, x, y: m.linalg.funm(spd(x), np.exp)),
    Refusal("linalg.signm", "signm", lambda m, x, y: m.linalg.signm(spd(x))),
]
