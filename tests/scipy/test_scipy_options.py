"""Every sample call in tapegrad.testing.scipy_samples: tapegrad.scipy's values are SciPy's
on the same input, with SciPy's shape and dtype; the gradient is central finite
differences'; where twice differentiable so is the second derivative; on plain arrays the
call is SciPy's own (the same values and kinds); and every keyword of every function a
family module lists has a row."""

import functools
import inspect
import re
import warnings

import numpy as np
import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy  # noqa: E402
import scipy.cluster.vq  # noqa: E402, F401
import scipy.fft  # noqa: E402, F401
import scipy.integrate  # noqa: E402, F401
import scipy.interpolate  # noqa: E402, F401
import scipy.linalg  # noqa: E402, F401  (m.linalg for m = scipy)
import scipy.ndimage  # noqa: E402, F401
import scipy.signal  # noqa: E402, F401
import scipy.sparse.linalg  # noqa: E402, F401
import scipy.spatial.distance  # noqa: E402, F401
import scipy.spatial.transform  # noqa: E402, F401
import scipy.special  # noqa: E402, F401
import scipy.stats  # noqa: E402, F401

import tapegrad as tg  # noqa: E402
import tapegrad.scipy as tscipy  # noqa: E402
from tapegrad.testing import gradcheck, gradgradcheck  # noqa: E402
from tapegrad.testing.scipy_samples import (  # noqa: E402
    FUNCTIONS,
    KEYWORDS_NOT_SAMPLED,
    REFUSALS,
    SAMPLES,
    X,
    Y,
)


def _resolve(m, name):
    return functools.reduce(getattr, name.split("."), m)


@pytest.mark.parametrize("row", SAMPLES, ids=[f"{o.name}[{o.option}]" for o in SAMPLES])
def test_each_sample_matches_scipy_and_finite_differences(row):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        expected = row.call(scipy, X, Y)
        plain = row.call(tscipy, X, Y)
        assert type(plain) is type(expected), (type(plain), type(expected))
        np.testing.assert_array_equal(plain, expected)
        expected = np.asarray(expected)
        ours = row.call(tscipy, tg.tensor(X), tg.tensor(Y))
        assert isinstance(ours, tg.Tensor), f"{row.name}[{row.option}] gave {type(ours)}"
        np.testing.assert_allclose(ours.numpy(), expected, rtol=1e-10, atol=1e-12)
        assert ours.shape == expected.shape and ours.dtype == expected.dtype
        gradcheck(lambda a, b: row.call(tscipy, a, b), [X, Y])
        if row.twice:
            gradgradcheck(lambda a, b: row.call(tscipy, a, b), [X, Y], atol=1e-5)


@pytest.mark.parametrize("row", REFUSALS, ids=[f"{o.name}[{o.option}]" for o in REFUSALS])
def test_each_refused_option_raises_a_clear_error(row):
    with pytest.raises(row.error, match=re.escape(row.option.split("=")[0])):
        row.call(tscipy, tg.tensor(X), tg.tensor(Y))


def _passed(row):
    source = inspect.getsource(row.call)
    return set(re.findall(r"\b([A-Za-z_]\w*)=", source)) | set(re.findall(r"\w+", row.option))


@pytest.mark.parametrize("name", FUNCTIONS)
def test_every_keyword_has_a_row(name):
    said = set()
    for row in [*SAMPLES, *REFUSALS]:
        if row.name == name:
            said |= _passed(row)
    parameters = inspect.signature(_resolve(scipy, name)).parameters.values()
    keywords = [
        p.name for p in parameters
        if p.default is not p.empty and p.kind is not p.VAR_KEYWORD
        and p.name not in KEYWORDS_NOT_SAMPLED
    ]  # fmt: skip
    assert [k for k in keywords if k not in said] == []
