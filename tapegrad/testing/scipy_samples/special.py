"""scipy.special: the gamma, beta, error, Bessel, hypergeometric and information families, with
their arguments and complex inputs."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = []

ROWS: list[Sample] = []

REFUSALS: list[Refusal] = []
