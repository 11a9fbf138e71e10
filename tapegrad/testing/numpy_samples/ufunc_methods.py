"""The methods of NumPy's differentiable binary ufuncs: reduce, accumulate, reduceat, outer,
with their axis, keepdims, initial and where= options."""

from __future__ import annotations

from tapegrad.testing.numpy_samples.inputs import Sample

ROWS: list[Sample] = []
