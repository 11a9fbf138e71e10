"""scipy.linalg's remaining functions: banded Cholesky and eigenproblems, rq,
orthogonal_procrustes, subspace_angles, diagsvd, matmul_toeplitz, the Riccati solvers..."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = []

ROWS: list[Sample] = []

REFUSALS: list[Refusal] = []
