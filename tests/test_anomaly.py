"""tg.detect_anomaly(): the first NaN or inf, forward or backward, names its op and line."""

import os
import re
import sys
import threading

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import ops
from tapegrad.core import anomaly
from tapegrad.ops.primitive import Primitive

HERE = os.path.basename(__file__)


def next_line() -> int:
    return sys._getframe(1).f_lineno + 1


def test_forward_nan_names_op_tape_index_and_line():
    x = tg.tensor([1.0, -1.0])
    with tg.detect_anomaly(), tg.GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
        y = y + 1.0
        with pytest.raises(FloatingPointError) as info:
            line = next_line()
            tg.log(y)
    message = str(info.value)
    assert message.startswith(f"log produced nan in the forward pass at {HERE}:{line} ")
    assert "(tape index 2, output (2,) float64)" in message
    assert "already contained" not in message
    assert len(tape) == 2  # the failing op recorded nothing


def test_forward_inf_and_ops_outside_any_tape():
    with tg.detect_anomaly():
        with pytest.raises(
            FloatingPointError, match=r"exp produced inf .*not recorded on any tape"
        ):
            tg.exp(tg.tensor([1000.0]))


def test_forward_index_on_each_tape_that_would_record():
    x = tg.tensor(0.0)
    with tg.detect_anomaly(), tg.GradientTape() as outer:
        outer.watch(x)
        x + 1.0
        with tg.GradientTape() as inner:
            inner.watch(x)
            with pytest.raises(
                FloatingPointError, match=r"tape indices 1, 0 \(outermost tape first\)"
            ):
                tg.log(x)


def test_forward_names_an_input_that_was_already_bad():
    x = tg.tensor([np.nan, 1.0])  # bad before detect_anomaly could see it
    with tg.detect_anomaly():
        with pytest.raises(FloatingPointError) as info:
            tg.sin(x)
    assert "input 0 ((2,) float64) already contained nan, so the nan came from before" in str(
        info.value
    )


def test_off_by_default_and_after_the_block():
    assert not anomaly.anomaly_mode()
    with tg.detect_anomaly():
        assert anomaly.anomaly_mode()
    assert not anomaly.anomaly_mode()
    assert np.isnan(tg.log(tg.tensor(-1.0)).item())


def test_off_means_no_check_runs(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("a check ran while detect_anomaly was off")

    # The checks tapegrad.debug registered with the engine's switch.
    monkeypatch.setitem(anomaly._checks, "forward", fail)
    monkeypatch.setitem(anomaly._checks, "backward", fail)
    x = tg.tensor([0.0, 1.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.sum(tg.sqrt(x))
    assert np.isinf(tape.gradient(y, x).numpy()[0])


def test_anomaly_mode_is_per_thread():
    seen = []
    with tg.detect_anomaly():
        thread = threading.Thread(target=lambda: seen.append(anomaly.anomaly_mode()))
        thread.start()
        thread.join()
    assert seen == [False]


def test_backward_inf_names_the_rule_tape_index_and_recording_line():
    x = tg.tensor([0.0, 4.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        h = x * 1.0
        line = next_line()
        y = tg.sum(tg.sqrt(h))
    with tg.detect_anomaly(), pytest.raises(FloatingPointError) as info:
        tape.gradient(y, x)
    assert str(info.value) == (
        "the gradient rule of sqrt produced inf for input 0 ((2,) float64) in the reverse sweep "
        f"(tape index 1, recorded at {HERE}:{line})"
    )
    # The entries stay under detect_anomaly, so the listing still shows the culprit.
    assert re.search(rf"= sqrt\(%\d+\) .* {HERE}:{line}", str(tape).splitlines()[1])


def test_backward_names_a_bad_incoming_cotangent():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.exp(x)
    with tg.detect_anomaly(), pytest.raises(FloatingPointError) as info:
        tape.gradient(y, x, output_gradients=tg.tensor([np.nan, 1.0]))
    assert "the gradient rule of exp produced nan" in str(info.value)
    assert "the cotangent exp received already contained nan" in str(info.value)


def test_backward_names_saved_inputs_the_forward_did_not_check():
    x = tg.tensor([np.inf, 1.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.sum(tg.sin(x))
    with tg.detect_anomaly(), pytest.raises(FloatingPointError) as info:
        tape.gradient(y, x)
    assert "rule of sin produced nan" in str(info.value)
    assert "its saved input 0 ((2,) float64) already contained inf" in str(info.value)


# A rule that computes inf in a branch it then discards, as rules often do.
_safe_reciprocal = Primitive(
    "safe_reciprocal", lambda xp, x: xp.where(x == 0, 0.0, 1.0 / xp.where(x == 0, 1.0, x))
).defvjp(lambda g, ans, x: ops.where(ops.equal(x, 0.0), 0.0, -g / (x * x)))


def test_values_discarded_inside_a_rule_are_not_anomalies():
    x = tg.tensor([0.0, 2.0])
    with tg.detect_anomaly():
        with tg.GradientTape() as tape:
            tape.watch(x)
            y = tg.sum(_safe_reciprocal(x))
        g = tape.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), [0.0, -0.25])


def test_second_derivatives_under_detect_anomaly():
    x = tg.tensor(2.0)
    with tg.detect_anomaly():
        with tg.GradientTape() as outer:
            outer.watch(x)
            with tg.GradientTape() as inner:
                inner.watch(x)
                y = x**3
            dy = inner.gradient(y, x)
        d2y = outer.gradient(dy, x)
    assert dy.item() == 12.0 and d2y.item() == 12.0


def test_non_persistent_tape_is_still_freed_after_a_clean_sweep():
    x = tg.tensor([1.0, 2.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        y = tg.sum(x * x)
    with tg.detect_anomaly():
        tape.gradient(y, x)
    assert len(tape) == 0
    with pytest.raises(RuntimeError, match="only be used once"):
        tape.gradient(y, x)
