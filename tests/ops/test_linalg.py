"""Property-based gradient checks of tapegrad/ops/linalg.py: matmul matmul_add einsum dot
outer."""

import numpy as np
import pytest
from helpers import assert_dtype, assert_matches, value_and_gradients
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tapegrad as tg
from tapegrad.ops.linalg import matmul_add
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

SIDE = st.integers(1, 3)


def _check(op, reference, *inputs, rtol=1e-12):
    """Value against NumPy, then first and second derivatives (all ops here are multilinear)."""
    assert_matches(op(*inputs), reference(*(x.numpy() for x in inputs)), rtol=rtol, atol=1e-12)
    gradcheck(op, list(inputs))
    gradgradcheck(lambda *xs: op(*xs) ** 2, list(inputs))


def _tensors(data, backend, *shapes):
    return [backend.tensor(data.draw(tst.arrays(s), label=f"operand {s}")) for s in shapes]


@given(data=tst.st.data())
def test_matmul(backend, data):
    n, k, m = (data.draw(SIDE, label=name) for name in "nkm")
    bx, by = data.draw(tst.broadcastable_shapes(max_dims=2, max_side=2), label="batch")
    x_vector = data.draw(st.booleans(), label="x is 1-d")
    y_vector = data.draw(st.booleans(), label="y is 1-d")
    sx = (k,) if x_vector else (*bx, n, k)
    sy = (k,) if y_vector else (*by, k, m)
    x, y = _tensors(data, backend, sx, sy)
    _check(tg.matmul, np.matmul, x, y)
    assert_matches(x @ y, x.numpy() @ y.numpy(), rtol=1e-12)


@given(data=tst.st.data())
def test_matmul_add(backend, data):
    # tg.nn.linear's op: x @ y + b, with the bias broadcast against the product (in
    # place on NumPy when that keeps the product's dtype and shape, else a new array).
    n, k, m = (data.draw(SIDE, label=name) for name in "nkm")
    bx, by = data.draw(tst.broadcastable_shapes(max_dims=2, max_side=2), label="batch")
    sx = (k,) if data.draw(st.booleans(), label="x is 1-d") else (*bx, n, k)
    sy = (k,) if data.draw(st.booleans(), label="y is 1-d") else (*by, k, m)
    out = np.matmul(np.ones(sx), np.ones(sy)).shape
    sb = data.draw(hnp.broadcastable_shapes(out, max_dims=len(out) + 1), label="bias")
    x, y, b = _tensors(data, backend, sx, sy, sb)
    _check(matmul_add, lambda x, y, b: x @ y + b, x, y, b)


def test_matmul_add_keeps_numpy_promotion():
    x, y = tg.tensor(np.ones((2, 3), np.float32)), tg.tensor(np.ones((3, 2), np.float32))
    assert matmul_add(x, y, tg.tensor(np.ones(2, np.float32))).dtype == np.float32
    assert matmul_add(x, y, tg.tensor(np.ones(2))).dtype == np.float64  # not in place
    assert matmul_add(x, y, tg.tensor(np.ones((4, 1, 1), np.float32))).shape == (4, 2, 2)


@given(data=tst.st.data(), constant=st.sampled_from([0, 1]))
def test_matmul_with_a_constant_operand(data, constant):
    # A NumPy operand is a constant: the rules then mix it with Tensor cotangents
    # (g @ y^T, x^T @ g), which must still record for the second derivative.
    n, k, m = (data.draw(SIDE, label=name) for name in "nkm")
    bx, by = data.draw(tst.broadcastable_shapes(max_dims=2, max_side=2), label="batch")
    sx = (k,) if data.draw(st.booleans(), label="x is 1-d") else (*bx, n, k)
    sy = (k,) if data.draw(st.booleans(), label="y is 1-d") else (*by, k, m)
    x, y = (data.draw(tst.arrays(s), label=f"operand {s}") for s in (sx, sy))
    if constant == 0:
        op = lambda t: tg.matmul(x, t)  # noqa: E731
        variable = tg.tensor(y)
    else:
        op = lambda t: tg.matmul(t, y)  # noqa: E731
        variable = tg.tensor(x)
    assert_matches(op(variable), np.matmul(x, y), rtol=1e-12)
    gradcheck(op, [variable])
    gradgradcheck(lambda t: op(t) ** 2, [variable])


def test_matmul_errors_name_the_shapes():
    with pytest.raises(ValueError, match=r"matmul: inner dimensions differ: \(2, 3\) @ \(4, 5\)"):
        tg.matmul(tg.tensor(np.ones((2, 3))), tg.tensor(np.ones((4, 5))))
    with pytest.raises(ValueError, match=r"matmul: 0-d operands"):
        tg.matmul(tg.tensor(2.0), tg.tensor(np.ones(3)))
    with pytest.raises(ValueError, match=r"matmul: batch shapes \(2,\) and \(3,\) cannot"):
        tg.matmul(tg.tensor(np.ones((2, 1, 2))), tg.tensor(np.ones((3, 2, 1))))


def test_matmul_errors_with_fitting_shapes_are_not_blamed_on_the_shapes():
    # An object array makes NumPy's matmul fail for a reason that is not the shapes.
    x = tg.tensor(np.ones((2, 2)))
    y = np.array([[None, None], [None, None]], dtype=object)
    with pytest.raises(TypeError) as info:
        tg.matmul(x, y)
    assert "matmul:" in str(info.value) and "cannot broadcast" not in str(info.value)


