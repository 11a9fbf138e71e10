"""Property-based gradient checks of tapegrad/ops/modular.py."""

import numpy as np
import pytest
from helpers import assert_matches, separated, value_and_gradients
from hypothesis import assume, given

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst


def _away_from_jumps(x, y):
    # remainder and fmod jump where x / y is an integer: keep finite differences off them
    ratio = x / y
    return np.all(np.abs(ratio - np.round(ratio)) > 1e-3)


@pytest.mark.parametrize(("op", "reference"), [(tg.remainder, np.remainder), (tg.fmod, np.fmod)])
@given(data=tst.st.data())
def test_remainders(op, reference, backend, data):
    x, y = data.draw(tst.broadcastable_tensors(2, domain="nonzero"), label="inputs")
    assume(_away_from_jumps(*np.broadcast_arrays(x.numpy(), y.numpy())))
    x, y = backend.tensor(x), backend.tensor(y)
    assert_matches(op(x, y), reference(x.numpy(), y.numpy()))
    gradcheck(op, [x, y])
    gradgradcheck(lambda a, b: op(a, b) ** 2, [x, y])


@given(data=tst.st.data())
def test_divmod_and_modf(backend, data):
    x = backend.tensor(data.draw(tst.arrays(domain="nonzero"), label="x"))
    assume(_away_from_jumps(x.numpy(), 0.7) and np.all(np.abs(x.numpy() % 1) > 1e-3))
    quotient, rest = tg.divmod(x, 0.7)
    expected = np.divmod(x.numpy(), 0.7)
    assert_matches(quotient, expected[0])
    assert_matches(rest, expected[1])
    fraction, whole = tg.modf(x)
    assert_matches(fraction, np.modf(x.numpy())[0])
    assert_matches(whole, np.modf(x.numpy())[1])
    gradcheck(lambda a: tg.divmod(a, 0.7)[1], [x])
    gradcheck(lambda a: tg.modf(a)[0], [x])


@given(data=tst.st.data())
def test_copysign(backend, data):
    x, y = data.draw(tst.broadcastable_tensors(2, domain="nonzero"), label="inputs")
    x, y = backend.tensor(x), backend.tensor(y)
    assert_matches(tg.copysign(x, y), np.copysign(x.numpy(), y.numpy()))
    gradcheck(tg.copysign, [x, y])
    gradgradcheck(lambda a, b: tg.copysign(a, b) ** 2, [x, y])


@pytest.mark.parametrize(("op", "reference"), [(tg.fmax, np.fmax), (tg.fmin, np.fmin)])
@given(data=tst.st.data())
def test_nan_ignoring_extrema(op, reference, backend, data):
    shape = data.draw(tst.shapes(max_side=3), label="shape")
    x, y = data.draw(separated(shape, shape))
    x, y = backend.tensor(x), backend.tensor(y)
    assert_matches(op(x, y), reference(x.numpy(), y.numpy()))
    gradcheck(op, [x, y])
    gradgradcheck(lambda a, b: op(a, b) ** 2, [x, y])


@pytest.mark.parametrize(("op", "reference"), [(tg.fmax, np.fmax), (tg.fmin, np.fmin)])
def test_nan_ignoring_extrema_route_the_gradient_around_nan(op, reference, backend):
    x = backend.tensor(np.array([np.nan, 1.0, 2.0, np.nan]))
    y = backend.tensor(np.array([3.0, np.nan, 2.0, np.nan]))
    out, (gx, gy) = value_and_gradients(op, x, y)
    assert_matches(out, reference(x.numpy(), y.numpy()))
    np.testing.assert_array_equal(gx.numpy(), [0.0, 1.0, 0.5, 0.0])
    np.testing.assert_array_equal(gy.numpy(), [1.0, 0.0, 0.5, 0.0])


def test_fabs_heaviside_nextafter(backend):
    x = backend.tensor(np.array([-1.5, 0.0, 2.0]))
    h0 = backend.tensor(np.array([0.25, 0.5, 0.75]))
    assert_matches(tg.fabs(x), np.fabs(x.numpy()))
    out, (gx, gh) = value_and_gradients(tg.heaviside, x, h0)
    assert_matches(out, np.heaviside(x.numpy(), h0.numpy()))
    np.testing.assert_array_equal(gx.numpy(), 0.0)  # the step has no slope
    np.testing.assert_array_equal(gh.numpy(), [0.0, 1.0, 0.0])
    assert_matches(tg.nextafter(x, 5.0), np.nextafter(x.numpy(), 5.0))
    gradcheck(lambda a: tg.nextafter(a, 5.0) * a, [x])
    assert tg.fabs(tg.tensor([-3])).dtype == np.float64


def test_nan_to_num(backend):
    values = np.array([np.nan, np.inf, -np.inf, 1.5])
    x = backend.tensor(values)
    for kwargs in ({}, {"nan": -1.0, "posinf": 10.0, "neginf": -10.0}):
        assert_matches(tg.nan_to_num(x, **kwargs), np.nan_to_num(values, **kwargs))
    _, (g,) = value_and_gradients(tg.nan_to_num, x)
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0, 0.0, 1.0])


@given(data=tst.st.data())
def test_nan_to_num_second_derivative(backend, data):
    x = backend.tensor(data.draw(tst.arrays(tst.shapes(max_dims=2, max_side=3)), label="x"))
    gradgradcheck(lambda a: tg.nan_to_num(a * a), [x])


@pytest.mark.parametrize(
    ("op", "reference"),
    [(tg.trunc, np.trunc), (tg.fix, np.fix), (tg.spacing, np.spacing), (tg.floor_divide, None)],
    ids=["trunc", "fix", "spacing", "floor_divide"],
)
def test_piecewise_constant_ops_record_nothing(op, reference, backend):
    x = backend.tensor(np.array([-2.5, -0.5, 0.5, 3.7]))
    with tg.GradientTape() as tape:
        tape.watch(x)
        out = op(x, 0.5) if reference is None else op(x)
    expected = np.floor_divide(x.numpy(), 0.5) if reference is None else reference(x.numpy())
    assert_matches(out, expected)
    assert len(tape) == 0
