"""Property-based gradient checks of tapegrad/ops/reductions.py."""

import numpy as np
import pytest
from helpers import assert_dtype, assert_matches, axes, separated, value_and_gradients
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

SMALL = {"max_dims": 2, "max_side": 3}


def _np_logsumexp(x, axis=None, keepdims=False):
    peak = np.max(x, axis=axis, keepdims=True)
    peak = np.where(np.isfinite(peak), peak, 0.0)
    out = np.log(np.sum(np.exp(x - peak), axis=axis, keepdims=True)) + peak
    return out if keepdims else np.squeeze(out, axis=axis)


# op, NumPy reference, domain; all smooth on these domains (max/min get their own tests).
SMOOTH = [
    (tg.sum, np.sum, "real"),
    (tg.mean, np.mean, "real"),
    (tg.prod, np.prod, "nonzero"),
    (tg.logsumexp, _np_logsumexp, "real"),
]
SMOOTH_IDS = [op.__name__ for op, _, _ in SMOOTH]
KEEPDIMS = pytest.mark.parametrize("keepdims", [False, True], ids=["drop", "keepdims"])


def _input_and_axis(data, backend, domain="real", **sizes):
    x = data.draw(tst.arrays(tst.shapes(**sizes), domain=domain), label="x")
    return backend.tensor(x), data.draw(axes(x.ndim))


@KEEPDIMS
@pytest.mark.parametrize(("op", "reference", "domain"), SMOOTH, ids=SMOOTH_IDS)
@given(data=tst.st.data())
def test_value_and_gradient(op, reference, domain, keepdims, backend, data):
    x, axis = _input_and_axis(data, backend, domain, max_side=3)
    expected = reference(x.numpy(), axis=axis, keepdims=keepdims)
    assert_matches(op(x, axis=axis, keepdims=keepdims), expected, rtol=1e-10)
    gradcheck(lambda a: op(a, axis=axis, keepdims=keepdims), [x])


@KEEPDIMS
@pytest.mark.parametrize(("op", "reference", "domain"), SMOOTH, ids=SMOOTH_IDS)
@given(data=tst.st.data())
def test_second_derivative(op, reference, domain, keepdims, backend, data):
    x, axis = _input_and_axis(data, backend, domain, **SMALL)
    gradgradcheck(lambda a: op(a, axis=axis, keepdims=keepdims), [x])


@given(data=tst.st.data())
def test_prod_gradient_is_exact_with_zeros(backend, data):
    # Hypothesis puts zeros in "real" arrays often; the gradient must not be 0/0 there.
    x, axis = _input_and_axis(data, backend, "real", max_side=3)
    assert_matches(tg.prod(x, axis=axis), np.prod(x.numpy(), axis=axis))
    gradcheck(lambda a: tg.prod(a, axis=axis), [x])


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        ([2.0, 0.0, 3.0], [0.0, 6.0, 0.0]),
        ([0.0, 0.0, 3.0], [0.0, 0.0, 0.0]),
        ([0.0, 5.0], [5.0, 0.0]),
        ([4.0, 2.0], [2.0, 4.0]),
    ],
)
def test_prod_gradient_with_one_or_two_zeros(values, expected, backend):
    x = backend.tensor(np.array(values))
    _, (g,) = value_and_gradients(tg.prod, x)
    np.testing.assert_array_equal(g.numpy(), expected)


def test_prod_gradient_with_zeros_along_an_axis(backend):
    x = backend.tensor(np.array([[0.0, 2.0, 3.0], [0.0, 0.0, 4.0], [1.0, 2.0, 3.0]]))
    _, (g,) = value_and_gradients(lambda a: tg.prod(a, axis=1), x)
    np.testing.assert_array_equal(g.numpy(), [[6, 0, 0], [0, 0, 0], [6, 3, 2]])


def test_prod_rule_gives_raw_arrays_with_and_without_zeros():
    # tg.compile's verified replay checks a rule's result type on the first sweep only, so
    # the rule must give the same kind of array whether or not the input holds a zero.
    def f(x):
        return tg.sum(tg.prod(x, axis=1)) + tg.sum(x * x) + tg.sum(x * 3.0)

    compiled = tg.compile(f)
    for values in ([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]], [[0.0, 2.0], [3.0, 4.0]]):
        x = tg.tensor(values)
        with tg.GradientTape() as tape:
            tape.watch(x)
            y = compiled(x)
        expected = np.array(values) * 2 + 3 + [[v[1], v[0]] for v in values]
        np.testing.assert_array_equal(tape.gradient(y, x).numpy(), expected)


