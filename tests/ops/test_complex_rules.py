"""Every op NumPy supports on complex values, differentiated on complex values.

Gradients follow docs/complex.md (dL/dx + i dL/dy); ``gradcheck`` takes finite
differences along both the real and the imaginary direction of every complex
element, and projects complex outputs on complex cotangents. Each op is checked
with complex inputs, with real inputs through complex intermediates (the real
input's gradient is the real part), and to second order.
"""

import numpy as np
import pytest
from helpers import assert_dtype, assert_matches, axes
from hypothesis import given

import tapegrad as tg
from tapegrad.ops.erf import erf
from tapegrad.ops.linalg import matmul_add
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

C128 = np.complex128
SMALL = {"max_dims": 2, "max_side": 3}


def _sigmoid(z):
    return 1 / (1 + np.exp(-z))


def _arccosh1p(z):
    return tg.arccosh(1 + z)


def _scipy_erf(z):
    return pytest.importorskip("scipy.special", reason="the scipy extra is not installed").erf(z)


# op, NumPy reference, domain (the complex domains of tapegrad.testing.strategies)
UNARY = [
    (tg.exp, np.exp, "small"),
    (tg.log, np.log, "positive"),
    (tg.log1p, np.log1p, "positive"),
    (tg.expm1, np.expm1, "small"),
    (tg.sqrt, np.sqrt, "positive"),
    (tg.square, np.square, "real"),
    (tg.sin, np.sin, "small"),
    (tg.cos, np.cos, "small"),
    (tg.tan, np.tan, "unit"),
    (tg.tanh, np.tanh, "unit"),
    (tg.sinh, np.sinh, "small"),
    (tg.cosh, np.cosh, "small"),
    (tg.arctan, np.arctan, "unit"),
    (tg.sigmoid, _sigmoid, "small"),
    (tg.negative, np.negative, "real"),
    (tg.abs, np.abs, "nonzero"),
    (tg.real, np.real, "real"),
    (tg.imag, np.imag, "real"),
    (tg.conj, np.conj, "real"),
    (tg.angle, np.angle, "positive"),
    # the NumPy namespace's: the complex domains keep away from the branch cuts (arcsin,
    # arccos, arctanh: |re| > 1 on the real axis; arcsinh: |im| > 1 on the imaginary axis;
    # arccosh: re < 1 on the real axis, hence arccosh1p = arccosh(1 + z))
    (tg.arcsin, np.arcsin, "unit"),
    (tg.arccos, np.arccos, "unit"),
    (tg.arcsinh, np.arcsinh, "unit"),
    (_arccosh1p, lambda z: np.arccosh(1 + z), "positive"),
    (tg.arctanh, np.arctanh, "unit"),
    (tg.sinc, np.sinc, "small"),
    (tg.log2, np.log2, "positive"),
    (tg.log10, np.log10, "positive"),
    (tg.exp2, np.exp2, "small"),
    (tg.reciprocal, np.reciprocal, "nonzero"),
    (erf, _scipy_erf, "small"),  # tg.nn's GELU's and tapegrad.scipy.special's
]
UNARY_IDS = [op.__name__ for op, _, _ in UNARY]

BINARY = [
    (tg.add, np.add, ("real", "real")),
    (tg.subtract, np.subtract, ("real", "real")),
    (tg.multiply, np.multiply, ("real", "real")),
    (tg.divide, np.divide, ("real", "nonzero")),
    (tg.power, np.power, ("positive", "small")),
]
BINARY_IDS = [op.__name__ for op, _, _ in BINARY]

REDUCTIONS = [
    (tg.sum, np.sum, "real"),
    (tg.mean, np.mean, "real"),
    (tg.prod, np.prod, "nonzero"),
    (tg.var, np.var, "real"),
]
REDUCTION_IDS = [op.__name__ for op, _, _ in REDUCTIONS]

# A fixed unit complex factor: x * ROTATION takes a real x into the complex plane, inside
# the same domain for the domains above (a rotation by less than 45 degrees).
ROTATION = 0.8 + 0.6j


def _complex(data, backend, shape=None, domain="real", label="z"):
    shape = tst.shapes(**SMALL) if shape is None else shape
    return backend.tensor(data.draw(tst.arrays(shape, dtype=C128, domain=domain), label=label))


