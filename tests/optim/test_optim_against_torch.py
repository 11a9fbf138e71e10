"""The optimizers and schedules against PyTorch itself, where it is installed
(pip install torch==2.13.0): the same gradients give the same parameters and rates."""

import numpy as np
import pytest

import tapegrad as tg
from tapegrad import optim

torch = pytest.importorskip("torch")

CASES = [
    (optim.RMSprop, "RMSprop", {"lr": 0.01}),
    (optim.RMSprop, "RMSprop", {"lr": 0.01, "momentum": 0.9}),
    (optim.RMSprop, "RMSprop", {"lr": 0.01, "centered": True, "weight_decay": 0.1, "alpha": 0.9}),
    (optim.Adagrad, "Adagrad", {"lr": 0.1, "lr_decay": 0.05, "initial_accumulator_value": 0.3}),
    (optim.Adam, "Adam", {"lr": 0.01, "amsgrad": True, "weight_decay": 0.2}),
    (optim.AdamW, "AdamW", {"lr": 0.01, "amsgrad": True}),
    (optim.SGD, "SGD", {"lr": 0.01, "momentum": 0.9, "nesterov": True, "weight_decay": 0.1}),
]


@pytest.mark.parametrize(("ours", "theirs", "options"), CASES, ids=str)
def test_optimizer_steps(ours, theirs, options):
    rng = np.random.default_rng(0)
    p0, grads = rng.standard_normal(5), rng.standard_normal((25, 5)) * 3
    w = tg.Variable(p0)
    optimizer = ours([w], **options)
    p = torch.tensor(p0, requires_grad=True)
    reference = getattr(torch.optim, theirs)([p], **options)
    for g in grads:
        optimizer.apply_gradients([g])
        p.grad = torch.tensor(g)
        reference.step()
    np.testing.assert_allclose(w.numpy(), p.detach().numpy(), rtol=1e-12, atol=1e-14)


def rates(scheduler_class, steps, **options):
    """PyTorch's learning rate before each of ``steps`` updates (initial lr 2.0)."""
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=2.0)
    scheduler = scheduler_class(optimizer, **options)
    found = []
    for _ in range(steps):
        found.append(optimizer.param_groups[0]["lr"])
        optimizer.step()
        scheduler.step()
    return found


@pytest.mark.parametrize(
    "options",
    [{"total_steps": 20}, {"total_steps": 20, "three_phase": True},
     {"total_steps": 17, "pct_start": 0.25, "anneal_strategy": "linear"}],
    ids=str,
)  # fmt: skip
def test_one_cycle(options):
    expected = rates(torch.optim.lr_scheduler.OneCycleLR, options["total_steps"], max_lr=2.0,
                     cycle_momentum=False, **options)  # fmt: skip
    schedule = optim.OneCycle(2.0, **options)
    np.testing.assert_allclose([schedule(s) for s in range(len(expected))], expected, rtol=1e-12)


def test_linear_warmup_and_exponential_decay():
    expected = rates(torch.optim.lr_scheduler.LinearLR, 8, start_factor=0.25, total_iters=5)
    warmup = optim.LinearWarmup(2.0, 5, start_factor=0.25)
    np.testing.assert_allclose([warmup(s) for s in range(8)], expected, rtol=1e-12)
    expected = rates(torch.optim.lr_scheduler.ExponentialLR, 8, gamma=0.9)
    decay = optim.ExponentialDecay(2.0, 0.9)
    np.testing.assert_allclose([decay(s) for s in range(8)], expected, rtol=1e-12)


@pytest.mark.parametrize(
    "options",
    [{}, {"mode": "max", "factor": 0.5, "patience": 2, "threshold": 0.1, "threshold_mode": "abs",
          "cooldown": 2, "min_lr": 0.01}],
    ids=str,
)  # fmt: skip
def test_reduce_lr_on_plateau(options):
    optimizer = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    reference = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, **options)
    ours = optim.ReduceLROnPlateau(1.0, **options)
    metrics = list(np.random.default_rng(0).random(60)) + [0.5] * 40
    for metric in metrics:
        reference.step(metric)
        ours.step(metric)
        assert ours(0) == pytest.approx(optimizer.param_groups[0]["lr"], rel=1e-15)