def test_prod_second_derivative_at_zeros_is_not_implemented():
    x = tg.tensor([0.0, 2.0, 3.0])
    with tg.GradientTape() as outer:
        outer.watch(x)
        with tg.GradientTape() as inner:
            inner.watch(x)
            y = tg.prod(x)
        with pytest.raises(NotImplementedError, match="prod: the second derivative"):
            inner.gradient(y, x)


def test_prod_second_derivative_without_zeros():
    x = tg.tensor([1.5, 2.0, 3.0])
    with tg.GradientTape() as outer:
        outer.watch(x)
        with tg.GradientTape() as inner:
            inner.watch(x)
            y = tg.prod(x)
        g = inner.gradient(y, x)
    hessian_row_sums = outer.gradient(g, x).numpy()
    # d/dx_j sum_i prod/x_i = sum_{i != j} prod / (x_i x_j)
    expected = [(2.0 + 3.0), (1.5 + 3.0), (1.5 + 2.0)]
    np.testing.assert_allclose(hessian_row_sums, expected)


@KEEPDIMS
@pytest.mark.parametrize(("op", "reference"), [(tg.max, np.max), (tg.min, np.min)])
@given(data=tst.st.data())
def test_extremum_without_ties(op, reference, keepdims, backend, data):
    shape = data.draw(tst.shapes(max_side=3), label="shape")
    (x,) = data.draw(separated(shape))
    x = backend.tensor(x)
    axis = data.draw(axes(x.ndim))
    assert_matches(
        op(x, axis=axis, keepdims=keepdims), reference(x.numpy(), axis, keepdims=keepdims)
    )
    gradcheck(lambda a: op(a, axis=axis, keepdims=keepdims), [x])
    gradgradcheck(lambda a: op(a, axis=axis, keepdims=keepdims) ** 2, [x])


@pytest.mark.parametrize(
    ("op", "values", "axis", "expected"),
    [
        (tg.max, [1.0, 3.0, 3.0], None, [0.0, 0.5, 0.5]),
        (tg.min, [1.0, 1.0, 1.0], None, [1 / 3, 1 / 3, 1 / 3]),
        (tg.max, [[2.0, 2.0], [1.0, 5.0]], 1, [[0.5, 0.5], [0.0, 1.0]]),
        (tg.max, [[2.0, 2.0], [1.0, 2.0]], 0, [[1.0, 0.5], [0.0, 0.5]]),
        (tg.min, [[4.0, 1.0], [1.0, 1.0]], None, [[0.0, 1 / 3], [1 / 3, 1 / 3]]),
        (tg.min, [[4.0, 1.0], [1.0, 1.0]], (0, 1), [[0.0, 1 / 3], [1 / 3, 1 / 3]]),
    ],
)
@KEEPDIMS
def test_extremum_splits_gradient_among_ties(op, values, axis, expected, keepdims, backend):
    x = backend.tensor(np.array(values))
    _, (g,) = value_and_gradients(lambda a: op(a, axis=axis, keepdims=keepdims), x)
    np.testing.assert_allclose(g.numpy(), expected, rtol=1e-15)


@pytest.mark.parametrize("ddof", [0, 1])
@KEEPDIMS
@pytest.mark.parametrize(("op", "reference"), [(tg.var, np.var), (tg.std, np.std)])
@given(data=tst.st.data())
def test_var_and_std(op, reference, ddof, keepdims, backend, data):
    # Distinct values keep std away from 0, where its gradient is infinite.
    shape = data.draw(tst.shapes(max_dims=2, max_side=3), label="shape")
    (x,) = data.draw(separated(shape))
    x = backend.tensor(x)
    axis = data.draw(axes(x.ndim))
    count = int(np.sum(np.ones(shape), axis=axis).flat[0])  # elements per reduced slice
    assume(count > ddof and (op is tg.var or count > 1))
    expected = reference(x.numpy(), axis=axis, ddof=ddof, keepdims=keepdims)
    assert_matches(op(x, axis=axis, ddof=ddof, keepdims=keepdims), expected, rtol=1e-10)
    gradcheck(lambda a: op(a, axis=axis, ddof=ddof, keepdims=keepdims), [x])
    gradgradcheck(lambda a: op(a, axis=axis, ddof=ddof, keepdims=keepdims), [x])


