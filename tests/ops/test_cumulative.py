"""Gradient checks of tapegrad/ops/cumulative.py."""

import numpy as np
import pytest
from helpers import assert_matches, axes, value_and_gradients
from hypothesis import given, settings

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


@given(data=tst.st.data())
def test_cumprod(backend, data):
    x = backend.tensor(data.draw(tst.arrays(tst.shapes(max_side=3), domain="nonzero"), label="x"))
    axis = data.draw(axes(x.ndim, single=True))
    if axis is None or x.ndim:
        assert_matches(tg.cumprod(x, axis=axis), np.cumprod(x.numpy(), axis=axis))
    gradcheck(lambda a: tg.cumprod(a, axis=axis), [x])
    gradgradcheck(lambda a: tg.cumprod(a, axis=axis), [x])


@pytest.mark.parametrize(
    "values", [[2.0, 0.0, 3.0, 4.0], [0.0, 0.0, 5.0], [1.5, 2.0, 0.0], [0.0]], ids=str
)
def test_cumprod_gradient_is_exact_with_zeros(values, backend):
    x = backend.tensor(np.array(values))
    gradcheck(tg.cumprod, [x])


def test_cumprod_second_derivative_at_zeros_is_not_implemented():
    x = tg.tensor([0.0, 2.0])
    with tg.GradientTape() as outer:
        outer.watch(x)
        with tg.GradientTape() as inner:
            inner.watch(x)
            y = tg.cumprod(x)
        with pytest.raises(NotImplementedError, match="cumprod: the second derivative"):
            inner.gradient(y, x)


CALLS = {
    "cumulative_sum": (
        lambda x: tg.cumulative_sum(x, axis=1, include_initial=True),
        lambda a: np.cumulative_sum(a, axis=1, include_initial=True),
    ),
    "cumulative_prod": (
        lambda x: tg.cumulative_prod(x[0], include_initial=True),
        lambda a: np.cumulative_prod(a[0], include_initial=True),
    ),
    "nancumsum": (lambda x: tg.nancumsum(x, axis=0), lambda a: np.nancumsum(a, axis=0)),
    "nancumprod": (lambda x: tg.nancumprod(x), lambda a: np.nancumprod(a)),
    "diff": (lambda x: tg.diff(x), lambda a: np.diff(a)),
    "diff-n2-axis0": (lambda x: tg.diff(x, 2, axis=0), lambda a: np.diff(a, 2, axis=0)),
    "diff-ends": (
        lambda x: tg.diff(x, prepend=0.5, append=x[:, :1]),
        lambda a: np.diff(a, prepend=0.5, append=a[:, :1]),
    ),
    "ediff1d": (
        lambda x: tg.ediff1d(x, to_end=[1.0], to_begin=x[0]),
        lambda a: np.ediff1d(a, [1.0], a[0]),
    ),
    "trapezoid": (lambda x: tg.trapezoid(x), lambda a: np.trapezoid(a)),
    "trapezoid-x": (
        lambda x: tg.trapezoid(x, x[0] * x[0], axis=1),
        lambda a: np.trapezoid(a, a[0] * a[0], axis=1),
    ),
    "gradient": (lambda x: tg.gradient(x)[1], lambda a: np.gradient(a)[1]),
    "gradient-spacing": (
        lambda x: tg.gradient(x, 0.5, [0.0, 1.0, 3.0, 3.5], edge_order=2)[1],
        lambda a: np.gradient(a, 0.5, [0.0, 1.0, 3.0, 3.5], edge_order=2)[1],
    ),
    "gradient-axis": (
        lambda x: tg.gradient(x, [0.0, 1.0, 3.0], axis=0, edge_order=2),
        lambda a: np.gradient(a, [0.0, 1.0, 3.0], axis=0, edge_order=2),
    ),
}


@pytest.mark.parametrize("name", sorted(CALLS))
@settings(max_examples=5)
@given(data=tst.st.data())
def test_value_and_derivatives(name, backend, data):
    ours, numpys = CALLS[name]
    x = backend.tensor(data.draw(tst.arrays((3, 4), domain="nonzero"), label="x"))
    assert_matches(ours(x), numpys(x.numpy()), rtol=1e-10)
    gradcheck(ours, [x])
    gradgradcheck(lambda a: ours(a * a), [x])


def test_nan_cumulatives_skip_nan(backend):
    values = np.array([1.0, np.nan, 2.0])
    x = backend.tensor(values)
    _, (g,) = value_and_gradients(tg.nancumsum, x)
    np.testing.assert_array_equal(g.numpy(), [3.0, 0.0, 1.0])
    assert_matches(tg.nancumprod(x), np.nancumprod(values))
