"""Small helpers shared by the op tests: taped gradients and strategies for kinked ops."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tapegrad as tg


def value_and_gradients(f: Callable[..., Any], *inputs: tg.Tensor) -> tuple[Any, list[Any]]:
    """``f(*inputs)`` and the gradient of its sum with respect to each input."""
    with tg.GradientTape() as tape:
        tape.watch(list(inputs))
        value = f(*inputs)
    return value, tape.gradient(value, list(inputs))


def assert_matches(got: tg.Tensor, expected: Any, rtol: float = 1e-12, atol: float = 1e-12) -> None:
    """``got`` equals NumPy's ``expected`` in value, shape and dtype."""
    expected = np.asarray(expected)
    assert isinstance(got, tg.Tensor), type(got)
    assert got.shape == expected.shape, (got.shape, expected.shape)
    host = got.numpy()  # host dtypes compare across backends
    assert host.dtype == expected.dtype, (got.dtype, expected.dtype)
    np.testing.assert_allclose(host, expected, rtol=rtol, atol=atol)


def assert_dtype(dtype: Any, *tensors: tg.Tensor) -> None:
    """Every Tensor has ``dtype`` (compared on the host, so any backend's dtype objects do)."""
    got = [t.numpy().dtype for t in tensors]
    assert all(d == np.dtype(dtype) for d in got), (got, dtype)


@st.composite
def separated(draw: Any, *shapes: tuple[int, ...], gap: float = 0.1) -> tuple[np.ndarray, ...]:
    """Float64 arrays of ``shapes`` whose values are all distinct, at least ``gap`` apart.

    Ops with kinks at ties (max, min, maximum, minimum) are smooth on such inputs,
    so finite differences and second derivatives are well defined there.
    """
    sizes = [int(np.prod(s)) for s in shapes]
    steps = draw(
        hnp.arrays(np.int64, sum(sizes), elements=st.integers(-30, 30), unique=True),
        label="steps",
    )
    values = steps * gap
    out, start = [], 0
    for shape, size in zip(shapes, sizes):
        out.append(values[start : start + size].reshape(shape))
        start += size
    return tuple(out)


@st.composite
def axes(draw: Any, ndim: int, single: bool = False) -> Any:
    """An ``axis`` argument for an ``ndim``-d input: None, an int (maybe negative) or a tuple."""
    choices = [st.none()]
    if ndim:
        choices.append(st.integers(-ndim, ndim - 1))
        if not single:
            choices.append(hnp.valid_tuple_axes(ndim))
    return draw(st.one_of(*choices), label="axis")