@given(data=tst.st.data())
def test_cumsum(backend, data):
    x = backend.tensor(data.draw(tst.arrays(tst.shapes(max_side=3)), label="x"))
    axis = data.draw(axes(x.ndim, single=True))
    if axis is None or x.ndim:
        assert_matches(tg.cumsum(x, axis=axis), np.cumsum(x.numpy(), axis=axis))
    gradcheck(lambda a: tg.cumsum(a, axis=axis), [x])
    gradgradcheck(lambda a: tg.cumsum(a * a, axis=axis), [x])


def test_cumsum_gradient_is_reversed_cumsum(backend):
    x = backend.tensor(np.array([1.0, 2.0, 3.0, 4.0]))
    _, (g,) = value_and_gradients(tg.cumsum, x)
    np.testing.assert_array_equal(g.numpy(), [4.0, 3.0, 2.0, 1.0])


def test_logsumexp_is_stable_for_large_values(backend):
    x = backend.tensor(np.array([[1000.0, 1000.0], [-1000.0, -1000.0]]))
    np.testing.assert_allclose(
        tg.logsumexp(x, axis=1).numpy(), [1000 + np.log(2), -1000 + np.log(2)], rtol=1e-14
    )
    _, (g,) = value_and_gradients(lambda a: tg.logsumexp(a, axis=1), x)
    np.testing.assert_allclose(g.numpy(), np.full((2, 2), 0.5), rtol=1e-12)


@KEEPDIMS
def test_logsumexp_with_minus_infinity(keepdims, backend):
    # A row that is -inf throughout (fully masked) has logsumexp -inf and a zero gradient.
    values = np.array([[-np.inf, -np.inf, -np.inf], [0.0, -np.inf, 1.0], [2.0, 2.0, 2.0]])
    x = backend.tensor(values)
    expected = _np_logsumexp(values, axis=1, keepdims=keepdims)
    assert_matches(tg.logsumexp(x, axis=1, keepdims=keepdims), expected, rtol=1e-14)
    _, (g,) = value_and_gradients(lambda a: tg.logsumexp(a, axis=1, keepdims=keepdims), x)
    softmax_row = np.exp([0.0, 1.0]) / np.exp([0.0, 1.0]).sum()
    expected_grad = [[0.0, 0.0, 0.0], [softmax_row[0], 0.0, softmax_row[1]], [1 / 3, 1 / 3, 1 / 3]]
    np.testing.assert_allclose(g.numpy(), expected_grad, rtol=1e-14)


