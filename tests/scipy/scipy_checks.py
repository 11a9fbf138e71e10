"""Helpers shared by the tapegrad.scipy tests: input strategies and backend skips."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

# Domains of the inputs (bounds keep finite differences away from poles and overflow).
DOMAINS: dict[str, tuple[float, float]] = {
    "real": (-3.0, 3.0),
    "positive": (0.2, 4.0),
    "shape": (0.5, 5.0),  # shape parameters of gamma and beta
    "unit": (-0.9, 0.9),
    "prob": (0.05, 0.95),
    "two": (0.1, 1.9),  # erfcinv
    "above_one": (-0.8, 3.0),  # xlog1py's y
    "nonzero": (0.2, 3.0),  # magnitude; the sign is drawn separately
    "multigamma": (1.2, 4.0),
    "small": (-0.04, 0.04),  # a loc that keeps x in a bounded support
    "near_one": (1.0, 1.1),  # a scale that does
}


def elements(domain: str) -> st.SearchStrategy[float]:
    lo, hi = DOMAINS[domain]
    values = st.floats(lo, hi, allow_nan=False, allow_infinity=False)
    if domain == "nonzero":
        return st.tuples(values, st.sampled_from([-1.0, 1.0])).map(lambda p: p[0] * p[1])
    return values


@st.composite
def inputs(draw: Any, domains: list[str], max_dims: int = 2, max_side: int = 3) -> list[np.ndarray]:
    """Float64 arrays, one per domain, of shapes that broadcast together."""
    shapes = draw(
        hnp.mutually_broadcastable_shapes(
            num_shapes=len(domains), min_dims=0, max_dims=max_dims, max_side=max_side
        ),
        label="shapes",
    ).input_shapes
    return [
        draw(hnp.arrays(np.float64, s, elements=elements(d)), label=d)
        for s, d in zip(shapes, domains)
    ]


def require_scipy_kernel(backend: Any, name: str) -> None:
    """Skip on backends SciPy's kernels do not run on (anything but NumPy and CuPy)."""
    if backend.name not in ("numpy", "cupy"):
        pytest.skip(f"{name} on {backend.name}: SciPy's kernels run on NumPy and CuPy arrays only")
