"""tapegrad/transforms/checkpoint.py: tg.checkpoint gives the gradients of the function itself
(every order), keeps only the block inputs on the tape, replays random draws, skips side effects
in the second forward, refuses one that differs, and lowers the measured peak memory."""

import gc
import tracemalloc

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import nn
from tapegrad.testing import gradcheck, gradgradcheck


def residual_blocks(depth, width, dtype=np.float64):
    tg.random.seed(0)
    return [
        nn.Sequential(nn.Linear(width, 4 * width, dtype=dtype), nn.Tanh(),
                      nn.Linear(4 * width, width, dtype=dtype))
        for _ in range(depth)
    ]  # fmt: skip


def forward(blocks, x, checkpointed):
    h = x
    for block in blocks:
        h = h + (tg.checkpoint(block)(h) if checkpointed else block(h))
    return tg.sum(h * h)


def gradients(blocks, x, checkpointed):
    variables = [v for block in blocks for v in block.trainable_variables]
    with tg.GradientTape() as tape:
        tape.watch(x)
        loss = forward(blocks, x, checkpointed)
    entries = len(tape)
    return entries, tape.gradient(loss, [x, *variables])


def test_gradients_equal_those_without_checkpointing():
    blocks = residual_blocks(4, 3)
    x = tg.random.normal((5, 3))
    plain_entries, plain = gradients(blocks, x, False)
    entries, checkpointed = gradients(blocks, x, True)
    for a, b in zip(plain, checkpointed):
        np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-12, atol=1e-15)
    # Each block's three entries (matmul_add, tanh, matmul_add) become one.
    assert plain_entries - entries == 4 * 2


def test_second_and_third_derivatives():
    w = tg.Variable([[0.5, -1.0], [2.0, 0.1]])

    def block(x):
        return tg.tanh(x @ w) * x

    def loss(x, checkpointed):
        h = x
        for _ in range(3):
            h = tg.checkpoint(block)(h) if checkpointed else block(h)
        return tg.sum(h)

    x = np.array([[0.3, -0.2]])
    for order in (tg.hessian, lambda f: tg.grad(lambda x: tg.sum(tg.grad(f)(x) ** 3))):
        plain = np.asarray(order(lambda x: loss(x, False))(x))
        np.testing.assert_allclose(np.asarray(order(lambda x: loss(x, True))(x)), plain, rtol=1e-12)
    gradcheck(lambda x: tg.checkpoint(block, x), [x])
    gradgradcheck(lambda x: tg.checkpoint(block)(x), [x])


def test_variables_and_watched_tensors_read_from_a_closure_get_gradients():
    w = tg.Variable(2.0)
    c = tg.tensor(3.0)  # not an argument: the function closes over it
    x = tg.tensor(5.0)
    with tg.GradientTape() as tape:
        tape.watch([c, x])
        y = tg.checkpoint(lambda x: x * w * c + c)(x)
    grads = tape.gradient(y, [x, w, c])
    assert [float(g) for g in grads] == [6.0, 15.0, 11.0]


def test_several_outputs_keyword_arguments_and_a_persistent_tape():
    x = tg.tensor([1.0, 2.0])

    def f(x, scale):
        return tg.sin(x) * scale, tg.exp(x)

    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        a, b = tg.checkpoint(f)(x, scale=3.0)
        loss = tg.sum(a) + tg.sum(b * b)
    expected = 3 * np.cos([1.0, 2.0]) + 2 * np.exp([2.0, 4.0])
    for _ in range(2):  # the second sweep recomputes again
        np.testing.assert_allclose(np.asarray(tape.gradient(loss, x)), expected, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(tape.jacobian(a, x)), np.diag(3 * np.cos([1.0, 2.0])))


def test_dropout_masks_are_replayed():
    block = nn.Sequential(nn.Linear(4, 4, dtype=np.float64), nn.Dropout(0.5))
    x = tg.random.normal((8, 4))
    results = []
    for checkpointed in (False, True):
        tg.random.seed(11)
        with tg.GradientTape() as tape:
            y = tg.checkpoint(block)(x) if checkpointed else block(x)
            loss = tg.sum(y * y)
        results.append(tape.gradient(loss, block.trainable_variables))
    for a, b in zip(*results):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_a_second_forward_that_differs_raises_rather_than_lying():
    own = tg.random.Generator(0)
    block = nn.Sequential(nn.Linear(4, 4, dtype=np.float64), nn.Dropout(0.5, generator=own))
    with tg.GradientTape() as tape:
        loss = tg.sum(tg.checkpoint(block)(tg.random.normal((8, 4))))
    with pytest.raises(RuntimeError, match="recomputing f in the reverse sweep gave other values"):
        tape.gradient(loss, block.trainable_variables)