def test_logsumexp_second_derivative_with_minus_infinity():
    x = tg.tensor([[-np.inf, -np.inf], [0.0, -np.inf], [0.5, 1.0]])
    with tg.GradientTape() as outer:
        outer.watch(x)
        with tg.GradientTape() as inner:
            inner.watch(x)
            y = tg.logsumexp(x, axis=1)
        g = inner.gradient(y, x)
        weighted = tg.sum(g * tg.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    h = outer.gradient(weighted, x).numpy()
    assert np.all(np.isfinite(h)), h
    np.testing.assert_array_equal(h[:2], 0.0)


REDUCTIONS = [tg.sum, tg.mean, tg.prod, tg.max, tg.min, tg.var, tg.std, tg.logsumexp, tg.cumsum]


@pytest.mark.parametrize("op", REDUCTIONS, ids=[op.__name__ for op in REDUCTIONS])
def test_float32_stays_float32(op, backend):
    x = backend.tensor(np.array([[0.5, 1.5, 2.5], [3.0, 0.25, 1.0]], dtype=np.float32))
    y, (g,) = value_and_gradients(lambda a: op(a, axis=0), x)
    assert_dtype(np.float32, y, g)
    assert g.shape == x.shape


@pytest.mark.parametrize("op", REDUCTIONS, ids=[op.__name__ for op in REDUCTIONS])
def test_out_of_bounds_axis_names_the_op(op):
    with pytest.raises(ValueError, match=rf"{op.__name__}: axis 2 is out of bounds"):
        op(tg.tensor(np.ones((2, 3))), axis=2)


@pytest.mark.parametrize("axis", [1.0, (0, 1.5), "0"], ids=["float", "float-in-tuple", "str"])
@pytest.mark.parametrize("op", REDUCTIONS, ids=[op.__name__ for op in REDUCTIONS])
def test_non_integer_axis_names_the_op(op, axis):
    # int(1.5) would silently reduce over axis 1; NumPy raises TypeError here too.
    x = tg.tensor(np.ones((2, 3)))
    with tg.GradientTape() as tape:
        tape.watch(x)
        with pytest.raises(TypeError, match=rf"{op.__name__}: axis must be"):
            op(x, axis=axis)
        assert len(tape) == 0


@given(data=tst.st.data())
def test_unbroadcast_on_raw_arrays_matches_the_sum_op(data):
    # unbroadcast sums a raw NumPy cotangent with NumPy itself (the sweep's raw mode);
    # the result is the sum op's, bit for bit, in dtype and shape.
    from tapegrad.ops.primitive import unbroadcast

    shape, small = data.draw(tst.broadcastable_shapes(), label="shapes")
    full = np.broadcast_shapes(shape, small)
    dtype = data.draw(tst.st.sampled_from([np.float64, np.float32]), label="dtype")
    g = data.draw(tst.arrays(full), label="g").astype(dtype)
    fast = unbroadcast(g, small)
    general = unbroadcast(tg.tensor(g), small).numpy()
    assert type(fast) is np.ndarray
    assert fast.shape == general.shape == small and fast.dtype == general.dtype
    np.testing.assert_array_equal(fast, general)
    assert isinstance(unbroadcast(tg.tensor(g), small), tg.Tensor)  # Tensors take the op


@pytest.mark.parametrize("scale", [1e7, 1e15, 1e20, 1e308])
def test_logsumexp_gradient_at_huge_values(scale):
    # logsumexp rounds to its peak up there: the rule must not use x - logsumexp(x).
    x = tg.tensor([scale, scale, -np.inf])
    assert tg.grad(lambda x: tg.logsumexp(x))(x).numpy().tolist() == [0.5, 0.5, 0.0]
    # The recorded rule (a tape watching the gradient) gives the same.
    with tg.GradientTape() as outer:
        outer.watch(x)
        g = tg.grad(lambda x: tg.logsumexp(x))(x)
    assert g.numpy().tolist() == [0.5, 0.5, 0.0]


@settings(deadline=None, max_examples=60)
@given(
    st.integers(1, 700),
    st.integers(1, 60),
    st.sampled_from([np.float16, np.float32, np.float64]),
    st.sampled_from([None, "nan", "inf", "-inf"]),
    st.booleans(),
)
def test_the_stabilizer_of_logsumexp_is_numpys_max_for_every_row_width(
    rows, width, dtype, odd, lead
):
    # peak_of reduces a short last axis of many rows the transposed way: a maximum is
    # exact, so it must equal NumPy's max element for element (NaN rows included).
    from tapegrad.ops.reductions import peak_of

    rng = np.random.default_rng(rows * 61 + width)
    x = rng.standard_normal((rows, width)).astype(dtype)
    if odd is not None:
        x[rng.integers(0, rows), rng.integers(0, width)] = float(odd)
        x[0] = float(odd)
    if lead:
        x = x.reshape(1, rows, width)
    axis = (x.ndim - 1,)
    np.testing.assert_array_equal(peak_of(np, x, axis), np.max(x, axis=axis, keepdims=True))
    # And logsumexp on such rows is NumPy's formula's value, bit for bit.
    if odd is None:
        top = np.max(x, axis=-1, keepdims=True)
        want = np.log(np.sum(np.exp(x - top), axis=-1, keepdims=True)) + top
        got = tg.logsumexp(tg.tensor(x), axis=-1, keepdims=True).numpy()
        np.testing.assert_array_equal(got, want)
