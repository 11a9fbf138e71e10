"""Tests of tapegrad/numpy/protocol.py: NumPy functions and ufuncs called on Tensors run
tapegrad ops, return Tensors and record on the tape; unsupported ones raise TypeError."""

from types import SimpleNamespace

import numpy as np
import pytest
from helpers import value_and_gradients

import tapegrad as tg
from tapegrad.numpy.protocol import _tables
from tapegrad.numpy.ufunc_tables import differentiable_ufuncs
from tapegrad.testing import gradcheck

X = np.array([[0.3, 0.9, 0.5], [0.7, 0.4, 0.8]])
W = np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]])

# name: (through NumPy, through tapegrad); both take the Tensor x of shape (2, 3) and
# constants c.X, c.W (ndarrays on the NumPy backend, that backend's Tensors otherwise).
CALLS = {
    "exp": (lambda x, c: np.exp(x), lambda x, c: tg.exp(x)),
    "sum-axis": (lambda x, c: np.sum(x, axis=0), lambda x, c: tg.sum(x, axis=0)),
    "mean-keepdims": (
        lambda x, c: np.mean(x, axis=1, keepdims=True),
        lambda x, c: tg.mean(x, 1, True),
    ),
    "ndarray@tensor": (lambda x, c: c.W.T @ x.T, lambda x, c: tg.matmul(c.W.T, tg.transpose(x))),
    "tensor@ndarray": (lambda x, c: x @ c.W, lambda x, c: tg.matmul(x, c.W)),
    "ndarray+tensor": (lambda x, c: c.X + x, lambda x, c: tg.add(c.X, x)),
    "ndarray*tensor": (lambda x, c: c.X[0] * x, lambda x, c: tg.multiply(c.X[0], x)),
    "ndarray-tensor": (lambda x, c: c.X - x, lambda x, c: tg.subtract(c.X, x)),
    "ndarray/tensor": (lambda x, c: c.X / x, lambda x, c: tg.divide(c.X, x)),
    "ndarray**tensor": (lambda x, c: c.X**x, lambda x, c: tg.power(c.X, x)),
    "concatenate": (lambda x, c: np.concatenate([x, x]), lambda x, c: tg.concatenate([x, x])),
    "stack": (
        lambda x, c: np.stack([x, x * 2], axis=1),
        lambda x, c: tg.stack([x, x * 2], 1),
    ),
    "where": (
        lambda x, c: np.where(x > 0.5, x, c.X),
        lambda x, c: tg.where(tg.greater(x, 0.5), x, c.X),
    ),
    "einsum": (
        lambda x, c: np.einsum("ij,jk->ik", x, c.W),
        lambda x, c: tg.einsum("ij,jk->ik", x, c.W),
    ),
    "dot": (lambda x, c: np.dot(x, c.W), lambda x, c: tg.dot(x, c.W)),
    "outer": (lambda x, c: np.outer(x, x[0]), lambda x, c: tg.outer(x, x[0])),
    "maximum": (lambda x, c: np.maximum(x, 0.6), lambda x, c: tg.maximum(x, 0.6)),
    "clip": (lambda x, c: np.clip(x, 0.4, 0.8), lambda x, c: tg.clip(x, 0.4, 0.8)),
    "reshape": (lambda x, c: np.reshape(x, (3, 2)), lambda x, c: tg.reshape(x, (3, 2))),
    "transpose": (lambda x, c: np.transpose(x), lambda x, c: tg.transpose(x)),
    "take": (
        lambda x, c: np.take(x, [0, 0, 2], axis=1),
        lambda x, c: tg.take(x, [0, 0, 2], 1),
    ),
    "split": (lambda x, c: np.split(x, 3, axis=1)[2], lambda x, c: tg.split(x, 3, 1)[2]),
    "pad": (lambda x, c: np.pad(x, 1), lambda x, c: tg.pad(x, 1)),
    "cumsum": (lambda x, c: np.cumsum(x, axis=1), lambda x, c: tg.cumsum(x, 1)),
    "var-ddof": (lambda x, c: np.var(x, ddof=1), lambda x, c: tg.var(x, ddof=1)),
    "prod": (lambda x, c: np.prod(x), lambda x, c: tg.prod(x)),
    "max": (lambda x, c: np.max(x, axis=0), lambda x, c: tg.max(x, 0)),
    "abs": (lambda x, c: np.abs(x), lambda x, c: tg.abs(x)),
    "square+sqrt": (lambda x, c: np.sqrt(np.square(x)), lambda x, c: tg.sqrt(tg.square(x))),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_numpy_calls_record_on_the_tape(name, backend):
    through_numpy, through_tapegrad = CALLS[name]
    x = backend.tensor(X)
    if backend.name != "numpy" and "ndarray" in name:
        # Mixing host ndarrays into another backend's Tensors is an error by design.
        with pytest.raises(ValueError, match="cannot mix (arrays|devices)"):
            through_numpy(x, SimpleNamespace(X=X, W=W))
        return
    c = SimpleNamespace(X=X, W=W)
    if backend.name != "numpy":
        c = SimpleNamespace(X=backend.tensor(X), W=backend.tensor(W))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = through_numpy(x, c)
        assert isinstance(y, tg.Tensor), type(y)
        assert len(tape) > 0
    g = tape.gradient(y, x)
    expected, (expected_g,) = value_and_gradients(lambda a: through_tapegrad(a, c), x)
    np.testing.assert_allclose(y.numpy(), expected.numpy(), rtol=1e-14)
    assert g is not None and g.shape == x.shape
    np.testing.assert_allclose(g.numpy(), expected_g.numpy(), rtol=1e-14)


UFUNCS = sorted(_tables()[0], key=lambda u: u.__name__)
DIFFERENTIABLE_UFUNCS = set(differentiable_ufuncs(tg.ops))
INTEGERS = np.array([[3, 9, 5], [7, 4, 8]])


def _ufunc_inputs(ufunc):
    """Inputs the ufunc takes: floats where it has a float loop, else integers."""
    if ufunc in (np.matmul, np.matvec, np.vecmat):
        return (
            [X, W] if ufunc is np.matmul else ([X, W[:, 0]] if ufunc is np.matvec else [X[:, 0], X])
        )
    if ufunc is np.ldexp:
        return [X, INTEGERS]
    floating = any(t.startswith("d" * ufunc.nin) for t in ufunc.types)
    first = X if floating else INTEGERS
    return [first] if ufunc.nin == 1 else [first, first[::-1, ::-1]]


@pytest.mark.parametrize(
    "ufunc", [u for u in UFUNCS if u is not np.isnat], ids=lambda u: u.__name__
)
def test_every_supported_ufunc_matches_numpy(ufunc):
    inputs = _ufunc_inputs(ufunc)
    tensors = [tg.tensor(a) for a in inputs]
    watched = [t for t in tensors if t.dtype.kind == "f"]
    with tg.GradientTape() as tape:
        tape.watch(watched)
        out = ufunc(*tensors)
    expected = ufunc(*inputs)
    outs, expecteds = (out, expected) if isinstance(expected, tuple) else ((out,), (expected,))
    for got, want in zip(outs, expecteds):
        assert isinstance(got, tg.Tensor)
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-14)
        assert got.dtype == want.dtype
    carrier = outs[1] if ufunc is np.divmod else outs[0]  # divmod's quotient has none
    if ufunc in DIFFERENTIABLE_UFUNCS and carrier.dtype.kind == "f":
        assert all(g is not None for g in tape.gradient(carrier, watched)), ufunc.__name__
    elif ufunc is not np.divmod:
        assert len(tape) == 0, ufunc.__name__  # no gradient: nothing recorded