def test_batch_norm_statistics_are_updated_once():
    bn = nn.BatchNorm1d(3, dtype=np.float64)
    x = tg.random.normal((6, 3))
    with tg.GradientTape() as tape:
        loss = tg.sum(tg.checkpoint(bn)(x) ** 3)
    tape.gradient(loss, bn.trainable_variables)
    reference = nn.BatchNorm1d(3, dtype=np.float64)
    reference(x)
    assert float(bn.num_batches_tracked) == 1
    np.testing.assert_array_equal(np.asarray(bn.running_var), np.asarray(reference.running_var))


def test_outside_a_tape_and_under_compile_it_just_calls_f():
    calls = []

    def f(x):
        calls.append(1)
        return tg.exp(x)

    assert float(tg.checkpoint(f)(tg.tensor(0.0))) == 1.0 and len(calls) == 1
    compiled = tg.compile(lambda x: tg.sum(tg.checkpoint(f)(x)))
    for _ in range(2):
        np.testing.assert_allclose(np.asarray(tg.grad(compiled)(np.zeros(3))), np.ones(3))
    with pytest.raises(TypeError, match="checkpoint: f must be callable"):
        tg.checkpoint(3.0)


def test_nested_checkpoints():
    w = tg.Variable(1.5)
    inner = tg.checkpoint(lambda x: tg.sin(x * w))
    outer = tg.checkpoint(lambda x: inner(inner(x)) * w)
    x = tg.tensor([0.2, 0.7])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.sum(outer(x))
    expected_tape = tg.GradientTape()
    with expected_tape:
        expected_tape.watch(x)
        z = tg.sum(tg.sin(tg.sin(x * w) * w) * w)
    for got, want in zip(tape.gradient(y, [x, w]), expected_tape.gradient(z, [x, w])):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-12)


def peak_bytes(blocks, x, checkpointed):
    """The tape's saved bytes, and NumPy's peak memory above the start, of one step."""
    gradients(blocks, x, checkpointed)  # warm up
    gc.collect()
    tracemalloc.start()
    try:
        start = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        variables = [v for block in blocks for v in block.trainable_variables]
        with tg.GradientTape() as tape:
            loss = forward(blocks, x, checkpointed)
        saved = tape.summary().saved_bytes
        tape.gradient(loss, variables)
        peak = tracemalloc.get_traced_memory()[1] - start
    finally:
        tracemalloc.stop()
    return saved, peak


def test_the_saved_and_peak_memory_fall_from_every_block_to_one():
    blocks = residual_blocks(12, 4, dtype=np.float32)
    x = tg.random.normal((512, 4), dtype="float32")  # activations dominate the weights
    plain_saved, plain_peak = peak_bytes(blocks, x, False)
    saved, peak = peak_bytes(blocks, x, True)
    wide, narrow = 512 * 16 * 4, 512 * 4 * 4  # (batch, 4 * width) and (batch, width) float32
    assert plain_saved > 12 * 2 * wide  # two wide activations per block (matmul_add, tanh)
    # Per block, the block's input and output (read by the checkpoint entry and the residual
    # add) and the small weights: narrow arrays only.
    assert saved < 12 * 3 * narrow
    # The peak keeps what does not scale with depth (a block recomputed, the gradients):
    # 2.6x lower here, where the plain step keeps two wide activations a block.
    assert peak < plain_peak / 2


def test_infinite_and_nan_outputs_are_the_same_values_the_second_time():
    x = tg.tensor([0.0, 1.0, -1.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.checkpoint(lambda x: tg.log(tg.abs(x)) + tg.sqrt(x))(x)  # -inf, 1, nan
        loss = y[1]
    assert np.asarray(tape.gradient(loss, x))[1] == 1.5  # d(log|x| + sqrt x) at 1
