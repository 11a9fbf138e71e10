"""Every keyword option and mode in tests/numpy_options.py, checked as the default call is
in test_numpy_coverage.py: tapegrad's values are NumPy's on the same input, the gradient is
central finite differences', and where the function is twice differentiable so is the
second derivative. Each is run through tapegrad.numpy and, where NumPy's own function
dispatches to tapegrad, through NumPy itself."""

import functools
import warnings

import numpy as np
import pytest
from numpy_options import OPTIONS
from test_numpy_coverage import X, Y

import tapegrad as tg
import tapegrad.numpy as tnp
from tapegrad.testing import gradcheck, gradgradcheck


def _resolve(m, name):
    return functools.reduce(getattr, name.split("."), m)


@pytest.mark.parametrize("row", OPTIONS, ids=[f"{o.name}[{o.option}]" for o in OPTIONS])
def test_each_option_matches_numpy_and_finite_differences(row):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        expected = np.asarray(row.call(np, X, Y))
        ours = row.call(tnp, tg.tensor(X), tg.tensor(Y))
        assert isinstance(ours, tg.Tensor), f"{row.name}[{row.option}] gave {type(ours)}"
        np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-10, atol=1e-12)
        assert ours.shape == expected.shape and ours.dtype == expected.dtype
        gradcheck(lambda a, b: row.call(tnp, a, b), [X, Y])
        if row.twice:
            gradgradcheck(lambda a, b: row.call(tnp, a, b), [X, Y], atol=1e-5)
        if _resolve(np, row.name) is _resolve(tnp, row.name):  # through NumPy's own function
            through_numpy = row.call(np, tg.tensor(X), tg.tensor(Y))
            assert isinstance(through_numpy, tg.Tensor)


def test_the_table_covers_the_options_the_issue_names():
    covered = {(o.name, o.option) for o in OPTIONS}
    names = {name for name, _ in covered}
    named = ["sum", "mean", "var", "std", "diff", "gradient", "trace", "interp", "pad", "take"]
    named += ["einsum", "linalg.eigh", "linalg.norm", "linalg.qr", "fft.fft", "add.reduce"]
    assert set(named) <= names, set(named) - names
    assert len(OPTIONS) >= 100
