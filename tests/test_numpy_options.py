"""Every sample call in tapegrad.testing.numpy_samples (the plain call of each
differentiable NumPy function and one call per keyword option and mode): tapegrad's values
are NumPy's on the same input, with NumPy's shape and dtype; the gradient is central finite
differences'; where the function is twice differentiable so is the second derivative. Each
runs through tapegrad.numpy and, where NumPy's own function dispatches to tapegrad, through
NumPy itself. And every keyword a differentiable function takes has a row."""

import functools
import inspect
import re
import warnings

import numpy as np
import pytest

import tapegrad as tg
import tapegrad.numpy as tnp
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing.numpy_samples import KEYWORDS_NOT_SAMPLED, REFUSALS, SAMPLES, X, Y


def _resolve(m, name):
    return functools.reduce(getattr, name.split("."), m)


@pytest.mark.parametrize("row", SAMPLES, ids=[f"{o.name}[{o.option}]" for o in SAMPLES])
def test_each_sample_matches_numpy_and_finite_differences(row):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.filterwarnings("ignore", "'where' used without 'out'", UserWarning)
        warnings.simplefilter("ignore", np.exceptions.RankWarning)  # polyfit's rcond rows
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
            gradcheck(lambda a, b: row.call(np, a, b), [X, Y])


@pytest.mark.parametrize("row", REFUSALS, ids=[f"{o.name}[{o.option}]" for o in REFUSALS])
def test_each_refused_option_raises_a_clear_error(row):
    with pytest.raises(row.error, match=re.escape(row.option.split("=")[0])):
        row.call(tnp, tg.tensor(X), tg.tensor(Y))


def _keywords(function):
    """The parameters of ``function`` that have a default: its options."""
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # a ufunc: its keywords are the ufunc machinery's
        return []
    return [
        p.name
        for p in parameters
        if p.default is not p.empty and p.kind is not p.VAR_KEYWORD
        and p.name not in KEYWORDS_NOT_SAMPLED
    ]  # fmt: skip


def _passed(row):
    """The keywords a row passes: ``name=`` in its call's source, or named in its label."""
    source = inspect.getsource(row.call)
    return set(re.findall(r"\b([A-Za-z_]\w*)=", source)) | set(re.findall(r"\w+", row.option))


def test_every_keyword_of_every_differentiable_function_has_a_row():
    passed = {}
    for row in [*SAMPLES, *REFUSALS]:
        passed.setdefault(row.name, set()).update(_passed(row))
    unsampled = {}
    for name, said in passed.items():
        if "." in name and name.split(".")[0] not in ("linalg", "fft"):
            continue  # ufunc methods (add.reduce): rows of their own
        missing = [k for k in _keywords(_resolve(np, name)) if k not in said]
        if missing:
            unsampled[name] = missing
    assert unsampled == {}, f"add rows to tapegrad/testing/numpy_samples for {unsampled}"
