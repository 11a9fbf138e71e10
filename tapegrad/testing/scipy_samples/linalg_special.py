"""scipy.linalg's special matrices: toeplitz, circulant, hankel, companion, convolution_matrix,
fiedler, leslie..., and the constant ones."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = []

ROWS: list[Sample] = []

REFUSALS: list[Refusal] = []
