"""What a tape keeps (Primitive.saves): the values no gradient rule reads are dropped.

Each declaration is checked by running the primitive's rules with arrays of NaN in
place of the values it declares unread: the cotangents must be the same, finite numbers.
A tape that drops values must give the same gradients, first and second order, as one
that keeps everything (record.keep_values), and must not keep the dropped arrays alive.
"""

from __future__ import annotations

import gc
import importlib
import pkgutil
import sys
import weakref

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.core import record
from tapegrad.ops.primitive import Primitive

BIG = (64, 256)  # 128 KiB of float64: above record.DROP_BYTES


def _declared() -> dict[str, Primitive]:
    for info in pkgutil.walk_packages(tg.__path__, "tapegrad."):
        importlib.import_module(info.name)
    found = {}
    for name, module in list(sys.modules.items()):
        if name == "tapegrad" or name.startswith("tapegrad."):
            for value in vars(module).values():
                if isinstance(value, Primitive) and value.unsaved is not None:
                    found[value.name] = value
    return found


DECLARED = _declared()

# Inputs for each declared primitive: (shapes of the array inputs, params); a second case
# broadcasts where the op broadcasts.
CASES = {
    "add": [((3, 4), (3, 4)), ((3, 4), (4,)), ((), (2, 3))],
    "subtract": [((3, 4), (3, 4)), ((1, 4), (3, 1))],
    "negative": [((3, 4),), ((),)],
    "matmul": [((3, 4), (4, 5)), ((2, 3, 4), (4,)), ((4,), (4, 2))],
    "matmul_add": [((3, 4), (4, 5), (5,)), ((2, 3, 4), (4,), (1,)), ((4,), (4, 2), (3, 2))],
    "relu": [((3, 4),), ((),)],
    "tanh": [((3, 4),), ((),)],
    "exp": [((3, 4),), ((),)],
    "sigmoid": [((3, 4),), ((),)],
    "sum": [
        ((3, 4), {"axis": (1,), "keepdims": False}),
        ((3, 4), {"axis": None, "keepdims": True}),
    ],
}


def _numpy(a):
    return a.numpy() if isinstance(a, tg.Tensor) else np.asarray(a)


def test_every_declaration_is_checked():
    assert set(DECLARED) == set(CASES)


def _case(shapes: tuple) -> tuple[list[tuple[int, ...]], dict]:
    params = shapes[-1] if shapes and isinstance(shapes[-1], dict) else {}
    return [s for s in shapes if not isinstance(s, dict)], params


@pytest.mark.parametrize(
    "name, shapes", [(n, s) for n, cases in CASES.items() for s in cases], ids=str
)
@pytest.mark.parametrize("mode", ["arrays", "tensors"])
def test_rules_do_not_read_the_values_declared_unread(name, shapes, mode):
    primitive = DECLARED[name]
    shapes, params = _case(shapes)
    rng = np.random.default_rng(0)
    arrays = [rng.uniform(-2, 2, s) for s in shapes]
    ans = np.asarray(primitive.numpy_forward(*arrays, **params))
    g = rng.uniform(-1, 1, ans.shape)
    nan = [np.full(a.shape, np.nan) for a in arrays]
    blinded = [nan[k] if k in primitive.unsaved else a for k, a in enumerate(arrays)]
    blind_ans = ans if primitive.saves_output else np.full(ans.shape, np.nan)
    wrap = tg.tensor if mode == "tensors" else (lambda a: a)
    rules = [(k, primitive.rule(k)) for k in range(len(arrays))]
    if primitive.same_shape_vjps is not None and mode == "arrays":
        rules += [
            (k, rule) for k, rule in enumerate(primitive.same_shape_vjps) if shapes[k] == ans.shape
        ]
    for k, rule in rules:
        expected = rule(wrap(g), wrap(ans), *map(wrap, arrays), **params)
        got = rule(wrap(g), wrap(blind_ans), *map(wrap, blinded), **params)
        expected, got = np.asarray(_numpy(expected)), np.asarray(_numpy(got))
        assert np.all(np.isfinite(got)), f"{name}'s rule {k} reads a value declared unread"
        np.testing.assert_array_equal(got, expected)


def _mlp_loss(x, w1, w2):
    h = tg.relu(x @ w1 + 0.5)
    return tg.sum(tg.tanh(h @ w2 - 1.0) + tg.sigmoid(-h @ w2))


def _gradients(keep: bool) -> list[np.ndarray]:
    rng = np.random.default_rng(1)
    x = tg.tensor(rng.normal(size=BIG))
    w1 = tg.Variable(rng.normal(size=(BIG[1], 128)) / 16)
    w2 = tg.Variable(rng.normal(size=(128, 64)) / 16)
    token = record.keep_values.set(keep)
    try:
        with tg.GradientTape() as outer:
            with tg.GradientTape() as inner:
                loss = _mlp_loss(x, w1, w2)
            g1, g2 = inner.gradient(loss, [w1, w2])
            total = tg.sum(g1 * g1) + tg.sum(g2 * g2)
        second = outer.gradient(total, [w1, w2])
    finally:
        record.keep_values.reset(token)
    return [_numpy(g) for g in (g1, g2, *second)]


def test_dropping_values_changes_no_gradient_first_or_second_order():
    for dropped, kept in zip(_gradients(keep=False), _gradients(keep=True), strict=True):
        np.testing.assert_array_equal(dropped, kept)


def test_the_tape_does_not_keep_an_unread_intermediate_alive():
    x = tg.tensor(np.ones(BIG))
    w = tg.Variable(np.full((BIG[1], 256), 0.01))
    with tg.GradientTape() as tape:
        z = x @ w  # matmul's rules read x and w, not z; add's read no values
        alive = weakref.ref(z._data)
        y = tg.sum(tg.tanh(z + 1.0))
        del z
        gc.collect()
        assert alive() is None
    (g,) = tape.gradient(y, [w])
    expected = x.numpy().T @ (1.0 - np.tanh(x.numpy() @ w.numpy() + 1.0) ** 2)
    np.testing.assert_allclose(g.numpy(), expected)


def test_the_listing_counts_only_what_the_tape_keeps():
    a = tg.tensor(np.zeros(BIG))
    with tg.GradientTape() as tape:
        tape.watch(a)
        b = tg.tanh(a + 1.0)
    total = tape.summary().saved_bytes
    assert total < 2 * np.zeros(BIG).nbytes  # the tanh output; not a, not a + 1.0 as well
    assert total >= b.numpy().nbytes


def test_checkpoint_recomputes_from_values_a_dropping_op_read():
    rng = np.random.default_rng(2)
    x = tg.Variable(rng.normal(size=BIG))

    def block(v):
        return tg.relu(v + 1.0) * 2.0

    with tg.GradientTape() as tape:
        y = tg.sum(tg.checkpoint(block)(x * 3.0))
    (g,) = tape.gradient(y, [x])
    expected = 6.0 * (3.0 * x.numpy() + 1.0 > 0)
    np.testing.assert_array_equal(g.numpy(), expected)


def test_anomaly_detection_keeps_the_values_its_messages_describe():
    x = tg.tensor(np.ones(BIG))
    with tg.detect_anomaly(), tg.GradientTape() as tape:
        tape.watch(x)
        y = x + 1.0
        entry = next(iter(tape))
    assert entry.inputs[0] is x and entry.output is y
