"""The GradientTape's rules (README "What you get", docs/decisions.md "Tapes and gradients")."""

import collections
import threading

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.core.active import active_tapes


def test_watch_and_gradient():
    x = tg.tensor(3.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert tape.gradient(y, x).item() == 6.0


@pytest.mark.filterwarnings("ignore:gradient. every gradient is None")  # tested in test_explain
def test_unwatched_tensor_gets_none():
    x = tg.tensor(3.0)
    with tg.GradientTape() as tape:
        y = x * x
    assert len(tape) == 0
    assert tape.gradient(y, x) is None


def test_trainable_variables_are_watched_when_read():
    w = tg.Variable(2.0, name="w")
    frozen = tg.Variable(5.0, trainable=False)
    unread = tg.Variable(1.0)
    with tg.GradientTape() as tape:
        y = w * frozen
    assert tape.watched_variables() == (w,)
    dw, dfrozen, dunread = tape.gradient(y, [w, frozen, unread])
    assert dw.item() == 5.0 and dfrozen is None and dunread is None


@pytest.mark.filterwarnings("ignore:gradient. every gradient is None")  # tested in test_explain
def test_watch_accessed_variables_false():
    w = tg.Variable(2.0)
    with tg.GradientTape(watch_accessed_variables=False) as tape:
        y = w * w
    assert tape.gradient(y, w) is None
    with tg.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(w)
        y = w * w
    assert tape.gradient(y, w).item() == 4.0


def test_integer_variables_are_not_auto_watched():
    counter = tg.Variable(3)
    with tg.GradientTape() as tape:
        y = counter * 2.0
    assert tape.watched_variables() == ()
    assert len(tape) == 0
    assert y.item() == 6.0


def test_watch_nests():
    a, b, c = tg.tensor(1.0), tg.tensor(2.0), tg.tensor(3.0)
    with tg.GradientTape() as tape:
        tape.watch({"a": a, "rest": [b, (c,)]})
        y = a * b * c
    grads = tape.gradient(y, {"a": a, "rest": [b, (c,)]})
    assert grads["a"].item() == 6.0
    assert grads["rest"][0].item() == 3.0
    assert isinstance(grads["rest"][1], tuple) and grads["rest"][1][0].item() == 2.0


def test_nested_targets_are_summed():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        targets = {"square": x * x, "cube": [x**3]}
    np.testing.assert_allclose(
        tape.gradient(targets, x).numpy(), 2 * x.numpy() + 3 * x.numpy() ** 2
    )


def test_non_scalar_target_gives_gradient_of_sum():
    x = tg.tensor([1.0, 2.0, 3.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [2.0, 4.0, 6.0])


def test_output_gradients_seed_the_sweep():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    g = tape.gradient(y, x, output_gradients=np.array([10.0, 100.0]))
    np.testing.assert_allclose(g.numpy(), [20.0, 400.0])


def test_output_gradients_shape_mismatch_raises_and_keeps_tape():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    with pytest.raises(ValueError, match=r"output_gradients of shape \(3,\).*\(2,\)"):
        tape.gradient(y, x, output_gradients=np.ones(3))
    assert len(tape) == 1
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 4.0]


def test_source_equal_to_target():
    x = tg.tensor(4.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
    assert tape.gradient(x, x).item() == 1.0


def test_intermediate_source():
    x = tg.tensor(2.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        h = x * x
        y = h * 3.0 + x
    dh, dx = tape.gradient(y, [h, x])
    assert dh.item() == 3.0
    assert dx.item() == 13.0


def test_fan_out_accumulates():
    x = tg.tensor(3.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x + x + x * x
    assert tape.gradient(y, x).item() == 8.0


def test_unconnected_zero_matches_shape_and_dtype():
    x = tg.tensor(np.ones((2, 3), dtype=np.float32))
    other = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch([x, other])
        y = other * 2.0
    g = tape.gradient(y, x, unconnected_gradients="zero")
    assert g.shape == (2, 3) and g.dtype == np.float32 and not g.numpy().any()


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        ("never_watched", "never watched"),
        ("no_path", "no path from it to the target"),
        ("stopped", "only read under tape.stop_recording"),
        ("frozen", "non-trainable Variable"),
    ],
)
def test_unconnected_raise_explains_why(setup, reason):
    x = tg.Variable(2.0, trainable=setup != "frozen")
    z = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(z)
        if setup == "no_path":
            tape.watch(x)
            y = z * 3.0
        elif setup == "stopped":
            tape.watch(x)
            with tape.stop_recording():
                y = x * z
        else:
            y = z * 3.0 if setup == "never_watched" else x * z
    with pytest.raises(ValueError, match=reason):
        tape.gradient(y, x, unconnected_gradients="raise")
    assert len(tape) <= 1  # the tape is left as it was


def test_unconnected_gradients_value_is_checked():
    x = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    with pytest.raises(ValueError, match="unconnected_gradients"):
        tape.gradient(y, x, unconnected_gradients="ignore")


def test_non_persistent_tape_is_single_use():
    x = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2
    tape.gradient(y, x)
    assert len(tape) == 0  # the list is dropped after its one call
    with pytest.raises(RuntimeError, match="only be used once"):
        tape.gradient(y, x)


def test_persistent_tape_can_be_reused():
    x = tg.tensor(3.0)
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * x
    assert tape.gradient(y, x).item() == 6.0
    assert tape.gradient(z, x).item() == 27.0
    assert len(tape) == 2


def test_reentering_an_active_tape_raises():
    tape = tg.GradientTape()
    with tape, pytest.raises(ValueError, match="already active"):
        with tape:
            pass


def test_stop_recording():
    x = tg.tensor(2.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = x * x
        with tape.stop_recording():
            z = y * 100.0
        w = y + z
    assert len(tape) == 2
    assert tape.gradient(w, x).item() == 4.0


def test_reset_forgets_everything():
    w = tg.Variable(1.0)
    with tg.GradientTape() as tape:
        y = w * 2
        tape.reset()
        y = w * 3
    assert len(tape) == 1
    assert tape.gradient(y, w).item() == 3.0


def test_len_iteration_and_str():
    x = tg.tensor(np.ones((2, 3), dtype=np.float32))
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.exp(x)
        z = tg.sum(y * x, axis=0)
    assert len(tape) == 3
    assert [e.primitive.name for e in tape] == ["exp", "multiply", "sum"]
    lines = str(tape).splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("%1 = exp(%0)")
    assert "(2, 3) float32" in lines[1]
    assert lines[2].startswith("%3 = sum(%2, axis=(0,), keepdims=False)")
    assert "(3,) float32" in lines[2]
    assert z.shape == (3,)


def test_variable_modified_after_recording_raises():
    w = tg.Variable([1.0, 2.0], name="weights")
    with tg.GradientTape() as tape:
        y = tg.sum(w * w)
    w.assign_add([1.0, 1.0])
    with pytest.raises(RuntimeError, match=r"multiply: Variable weights was modified"):
        tape.gradient(y, w)
    assert len(tape) == 2  # nothing was consumed


def test_variable_assigned_between_two_reads_raises_only_on_the_path():
    # The second read sees the new version, the first does not: only an entry that read
    # the old value and lies on the path to the target makes the gradient wrong.
    w = tg.Variable([1.0, 2.0], name="w")
    with tg.GradientTape(persistent=True) as tape:
        old = tg.sum(w * w)
        w.assign([3.0, 4.0])
        new = tg.sum(w * w)
    np.testing.assert_allclose(tape.gradient(new, w).numpy(), [6.0, 8.0])
    with pytest.raises(RuntimeError, match=r"multiply: Variable w was modified .* 0 -> 1"):
        tape.gradient(old, w)


def test_untrainable_variable_modified_after_recording_raises():
    # Not watched, but the gradient of the watched input is computed from its value.
    x = tg.tensor([1.0, 2.0])
    scale = tg.Variable([2.0, 3.0], trainable=False, name="scale")
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.sum(x * scale)
    scale.assign([5.0, 5.0])
    with pytest.raises(RuntimeError, match=r"multiply: Variable scale was modified"):
        tape.gradient(y, x)


def test_variable_assignment_outside_recording_is_fine():
    w = tg.Variable([1.0, 2.0])
    for _ in range(3):
        with tg.GradientTape() as tape:
            y = tg.sum(w * w)
        (g,) = tape.gradient(y, [w])
        w.assign_sub(0.1 * g)
    assert w.version == 3


def test_tapes_are_per_thread():
    x = tg.tensor(2.0)
    seen = {}

    def other_thread():
        seen["tapes"] = active_tapes()
        seen["y"] = x * x

    with tg.GradientTape() as tape:
        tape.watch(x)
        worker = threading.Thread(target=other_thread)
        worker.start()
        worker.join()
    assert seen["tapes"] == ()
    assert len(tape) == 0


def test_nested_tapes_second_derivative():
    x = tg.tensor(0.7)
    with tg.GradientTape() as outer:
        outer.watch(x)
        with tg.GradientTape() as inner:
            inner.watch(x)
            y = x**3 * tg.sin(x)
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    v = 0.7
    assert dy.item() == pytest.approx(3 * v**2 * np.sin(v) + v**3 * np.cos(v), rel=1e-12)
    expected = 6 * v * np.sin(v) + 6 * v**2 * np.cos(v) - v**3 * np.sin(v)
    assert d2y.item() == pytest.approx(expected, rel=1e-12)


def test_persistent_tape_records_nothing_of_its_own_sweep():
    x = tg.tensor(2.0)
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        tape.gradient(y, x)
    assert len(tape) == 1


def test_gradient_keeps_a_namedtuple_of_sources():
    Pair = collections.namedtuple("Pair", ["a", "b"])
    x, y = tg.tensor(2.0), tg.tensor(3.0)
    with tg.GradientTape() as tape:
        tape.watch([x, y])
        z = x * y
    g = tape.gradient(z, Pair(x, y))
    assert isinstance(g, Pair) and (g.a.item(), g.b.item()) == (3.0, 2.0)


def test_complex_intermediates_give_real_sources_real_gradients():
    # docs/complex.md: a real source through complex values gets the real gradient.
    x = tg.tensor([1.0, -2.0])

    def f(a):
        return tg.sum(tg.abs(a * (1 + 1j)))  # sqrt(2) |a|

    for g in (f, tg.compile(f)):
        g(x)
        with tg.GradientTape() as tape:
            tape.watch(x)
            y = g(x)
        grad = tape.gradient(y, x)
        assert grad.dtype == np.float64
        np.testing.assert_allclose(grad.numpy(), np.sqrt(2) * np.sign(x.numpy()))