@pytest.mark.parametrize(("op", "reference", "domain"), UNARY, ids=UNARY_IDS)
@given(data=tst.st.data())
def test_unary_value_and_gradient(op, reference, domain, backend, data):
    z = _complex(data, backend, tst.shapes(max_side=3), domain)
    assert_matches(op(z), reference(z.numpy()), rtol=1e-12)
    gradcheck(op, [z])


@pytest.mark.parametrize(("op", "reference", "domain"), UNARY, ids=UNARY_IDS)
@given(data=tst.st.data())
def test_unary_second_derivative(op, reference, domain, backend, data):
    gradgradcheck(op, [_complex(data, backend, domain=domain)])


@pytest.mark.parametrize(("op", "reference", "domain"), UNARY, ids=UNARY_IDS)
@given(data=tst.st.data())
def test_unary_real_input_through_complex(op, reference, domain, backend, data):
    # x real -> z = x * ROTATION complex -> op -> a real result: x's gradient is real.
    real_domain = "positive" if domain in ("positive", "nonzero") else domain
    x = backend.tensor(data.draw(tst.arrays(tst.shapes(**SMALL), domain=real_domain)))

    def f(a):
        return tg.real(op(a * ROTATION) * (0.3 - 0.7j))

    gradcheck(f, [x])
    gradgradcheck(f, [x])


@pytest.mark.parametrize(("op", "reference", "domains"), BINARY, ids=BINARY_IDS)
@given(data=tst.st.data())
def test_binary_value_and_gradient(op, reference, domains, backend, data):
    sx, sy = data.draw(tst.broadcastable_shapes(max_side=3), label="shapes")
    z = _complex(data, backend, sx, domains[0], "z")
    w = _complex(data, backend, sy, domains[1], "w")
    assert_matches(op(z, w), reference(z.numpy(), w.numpy()), rtol=1e-12)
    gradcheck(op, [z, w])


@pytest.mark.parametrize(("op", "reference", "domains"), BINARY, ids=BINARY_IDS)
@given(data=tst.st.data())
def test_binary_second_derivative(op, reference, domains, backend, data):
    sx, sy = data.draw(tst.broadcastable_shapes(**SMALL), label="shapes")
    z = _complex(data, backend, sx, domains[0], "z")
    w = _complex(data, backend, sy, domains[1], "w")
    gradgradcheck(op, [z, w])


@pytest.mark.parametrize(("op", "reference", "domains"), BINARY, ids=BINARY_IDS)
@pytest.mark.parametrize("real_side", [0, 1], ids=["real-x", "real-y"])
@given(data=tst.st.data())
def test_binary_real_input_promoted_to_complex(op, reference, domains, real_side, backend, data):
    # The op itself promotes the real input (float64 op complex128 -> complex128).
    sx, sy = data.draw(tst.broadcastable_shapes(**SMALL), label="shapes")
    inputs = [
        backend.tensor(data.draw(tst.arrays(sx, domain=domains[0]), label="x"))
        if real_side == 0
        else _complex(data, backend, sx, domains[0], "x"),
        backend.tensor(data.draw(tst.arrays(sy, domain=domains[1]), label="y"))
        if real_side == 1
        else _complex(data, backend, sy, domains[1], "y"),
    ]
    assert_matches(op(*inputs), reference(*(t.numpy() for t in inputs)), rtol=1e-12)
    gradcheck(op, inputs)
    gradgradcheck(op, inputs)
    with tg.GradientTape() as tape:
        tape.watch(inputs)
        out = op(*inputs)
    grads = tape.gradient(out, inputs, output_gradients=tg.ones_like(out))
    assert_dtype(np.float64, grads[real_side])


@pytest.mark.parametrize(("op", "reference", "domain"), REDUCTIONS, ids=REDUCTION_IDS)
@given(data=tst.st.data())
def test_reduction_value_and_gradient(op, reference, domain, backend, data):
    z = _complex(data, backend, tst.shapes(max_side=3), domain)
    axis = data.draw(axes(z.ndim))
    assert_matches(op(z, axis=axis), reference(z.numpy(), axis=axis), rtol=1e-10, atol=1e-12)
    gradcheck(lambda a: op(a, axis=axis), [z])
    gradgradcheck(lambda a: op(a, axis=axis, keepdims=True), [z])
    x = backend.tensor(np.real(z.numpy()) + (0.5 if domain == "nonzero" else 0.0))
    gradcheck(lambda a: tg.real(op(a * ROTATION, axis=axis) * (0.3 - 0.7j)), [x])


