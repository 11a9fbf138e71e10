"""tg.compile's reused output arrays (tapegrad/replay/buffers.py): a compiled function
writes its large products, ReLUs and product gradients into the arrays of its last call
only where nothing else holds them. Every value a caller kept from an earlier call stays
as it was; gradients equal the eager ones call after call; and the arrays are reused
once dropped (so the pool is really used)."""

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.replay import buffers

RNG = np.random.default_rng(7)
N, D, H = 256, 160, 144  # (256, 144) is above buffers.POOL_BYTES in float32 too


def _params(dtype=np.float64):
    return [
        tg.Variable(RNG.normal(size=(D, H)).astype(dtype) * 0.1),
        tg.Variable(RNG.normal(size=H).astype(dtype) * 0.1),
        tg.Variable(RNG.normal(size=(H, H)).astype(dtype) * 0.1),
        tg.Variable(RNG.normal(size=H).astype(dtype) * 0.1),
    ]


def mlp(x, w1, b1, w2, b2):
    h = tg.relu(tg.nn.linear(x, w1, b1))  # matmul_add
    return tg.sum(tg.relu(h @ w2 + b2) ** 2)  # matmul, then add


def fan_out(x, w1, b1, w2, b2):
    h = tg.relu(x @ w1 + b1)  # h's cotangent has two contributions
    return tg.sum(h @ w2) + tg.sum(h * h) + tg.sum(b2)


def aliased(x, w1, b1, w2, b2):
    u = x @ w1
    s = tg.relu(u) + tg.relu(u * 0.5 + b1)  # add's passthrough: both ReLUs get s's cotangent
    return tg.sum(s @ w2) + tg.sum(b2)


def returns_hidden(x, w1, b1, w2, b2):
    h = tg.relu(x @ w1 + b1)
    return tg.sum(h @ w2 + b2), h


def _grads(f, x, params):
    with tg.GradientTape() as tape:
        out = f(x, *params)
        loss = out[0] if isinstance(out, tuple) else out
    return out, tape.gradient(loss, params)


@pytest.mark.parametrize("f", [mlp, fan_out, aliased, returns_hidden])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_kept_results_stay_and_gradients_equal_eager(f, dtype):
    params = _params(dtype)
    compiled = tg.compile(f)
    xs = [tg.tensor(RNG.normal(size=(N, D)).astype(dtype)) for _ in range(5)]
    kept = []
    for x in xs:  # every call's outputs and gradients held: nothing may be reused
        kept.append(_grads(compiled, x, params))
    for x, (out, grads) in zip(xs, kept):
        want_out, want = _grads(f, x, params)
        tol = dict(rtol=1e-5, atol=1e-6) if dtype == np.float32 else dict(rtol=1e-12)
        for got, ref in zip(grads, want):
            np.testing.assert_allclose(got.numpy(), ref.numpy(), **tol)
        if isinstance(out, tuple):
            np.testing.assert_allclose(out[1].numpy(), want_out[1].numpy(), **tol)


@pytest.mark.parametrize("f", [mlp, fan_out, aliased])
def test_dropped_arrays_are_written_again_and_stay_right(f):
    params = _params()
    compiled = tg.compile(f)
    addresses = []
    for _ in range(4):
        x = tg.tensor(RNG.normal(size=(N, D)))
        _, grads = _grads(compiled, x, params)
        _, want = _grads(f, x, params)
        for got, ref in zip(grads, want):
            np.testing.assert_allclose(got.numpy(), ref.numpy(), rtol=1e-12)
        addresses.append(grads[0].numpy().__array_interface__["data"][0])
        del grads, got
    assert len(set(addresses[1:])) == 1  # w1's gradient: one array, reused


def test_a_view_of_a_result_keeps_it():
    params = _params()
    compiled = tg.compile(returns_hidden)
    x = tg.tensor(RNG.normal(size=(N, D)))
    _, grads = _grads(compiled, x, params)
    view = grads[0].numpy()[:3].T  # only a view survives, not the Tensor
    before = view.copy()
    del grads
    for _ in range(2):
        _grads(compiled, tg.tensor(RNG.normal(size=(N, D))), params)
    np.testing.assert_array_equal(view, before)


def test_a_persistent_tape_keeps_its_values():
    params = _params()
    compiled = tg.compile(mlp)
    x = tg.tensor(RNG.normal(size=(N, D)))
    with tg.GradientTape(persistent=True) as tape:
        loss = compiled(x, *params)
    first = [g.numpy().copy() for g in tape.gradient(loss, params)]
    _grads(compiled, tg.tensor(RNG.normal(size=(N, D))), params)  # another call between
    second = [g.numpy() for g in tape.gradient(loss, params)]
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)


def test_the_generated_code_uses_the_pool():
    params = _params()
    compiled = tg.compile(mlp)
    x = tg.tensor(RNG.normal(size=(N, D)))
    _grads(compiled, x, params)
    _grads(compiled, x, params)  # the second gradient through it generates the sweep
    source = compiled.source(x, *params)
    assert "matmul_add_into(pool" in source and "relu_into(pool" in source
    assert "matmul_into(pool" in source
    assert "matmul_vjp_into(pool" in source and "_in_place(" in source


def test_small_arrays_are_not_pooled():
    assert not buffers.poolable(np.zeros((8, 8)))
    assert not buffers.poolable(np.zeros((256, 256), dtype=np.complex128))
    assert buffers.poolable(np.zeros((128, 128)))
