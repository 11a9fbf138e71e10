"""Memory stays flat across training steps, and a tape's memory goes when the tape does.

Live Tensors are counted exactly through the garbage collector, so these
checks are deterministic; tracemalloc adds a bound on all Python allocations.
"""

import gc
import tracemalloc
import weakref

import numpy as np

import tapegrad as tg


def live_tensors() -> int:
    gc.collect()
    # type(), not isinstance: isinstance asks a dead weakref.proxy (other libraries keep
    # some) for its __class__ and raises ReferenceError.
    return sum(1 for obj in gc.get_objects() if issubclass(type(obj), tg.Tensor))


def live_tensor_bytes() -> int:
    """Bytes of the arrays live Tensors hold, each buffer once (views count as their base)."""
    gc.collect()
    buffers = {}
    for obj in gc.get_objects():
        if issubclass(type(obj), tg.Tensor):
            base = obj.data
            while isinstance(base.base, np.ndarray):
                base = base.base
            buffers[id(base)] = base.nbytes
    return sum(buffers.values())


class MLP:
    """A two-layer perceptron written with plain ops, trained by SGD through assign_sub."""

    def __init__(self, seed: int = 0) -> None:
        rng = np.random.default_rng(seed)
        self.variables = [
            tg.Variable(rng.normal(scale=0.3, size=(8, 16)), name="w1"),
            tg.Variable(np.zeros(16), name="b1"),
            tg.Variable(rng.normal(scale=0.3, size=(16, 4)), name="w2"),
            tg.Variable(np.zeros(4), name="b2"),
        ]
        self.x = tg.tensor(rng.normal(size=(32, 8)))
        self.labels = rng.integers(0, 4, size=32)

    def loss(self) -> tg.Tensor:
        w1, b1, w2, b2 = self.variables
        logits = tg.relu(self.x @ w1 + b1) @ w2 + b2
        picked = tg.take_along_axis(tg.log_softmax(logits, axis=1), self.labels[:, None], 1)
        return -tg.mean(picked)

    def step(self, lr: float = 0.1, report: bool = False) -> tuple[float, int | None]:
        """One training step in a fresh tape: the loss and (if asked) the tape's saved bytes."""
        with tg.GradientTape() as tape:
            loss = self.loss()
        saved = tape.summary().saved_bytes if report else None
        grads = tape.gradient(loss, self.variables)
        assert len(tape) == 0  # the sweep dropped every entry
        for v, g in zip(self.variables, grads):
            v.assign_sub(lr * g.data)
        return float(loss), saved


def test_a_thousand_training_steps_keep_memory_flat():
    model = MLP()
    first_loss, first_saved = model.step(report=True)
    for _ in range(99):
        model.step()
    tensors, tensor_bytes = live_tensors(), live_tensor_bytes()
    # tracemalloc slows Python several times over, so it watches 100 steps of the 1,000.
    tracemalloc.start()
    try:
        gc.collect()
        traced = tracemalloc.get_traced_memory()[0]
        for _ in range(100):
            model.step()
        gc.collect()
        traced_growth = tracemalloc.get_traced_memory()[0] - traced
    finally:
        tracemalloc.stop()
    for _ in range(799):
        model.step()
    loss, last_saved = model.step(report=True)
    assert live_tensors() == tensors  # not one Tensor more after 900 more steps
    assert live_tensor_bytes() == tensor_bytes
    assert last_saved == first_saved  # each step's tape kept the same bytes
    # Entries, dicts or strings left behind by each step would add up; 32 KiB is noise.
    assert traced_growth < 32 * 1024
    assert loss < first_loss  # and it trained


def test_the_live_tensor_count_sees_a_leak():
    # The measurement itself can fail: tapes kept alive keep their Tensors alive.
    model = MLP()
    model.step()
    before = live_tensors()
    kept = []
    for _ in range(10):
        with tg.GradientTape(persistent=True) as tape:
            model.loss()
        kept.append(tape)
    assert live_tensors() >= before + 10 * len(kept[0])


def _recorded_persistent():
    x = tg.tensor(np.ones((64, 64)))
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        h = tg.tanh(x @ x)
        y = tg.sum(h * h)
    tape.gradient(y, x)
    tape.gradient(y, x)  # persistent: still all there
    return tape, weakref.ref(h), x


def test_persistent_tape_memory_is_released_by_del():
    tape, h, x = _recorded_persistent()
    assert h() is not None and tape.summary().saved_bytes > 3 * x.data.nbytes
    del tape
    gc.collect()
    assert h() is None


def test_persistent_tape_memory_is_released_by_reset():
    tape, h, x = _recorded_persistent()
    count = live_tensors()
    tape.reset()
    gc.collect()
    assert h() is None
    assert len(tape) == 0 and tape.summary().saved_bytes == 0
    assert live_tensors() < count - 3


def test_non_persistent_tape_releases_intermediates_after_gradient():
    x = tg.tensor(np.ones((8, 8)))
    with tg.GradientTape() as tape:
        tape.watch(x)
        h = tg.exp(x)
        y = tg.sum(h)
    ref = weakref.ref(h)
    del h
    tape.gradient(y, x)
    gc.collect()
    assert ref() is None  # the tape object still exists, its entries do not