@given(data=tst.st.data())
def test_std_and_cumsum(backend, data):
    z = _complex(data, backend, tst.shapes(min_dims=1, **SMALL))
    axis = data.draw(axes(z.ndim, single=True))
    assert_matches(tg.cumsum(z, axis=axis), np.cumsum(z.numpy(), axis=axis))
    gradcheck(lambda a: tg.cumsum(a, axis=axis), [z])
    # std is sqrt(var): differentiable where var > 0, so over a vector whose elements stay
    # apart (drawn alone, all three may be 0 + 1e-13j: std 0, a kink finite differences see)
    w = _complex(data, backend, (3,), "small", "w") + backend.tensor(np.array([0, 3, 3j]))
    assert_matches(tg.std(w), np.std(w.numpy()), rtol=1e-12)
    gradcheck(tg.std, [w])
    gradgradcheck(tg.std, [w])


def _matmul_shapes():
    # NumPy's cases: matrix @ matrix, vector operands, broadcast batch axes
    return tst.st.sampled_from(
        [((2, 3), (3, 2)), ((3,), (3, 2)), ((2, 3), (3,)), ((3,), (3,)), ((2, 1, 3), (2, 3, 2))]
    )


@given(data=tst.st.data())
def test_products(backend, data):
    sx, sy = data.draw(_matmul_shapes(), label="shapes")
    z, w = _complex(data, backend, sx, label="z"), _complex(data, backend, sy, label="w")
    assert_matches(tg.matmul(z, w), np.matmul(z.numpy(), w.numpy()), rtol=1e-12)
    gradcheck(tg.matmul, [z, w])
    gradgradcheck(tg.matmul, [z, w])
    b = _complex(data, backend, sy[-1:] if len(sy) > 1 else (), label="b")
    assert_matches(matmul_add(z, w, b), np.matmul(z.numpy(), w.numpy()) + b.numpy(), rtol=1e-12)
    gradcheck(matmul_add, [z, w, b])
    if len(sx) <= 2 and len(sy) <= 2:
        assert_matches(tg.dot(z, w), np.dot(z.numpy(), w.numpy()), rtol=1e-12)
        gradcheck(tg.dot, [z, w])
    assert_matches(tg.outer(z, w), np.outer(z.numpy(), w.numpy()), rtol=1e-12)
    gradcheck(tg.outer, [z, w])
    # a real operand, promoted by the product itself: its gradient is real
    x = backend.tensor(np.real(z.numpy()))
    gradcheck(tg.matmul, [x, w])
    gradcheck(tg.outer, [x, w])


@given(data=tst.st.data())
def test_einsum(backend, data):
    z = _complex(data, backend, (2, 3), label="z")
    w = _complex(data, backend, (3, 2), label="w")
    v = _complex(data, backend, (2,), label="v")
    spec = data.draw(tst.st.sampled_from(["ij,jk->ik", "ij,jk,k->i", "ij,jk,i->"]))
    operands = [z, w, v][: spec.count(",") + 1]
    expected = np.einsum(spec, *(t.numpy() for t in operands))
    assert_matches(tg.einsum(spec, *operands), expected, rtol=1e-12)
    gradcheck(lambda *a: tg.einsum(spec, *a), operands)
    gradgradcheck(lambda *a: tg.einsum(spec, *a), operands)


# Linear ops with real coefficients: their rules need no conjugate, but must keep
# (and sum, and scatter) complex cotangents.
LINEAR = {
    "reshape": lambda z: tg.reshape(z, (3, 2)),
    "transpose": lambda z: tg.transpose(z),
    "swapaxes": lambda z: tg.swapaxes(z, 0, 1),
    "expand_dims": lambda z: tg.expand_dims(z, 1),
    "squeeze": lambda z: tg.squeeze(tg.reshape(z, (1, 2, 3)), 0),
    "broadcast_to": lambda z: tg.broadcast_to(z, (4, 2, 3)),
    "concatenate": lambda z: tg.concatenate([z, z * 2.0], axis=1),
    "stack": lambda z: tg.stack([z, -z]),
    "split": lambda z: tg.split(z, 3, axis=1),
    "flip": lambda z: tg.flip(z, axis=1),
    "tile": lambda z: tg.tile(z, (2, 1)),
    "repeat": lambda z: tg.repeat(z, 2, axis=0),
    "pad": lambda z: tg.pad(z, ((1, 0), (0, 2))),
    "getitem": lambda z: z[[0, 1, 1], [2, 0, 2]],
    "take": lambda z: tg.take(z, [1, 1, 0], axis=1),
    "take_along_axis": lambda z: tg.take_along_axis(z, np.array([[0, 0], [2, 1]]), axis=1),
    # the threshold off every grid a strategy draws from: finite differences across it jump
    "where": lambda z: tg.where(tg.real(z) > 0.5371, z, z * z),
    "to_device": lambda z: tg.to_device(z, "cpu"),
}


