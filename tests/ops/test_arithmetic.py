"""Property-based gradient checks of tapegrad/ops/arithmetic.py."""

import numpy as np
import pytest
from helpers import assert_dtype, assert_matches, separated, value_and_gradients
from hypothesis import given

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

# op, NumPy reference, domain of each input. Smooth everywhere in those domains.
BINARY = [
    (tg.add, np.add, ("real", "real")),
    (tg.subtract, np.subtract, ("real", "real")),
    (tg.multiply, np.multiply, ("real", "real")),
    (tg.divide, np.divide, ("real", "nonzero")),
    (tg.power, np.power, ("positive", "real")),
]
BINARY_IDS = [op.__name__ for op, _, _ in BINARY]
# Kinked where x == y; smooth on inputs that never tie.
EXTREMA = [(tg.maximum, np.maximum), (tg.minimum, np.minimum)]
EXTREMA_IDS = [op.__name__ for op, _ in EXTREMA]
SMALL = {"max_dims": 2, "max_side": 3}


def _binary_inputs(data, backend, domains, **sizes):
    sx, sy = data.draw(tst.broadcastable_shapes(**sizes), label="shapes")
    x = backend.tensor(data.draw(tst.arrays(sx, domain=domains[0]), label="x"))
    y = backend.tensor(data.draw(tst.arrays(sy, domain=domains[1]), label="y"))
    return x, y


@pytest.mark.parametrize(("op", "reference", "domains"), BINARY, ids=BINARY_IDS)
@given(data=tst.st.data())
def test_binary_value_and_gradient(op, reference, domains, backend, data):
    x, y = _binary_inputs(data, backend, domains)
    assert_matches(op(x, y), reference(x.numpy(), y.numpy()))
    gradcheck(op, [x, y])


@pytest.mark.parametrize(("op", "reference", "domains"), BINARY, ids=BINARY_IDS)
@given(data=tst.st.data())
def test_binary_second_derivative(op, reference, domains, backend, data):
    x, y = _binary_inputs(data, backend, domains, **SMALL)
    gradgradcheck(op, [x, y])


@pytest.mark.parametrize(("op", "reference"), EXTREMA, ids=EXTREMA_IDS)
@given(data=tst.st.data())
def test_extremum_value_and_derivatives(op, reference, backend, data):
    sx, sy = data.draw(tst.broadcastable_shapes(**SMALL), label="shapes")
    x, y = (backend.tensor(a) for a in data.draw(separated(sx, sy)))
    assert_matches(op(x, y), reference(x.numpy(), y.numpy()))
    gradcheck(op, [x, y])
    gradgradcheck(op, [x, y])


@pytest.mark.parametrize(("op", "reference"), EXTREMA, ids=EXTREMA_IDS)
def test_extremum_splits_ties_evenly(op, reference, backend):
    x = backend.tensor(np.array([1.0, 2.0, 3.0]))
    y = backend.tensor(np.array([2.0, 2.0, 2.0]))
    _, (gx, gy) = value_and_gradients(op, x, y)
    winner = 1.0 if op is tg.minimum else 0.0
    np.testing.assert_array_equal(gx.numpy(), [winner, 0.5, 1.0 - winner])
    np.testing.assert_array_equal(gy.numpy(), [1.0 - winner, 0.5, winner])


def test_extremum_tie_with_broadcast_scalar_sums_halves():
    x = tg.tensor([2.0, 2.0, 5.0])
    y = tg.tensor(2.0)
    _, (gx, gy) = value_and_gradients(tg.maximum, x, y)
    np.testing.assert_array_equal(gx.numpy(), [0.5, 0.5, 1.0])
    assert gy.shape == () and gy.item() == 1.0


def test_negative(backend):
    x = backend.tensor(np.array([[1.5, -2.0], [0.0, 3.0]]))
    assert_matches(tg.negative(x), -x.numpy())
    assert_matches(-x, -x.numpy())
    gradcheck(tg.negative, [x])
    gradgradcheck(tg.negative, [x])


@given(data=tst.st.data())
def test_negative_property(backend, data):
    x = backend.tensor(data.draw(tst.arrays(), label="x"))
    assert_matches(tg.negative(x), np.negative(x.numpy()))
    gradcheck(tg.negative, [x])


@given(data=tst.st.data())
def test_power_gradient_wrt_base_and_exponent(backend, data):
    sx, sy = data.draw(tst.broadcastable_shapes(**SMALL), label="shapes")
    x = backend.tensor(data.draw(tst.arrays(sx, domain="positive"), label="x"))
    y = backend.tensor(data.draw(tst.arrays(sy, domain="small"), label="y"))
    _, (gx, gy) = value_and_gradients(tg.power, x, y)
    assert gx.shape == x.shape and gy.shape == y.shape
    gradcheck(tg.power, [x, y])
    gradgradcheck(tg.power, [x, y])


