"""Learning-rate schedules: callables from the number of updates applied so far to a rate.

Pass one as an optimizer's ``lr``; the optimizer calls it with its ``iterations``
count (0 for the first update).
"""

from __future__ import annotations

import math


class StepDecay:
    """``lr * gamma ** (step // step_size)``: PyTorch's ``StepLR``, counted in updates.

    >>> import tapegrad as tg
    >>> schedule = tg.optim.StepDecay(0.1, step_size=10, gamma=0.5)
    >>> [schedule(0), schedule(9), schedule(10), schedule(25)]
    [0.1, 0.1, 0.05, 0.025]
    """

    def __init__(self, lr: float, step_size: int, gamma: float = 0.1) -> None:
        if step_size < 1:
            raise ValueError(f"StepDecay: step_size must be >= 1, got {step_size}")
        self.lr = lr
        self.step_size = step_size
        self.gamma = gamma

    def __call__(self, step: int) -> float:
        return self.lr * self.gamma ** (step // self.step_size)

    def __repr__(self) -> str:
        return f"StepDecay(lr={self.lr}, step_size={self.step_size}, gamma={self.gamma})"


class CosineDecay:
    """Half a cosine from ``lr`` down to ``min_lr`` over ``decay_steps`` updates, then
    ``min_lr`` (PyTorch's ``CosineAnnealingLR`` up to ``T_max``; it stays at the floor after)::

        min_lr + (lr - min_lr) * (1 + cos(pi * min(step, decay_steps) / decay_steps)) / 2

    >>> import tapegrad as tg
    >>> schedule = tg.optim.CosineDecay(1.0, decay_steps=4)
    >>> [round(schedule(s), 4) for s in range(6)]
    [1.0, 0.8536, 0.5, 0.1464, 0.0, 0.0]
    """

    def __init__(self, lr: float, decay_steps: int, min_lr: float = 0.0) -> None:
        if decay_steps < 1:
            raise ValueError(f"CosineDecay: decay_steps must be >= 1, got {decay_steps}")
        self.lr = lr
        self.decay_steps = decay_steps
        self.min_lr = min_lr

    def __call__(self, step: int) -> float:
        progress = min(step, self.decay_steps) / self.decay_steps
        return self.min_lr + (self.lr - self.min_lr) * (1.0 + math.cos(math.pi * progress)) / 2.0

    def __repr__(self) -> str:
        return f"CosineDecay(lr={self.lr}, decay_steps={self.decay_steps}, min_lr={self.min_lr})"