@pytest.mark.parametrize("name", sorted(LINEAR))
@given(data=tst.st.data())
def test_shape_and_indexing(name, backend, data):
    f = LINEAR[name]
    z = _complex(data, backend, (2, 3))
    gradcheck(f, [z])
    expected = f(tg.tensor(z.numpy()))  # on NumPy arrays: the reference for other backends
    for got, want in zip(_leaves(f(z)), _leaves(expected)):
        np.testing.assert_array_equal(got.numpy(), want.numpy())
    x = backend.tensor(np.real(z.numpy()))  # a real input through complex values
    gradcheck(lambda a: [tg.imag(leaf) for leaf in _leaves(f(a * ROTATION))], [x])


def _leaves(out):
    return out if isinstance(out, list) else [out]


def test_astype_promotes_a_real_input_and_gives_back_a_real_gradient(backend):
    x = backend.tensor(np.array([1.0, -2.0, 0.5]))
    gradcheck(lambda a: tg.abs(tg.astype(a, C128) * (1 + 2j)), [x])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.sum(tg.imag(tg.astype(x, C128) * 1j))  # = sum(x)
    g = tape.gradient(y, x)
    assert_dtype(np.float64, g)
    np.testing.assert_array_equal(g.numpy(), [1.0, 1.0, 1.0])


@pytest.mark.parametrize(
    "op",
    [
        tg.max,
        tg.min,
        tg.logsumexp,
        tg.relu,
        tg.softmax,
        lambda z: tg.maximum(z, 0),
        lambda z: tg.minimum(z, 0),
        lambda z: tg.clip(z, 0, 1),
    ],
    ids=["max", "min", "logsumexp", "relu", "softmax", "maximum", "minimum", "clip"],
)
def test_ops_that_order_values_refuse_complex_gradients(op):
    # NumPy orders complex numbers lexicographically; that order has no derivative worth
    # having, so recording such an op on complex values is an error, not a silent choice.
    z = tg.tensor(np.array([1 + 2j, 3 - 1j]))
    with tg.GradientTape() as tape:
        tape.watch(z)
        with pytest.raises(TypeError, match="no gradient for complex values"):
            op(z)
    assert len(tape) == 0
    op(z)  # the value alone is NumPy's


def test_softplus_rejects_complex_values_as_numpy_does():
    with pytest.raises(TypeError, match="softplus"):
        tg.softplus(tg.tensor(np.array([1j])))


def test_abs_and_angle_gradients_are_zero_at_zero(backend):
    z = backend.tensor(np.array([0j, 3 + 4j]))
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(z)
        r, theta = tg.sum(tg.abs(z)), tg.sum(tg.angle(z))
    np.testing.assert_allclose(tape.gradient(r, z).numpy(), [0, 0.6 + 0.8j])
    np.testing.assert_allclose(tape.gradient(theta, z).numpy(), [0, (-4 + 3j) / 25])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_dtypes_are_kept(dtype):
    z = tg.tensor(np.array([1 + 1j, 0.5 - 2j]), dtype=dtype)
    real = np.float32 if dtype == np.complex64 else np.float64
    with tg.GradientTape() as tape:
        tape.watch(z)
        y = tg.sum(tg.abs(tg.exp(z) * z + 1.5) ** 2)
    assert y.dtype == real
    assert tape.gradient(y, z).dtype == dtype
    w = tg.tensor(np.array([1 + 1j, 0.5 - 2j]))
    with tg.GradientTape() as tape:
        tape.watch(w)
        y = tg.sum(tg.real(tg.astype(w, dtype) * (2 - 1j)))
    g = tape.gradient(y, w)
    assert g.dtype == np.complex128
    np.testing.assert_allclose(g.numpy(), [2 + 1j, 2 + 1j])