@pytest.mark.parametrize("exponent", [2, 3, 2.0, -1])
@given(data=tst.st.data())
def test_power_of_any_base_by_integer_exponent(exponent, backend, data):
    x = backend.tensor(data.draw(tst.arrays(domain="nonzero"), label="x"))
    assert_matches(x**exponent, x.numpy() ** exponent)
    gradcheck(lambda a: a**exponent, [x])
    gradgradcheck(lambda a: a**exponent, [x])


def test_power_exponent_gradient_is_log_of_base():
    x = tg.tensor([0.5, 2.0, 3.0])
    y = tg.tensor(2.0)
    _, (gx, gy) = value_and_gradients(tg.power, x, y)
    np.testing.assert_allclose(gx.numpy(), 2 * x.numpy())
    np.testing.assert_allclose(gy.numpy(), np.sum(x.numpy() ** 2 * np.log(x.numpy())))


@pytest.mark.parametrize("exponent", ["tensor", "array"])
def test_power_base_gradient_is_zero_at_zero_to_the_zero(exponent):
    # d(x**y)/dx = y * x**(y-1) is 0 * inf at x = y = 0; the limit along y = 0 is 0
    # (as in PyTorch and JAX), and a NaN there poisons every gradient downstream.
    x = tg.tensor([0.0, 2.0, 0.0])
    y_values = np.array([0.0, 0.0, 2.0])
    y = tg.tensor(y_values) if exponent == "tensor" else y_values
    with tg.GradientTape() as outer:
        outer.watch(x)
        with tg.GradientTape() as inner:
            inner.watch(x)
            value = tg.power(x, y)
        gx = inner.gradient(value, x)
    np.testing.assert_array_equal(gx.numpy(), [0.0, 0.0, 0.0])
    assert np.isfinite(outer.gradient(gx, x).numpy()).all()


@given(data=tst.st.data())
def test_where(backend, data):
    sc, sx, sy = data.draw(tst.broadcastable_shapes(3, max_dims=2, max_side=3), label="shapes")
    cond = data.draw(tst.hnp.arrays(np.bool_, sc), label="cond")
    x = backend.tensor(data.draw(tst.arrays(sx), label="x"))
    y = backend.tensor(data.draw(tst.arrays(sy), label="y"))
    c = backend.tensor(cond)
    assert_matches(tg.where(c, x, y), np.where(cond, x.numpy(), y.numpy()))
    gradcheck(lambda a, b: tg.where(c, a, b), [x, y])
    gradgradcheck(lambda a, b: tg.where(c, a * a, b * a), [x, y])


def test_where_gradient_routes_by_condition():
    cond = tg.tensor([True, False, True])
    x = tg.tensor([1.0, 2.0, 3.0])
    y = tg.tensor(10.0)
    _, (gx, gy) = value_and_gradients(lambda a, b: tg.where(cond, a, b), x, y)
    np.testing.assert_array_equal(gx.numpy(), [1.0, 0.0, 1.0])
    assert gy.shape == () and gy.item() == 1.0


@given(data=tst.st.data())
def test_clip_away_from_bounds(backend, data):
    # Values on a 0.1 grid, bounds at odd multiples of 0.05: no element sits on a bound.
    (values,) = data.draw(separated(data.draw(tst.shapes(max_side=3), label="shape")))
    low = data.draw(tst.st.integers(-20, 0), label="low") * 0.1 - 0.05
    high = low + data.draw(tst.st.integers(1, 20), label="width") * 0.1
    x = backend.tensor(values)
    assert_matches(tg.clip(x, low, high), np.clip(values, low, high))
    assert_matches(tg.clip(x, None, high), np.clip(values, None, high))
    assert_matches(tg.clip(x, low, None), np.clip(values, low, None))
    gradcheck(lambda a: tg.clip(a, low, high), [x])
    gradgradcheck(lambda a: tg.clip(a, low, high) ** 2, [x])


@given(data=tst.st.data())
def test_clip_is_differentiable_in_its_bounds(backend, data):
    # Bounds as Tensors, broadcast against x, some crossing (a_min > a_max: NumPy gives
    # a_max); values and bounds on grids that never meet, so finite differences are exact.
    (values,) = data.draw(separated(data.draw(tst.shapes(max_side=3), label="shape")))
    shape = np.shape(values)
    low = data.draw(tst.st.integers(-20, 5), label="low") * 0.1 - 0.05
    high = data.draw(tst.st.lists(tst.st.integers(-5, 20), min_size=1, max_size=1), label="hi")
    high = np.full(shape[-1:] or (), high[0] * 0.1 + 0.025)
    x, lo, hi = backend.tensor(values), backend.tensor(low), backend.tensor(high)
    assert_matches(tg.clip(x, lo, hi), np.clip(values, low, high))
    gradcheck(lambda a, b, c: tg.clip(a, b, c), [x, lo, hi])
    gradcheck(lambda b: tg.clip(x, b, None), [lo])
    gradgradcheck(lambda a, b, c: tg.clip(a, b, c) ** 2, [x, lo, hi])


