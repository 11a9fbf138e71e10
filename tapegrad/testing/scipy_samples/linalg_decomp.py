"""scipy.linalg's decompositions: svd, qr, eig, eigh (generalized, subsets), polar, null_space,
orth, tridiagonal eigenproblems."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = []

ROWS: list[Sample] = []

REFUSALS: list[Refusal] = []
