"""tapegrad/backends/namespaces.py and tapegrad/backends/standard.py: namespaces, placement, and the
standard-only gather, scatter-add and einsum, checked against NumPy itself."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import tapegrad as tg
from tapegrad.backends import namespaces as backend
from tapegrad.backends import standard
from tapegrad.testing import gradcheck, gradgradcheck
from tapegrad.testing import strategies as tst

xs = pytest.importorskip("array_api_strict")


def strict(a):
    return xs.asarray(np.asarray(a))


# --- namespaces -----------------------------------------------------------------


def test_numpy_arrays_get_numpy_itself_so_the_cpu_path_has_no_wrapper():
    assert backend.namespace(np.ones(2), 3.0, None, np.float32(1)) is np
    assert backend.namespace() is np
    seen = []
    probe = tg.Primitive("probe", lambda xp, x: seen.append(xp) or x)
    probe(tg.tensor([1.0]))
    probe(tg.Tensor(strict([1.0])))
    assert seen == [np, xs]


def test_strict_arrays_get_their_own_namespace():
    assert backend.namespace(strict([1.0]), 2.0) is xs


def test_mixing_libraries_names_both():
    with pytest.raises(ValueError, match="numpy and array_api_strict"):
        backend.namespace(np.ones(2), strict([1.0]))


def test_mixed_devices_error_names_the_op_and_both_devices_and_leaves_the_tape():
    a = tg.Tensor(strict([1.0, 2.0]))
    b = tg.Tensor(xs.asarray([1.0, 2.0], device=xs.Device("device1")))
    with tg.GradientTape() as tape:
        tape.watch(a)
        y = a * 2.0
        with pytest.raises(ValueError, match=r"^add: cannot mix devices cpu and .*device1"):
            tg.add(y, b)
    assert len(tape) == 1
    assert isinstance(tape.gradient(y, a), tg.Tensor)


def test_device_of_and_to_host():
    assert backend.device_of(np.ones(1)) == "cpu"
    assert backend.device_of(2.5) == "cpu"
    assert backend.device_of(strict([1.0])) == "cpu"
    assert "device1" in backend.device_of(xs.asarray([1.0], device=xs.Device("device1")))
    host = backend.to_host(strict([[1.0, 2.0]]))
    assert type(host) is np.ndarray and host.tolist() == [[1.0, 2.0]]


def test_dtypes_translate_between_namespaces():
    assert backend.dtype_in(xs, np.float32) == xs.float32
    assert backend.dtype_in(xs, "int64") == xs.int64
    assert backend.dtype_in(xs, xs.float64) == xs.float64
    assert backend.dtype_in(np, np.float32) is np.float32
    assert backend.dtype_name(xs.float32) == backend.dtype_name(np.float32) == "float32"


def test_move_between_libraries_keeps_values_and_skips_needless_copies():
    a = np.arange(3.0)
    to_strict = backend.placement_of(strict([0.0]))
    moved = backend.move(a, to_strict)
    assert isinstance(moved, type(strict([0.0])))
    assert backend.move(moved, to_strict) is moved
    assert backend.move(moved, backend.HOST).tolist() == [0.0, 1.0, 2.0]
    assert repr(backend.HOST) == "cpu" and repr(to_strict) == "array_api_strict:cpu"


# --- the standard-only fallbacks against NumPy ---------------------------------------

INDEXES = [
    (slice(1, None), slice(None, None, -2)),
    (1,),
    (Ellipsis, None, 0),
    (np.array([0, 2, 0]),),
    (np.array([[0], [2]]), None, slice(1, 3)),
    (np.array([0, 1, 0]), np.array([3, 3, 3])),
    (slice(None), np.array([True, False, True, True])),
    (np.array([[True, False, True, True]] * 3),),
    (np.int64(2), [1, 1]),
    (),
]


@pytest.mark.parametrize("index", INDEXES, ids=repr)
def test_gather_follows_numpy_indexing(index):
    x = np.arange(12.0).reshape(3, 4)
    got = standard.gather(xs, strict(x), index)
    np.testing.assert_array_equal(backend.to_host(got), x[index])


@pytest.mark.parametrize("index", INDEXES, ids=repr)
def test_scatter_add_matches_np_add_at(index):
    x = np.zeros((3, 4))
    values = np.random.default_rng(0).standard_normal(np.shape(x[index]))
    np.add.at(x, index, values)
    got = standard.scatter_add(xs, strict(np.zeros((3, 4))), index, strict(values))
    np.testing.assert_array_equal(backend.to_host(got), x)


@given(
    data=st.data(),
    shape=tst.shapes(min_dims=1, max_dims=3),
)
def test_scatter_add_accumulates_repeated_indices_in_numpys_order(data, shape):
    # Random integer indices along every axis, with many repeats: the sums must be
    # bit-identical to np.add.at, which adds in the order the indices occur.
    n = data.draw(st.integers(0, 12), label="n")
    index = tuple(
        data.draw(hnp.arrays(np.int64, n, elements=st.integers(-side, side - 1))) for side in shape
    )
    values = data.draw(hnp.arrays(np.float64, n, elements=tst.elements("real")), label="values")
    expected = np.zeros(shape)
    np.add.at(expected, index, values)
    got = standard.scatter_add(xs, strict(np.zeros(shape)), index, strict(values))
    np.testing.assert_array_equal(backend.to_host(got), expected)


def test_backend_dispatch_uses_np_add_at_for_numpy_and_the_fallback_elsewhere():
    index = (np.array([1, 1, 0]),)
    target = np.zeros(3)
    assert backend.scatter_add(np, target, index, np.ones(3)) is target
    assert target.tolist() == [1.0, 2.0, 0.0]
    got = backend.scatter_add(xs, strict(np.zeros(3)), index, strict(np.ones(3)))
    assert backend.to_host(got).tolist() == [1.0, 2.0, 0.0]


EINSUMS = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,ij->", [(2, 3), (2, 3)]),
    ("i,j->ji", [(2,), (3,)]),
    ("ii->i", [(3, 3)]),
    ("iij->j", [(2, 2, 3)]),
    ("...j,j->...", [(2, 3, 4), (4,)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 2)]),
    (",i->i", [(), (3,)]),
    ("ij->", [(2, 3)]),
    ("ij,jk", [(2, 3), (3, 2)]),
]


@pytest.mark.parametrize(("spec", "shapes"), EINSUMS, ids=[e[0] for e in EINSUMS])
def test_standard_einsum_matches_numpy(spec, shapes):
    rng = np.random.default_rng(1)
    operands = [rng.standard_normal(s) for s in shapes]
    expected = np.einsum(spec, *operands)
    got = tg.einsum(spec, *[tg.Tensor(strict(a)) for a in operands])
    assert isinstance(got.data, type(strict(0.0)))
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-12, atol=1e-12)


# --- a whole model stays in its namespace -----------------------------------------------


def _model(w, b, x, labels):
    hidden = tg.tanh(x @ w + b)
    padded = tg.pad(hidden, ((0, 0), (1, 0)))
    logits = tg.concatenate([padded, hidden[:, :1] * 2.0], axis=1)
    picked = tg.take_along_axis(tg.log_softmax(logits), labels, axis=1)
    return -tg.mean(picked) + 0.1 * tg.sum(w[[0, 0, 1]] ** 2)


def test_a_strict_model_keeps_its_data_in_strict_through_forward_and_gradient():
    rng = np.random.default_rng(2)
    host = [rng.standard_normal(s) for s in [(3, 4), (4,), (5, 3)]]
    labels = np.array([[0], [4], [2], [1], [3]])
    w, b, x = (tg.tensor(strict(a)) for a in host)
    with tg.GradientTape() as tape:
        tape.watch([w, b])
        loss = _model(w, b, x, labels)
    grads = tape.gradient(loss, [w, b])
    assert all(isinstance(t.data, type(strict(0.0))) for t in [w, loss, *grads])
    assert all(t.device == "cpu" for t in [loss, *grads])
    # ... with the values NumPy gives.
    w0, b0, x0 = (tg.tensor(a) for a in host)
    with tg.GradientTape() as tape:
        tape.watch([w0, b0])
        loss0 = _model(w0, b0, x0, labels)
    np.testing.assert_allclose(loss.numpy(), loss0.numpy(), rtol=1e-12)
    for g, g0 in zip(grads, tape.gradient(loss0, [w0, b0])):
        assert type(g.numpy()) is np.ndarray
        np.testing.assert_allclose(g.numpy(), g0.numpy(), rtol=1e-12)
    gradcheck(lambda w, b: _model(w, b, x, labels), [w, b])
    gradgradcheck(lambda w, b: _model(w, b, x, labels), [w, b])


def test_creation_follows_like_and_device():
    like = tg.Tensor(strict(np.ones(2, dtype=np.float32)))
    for t in [tg.zeros(3, like=like), tg.ones_like(like), tg.full(2, 5.0, like=like)]:
        assert isinstance(t.data, type(like.data)) and t.dtype == xs.float32
    assert tg.arange(3, like=like).numpy().tolist() == [0, 1, 2]
    assert tg.eye(2, like=like, dtype=np.float64).dtype == xs.float64
    assert type(tg.zeros(3, device="cpu", like=like).data) is np.ndarray
    seed = tg.asarray([1, 2], dtype=np.float32, like=like)
    assert seed.dtype == xs.float32 and seed.numpy().tolist() == [1.0, 2.0]


def test_variables_assign_in_their_own_namespace():
    v = tg.Variable(strict([1.0, 2.0]))
    v.assign([3.0, 4.0]).assign_add(np.ones(2)).assign_sub(0.5)
    assert isinstance(v.data, type(strict(0.0)))
    assert v.numpy().tolist() == [3.5, 4.5] and v.version == 3


@settings(deadline=None)
@given(
    shape=st.lists(st.integers(1, 40), min_size=1, max_size=3),
    data=st.data(),
    dtype=st.sampled_from([np.float32, np.float64]),
)
def test_sums_over_leading_axes_are_gemv_within_the_summation_error_bound(shape, data, dtype):
    from tapegrad.backends import blas

    count = data.draw(st.integers(1, len(shape)))
    g = np.random.default_rng(sum(shape)).standard_normal(shape).astype(dtype) + 0.5
    got = blas.sum_leading(g, count)
    if g.size < blas.GEMV_MIN_SIZE:
        assert got is None  # NumPy's reduction for small arrays
        return
    axes = tuple(range(count))
    exact = g.astype(np.float64).sum(axis=axes)
    assert got.shape == tuple(shape[count:]) and got.dtype == dtype
    # The error bound of any order of summing n terms in the dtype: (n - 1) eps sum |g|.
    rows = int(np.prod(shape[:count]))
    bound = (rows - 1) * np.finfo(dtype).eps * np.abs(g).astype(np.float64).sum(axis=axes)
    assert np.all(np.abs(got - exact) <= bound + np.finfo(dtype).tiny)
    strided = g[..., ::-1] if g.shape[-1] > 1 else None  # not C-contiguous: NumPy's way
    assert strided is None or blas.sum_leading(strided, count) is None
