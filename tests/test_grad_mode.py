"""tapegrad/core/grad_mode.py: tg.no_grad pauses every active tape of this thread, and only it."""

import threading

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.core.active import active_tapes


def test_nothing_inside_is_recorded_on_any_active_tape():
    x = tg.tensor(2.0)
    with tg.GradientTape() as outer, tg.GradientTape() as inner:
        outer.watch(x)
        inner.watch(x)
        y = x * x
        with tg.no_grad():
            z = tg.exp(x) * x  # a constant to both tapes
        total = y + z
    assert len(outer) == len(inner) == 2  # y and total
    assert outer.gradient(total, x).item() == 4.0 and inner.gradient(total, x).item() == 4.0


def test_recording_resumes_after_the_block_and_variables_are_not_watched_inside():
    w = tg.Variable(3.0)
    with tg.GradientTape() as tape:
        with tg.no_grad():
            w * 2.0
        assert tape.watched_variables() == ()
        y = w * w
    assert tape.gradient(y, w).item() == 6.0


def test_a_tape_entered_inside_records_and_transforms_work_inside():
    x = tg.tensor(1.5)
    with tg.GradientTape() as outside:
        outside.watch(x)
        with tg.no_grad():
            with tg.GradientTape() as inside:
                inside.watch(x)
                y = x**3
            assert inside.gradient(y, x).item() == pytest.approx(6.75)
            assert tg.grad(lambda v: v**2)(x).item() == 3.0
    assert len(outside) == 0


def test_decorator_form_and_an_exception_restore_the_tapes():
    @tg.no_grad()
    def evaluate(v):
        return v * 10.0

    w = tg.Variable(1.0)
    with tg.GradientTape() as tape:
        evaluate(w)
        with pytest.raises(ZeroDivisionError):
            with tg.no_grad():
                raise ZeroDivisionError
        y = w * 2.0
    assert len(tape) == 1 and tape.gradient(y, w).item() == 2.0


def test_a_tape_exited_inside_the_block_is_not_revived():
    tape = tg.GradientTape()
    tape.__enter__()
    with tg.no_grad():
        tape.__exit__(None, None, None)
    x = tg.tensor(1.0)
    tape.watch(x)
    x * 2.0
    assert len(tape) == 0 and active_tapes() == ()


def test_other_threads_keep_recording():
    x = tg.tensor(np.ones(3))
    recorded = []
    started, release = threading.Event(), threading.Event()

    def worker():
        with tg.GradientTape() as tape:
            tape.watch(x)
            started.set()
            release.wait(5)
            tg.sum(x * x)
        recorded.append(len(tape))

    thread = threading.Thread(target=worker)
    thread.start()
    started.wait(5)
    with tg.no_grad():
        release.set()
        thread.join(5)
    assert recorded == [2]


def test_no_grad_inside_a_compiled_function_is_refused():
    def f(x):
        with tg.no_grad():
            return tg.sum(x * 2.0)

    with pytest.raises(NotImplementedError, match="use tg.stop_gradient on its result instead"):
        tg.compile(f)(np.ones(2))
