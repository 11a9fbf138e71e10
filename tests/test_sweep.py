"""The reverse sweep: iterative, pruned, dtype-preserving, and freeing as it goes."""

import gc
import weakref

import numpy as np

import tapegrad as tg
from tapegrad.ops import Primitive


def test_a_million_entry_tape_needs_no_recursion():
    x = tg.tensor(1.0)
    steps = 1_000_000
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x
        for _ in range(steps):
            y = -y
    assert len(tape) == steps
    assert tape.gradient(y, x).item() == 1.0


def test_entries_off_the_path_are_skipped():
    calls = []

    def counted(name):
        op = Primitive(name, lambda xp, x: x + 1.0)
        op.defvjp(lambda g, ans, x: calls.append(name) or g)
        return op

    before, between, after = counted("before"), counted("between"), counted("after")
    a = tg.tensor(1.0)
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(a)
        b = before(a)  # upstream of the source b
        c = between(b)
        unused = after(b)  # not on the way to the target
        d = c * 2.0
    tape.gradient(d, b)
    assert calls == ["between"]
    assert unused.item() == 3.0


def test_dtype_is_kept_through_mixed_precision():
    x32 = tg.tensor(np.array([1.0, 2.0], dtype=np.float32))
    y64 = tg.tensor(np.array([3.0, 4.0]))
    with tg.GradientTape() as tape:
        tape.watch([x32, y64])
        z = tg.sum(x32 * y64 * 2.0)
    assert z.dtype == np.float64
    gx, gy = tape.gradient(z, [x32, y64])
    assert gx.dtype == np.float32 and gy.dtype == np.float64
    np.testing.assert_allclose(gx.numpy(), [6.0, 8.0])


def test_python_scalars_never_upcast_float32():
    x = tg.tensor(np.ones(3, dtype=np.float32))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = (x * 2.5 + 1) ** 2 / 3.0 - 1
    assert y.dtype == np.float32
    assert tape.gradient(y, x).dtype == np.float32


def test_non_persistent_sweep_frees_saved_inputs_as_it_passes():
    seen = []
    probe = Primitive("probe", lambda xp, x: x * 1.0)
    probe.defvjp(lambda g, ans, x: seen.append(list(tape._entries)) or g)
    x = tg.tensor(np.ones(1000))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = probe(x)
        z = tg.exp(y)
        ref = weakref.ref(z)
        w = tg.sum(z)
    del z
    gc.collect()
    assert ref() is not None  # saved by the tape (exp's output, sum's input)
    tape.gradient(w, x)
    # When probe's rule ran (first entry), the later entries were already freed.
    assert seen[0][1:] == [None, None]
    gc.collect()
    assert ref() is None
    assert len(tape) == 0


def test_gradient_is_a_tensor_with_source_shape_for_broadcast_inputs():
    x = tg.tensor(np.ones((3, 1)))
    b = tg.tensor(np.ones(4))
    with tg.GradientTape() as tape:
        tape.watch([x, b])
        y = x * b
    gx, gb = tape.gradient(y, [x, b])
    assert gx.shape == (3, 1) and gb.shape == (4,)
    np.testing.assert_allclose(gx.numpy(), 4.0)
    np.testing.assert_allclose(gb.numpy(), 3.0)


def test_fan_out_of_a_0d_tensor_sums_every_contribution():
    # The sum of two 0-d arrays is a NumPy scalar, which cannot be added into in place.
    x = tg.tensor(2.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * x * x + x + x
    g = tape.gradient(y, x)
    assert type(g.data) is np.ndarray
    assert g.item() == 3 * 2.0**2 + 2


def test_a_failed_sweep_leaves_no_half_freed_tape_behind():
    broken = Primitive("broken", lambda xp, x: x * 1.0)
    broken.defvjp(lambda g, ans, x: 1 / 0)
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = broken(-x)
    try:
        tape.gradient(y, x)
    except ZeroDivisionError:
        pass
    try:
        tape.gradient(y, x)
    except RuntimeError as exc:
        assert "only be used once" in str(exc)
    else:
        raise AssertionError("a second gradient from a half-swept tape must raise")


def test_a_seed_of_another_dtype_gives_gradients_of_the_sources_dtype():
    # A source that is also a target gets the seed as its gradient: cast to its dtype.
    x = tg.tensor(np.array([1.0, 2.0], dtype=np.float32))
    for seed in (tg.tensor([3.0, 4.0]), tg.tensor([3, 4])):
        for nested in (False, True):
            outer = tg.GradientTape()
            if nested:  # rules on Tensors
                outer.__enter__()
            try:
                with tg.GradientTape() as tape:
                    tape.watch(x)
                    y = x * 2.0
                gy, gx = tape.gradient(y, [y, x], output_gradients=seed)
            finally:
                if nested:
                    outer.__exit__(None, None, None)
            assert gy.dtype == np.float32 and gx.dtype == np.float32
            np.testing.assert_allclose(gy.numpy(), [3.0, 4.0])
            np.testing.assert_allclose(gx.numpy(), [6.0, 8.0])
    _, vjp_fn = tg.vjp(lambda a: a, x)
    assert vjp_fn(tg.tensor([1.0, 1.0]))[0].dtype == np.float32
