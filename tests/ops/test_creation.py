"""Tests of tapegrad/ops/creation.py: zeros ones full zeros_like ones_like arange eye match
NumPy's shapes, dtypes and values, and record nothing on a tape."""

import numpy as np
import pytest
from helpers import assert_matches
from hypothesis import given
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.testing import strategies as tst

DTYPES = [None, np.float32, np.float64, np.int64, np.bool_]

CREATION = {
    "zeros": (lambda m, dt: m.zeros((2, 3), dtype=dt)),
    "zeros-int-shape": (lambda m, dt: m.zeros(4, dtype=dt)),
    "zeros-0d": (lambda m, dt: m.zeros((), dtype=dt)),
    "ones": (lambda m, dt: m.ones((3, 1), dtype=dt)),
    "full": (lambda m, dt: m.full((2, 2), 1.0, dtype=dt)),
    "eye": (lambda m, dt: m.eye(3, dtype=dt)),
    "eye-rectangular": (lambda m, dt: m.eye(2, 4, dtype=dt)),
    "arange": (lambda m, dt: m.arange(5, dtype=dt)),
    "arange-start-stop": (lambda m, dt: m.arange(2, 7, dtype=dt)),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: getattr(d, "__name__", "default"))
@pytest.mark.parametrize("name", sorted(CREATION))
def test_matches_numpy(name, dtype):
    make = CREATION[name]
    try:
        expected = make(np, dtype)
    except TypeError:  # e.g. a bool arange longer than 2: tapegrad refuses it too
        with pytest.raises(TypeError):
            make(tg, dtype)
        return
    assert_matches(make(tg, dtype), expected)


@pytest.mark.parametrize(
    ("make", "expected"),
    [
        (lambda m: m.full((2,), 3), np.full((2,), 3)),  # an int fill gives an int array
        (lambda m: m.full((2, 1), 1.5), np.full((2, 1), 1.5)),
        (lambda m: m.full((3,), True), np.full((3,), True)),
        (lambda m: m.arange(0.0, 1.0, 0.25), np.arange(0.0, 1.0, 0.25)),
        (lambda m: m.arange(5, 0, -2), np.arange(5, 0, -2)),
        (lambda m: m.arange(3), np.arange(3)),
    ],
    ids=["full-int", "full-float", "full-bool", "arange-float-step", "arange-negative", "arange"],
)
def test_default_dtypes_follow_numpy(make, expected):
    assert_matches(make(tg), expected)


@given(shape=tst.shapes(max_side=3), fill=st.integers(-3, 3) | st.floats(-3, 3))
def test_full_property(shape, fill):
    assert_matches(tg.full(shape, fill), np.full(shape, fill))


LIKE = {
    "zeros_like": (tg.zeros_like, np.zeros_like),
    "ones_like": (tg.ones_like, np.ones_like),
}


@pytest.mark.parametrize("dtype", [None, np.float32, np.int64], ids=["same", "float32", "int64"])
@pytest.mark.parametrize("source_dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("name", sorted(LIKE))
def test_like_functions(name, source_dtype, dtype, backend):
    op, reference = LIKE[name]
    values = np.arange(6).reshape(2, 3).astype(source_dtype)
    x = backend.tensor(values)
    out = op(x, dtype=dtype)
    assert_matches(out, reference(values, dtype=dtype))
    assert type(out.data) is type(x.data)  # same backend as the source


def test_like_functions_accept_arrays_and_scalars():
    assert_matches(tg.zeros_like(np.ones((2,), np.float32)), np.zeros(2, np.float32))
    assert_matches(tg.ones_like(2.5), np.ones_like(2.5))


@pytest.mark.parametrize(
    "make",
    [
        lambda x: tg.zeros(x.shape, like=x),
        lambda x: tg.ones(3, like=x),
        lambda x: tg.full((2,), 2.0, like=x),
        lambda x: tg.eye(2, like=x),
        lambda x: tg.arange(3, like=x),
    ],
    ids=["zeros", "ones", "full", "eye", "arange"],
)
def test_like_argument_picks_the_backend(make, backend):
    x = backend.tensor(np.ones((2, 2), dtype=np.float32))
    out = make(x)
    assert type(out.data) is type(x.data)


CREATORS = {
    "zeros": lambda x: tg.zeros(x.shape),
    "ones": lambda x: tg.ones(x.shape),
    "full": lambda x: tg.full(x.shape, 2.0),
    "zeros_like": tg.zeros_like,
    "ones_like": tg.ones_like,
    "arange": lambda x: tg.arange(x.size, dtype=np.float64),
    "eye": lambda x: tg.eye(x.size),
}


@pytest.mark.filterwarnings("ignore:gradient. every gradient is None")  # tested in test_explain
@pytest.mark.parametrize("name", sorted(CREATORS))
def test_records_nothing_and_carries_no_gradient(name, backend):
    x = backend.tensor(np.array([1.0, 2.0]))
    with tg.GradientTape() as tape:
        tape.watch(x)
        out = CREATORS[name](x)
        assert len(tape) == 0
    assert tape.gradient(out, x) is None
