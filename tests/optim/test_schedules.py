"""tapegrad/optim/schedules.py: StepDecay and CosineDecay."""

import math

import pytest

from tapegrad import optim


def test_step_decay():
    schedule = optim.StepDecay(0.5, step_size=3, gamma=0.1)
    assert [schedule(s) for s in range(7)] == pytest.approx(
        [0.5, 0.5, 0.5, 0.05, 0.05, 0.05, 0.005]
    )


def test_cosine_decay_follows_half_a_cosine_then_stays_at_the_floor():
    schedule = optim.CosineDecay(1.0, decay_steps=10, min_lr=0.1)
    for step in range(11):
        expected = 0.1 + 0.9 * (1 + math.cos(math.pi * step / 10)) / 2
        assert schedule(step) == pytest.approx(expected)
    assert schedule(0) == 1.0 and schedule(5) == pytest.approx(0.55)
    assert schedule(10) == pytest.approx(0.1) and schedule(1000) == pytest.approx(0.1)
    values = [schedule(s) for s in range(12)]
    assert all(a >= b for a, b in zip(values, values[1:]))


def test_schedules_reject_empty_periods():
    with pytest.raises(ValueError, match="step_size"):
        optim.StepDecay(0.1, step_size=0)
    with pytest.raises(ValueError, match="decay_steps"):
        optim.CosineDecay(0.1, decay_steps=0)