# subscripts, then one tuple of letters per operand naming its axes' sizes
# ("." marks a batch axis, drawn for the ellipsis).
EINSUM = [
    ("ij,jk->ik", ("ij", "jk")),
    ("ij,jk", ("ij", "jk")),  # implicit output
    ("bij,bjk->bik", ("bij", "bjk")),
    ("...ij,...jk->...ik", (".ij", ".jk")),
    ("...ij,jk", (".ij", "jk")),  # implicit output with an ellipsis
    ("i,j->ij", ("i", "j")),  # outer product
    ("i,i->", ("i", "i")),
    ("ij->", ("ij",)),
    ("ij->j", ("ij",)),
    ("ji", ("ji",)),  # implicit transpose
    ("ij,ij->ij", ("ij", "ij")),
    ("ijk,jl->il", ("ijk", "jl")),  # k appears in one operand only
    ("ij,k->ijk", ("ij", "k")),
    ("ij,jk,kl->il", ("ij", "jk", "kl")),
    ("...i,...i->...", (".i", ".i")),
]


@pytest.mark.parametrize(("subscripts", "axes"), EINSUM, ids=[s for s, _ in EINSUM])
@given(data=tst.st.data())
def test_einsum(subscripts, axes, backend, data):
    sizes = {c: data.draw(SIDE, label=c) for c in sorted(set("".join(axes)) - {"."})}
    batches = data.draw(tst.broadcastable_shapes(len(axes), max_dims=2, max_side=2))
    shapes = [
        (*batch, *(sizes[c] for c in term[1:]))
        if term.startswith(".")
        else tuple(sizes[c] for c in term)
        for term, batch in zip(axes, batches)
    ]
    operands = _tensors(data, backend, *shapes)
    _check(
        lambda *xs: tg.einsum(subscripts, *xs),
        lambda *xs: np.einsum(subscripts, *xs),
        *operands,
        rtol=1e-10,
    )


def test_einsum_with_a_constant_operand(backend):
    x = backend.tensor(np.arange(6.0).reshape(2, 3))
    w = backend.tensor(np.array([1.0, -1.0, 2.0]))  # not watched: a constant
    _, (g,) = value_and_gradients(lambda a: tg.einsum("ij,j->i", a, w), x)
    np.testing.assert_array_equal(g.numpy(), np.broadcast_to(w.numpy(), (2, 3)))


@pytest.mark.parametrize(
    "subscripts", ["ii->", "ii->i", "ii", "iij->j", "iij,i->ij", "ij,ii->j", "...ii->...i"]
)
def test_einsum_with_a_letter_repeated_in_an_operand(subscripts, backend):
    # Diagonals and traces: the gradient goes back onto the diagonal, zeros off it.
    rng = np.random.default_rng(5)
    shapes = {"ii->": [(3, 3)], "ii->i": [(3, 3)], "ii": [(3, 3)], "iij->j": [(3, 3, 2)],
              "iij,i->ij": [(3, 3, 2), (3,)], "ij,ii->j": [(3, 3), (3, 3)],
              "...ii->...i": [(2, 3, 3)]}[subscripts]  # fmt: skip
    values = [rng.standard_normal(shape) for shape in shapes]
    operands = [backend.tensor(v) for v in values]
    np.testing.assert_allclose(
        tg.einsum(subscripts, *operands).numpy(), np.einsum(subscripts, *values), rtol=1e-12
    )
    gradcheck(lambda *xs: tg.einsum(subscripts, *xs), operands)
    gradgradcheck(lambda *xs: tg.einsum(subscripts, *xs) ** 2, operands)


def test_einsum_subscript_errors():
    with pytest.raises(ValueError, match="einsum: 2 operand subscripts for 1 operands"):
        tg.einsum("ij,jk->ik", tg.tensor(np.ones((2, 2))))
    with pytest.raises(ValueError, match=r"einsum: subscripts 'ij' do not fit .* \(3,\)"):
        tg.einsum("ij->i", tg.tensor(np.ones(3)))


@given(data=tst.st.data())
def test_dot(backend, data):
    # np.dot: 0-d operands multiply; up to 2-d it is matmul; beyond, it sums over
    # x's last axis and y's second-to-last.
    x_ndim = data.draw(st.integers(0, 3), label="x ndim")
    y_ndim = data.draw(st.integers(0, 3), label="y ndim")
    k = data.draw(SIDE, label="k")
    sx = tuple(data.draw(SIDE) for _ in range(max(x_ndim - 1, 0))) + ((k,) if x_ndim else ())
    if y_ndim >= 2:
        sy = tuple(data.draw(SIDE) for _ in range(y_ndim - 2)) + (k, data.draw(SIDE))
    else:
        sy = (k,) * y_ndim
    if x_ndim == 0:
        sy = tuple(data.draw(SIDE) for _ in range(y_ndim))
    x, y = _tensors(data, backend, sx, sy)
    _check(tg.dot, np.dot, x, y)
    assert_matches(x.dot(y), np.dot(x.numpy(), y.numpy()), rtol=1e-12)


@given(data=tst.st.data())
def test_outer(backend, data):
    x, y = _tensors(data, backend, *(data.draw(tst.shapes(max_dims=2, max_side=3)) for _ in "xy"))
    _check(tg.outer, np.outer, x, y)


@pytest.mark.parametrize(
    "op",
    [
        tg.matmul,
        tg.dot,
        lambda a, b: tg.einsum("ij,jk->ik", a, b),
        lambda a, b: tg.outer(a, b),
    ],
    ids=["matmul", "dot", "einsum", "outer"],
)
def test_float32_stays_float32(op, backend):
    x = backend.tensor(np.ones((2, 3), dtype=np.float32))
    y = backend.tensor(np.ones((3, 2), dtype=np.float32))
    out, (gx, gy) = value_and_gradients(op, x, y)
    assert_dtype(np.float32, out, gx, gy)
    assert gx.shape == (2, 3) and gy.shape == (3, 2)
