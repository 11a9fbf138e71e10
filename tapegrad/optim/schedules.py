"""Learning-rate schedules: callables from the number of updates applied so far to a rate.

Pass one as an optimizer's ``lr``; the optimizer calls it with its ``iterations``
count (0 for the first update). ReduceLROnPlateau is the one with a state of its own
(it follows a metric), saved in the optimizer's ``state_dict``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from tapegrad.optim.state import check_lr, check_range


class StepDecay:
    """``lr * gamma ** (step // step_size)``: PyTorch's ``StepLR``, counted in updates.

    Args:
        lr: The initial learning rate.
        step_size: Updates between decays, at least 1.
        gamma: The factor applied at each decay.

    Raises:
        ValueError: ``step_size`` is below 1, or ``lr`` or ``gamma`` is negative.
        TypeError: ``lr`` or ``gamma`` is not a number.

    >>> import tapegrad as tg
    >>> schedule = tg.optim.StepDecay(0.1, step_size=10, gamma=0.5)
    >>> [schedule(0), schedule(9), schedule(10), schedule(25)]
    [0.1, 0.1, 0.05, 0.025]
    """

    def __init__(self, lr: float, step_size: int, gamma: float = 0.1) -> None:
        if step_size < 1:
            raise ValueError(f"StepDecay: step_size must be >= 1, got {step_size}")
        check_lr("StepDecay", lr, schedule=False)
        check_range("StepDecay", "gamma", gamma, 0.0)
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

    Args:
        lr: The initial learning rate.
        decay_steps: Updates over which the rate falls, at least 1.
        min_lr: The final learning rate.

    Raises:
        ValueError: ``decay_steps`` is below 1, or ``lr`` or ``min_lr`` is negative.
        TypeError: ``lr`` or ``min_lr`` is not a number.

    >>> import tapegrad as tg
    >>> schedule = tg.optim.CosineDecay(1.0, decay_steps=4)
    >>> [round(schedule(s), 4) for s in range(6)]
    [1.0, 0.8536, 0.5, 0.1464, 0.0, 0.0]
    """

    def __init__(self, lr: float, decay_steps: int, min_lr: float = 0.0) -> None:
        if decay_steps < 1:
            raise ValueError(f"CosineDecay: decay_steps must be >= 1, got {decay_steps}")
        check_lr("CosineDecay", lr, schedule=False)
        check_range("CosineDecay", "min_lr", min_lr, 0.0)
        self.lr = lr
        self.decay_steps = decay_steps
        self.min_lr = min_lr

    def __call__(self, step: int) -> float:
        progress = min(step, self.decay_steps) / self.decay_steps
        return self.min_lr + (self.lr - self.min_lr) * (1.0 + math.cos(math.pi * progress)) / 2.0

    def __repr__(self) -> str:
        return f"CosineDecay(lr={self.lr}, decay_steps={self.decay_steps}, min_lr={self.min_lr})"


class ExponentialDecay:
    """``lr * gamma ** step``: PyTorch's ``ExponentialLR``, counted in updates.

    Args:
        lr: The initial learning rate.
        gamma: The factor applied at each update, positive.

    Raises:
        ValueError: ``gamma`` is not positive, or ``lr`` is negative.
        TypeError: ``lr`` is not a number.

    >>> import tapegrad as tg
    >>> schedule = tg.optim.ExponentialDecay(1.0, gamma=0.5)
    >>> [schedule(s) for s in range(4)]
    [1.0, 0.5, 0.25, 0.125]
    """

    def __init__(self, lr: float, gamma: float) -> None:
        if not gamma > 0:
            raise ValueError(f"ExponentialDecay: gamma must be > 0, got {gamma}")
        check_lr("ExponentialDecay", lr, schedule=False)
        self.lr = lr
        self.gamma = gamma

    def __call__(self, step: int) -> float:
        return self.lr * self.gamma**step

    def __repr__(self) -> str:
        return f"ExponentialDecay(lr={self.lr}, gamma={self.gamma})"


class LinearWarmup:
    """A linear ramp from ``lr * start_factor`` up to ``lr`` over ``warmup_steps`` updates
    (PyTorch's ``LinearLR`` with ``end_factor=1``), then ``after(step - warmup_steps)``
    when a schedule is given (as PyTorch's ``SequentialLR`` chains them), else ``lr``::

        lr * (start_factor + (1 - start_factor) * step / warmup_steps)   while step < warmup_steps

    Args:
        lr: The learning rate reached at the end of the warmup.
        warmup_steps: Updates the ramp lasts, at least 1.
        start_factor: The first update's rate as a fraction of ``lr``, in ``[0, 1]``.
        after: The schedule that follows the warmup, called with the updates since its end;
            ``lr`` from then on when None.

    Raises:
        ValueError: ``warmup_steps`` is below 1, ``start_factor`` is outside ``[0, 1]``,
            or ``lr`` is negative.
        TypeError: ``lr`` is not a number, or ``after`` is not callable.

    >>> import tapegrad as tg
    >>> decay = tg.optim.ExponentialDecay(1.0, gamma=0.5)
    >>> schedule = tg.optim.LinearWarmup(1.0, warmup_steps=4, after=decay)
    >>> [schedule(s) for s in range(7)]
    [0.0, 0.25, 0.5, 0.75, 1.0, 0.5, 0.25]
    """

    def __init__(
        self,
        lr: float,
        warmup_steps: int,
        start_factor: float = 0.0,
        after: Callable[[int], float] | None = None,
    ) -> None:
        if warmup_steps < 1:
            raise ValueError(f"LinearWarmup: warmup_steps must be >= 1, got {warmup_steps}")
        if not 0.0 <= start_factor <= 1.0:
            raise ValueError(f"LinearWarmup: start_factor must be in [0, 1], got {start_factor}")
        check_lr("LinearWarmup", lr, schedule=False)
        if after is not None and not callable(after):
            raise TypeError(
                f"LinearWarmup: after must be a schedule (a callable of the step) or None, "
                f"got {type(after).__name__} {after!r}"
            )
        self.lr = lr
        self.warmup_steps = warmup_steps
        self.start_factor = start_factor
        self.after = after

    def __call__(self, step: int) -> float:
        if step < self.warmup_steps:
            fraction = step / self.warmup_steps
            return self.lr * (self.start_factor + (1.0 - self.start_factor) * fraction)
        return self.lr if self.after is None else self.after(step - self.warmup_steps)

    def __repr__(self) -> str:
        after = "" if self.after is None else f", after={self.after!r}"
        return (
            f"LinearWarmup(lr={self.lr}, warmup_steps={self.warmup_steps}, "
            f"start_factor={self.start_factor}{after})"
        )


class OneCycle:
    """The one-cycle policy (PyTorch's ``OneCycleLR``): from ``max_lr / div_factor`` up to
    ``max_lr`` over the first ``pct_start`` of ``total_steps``, then down to
    ``max_lr / div_factor / final_div_factor``, each phase by half a cosine (or linearly
    with ``anneal_strategy="linear"``). ``three_phase`` comes back down to the initial
    rate symmetrically before the final annealing. A step past ``total_steps`` raises,
    as PyTorch does. (PyTorch also cycles the momentum; here the schedule sets lr only.)

    Args:
        max_lr: The peak learning rate.
        total_steps: The number of updates in the cycle, at least 1.
        pct_start: The fraction of the cycle spent rising, in ``[0, 1]``.
        anneal_strategy: ``"cos"`` or ``"linear"``.
        div_factor: The initial rate is ``max_lr / div_factor``.
        final_div_factor: The final rate is the initial one divided by this.
        three_phase: Whether to come back down to the initial rate before the final phase.

    Raises:
        ValueError: A setting is out of range; and, when called, a step past ``total_steps``.
        TypeError: ``max_lr`` or a factor is not a number.

    >>> import tapegrad as tg
    >>> schedule = tg.optim.OneCycle(1.0, total_steps=10, pct_start=0.3)
    >>> [round(schedule(s), 4) for s in (0, 2, 9)]
    [0.04, 1.0, 0.0]
    """

    def __init__(
        self,
        max_lr: float,
        total_steps: int,
        pct_start: float = 0.3,
        anneal_strategy: str = "cos",
        div_factor: float = 25.0,
        final_div_factor: float = 1e4,
        three_phase: bool = False,
    ) -> None:
        if total_steps < 1:
            raise ValueError(f"OneCycle: total_steps must be >= 1, got {total_steps}")
        if not 0.0 <= pct_start <= 1.0:
            raise ValueError(f"OneCycle: pct_start must be in [0, 1], got {pct_start}")
        check_lr("OneCycle", max_lr, schedule=False, what="max_lr")
        check_range("OneCycle", "div_factor", div_factor, 0.0)
        check_range("OneCycle", "final_div_factor", final_div_factor, 0.0)
        if div_factor == 0 or final_div_factor == 0:
            raise ValueError("OneCycle: div_factor and final_div_factor must be > 0")
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError(
                f"OneCycle: anneal_strategy must be 'cos' or 'linear', got {anneal_strategy!r}"
            )
        self.max_lr = max_lr
        self.total_steps = total_steps
        self.pct_start = pct_start
        self.anneal_strategy = anneal_strategy
        self.div_factor = div_factor
        self.final_div_factor = final_div_factor
        self.three_phase = three_phase
        initial = max_lr / div_factor
        minimum = initial / final_div_factor
        peak = float(pct_start * total_steps) - 1
        # (last step of the phase, rate at its start, rate at its end), as PyTorch's phases.
        if three_phase:
            self.phases = [
                (peak, initial, max_lr),
                (float(2 * pct_start * total_steps) - 2, max_lr, initial),
                (total_steps - 1, initial, minimum),
            ]
        else:
            self.phases = [(peak, initial, max_lr), (total_steps - 1, max_lr, minimum)]

    def __call__(self, step: int) -> float:
        if step > self.total_steps:
            raise ValueError(
                f"OneCycle: step {step} is past total_steps={self.total_steps}; "
                "make total_steps cover the whole run"
            )
        start = 0.0
        for i, (end, high, low) in enumerate(self.phases):
            if step <= end or i == len(self.phases) - 1:
                fraction = (step - start) / (end - start) if end != start else 1.0
                if self.anneal_strategy == "linear":
                    return high + (low - high) * fraction
                return low + (high - low) / 2.0 * (1.0 + math.cos(math.pi * fraction))
            start = end
        raise AssertionError("unreachable: the last phase always answers")

    def __repr__(self) -> str:
        return (
            f"OneCycle(max_lr={self.max_lr}, total_steps={self.total_steps}, "
            f"pct_start={self.pct_start}, anneal_strategy={self.anneal_strategy!r})"
        )


class ReduceLROnPlateau:
    """Divide the rate by ``1/factor`` when a watched metric stops improving (PyTorch's
    ``ReduceLROnPlateau``). Pass it as an optimizer's ``lr`` and call ``step(metric)``
    once an epoch; the optimizer reads the current rate at every update.

    The metric improves when it beats the best so far by ``threshold`` (relative:
    ``best * (1 - threshold)`` in ``"min"`` mode; ``"abs"``: ``best - threshold``). After
    more than ``patience`` epochs without improvement the rate becomes
    ``max(lr * factor, min_lr)`` (unless that changes it by less than ``eps``), and
    ``cooldown`` epochs pass before bad epochs count again.

    Args:
        lr: The initial learning rate.
        mode: ``"min"`` (the metric should fall, as a loss) or ``"max"``.
        factor: The rate is multiplied by this on a plateau, in ``[0, 1)``.
        patience: Epochs without improvement tolerated before the rate falls.
        threshold: How much better than the best a metric must be to count.
        threshold_mode: ``"rel"`` (relative to the best) or ``"abs"``.
        cooldown: Epochs after a reduction before bad epochs count again.
        min_lr: The rate never falls below this.
        eps: Reductions smaller than this are skipped.

    Raises:
        ValueError: ``mode``, ``threshold_mode`` or ``factor`` is invalid, or ``lr`` or
            ``min_lr`` is negative.
        TypeError: ``lr`` or ``min_lr`` is not a number.

    >>> import tapegrad as tg
    >>> plateau = tg.optim.ReduceLROnPlateau(1.0, patience=1, factor=0.5)
    >>> for loss in [3.0, 2.0, 2.0, 2.0, 2.0, 2.0]:
    ...     plateau.step(loss)
    >>> plateau(0), plateau.num_bad_epochs
    (0.25, 0)
    """

    def __init__(
        self,
        lr: float,
        mode: str = "min",
        factor: float = 0.1,
        patience: int = 10,
        threshold: float = 1e-4,
        threshold_mode: str = "rel",
        cooldown: int = 0,
        min_lr: float = 0.0,
        eps: float = 1e-8,
    ) -> None:
        if mode not in ("min", "max"):
            raise ValueError(f"ReduceLROnPlateau: mode must be 'min' or 'max', got {mode!r}")
        if threshold_mode not in ("rel", "abs"):
            raise ValueError(
                f"ReduceLROnPlateau: threshold_mode must be 'rel' or 'abs', got {threshold_mode!r}"
            )
        if not 0.0 <= factor < 1.0:
            raise ValueError(f"ReduceLROnPlateau: factor must be in [0, 1), got {factor}")
        check_lr("ReduceLROnPlateau", lr, schedule=False)
        check_range("ReduceLROnPlateau", "min_lr", min_lr, 0.0)
        self.mode, self.factor, self.patience = mode, factor, patience
        self.threshold, self.threshold_mode = threshold, threshold_mode
        self.cooldown, self.min_lr, self.eps = cooldown, min_lr, eps
        self.lr = float(lr)
        self.best = math.inf if mode == "min" else -math.inf
        self.num_bad_epochs = 0
        self.cooldown_counter = 0
        self.last_epoch = 0

    def __call__(self, step: int) -> float:
        return self.lr

    def _improves(self, value: float) -> bool:
        if self.mode == "min":
            bound = (
                self.best * (1.0 - self.threshold)
                if self.threshold_mode == "rel"
                else (self.best - self.threshold)
            )
            return value < bound
        bound = (
            self.best * (1.0 + self.threshold)
            if self.threshold_mode == "rel"
            else (self.best + self.threshold)
        )
        return value > bound

    def step(self, metric: float) -> None:
        """Record one epoch's metric (a loss in ``"min"`` mode) and lower the rate if due.

        Args:
            metric: The epoch's value of the watched metric.

        Raises:
            TypeError: ``metric`` is not a number.
        """
        try:
            value = float(metric)
        except (TypeError, ValueError):
            raise TypeError(
                f"ReduceLROnPlateau.step: metric must be a number (a loss, an accuracy), "
                f"got {type(metric).__name__} {metric!r}"
            ) from None
        self.last_epoch += 1
        if self._improves(value):
            self.best = value
            self.num_bad_epochs = 0
        else:
            self.num_bad_epochs += 1
        if self.cooldown_counter > 0:
            self.cooldown_counter -= 1
            self.num_bad_epochs = 0
        if self.num_bad_epochs > self.patience:
            reduced = max(self.lr * self.factor, self.min_lr)
            if self.lr - reduced > self.eps:
                self.lr = reduced
            self.cooldown_counter = self.cooldown
            self.num_bad_epochs = 0

    def state_dict(self) -> dict[str, float]:
        """The position on the plateau: saved with the optimizer's state."""
        return {
            "lr": self.lr, "best": self.best, "num_bad_epochs": self.num_bad_epochs,
            "cooldown_counter": self.cooldown_counter, "last_epoch": self.last_epoch,
        }  # fmt: skip

    def load_state_dict(self, state: dict[str, float]) -> None:
        """Resume from what :meth:`state_dict` returned."""
        self.lr = float(state["lr"])
        self.best = float(state["best"])
        self.num_bad_epochs = int(state["num_bad_epochs"])
        self.cooldown_counter = int(state["cooldown_counter"])
        self.last_epoch = int(state["last_epoch"])

    def __repr__(self) -> str:
        return (
            f"ReduceLROnPlateau(lr={self.lr}, mode={self.mode!r}, factor={self.factor}, "
            f"patience={self.patience})"
        )
