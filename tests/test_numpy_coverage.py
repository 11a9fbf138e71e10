"""The NumPy namespace kept honest: every public NumPy callable is classified, the
committed docs/numpy.md is current, every name is in tapegrad.numpy, and every function
classified differentiable has a sample call (tapegrad.testing.numpy_samples; the calls
themselves are checked in test_numpy_options.py)."""

import pathlib

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.numpy as tnp
from tapegrad.numpy import coverage
from tapegrad.testing import numpy_samples
from tapegrad.testing.numpy_samples import X

DOC = pathlib.Path(__file__).resolve().parents[1] / "docs" / "numpy.md"


def test_every_public_callable_is_classified():
    unclassified = [
        name for name, (kind, _) in coverage.classify().items() if kind == "unclassified"
    ]
    assert unclassified == [], f"classify these in tapegrad/numpy/coverage.py: {unclassified}"


def test_the_committed_table_is_current():
    text = DOC.read_text()
    version = ".".join(np.__version__.split(".")[:2])
    if f"NumPy {version}:" not in text:
        pytest.skip(f"docs/numpy.md was generated with another NumPy than {np.__version__}")
    assert text == numpy_samples.markdown(), (
        "docs/numpy.md is stale: run python -m tapegrad.testing.numpy_samples > docs/numpy.md"
    )


def test_every_numpy_name_is_in_tapegrad_numpy():
    missing = [name for name in dir(np) if not name.startswith("_") and not hasattr(tnp, name)]
    assert missing == []
    assert tnp.random is np.random and tnp.pi == np.pi and tnp.float32 is np.float32


def test_functions_that_dispatch_are_numpys_own():
    # np.X and tnp.X agree by construction: they are the same object
    assert tnp.sin is np.sin and tnp.sum is np.sum and tnp.sort is np.sort
    assert tnp.array is not np.array  # NumPy does not hand np.array over


def test_every_differentiable_function_has_a_default_sample():
    differentiable = {
        name
        for namespace, prefix in ((np, ""), (np.linalg, "linalg."), (np.fft, "fft."))
        for name, (kind, _) in coverage.classify(namespace, prefix).items()
        if kind == "differentiable"
    }
    defaults = {row.name for row in numpy_samples.SAMPLES if row.option == "default"}
    assert defaults == differentiable


def test_matrix_rank_accepts_tensors_without_a_gradient():
    rank = tnp.linalg.matrix_rank(tg.tensor(X))
    assert int(rank) == 3