FUNCTIONS = {
    "mean": lambda x: np.mean(x),
    "amax": lambda x: np.amax(x, axis=1),
    "amin": lambda x: np.amin(x),
    "min": lambda x: np.min(x, axis=0),
    "std": lambda x: np.std(x, axis=1),
    "swapaxes": lambda x: np.swapaxes(x, 0, 1),
    "expand_dims": lambda x: np.expand_dims(x, 0),
    "squeeze": lambda x: np.squeeze(x[None]),
    "broadcast_to": lambda x: np.broadcast_to(x, (4, 2, 3)),
    "flip": lambda x: np.flip(x),
    "tile": lambda x: np.tile(x, 2),
    "repeat": lambda x: np.repeat(x, 2, axis=0),
    "take_along_axis": lambda x: np.take_along_axis(x, np.array([[0], [2]]), 1),
    "matmul": lambda x: np.matmul(x, W),
    "zeros_like": lambda x: x + np.zeros_like(x),
    "ones_like": lambda x: x * np.ones_like(x),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_more_numpy_functions_keep_the_gradient(name):
    x = tg.tensor(X)
    y, (g,) = value_and_gradients(FUNCTIONS[name], x)
    assert isinstance(y, tg.Tensor)
    np.testing.assert_allclose(y.numpy(), FUNCTIONS[name](X), rtol=1e-14)
    assert g is not None and g.shape == x.shape


def test_non_differentiable_numpy_functions():
    x = tg.tensor(X)
    assert np.argmax(x).item() == 1
    np.testing.assert_array_equal(np.argmin(x, axis=1).numpy(), [0, 1])
    np.testing.assert_array_equal(np.round(x * 10).numpy(), np.round(X * 10))
    np.testing.assert_array_equal(np.around(x).numpy(), np.around(X))
    assert np.shape(x) == (2, 3) and np.ndim(x) == 2 and np.size(x) == 6


@pytest.mark.parametrize(
    ("call", "name"),
    [
        (lambda t: np.lib.stride_tricks.sliding_window_view(t, 2), "sliding_window_view"),
        (lambda t: np.add.at(t, [0], 1.0), "add.at"),
        (lambda t: np.exp(t, out=np.empty((2, 3))), "exp"),
        (lambda t: np.sum(t, out=np.empty(())), "sum"),
        (lambda t: np.modf(t, out=(np.empty((2, 3)), None)), "modf"),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_unsupported_numpy_calls_raise_and_leave_the_tape_alone(call, name):
    x = tg.tensor(X)
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
        before = len(tape)
        with pytest.raises(TypeError, match=rf"numpy(\.\w+)*\.{name}\b"):
            call(y)
        assert len(tape) == before
    assert tape.gradient(y, x) is not None


def test_unsupported_function_names_its_module():
    with pytest.raises(TypeError, match=r"numpy\.lib\.stride_tricks\.sliding_window_view"):
        np.lib.stride_tricks.sliding_window_view(tg.tensor(np.eye(2)), 2)


@pytest.mark.parametrize(
    ("call", "name", "argument"),
    [
        (lambda t: np.exp(t, signature="d->d"), "exp", "signature"),
        (lambda t: np.exp(t, order="F"), "exp", "order"),
    ],
    ids=["exp-signature", "exp-order"],
)
def test_unsupported_ufunc_arguments_name_the_ufunc(call, name, argument):
    x = tg.tensor(X)
    with pytest.raises(TypeError, match=rf"numpy\.{name}\b.*{argument}"):
        call(x)


def test_a_mismatched_signature_names_numpy_and_tapegrad(monkeypatch):
    # A keyword NumPy accepts but the implementation does not (a newer NumPy's, say): the
    # error names the NumPy function and shows the signature tapegrad supports.
    from tapegrad.numpy import protocol as numpy_protocol

    monkeypatch.setitem(_tables()[1], np.mean, lambda a, axis=None: tg.mean(a, axis))
    x = tg.tensor(X)
    with pytest.raises(TypeError, match=r"numpy\.mean on Tensors.*dtype.*tapegrad supports"):
        np.mean(x, dtype=np.float32)
    assert numpy_protocol is not None


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        (lambda t: np.mean(t, dtype=np.float32), lambda a: np.mean(a, dtype=np.float32)),
        (lambda t: np.sum(t, where=t > 0.5), lambda a: np.sum(a, where=a > 0.5)),
        (lambda t: np.max(t, axis=0, initial=0.85), lambda a: np.max(a, axis=0, initial=0.85)),
        (lambda t: np.reshape(t, (3, 2), order="F"), lambda a: np.reshape(a, (3, 2), order="F")),
        (lambda t: np.where(t > 0.5)[1], lambda a: np.where(a > 0.5)[1]),
        (lambda t: np.add.reduce(t), lambda a: np.add.reduce(a)),
        (lambda t: np.multiply.accumulate(t, axis=1), lambda a: np.multiply.accumulate(a, 1)),
        (lambda t: np.subtract.outer(t[0], t[1]), lambda a: np.subtract.outer(a[0], a[1])),
        (lambda t: np.sin(t, where=t > 0.5), lambda a: np.where(a > 0.5, np.sin(a), 0.0)),
        (lambda t: np.exp(t, dtype=np.float32), lambda a: np.exp(a, dtype=np.float32)),
    ],
    ids=["mean-dtype", "sum-where", "max-initial", "reshape-F", "where-1", "add.reduce",
         "multiply.accumulate", "subtract.outer", "sin-where", "exp-dtype"],
)  # fmt: skip
def test_numpy_keywords_and_ufunc_methods_on_tensors(call, expected):
    x = tg.tensor(X)
    got = call(x)
    assert isinstance(got, tg.Tensor)
    want = expected(X)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize(
    ("interleaved", "subscripts"),
    [
        ((0, [0, 1], 1, [1, 2], [0, 2]), "ij,jk->ik"),
        ((0, [0, 1], 1, [1, 2]), "ij,jk"),  # the output NumPy's rule gives
        ((2, [0, 0]), "ii"),  # a repeated subscript: the trace
        ((2, [0, 0], []), "ii->"),
        ((0, [Ellipsis, 1], [Ellipsis]), "...j->..."),
    ],
)
def test_einsum_in_numpys_interleaved_form(interleaved, subscripts):
    from tapegrad.testing import gradcheck

    rng = np.random.default_rng(3)
    values = [rng.standard_normal((2, 3)), rng.standard_normal((3, 4)), rng.standard_normal((3, 3))]

    def with_operands(form, operands):
        return [operands[x] if i % 2 == 0 and i < len(form) - (len(form) % 2) else x
                for i, x in enumerate(form)]  # fmt: skip

    tensors = [tg.tensor(v) for v in values]
    got = np.einsum(*with_operands(interleaved, tensors))
    np.testing.assert_allclose(np.asarray(got), np.einsum(*with_operands(interleaved, values)))
    used = sorted({x for i, x in enumerate(interleaved) if i % 2 == 0 and isinstance(x, int)
                   and i < len(interleaved) - (len(interleaved) % 2)})  # fmt: skip
    np.testing.assert_allclose(
        np.asarray(got), np.einsum(subscripts, *[values[k] for k in used]), rtol=1e-12
    )

    def f(*chosen):
        operands = dict(zip(used, chosen))
        return np.einsum(*with_operands(interleaved, operands))

    gradcheck(f, [tensors[k] for k in used])


@pytest.mark.parametrize("ufunc", [np.power, np.arctan2], ids=lambda u: u.__name__)
def test_reduce_folds_where_numpys_float_loop_skips_elements(ufunc):
    # NumPy 2.4's float loops of power.reduce and arctan2.reduce return op(a[0], a[-1]);
    # its accumulate gives the fold, which tapegrad returns.
    a = np.array([[0.5, 0.3, 0.7, 0.9], [0.8, 0.4, 0.6, 0.2]])
    ours = ufunc.reduce(tg.tensor(a), axis=1)
    np.testing.assert_allclose(ours.numpy(), ufunc.accumulate(a, axis=1)[:, -1], rtol=1e-14)
    gradcheck(lambda t: ufunc.reduce(t, axis=1), [a])


def test_reduce_and_reduceat_refuse_what_numpy_refuses():
    t = tg.tensor(X)
    with pytest.raises(ValueError, match="not reorderable"):
        np.subtract.reduce(t, axis=None)
    with pytest.raises(ValueError, match="no identity: give initial="):
        np.subtract.reduce(t, axis=1, where=X > 0.5)
    with pytest.raises(ValueError, match="no identity"):
        np.divide.reduce(t[:, :0], axis=1)
    with pytest.raises(IndexError, match="out of range"):
        np.subtract.reduceat(t, [0, 5], axis=1)
    with pytest.raises(TypeError, match=r"numpy\.add\.at writes into its first argument"):
        np.add.at(t, [0], 1.0)
