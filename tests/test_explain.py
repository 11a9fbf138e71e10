"""unconnected_gradients="raise" says why, and host conversions inside a tape warn once."""

import os
import sys
import warnings

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.core import sites

HERE = os.path.basename(__file__)


@pytest.fixture(autouse=True)
def fresh_warning_sites(monkeypatch):
    # The escape warning fires once per call site per process; each test starts afresh.
    monkeypatch.setattr(sites, "_warned", set())


def next_line() -> int:
    return sys._getframe(1).f_lineno + 1


def reason(tape, target, source) -> str:
    with pytest.raises(ValueError, match="is unconnected: ") as info:
        tape.gradient(target, source, unconnected_gradients="raise")
    return str(info.value).split("is unconnected: ", 1)[1]


def test_never_watched():
    x, y = tg.tensor(1.0), tg.tensor(2.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        z = x * 2.0
        y * 3.0  # reads no watched Tensor: not recorded
    assert reason(tape, z, y).startswith("it was never watched (call tape.watch on it")


def test_unwatched_input_of_a_recorded_op_was_never_watched():
    # Like TensorFlow: y is read by a recorded op (it read x too), but only watched sources count.
    x, y = tg.tensor(1.0), tg.tensor(2.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        z = x * y
    assert reason(tape, z, y).startswith("it was never watched")


def test_non_trainable_variable():
    v = tg.Variable(1.0, trainable=False, name="frozen")
    x = tg.tensor(2.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        z = x * 2.0
        v * 3.0
    with pytest.raises(ValueError, match=r"source 'frozen' Variable .* non-trainable Variable"):
        tape.gradient(z, v, unconnected_gradients="raise")


def test_trainable_variable_never_read():
    v, w = tg.Variable(1.0), tg.Variable(2.0)
    with tg.GradientTape() as tape:
        z = v * 3.0
    assert reason(tape, z, w) == (
        "it was never watched: a trainable Variable is watched when an op reads it "
        "while the tape records, and no op did"
    )


@pytest.mark.filterwarnings("ignore:gradient. every gradient is None")  # tested in test_explain
def test_integer_dtype():
    # n is an input of a recorded op, but an integer Tensor has no gradient.
    x = tg.tensor(1.0)
    n = tg.tensor(np.array([1, 2]))
    with tg.GradientTape(persistent=True) as tape:
        tape.watch(x)
        z = tg.sum(x * n)
    assert reason(tape, z, n).startswith("it has dtype int64, and only floating Tensors")
    assert tape.gradient(z, n) is None
    assert tape.gradient(z, n, unconnected_gradients="zero").dtype == np.int64
    assert tape.gradient(z, x).item() == 3.0


def test_no_path():
    x, y = tg.tensor(1.0), tg.tensor(2.0)
    with tg.GradientTape() as tape:
        tape.watch([x, y])
        z = x * 3.0
        y * 2.0
    assert reason(tape, z, y) == "there is no path from it to the target on this tape"


def test_read_under_stop_recording():
    x = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        with tape.stop_recording():
            z = x * 3.0
    assert reason(tape, z, x).startswith("it was only read under tape.stop_recording()")


def test_a_value_computed_from_it_read_under_stop_recording():
    x = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        h = x * 2.0
        with tape.stop_recording():
            z = h * 3.0
    assert reason(tape, z, x).startswith("it was only read under tape.stop_recording()")


def test_target_computed_after_the_tape_closed():
    x = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        x * 1.0
    z = x * 3.0
    assert reason(tape, z, x).startswith("the target is not on this tape: it was computed outside")


def test_a_target_with_no_gradient_says_so():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        z = x > 1.0
    assert reason(tape, z, x) == "the target has dtype bool, which has no gradient"


def _all_none_warnings(call):
    with pytest.warns(UserWarning) as caught:
        result = call()
    return result, [str(w.message) for w in caught if "every gradient is None" in str(w.message)]


def test_every_gradient_none_warns_with_the_reason():
    # Issue 11, item 5: a forgotten watch, an integer Variable or a target computed after
    # the block gave None quietly.
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        y = tg.sum(x * x)
    result, messages = _all_none_warnings(lambda: tape.gradient(y, x))
    assert result is None
    assert len(messages) == 1 and "it was never watched (call tape.watch" in messages[0]
    assert 'unconnected_gradients="zero"' in messages[0]

    v = tg.Variable([1, 2])
    with tg.GradientTape() as tape:
        y = tg.sum(v * v)
    _, messages = _all_none_warnings(lambda: tape.gradient(y, v))
    assert "it has dtype int64" in messages[0]

    w = tg.Variable([1.0, 2.0])
    with tg.GradientTape() as tape:
        pass
    y = tg.sum(w * w)
    _, messages = _all_none_warnings(lambda: tape.gradient(y, [w]))
    assert "the target was computed outside the `with GradientTape()` block" in messages[0]


def test_some_gradients_or_explicit_choices_do_not_warn():
    import warnings

    a, b = tg.Variable(1.0), tg.tensor(2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with tg.GradientTape(persistent=True) as tape:
            y = a * 2.0
        assert tape.gradient(y, [a, b])[1] is None  # a has one: no warning
        assert tape.gradient(y, b, unconnected_gradients="zero").item() == 0.0
        with pytest.raises(ValueError, match="never watched"):
            tape.gradient(y, b, unconnected_gradients="raise")


@pytest.mark.parametrize(
    "leave, how",
    [
        (lambda t: t.numpy(), "numpy()"),
        (lambda t: np.asarray(t), "np.asarray()"),
        (lambda t: float(t), "float()"),
        (lambda t: t.item(), "item()"),
        (lambda t: tg.tensor(t), "tg.tensor()"),
    ],
)
def test_escape_warns_with_the_line_and_is_the_reason(leave, how):
    x = tg.tensor(1.5)
    with tg.GradientTape() as tape:
        tape.watch(x)
        with pytest.warns(UserWarning) as record:
            host = leave(x)
        z = tg.tensor(host) * 2.0
    (warning,) = record
    line = leave.__code__.co_firstlineno  # the site is the lambda that converts
    assert warning.filename == __file__ and warning.lineno == line
    assert f"left the tape through {how} at {HERE}:{line}" in str(warning.message)
    assert reason(tape, z, x) == f"its value left the tape through {how} at {HERE}:{line}"


def test_escape_of_a_value_computed_from_the_source():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        h = x * 2.0
        with pytest.warns(UserWarning):
            line = next_line()
            host = h.numpy()
        z = tg.sum(tg.tensor(host))
    assert reason(tape, z, x) == (
        f"a value computed from it left the tape through numpy() at {HERE}:{line}, "
        "and the target was computed from that host copy"
    )


def test_escape_of_an_accessed_variable():
    v = tg.Variable([1.0, 2.0], name="v")
    with tg.GradientTape() as tape:
        with pytest.warns(UserWarning, match="left the tape through tg.Variable()"):
            copy = tg.Variable(v)
        z = tg.sum(copy * 2.0)
    assert reason(tape, z, v).startswith("its value left the tape through tg.Variable()")


def test_escape_warns_once_per_call_site():
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        for _ in range(3):
            x = tg.tensor(1.0)
            with tg.GradientTape() as tape:
                tape.watch(x)
                x.numpy()  # one site, three tapes
                x.numpy()  # a second site
    assert len(record) == 2
    assert record[1].lineno == record[0].lineno + 1


def test_no_warning_outside_a_recording_tape_or_for_unwatched_values():
    x, c = tg.tensor(1.0), tg.tensor(2.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with tg.GradientTape() as tape:
            tape.watch(x)
            c.numpy()  # never watched
            with tape.stop_recording():
                x.numpy()  # not recording
            y = x * 2.0
        y.numpy()  # the tape has closed
        float(y)
    assert tape.gradient(y, x).item() == 2.0


def test_jacobian_explains_too():
    x, y = tg.tensor([1.0, 2.0]), tg.tensor(3.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        z = x * 2.0
    with pytest.raises(ValueError, match="it was never watched"):
        tape.jacobian(z, y, unconnected_gradients="raise")


def test_connected_sources_still_get_gradients_after_an_unrelated_escape():
    x = tg.tensor(2.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        with pytest.warns(UserWarning):
            x.numpy()
        y = x * x
    assert tape.gradient(y, x, unconnected_gradients="raise").item() == 4.0
