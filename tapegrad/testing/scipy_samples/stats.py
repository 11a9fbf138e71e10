"""scipy.stats: each distribution's methods in x and every parameter (loc, scale, shapes),
frozen distributions, and the statistics functions."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = []

ROWS: list[Sample] = []

REFUSALS: list[Refusal] = []