def test_clip_passes_gradient_at_the_boundaries(backend):
    x = backend.tensor(np.array([-2.0, -1.0, 0.0, 1.0, 2.0]))
    _, (g,) = value_and_gradients(lambda a: tg.clip(a, -1.0, 1.0), x)
    np.testing.assert_array_equal(g.numpy(), [0.0, 1.0, 1.0, 1.0, 0.0])


@given(data=tst.st.data())
def test_abs(backend, data):
    x = backend.tensor(data.draw(tst.arrays(domain="nonzero"), label="x"))
    assert_matches(tg.abs(x), np.abs(x.numpy()))
    assert_matches(abs(x), np.abs(x.numpy()))
    gradcheck(tg.abs, [x])
    gradgradcheck(lambda a: tg.abs(a) * a, [x])


def test_abs_and_relu_gradients_are_zero_at_zero(backend):
    x = backend.tensor(np.array([-1.5, 0.0, 2.0]))
    _, (g_abs,) = value_and_gradients(tg.abs, x)
    _, (g_relu,) = value_and_gradients(tg.relu, x)
    np.testing.assert_array_equal(g_abs.numpy(), [-1.0, 0.0, 1.0])
    np.testing.assert_array_equal(g_relu.numpy(), [0.0, 0.0, 1.0])


def test_astype_round_trips_the_gradient_dtype():
    x = tg.tensor(np.array([1.0, 2.0], dtype=np.float32))
    y, (g,) = value_and_gradients(lambda a: tg.astype(a, np.float64) * 3.0, x)
    assert y.dtype == np.float64 and g.dtype == np.float32
    np.testing.assert_array_equal(g.numpy(), [3.0, 3.0])
    # float32 arithmetic inside: a coarse step keeps finite differences meaningful
    gradgradcheck(lambda a: tg.astype(a, np.float32) ** 2, [x], eps=1e-2, atol=1e-3, rtol=1e-3)


def test_broadcast_gradients_are_summed_to_each_input_shape(backend):
    x = backend.tensor(np.arange(6.0).reshape(2, 3, 1) + 1)
    y = backend.tensor(np.array([[1.0, 2.0, 3.0, 4.0]]))
    for op, _, _ in BINARY + [(tg.maximum, None, None), (tg.minimum, None, None)]:
        _, (gx, gy) = value_and_gradients(op, x, y)
        assert gx.shape == (2, 3, 1) and gy.shape == (1, 4), op.__name__
    _, (gx, gy) = value_and_gradients(tg.multiply, x, y)
    np.testing.assert_allclose(gx.numpy(), np.full((2, 3, 1), 10.0))
    np.testing.assert_allclose(gy.numpy(), np.full((1, 4), 21.0))


SCALAR_FORMS = {
    "add": (lambda t: t + 2.0, lambda t: 2.0 + t),
    "subtract": (lambda t: t - 2.0, lambda t: 2.0 - t),
    "multiply": (lambda t: t * 2.0, lambda t: 2.0 * t),
    "divide": (lambda t: t / 2.0, lambda t: 2.0 / t),
    "power": (lambda t: t**2.0, lambda t: 2.0**t),
    "maximum": (lambda t: tg.maximum(t, 0.5), lambda t: tg.maximum(0.5, t)),
    "minimum": (lambda t: tg.minimum(t, 0.5), lambda t: tg.minimum(0.5, t)),
    "where": (lambda t: tg.where(t > 0.5, t, 0.0), lambda t: tg.where(t > 0.5, 1.0, t)),
    "clip": (lambda t: tg.clip(t, 0.4, 0.8), lambda t: tg.clip(t, None, 0.8)),
    "int": (lambda t: t * 2 + 1, lambda t: 3 - t**2),
}


@pytest.mark.parametrize("name", sorted(SCALAR_FORMS))
@pytest.mark.parametrize("side", [0, 1], ids=["tensor_first", "scalar_first"])
def test_python_scalars_never_upcast_float32(name, side, backend):
    f = SCALAR_FORMS[name][side]
    x = backend.tensor(np.linspace(0.3, 0.9, 4, dtype=np.float32))
    y, (g,) = value_and_gradients(f, x)
    assert_dtype(np.float32, y, g)
    assert g.shape == x.shape


@pytest.mark.parametrize("op", [op for op, _, _ in BINARY] + [tg.maximum, tg.minimum])
def test_float32_operands_give_float32_gradients(op, backend):
    x = backend.tensor(np.linspace(0.3, 0.9, 6, dtype=np.float32).reshape(2, 3))
    y = backend.tensor(np.array([0.5, 0.7, 1.1], dtype=np.float32))
    out, (gx, gy) = value_and_gradients(op, x, y)
    assert_dtype(np.float32, out, gx, gy)
    assert gx.shape == (2, 3) and gy.shape == (3,)


def test_shape_mismatch_names_the_op_and_shapes():
    with pytest.raises(ValueError, match=r"add: shapes \(2, 3\) and \(4,\) cannot broadcast"):
        tg.add(tg.tensor(np.ones((2, 3))), tg.tensor(np.ones(4)))
