"""Tests of tapegrad/numpy_protocol.py: NumPy functions and ufuncs called on Tensors run
tapegrad ops, return Tensors and record on the tape; unsupported ones raise TypeError."""

import numpy as np
import pytest
from helpers import value_and_gradients

import tapegrad as tg
from tapegrad.numpy_protocol import _tables

X = np.array([[0.3, 0.9, 0.5], [0.7, 0.4, 0.8]])
W = np.array([[1.0, -2.0], [0.5, 3.0], [-1.5, 0.25]])

# name: (through NumPy, through tapegrad); both take the Tensor x of shape (2, 3).
CALLS = {
    "exp": (np.exp, tg.exp),
    "sum-axis": (lambda x: np.sum(x, axis=0), lambda x: tg.sum(x, axis=0)),
    "mean-keepdims": (
        lambda x: np.mean(x, axis=1, keepdims=True),
        lambda x: tg.mean(x, 1, True),
    ),
    "ndarray@tensor": (lambda x: W.T @ x.T, lambda x: tg.matmul(W.T, tg.transpose(x))),
    "tensor@ndarray": (lambda x: x @ W, lambda x: tg.matmul(x, W)),
    "ndarray+tensor": (lambda x: X + x, lambda x: tg.add(X, x)),
    "ndarray*tensor": (lambda x: X[0] * x, lambda x: tg.multiply(X[0], x)),
    "ndarray-tensor": (lambda x: X - x, lambda x: tg.subtract(X, x)),
    "ndarray/tensor": (lambda x: X / x, lambda x: tg.divide(X, x)),
    "ndarray**tensor": (lambda x: X**x, lambda x: tg.power(X, x)),
    "concatenate": (lambda x: np.concatenate([x, x]), lambda x: tg.concatenate([x, x])),
    "stack": (lambda x: np.stack([x, x * 2], axis=1), lambda x: tg.stack([x, x * 2], 1)),
    "where": (
        lambda x: np.where(x > 0.5, x, X),
        lambda x: tg.where(tg.greater(x, 0.5), x, X),
    ),
    "einsum": (lambda x: np.einsum("ij,jk->ik", x, W), lambda x: tg.einsum("ij,jk->ik", x, W)),
    "dot": (lambda x: np.dot(x, W), lambda x: tg.dot(x, W)),
    "outer": (lambda x: np.outer(x, x[0]), lambda x: tg.outer(x, x[0])),
    "maximum": (lambda x: np.maximum(x, 0.6), lambda x: tg.maximum(x, 0.6)),
    "clip": (lambda x: np.clip(x, 0.4, 0.8), lambda x: tg.clip(x, 0.4, 0.8)),
    "reshape": (lambda x: np.reshape(x, (3, 2)), lambda x: tg.reshape(x, (3, 2))),
    "transpose": (np.transpose, tg.transpose),
    "take": (lambda x: np.take(x, [0, 0, 2], axis=1), lambda x: tg.take(x, [0, 0, 2], 1)),
    "split": (lambda x: np.split(x, 3, axis=1)[2], lambda x: tg.split(x, 3, 1)[2]),
    "pad": (lambda x: np.pad(x, 1), lambda x: tg.pad(x, 1)),
    "cumsum": (lambda x: np.cumsum(x, axis=1), lambda x: tg.cumsum(x, 1)),
    "var-ddof": (lambda x: np.var(x, ddof=1), lambda x: tg.var(x, ddof=1)),
    "prod": (np.prod, tg.prod),
    "max": (lambda x: np.max(x, axis=0), lambda x: tg.max(x, 0)),
    "abs": (np.abs, tg.abs),
    "square+sqrt": (lambda x: np.sqrt(np.square(x)), lambda x: tg.sqrt(tg.square(x))),
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_numpy_calls_record_on_the_tape(name, backend):
    through_numpy, through_tapegrad = CALLS[name]
    if backend.name != "numpy" and "ndarray" in name:
        pytest.skip("mixing host ndarrays into another backend's Tensors is an error by design")
    x = backend.tensor(X)
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = through_numpy(x)
        assert isinstance(y, tg.Tensor), type(y)
        assert len(tape) > 0
    g = tape.gradient(y, x)
    expected, (expected_g,) = value_and_gradients(through_tapegrad, x)
    np.testing.assert_allclose(y.numpy(), expected.numpy(), rtol=1e-14)
    assert g is not None and g.shape == x.shape
    np.testing.assert_allclose(g.numpy(), expected_g.numpy(), rtol=1e-14)


UFUNCS = sorted(_tables()[0], key=lambda u: u.__name__)


@pytest.mark.parametrize("ufunc", UFUNCS, ids=[u.__name__ for u in UFUNCS])
def test_every_supported_ufunc_matches_numpy(ufunc):
    inputs = [X] if ufunc.nin == 1 else [X, X[::-1, ::-1]]
    if ufunc is np.matmul:
        inputs = [X, W]
    tensors = [tg.tensor(a) for a in inputs]
    with tg.GradientTape() as tape:
        tape.watch(tensors)
        out = ufunc(*tensors)
    assert isinstance(out, tg.Tensor)
    expected = ufunc(*inputs)
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-14)
    assert out.dtype == expected.dtype
    grads = tape.gradient(out, tensors)
    differentiable = np.issubdtype(expected.dtype, np.floating) and ufunc not in (
        np.sign,
        np.floor,
        np.ceil,
        np.rint,
    )
    assert all((g is not None) == differentiable for g in grads), ufunc.__name__


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
        (lambda t: np.linalg.svd(t), "svd"),
        (lambda t: np.sort(t), "sort"),
        (lambda t: np.add.reduce(t), "add.reduce"),
        (lambda t: np.add.accumulate(t), "add.accumulate"),
        (lambda t: np.multiply.outer(t, t), "multiply.outer"),
        (lambda t: np.exp(t, out=np.empty((2, 3))), "exp"),
        (lambda t: np.sum(t, out=np.empty(())), "sum"),
        (lambda t: np.exp(t, where=np.ones((2, 3), bool)), "exp"),
        (lambda t: np.arcsin(t), "arcsin"),
        (lambda t: np.cumprod(t), "cumprod"),
        (lambda t: np.median(t), "median"),
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
    with pytest.raises(TypeError, match=r"numpy\.linalg\.svd"):
        np.linalg.svd(tg.tensor(np.eye(2)))
