"""tapegrad/optim/schedules.py: StepDecay and CosineDecay."""

import math

import numpy as np
import pytest

import tapegrad as tg
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


def test_exponential_decay_and_linear_warmup():
    assert [optim.ExponentialDecay(2.0, gamma=0.5)(s) for s in range(4)] == [2.0, 1.0, 0.5, 0.25]
    # PyTorch's LinearLR(start_factor=0.25, end_factor=1, total_iters=4) on lr = 2.
    warmup = optim.LinearWarmup(2.0, warmup_steps=4, start_factor=0.25)
    assert [warmup(s) for s in range(6)] == [0.5, 0.875, 1.25, 1.625, 2.0, 2.0]
    chained = optim.LinearWarmup(1.0, 2, after=optim.CosineDecay(1.0, decay_steps=2))
    assert [round(chained(s), 12) for s in range(5)] == [0.0, 0.5, 1.0, 0.5, 0.0]
    assert repr(chained).startswith("LinearWarmup(lr=1.0, warmup_steps=2, start_factor=0.0, after=")
    with pytest.raises(ValueError, match="warmup_steps must be >= 1"):
        optim.LinearWarmup(1.0, 0)
    with pytest.raises(ValueError, match="gamma must be > 0"):
        optim.ExponentialDecay(1.0, 0.0)


def test_one_cycle_follows_pytorchs_phases():
    # 10 steps, pct_start 0.3: up from 1/25 over steps 0..2 (phase end 0.3*10 - 1 = 2), then
    # down to 1/25/1e4 over steps 2..9, each by half a cosine.
    schedule = optim.OneCycle(1.0, total_steps=10)
    initial, final = 1 / 25, 1 / 25 / 1e4
    for step in range(3):
        expected = 1.0 + (initial - 1.0) / 2 * (1 + math.cos(math.pi * step / 2))
        assert schedule(step) == pytest.approx(expected, rel=1e-12)
    for step in range(2, 10):
        expected = final + (1.0 - final) / 2 * (1 + math.cos(math.pi * (step - 2) / 7))
        assert schedule(step) == pytest.approx(expected, rel=1e-12)
    linear = optim.OneCycle(1.0, total_steps=10, anneal_strategy="linear", three_phase=True)
    # Phases end at steps 2, 4 (= 2 * 3 - 2) and 9: up, back down to the start, then to the floor.
    assert [round(linear(s), 6) for s in (0, 1, 2, 3, 4)] == [0.04, 0.52, 1.0, 0.52, 0.04]
    assert linear(9) == pytest.approx(final)
    with pytest.raises(ValueError, match="step 11 is past total_steps=10"):
        schedule(11)


def test_reduce_lr_on_plateau_by_hand():
    plateau = optim.ReduceLROnPlateau(1.0, factor=0.5, patience=2, cooldown=1, min_lr=0.2)
    rates = []
    for loss in [5.0, 4.0] + [4.0] * 15:
        plateau.step(loss)
        rates.append(plateau(0))
    # Epochs 3, 4, 5 are bad: more than 2 of them halves the rate at 5; epoch 6 is the
    # cooldown and does not count; 7, 8, 9 are bad again; and so on down to min_lr.
    assert rates == [1.0] * 4 + [0.5] * 4 + [0.25] * 4 + [0.2] * 5
    maximising = optim.ReduceLROnPlateau(
        1.0, mode="max", patience=0, threshold=0.5, threshold_mode="abs"
    )
    maximising.step(1.0)
    maximising.step(1.4)  # not better than 1.0 + 0.5: a bad epoch
    assert maximising(0) == pytest.approx(0.1) and maximising.best == 1.0
    fresh = optim.ReduceLROnPlateau(3.0)
    fresh.load_state_dict(maximising.state_dict())
    assert fresh(0) == maximising(0) and fresh.last_epoch == 2
    with pytest.raises(ValueError, match="mode must be 'min' or 'max'"):
        optim.ReduceLROnPlateau(1.0, mode="lowest")


def test_an_optimizer_reads_reduce_lr_on_plateau_at_every_update():
    w = tg.Variable([0.0])
    plateau = optim.ReduceLROnPlateau(1.0, patience=0, factor=0.1)
    optimizer = optim.SGD([w], lr=plateau)
    optimizer.apply_gradients([[-1.0]])
    plateau.step(1.0)
    plateau.step(1.0)  # no improvement: the rate drops to 0.1
    optimizer.apply_gradients([[-1.0]])
    np.testing.assert_allclose(w.numpy(), [1.1])


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: optim.StepDecay(-0.1, 2), ValueError, "StepDecay: lr must be in"),
        (lambda: optim.StepDecay(0.1, 2, gamma=-1.0), ValueError, "StepDecay: gamma must be in"),
        (lambda: optim.CosineDecay("0.1", 3), TypeError, "CosineDecay: lr must be a number, got"),
        (lambda: optim.CosineDecay(0.1, 3, min_lr=-1), ValueError, "CosineDecay: min_lr"),
        (lambda: optim.ExponentialDecay(-1.0, 0.5), ValueError, "ExponentialDecay: lr"),
        (lambda: optim.LinearWarmup(0.1, 2, after=3), TypeError, "LinearWarmup: after must be"),
        (lambda: optim.OneCycle(-1.0, 10), ValueError, "OneCycle: max_lr must be in"),
        (lambda: optim.OneCycle(1.0, 10, div_factor=0), ValueError, "OneCycle: div_factor"),
        (lambda: optim.ReduceLROnPlateau(-0.1), ValueError, "ReduceLROnPlateau: lr must be"),
        (
            lambda: optim.ReduceLROnPlateau(0.1).step("a"),
            TypeError,
            "ReduceLROnPlateau.step: metric must be a number",
        ),
    ],
)
def test_bad_settings_are_refused_by_name(make, error, message):
    # A negative rate from a schedule would silently step uphill.
    with pytest.raises(error, match=message):
        make()
