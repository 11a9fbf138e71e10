"""Second and third derivatives of every twice-differentiable op, and the derivative of each
VJP rule with respect to its cotangent (what jvp's double-VJP trick relies on).

Linear ops (shape, indexing) are checked inside a nonlinearity, ``sin(op(x))``, so
that their VJP rules meet a cotangent that depends on ``x``.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tapegrad as tg
from tapegrad.testing import gradgradcheck
from tapegrad.testing import strategies as tst

SMALL = tst.shapes(max_dims=2, max_side=3)


def arrays(shape=SMALL, domain="real"):
    return tst.arrays(shape, domain=domain)


def case(f, *inputs):
    """A strategy for ``(f, [arrays])``."""
    return st.tuples(st.just(f), st.tuples(*inputs).map(list))


@st.composite
def with_axis(draw, build, domain="real", min_dims=0):
    """``build(axis, keepdims)`` applied to an array of random shape, axis and keepdims."""
    shape = tst.shapes(min_dims=min_dims, max_dims=2, max_side=3)
    x = draw(spread(shape) if domain == "spread" else arrays(shape, domain))
    axis = draw(st.sampled_from([None, *range(-x.ndim, x.ndim)]))
    return build(axis, draw(st.booleans())), [x]


@st.composite
def spread(draw, shape=SMALL):
    """Arrays whose values are at least 0.3 apart (no ties for max/min, no zero variance)."""
    shape = draw(shape) if isinstance(shape, st.SearchStrategy) else shape
    order = draw(st.permutations(range(int(np.prod(shape)))))
    jitter = draw(arrays(shape, "small")) * 0.1
    return np.reshape(np.array(order, dtype=float), shape) * 0.4 - 1.0 + jitter


@st.composite
def broadcasting(draw, f, domains=("real", "real")):
    shapes = draw(tst.broadcastable_shapes(len(domains), max_dims=2, max_side=3))
    return f, [draw(arrays(s, d)) for s, d in zip(shapes, domains)]


@st.composite
def apart(draw, f):
    """Two arrays of one shape that differ everywhere by at least 0.2 (no ties)."""
    x = draw(arrays())
    gap = draw(arrays(x.shape, "nonzero"))
    return f, [x, x + gap]


@st.composite
def index_case(draw):
    x = draw(arrays(st.tuples(st.integers(2, 3), st.integers(2, 3))))
    rows = np.array(draw(st.lists(st.integers(0, x.shape[0] - 1), min_size=1, max_size=4)))
    index = draw(
        st.sampled_from(
            [
                (slice(None, None, -1), 0),
                (Ellipsis, slice(1, None)),
                (rows,),  # repeated rows accumulate
                (rows, slice(None, 1)),
                (x > 0,),  # a boolean mask
                (None, 1),
            ]
        )
    )
    return (lambda x: tg.sin(x[index]) * x[index]), [x]


def linear(op):
    return lambda *xs: tg.sin(op(*xs)) * 2.0


M = np.array([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]])

CASES = {
    # arithmetic
    "add": broadcasting(lambda x, y: tg.sin(x + y) * y),
    "subtract": broadcasting(lambda x, y: (x - y) ** 2),
    "multiply": broadcasting(tg.multiply),
    "divide": broadcasting(tg.divide, ("real", "nonzero")),
    "power": broadcasting(tg.power, ("positive", "small")),
    "power_scalar": case(lambda x: x**3, arrays()),
    "negative": case(lambda x: -(x**2), arrays()),
    "maximum": apart(lambda x, y: tg.maximum(x, y) * y),
    "minimum": apart(lambda x, y: tg.minimum(x, y) * x),
    "where": broadcasting(lambda x, y: tg.where(x > 0, x * y, y**2), ("nonzero", "real")),
    "clip": case(lambda x: tg.clip(x, -0.5123, 0.7345) * x, arrays()),
    "abs": case(lambda x: tg.abs(x) * x, arrays(domain="nonzero")),
    # reductions
    "sum": with_axis(lambda a, k: lambda x: tg.sum(x**3, axis=a, keepdims=k)),
    "mean": with_axis(lambda a, k: lambda x: tg.mean(tg.sin(x), axis=a, keepdims=k) ** 2),
    "prod": with_axis(lambda a, k: lambda x: tg.prod(x, axis=a, keepdims=k), "nonzero"),
    "max": with_axis(lambda a, k: lambda x: tg.max(x, axis=a, keepdims=k) ** 2, "spread"),
    "min": with_axis(lambda a, k: lambda x: tg.min(x, axis=a, keepdims=k) ** 2, "spread"),
    "var": with_axis(lambda a, k: lambda x: tg.var(x, axis=a, keepdims=k)),
    "var_ddof": case(lambda x: tg.var(x, axis=0, ddof=1), arrays((3, 2))),
    "std": case(lambda x: tg.std(x, axis=-1), spread((2, 3))),
    "logsumexp": with_axis(lambda a, k: lambda x: tg.logsumexp(x, axis=a, keepdims=k)),
    "cumsum": with_axis(lambda a, k: linear(lambda x: tg.cumsum(x, axis=a)), min_dims=1),
    # shape
    "reshape": case(linear(lambda x: tg.reshape(x, (-1,))), arrays()),
    "transpose": case(linear(tg.transpose), arrays()),
    "swapaxes": case(linear(lambda x: tg.swapaxes(x, 0, -1)), arrays(tst.shapes(min_dims=1))),
    "expand_dims": case(linear(lambda x: tg.expand_dims(x, 0)), arrays()),
    "squeeze": case(linear(tg.squeeze), arrays((1, 3, 1))),
    "broadcast_to": case(linear(lambda x: tg.broadcast_to(x, (2, 3))), arrays((1, 3))),
    "concatenate": case(
        lambda x, y: tg.sin(tg.concatenate([x, y, x], axis=1)) * 2.0,
        arrays((2, 1)),
        arrays((2, 3)),
    ),
    "stack": case(lambda x, y: tg.sin(tg.stack([x, y], axis=-1)) * 2.0, arrays((3,)), arrays((3,))),
    "split": case(
        lambda x: tg.split(x, [1], axis=1)[1] * tg.split(x, [1], axis=1)[0], arrays((2, 3))
    ),
    "flip": case(linear(tg.flip), arrays()),
    "tile": case(linear(lambda x: tg.tile(x, (2, 1))), arrays()),
    "repeat": case(linear(lambda x: tg.repeat(x, 2, axis=None)), arrays()),
    "pad": case(linear(lambda x: tg.pad(x, 1, constant_values=0.5)), arrays(tst.shapes(1, 2, 3))),
    # indexing
    "getitem": index_case(),
    "take": case(linear(lambda x: tg.take(x, [2, 0, 0], axis=-1)), arrays((2, 3))),
    "take_along_axis": case(
        linear(lambda x: tg.take_along_axis(x, np.array([[1, 1], [0, 2]]), axis=1)), arrays((2, 3))
    ),
    "index_add": case(linear(lambda x: tg.index_add(x, (4,), np.array([0, 3, 0]))), arrays((3,))),
    # linear algebra
    "matmul": case(tg.matmul, arrays((2, 3)), arrays((3, 2))),
    "matmul_vector": case(lambda x, y: tg.matmul(x, y) ** 2, arrays((3,)), arrays((3, 2))),
    "matmul_batched": case(tg.matmul, arrays((2, 1, 2, 3)), arrays((2, 3, 1))),
    # The constant goes next to x (its library and device), as constants must on a GPU.
    "matmul_constant": case(lambda x: tg.sin(tg.matmul(tg.asarray(M, like=x), x)), arrays((3, 2))),
    "einsum": case(lambda x, y: tg.einsum("ij,jk->ki", x, y) ** 2, arrays((2, 3)), arrays((3, 2))),
    "einsum_batch": case(
        lambda x, y: tg.einsum("bij,bj->bi", x, y) * x[..., 0], arrays((2, 2, 3)), arrays((2, 3))
    ),
    "einsum_implicit": case(lambda x, y: tg.einsum("i,i", x, y) * x, arrays((3,)), arrays((3,))),
    "einsum_ellipsis": case(lambda x: tg.einsum("...i,...i->...", x, x), arrays((2, 3))),
    "dot": case(lambda x, y: tg.dot(x, y) * tg.sum(x), arrays((2, 3)), arrays((3,))),
    "outer": case(lambda x, y: tg.outer(x, y) ** 2, arrays((3,)), arrays((2,))),
    # nn
    "softmax": with_axis(lambda a, k: lambda x: tg.softmax(x, axis=a or 0), min_dims=1),
    "log_softmax": with_axis(lambda a, k: lambda x: tg.log_softmax(x, axis=a or 0), min_dims=1),
    # device
    "to_device": case(linear(lambda x: tg.to_device(x, "cpu")), arrays()),
}

# Elementwise functions: their second derivatives are in test_elementwise.py; the third here.
ELEMENTWISE = {
    "exp": (tg.exp, "small"),
    "log": (tg.log, "positive"),
    "log1p": (tg.log1p, "positive"),
    "expm1": (tg.expm1, "small"),
    "sqrt": (tg.sqrt, "positive"),
    "square": (tg.square, "real"),
    "sin": (tg.sin, "real"),
    "cos": (tg.cos, "real"),
    "tan": (tg.tan, "unit"),
    "tanh": (tg.tanh, "real"),
    "sinh": (tg.sinh, "small"),
    "cosh": (tg.cosh, "small"),
    "arctan": (tg.arctan, "real"),
    "sigmoid": (tg.sigmoid, "real"),
    "relu": (lambda x: tg.relu(x) * x, "nonzero"),
    "softplus": (tg.softplus, "real"),
}
THIRD_ORDER = {
    **{name: case(f, arrays(SMALL, domain)) for name, (f, domain) in ELEMENTWISE.items()},
    **{name: CASES[name] for name in ("divide", "power", "prod", "logsumexp", "std", "softmax")},
    **{name: CASES[name] for name in ("matmul_constant", "getitem", "einsum", "pad", "cumsum")},
}
# Third derivatives take a double loop of nested sweeps: fewer examples.
FEWER = settings(settings.default, max_examples=max(4, settings.default.max_examples // 4))


def draw_case(data, backend, name, cases):
    backend.require(name)
    f, inputs = data.draw(cases[name], label="case")
    return f, [backend.tensor(x) for x in inputs]


@pytest.mark.parametrize("name", sorted(CASES))
@given(data=st.data())
def test_second_derivative(name, backend, data):
    f, inputs = draw_case(data, backend, name, CASES)
    gradgradcheck(f, inputs)


@pytest.mark.parametrize("name", sorted(CASES))
@given(data=st.data())
def test_jvp_is_the_transpose_of_vjp(name, backend, data):
    f, inputs = draw_case(data, backend, name, CASES)
    rng = np.random.default_rng(0)
    out, vjp_fn = tg.vjp(f, *inputs)
    u = rng.standard_normal(out.shape)
    tangents = [rng.standard_normal(x.shape) for x in inputs]
    _, jv = tg.jvp(f, inputs, tangents)
    pulled = vjp_fn(u)
    left = np.sum(u * np.asarray(jv))
    right = sum(np.sum(np.asarray(g) * v) for g, v in zip(pulled, tangents))
    np.testing.assert_allclose(left, right, rtol=1e-9, atol=1e-10)


@pytest.mark.parametrize("name", sorted(THIRD_ORDER))
@FEWER
@given(data=st.data())
def test_third_derivative_by_nested_grad(name, backend, data):
    f, inputs = draw_case(data, backend, name, THIRD_ORDER)
    rng = np.random.default_rng(1)
    everything = tuple(range(len(inputs)))
    u = backend.tensor(rng.standard_normal(f(*inputs).shape))
    v = [backend.tensor(rng.standard_normal(x.shape)) for x in inputs]
    w = [backend.tensor(rng.standard_normal(x.shape)) for x in inputs]

    def along(gradients, direction):
        return sum(tg.sum(g * d) for g, d in zip(gradients, direction))

    def second(*xs):
        """``d2 <u, f> [v, w]``, from two nested tg.grad calls."""
        first = tg.grad(lambda *xs: tg.sum(f(*xs) * u), argnums=everything)
        return along(tg.grad(lambda *xs: along(first(*xs), v), argnums=everything)(*xs), w)

    third = tg.grad(second, argnums=everything)(*inputs)
    for i, analytic in enumerate(third):
        numeric = central_differences(second, inputs, i, backend)
        np.testing.assert_allclose(np.asarray(analytic), numeric, rtol=1e-4, atol=1e-5)


def central_differences(f, inputs, i, backend, eps=1e-6):
    """d f / d inputs[i] by central differences of the scalar ``f``, in float64."""
    host = np.asarray(inputs[i])
    numeric = np.zeros(host.shape)
    for j in np.ndindex(*host.shape):
        values = []
        for step in (eps, -eps):
            moved = host.copy()
            moved[j] += step
            trial = list(inputs)
            trial[i] = backend.tensor(moved)
            values.append(float(f(*trial)))
        numeric[j] = (values[0] - values[1]) / (2 * eps)
    return numeric


def test_derivatives_of_integer_powers_at_zero_are_finite():
    # x**2 -> 2 x**1 -> 2 (not 2 * 1 * x**0, whose derivative 0 * x**-1 is nan at 0)
    derivatives = [lambda x: x**3]
    for _ in range(4):
        derivatives.append(tg.grad(derivatives[-1]))
    assert [float(d(0.0)) for d in derivatives[1:]] == [0.0, 0.0, 6.0, 0.0]
    assert float(tg.grad(lambda x: x**0)(0.0)) == 0.0
