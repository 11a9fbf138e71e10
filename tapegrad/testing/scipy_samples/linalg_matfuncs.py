"""scipy.linalg's matrix functions: expm, logm, sqrtm, funm, expm_frechet,
fractional_matrix_power and the trigonometric ones."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = []

ROWS: list[Sample] = []

REFUSALS: list[Refusal] = []
