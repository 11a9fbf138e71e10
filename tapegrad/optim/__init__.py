"""Optimizers, learning-rate schedules and gradient clipping (``tg.optim``).

Layer: built on the engine, the op library and ``tapegrad.nn`` (parameters of Modules).

>>> import tapegrad as tg
>>> w = tg.Variable([3.0])
>>> optimizer = tg.optim.SGD([w], lr=0.25)
>>> for _ in range(3):
...     with tg.GradientTape() as tape:
...         loss = (w * w).sum()
...     optimizer.apply_gradients(tape.gradient(loss, [w]))
>>> w.numpy()
array([0.375])
"""

from typing import Any

from tapegrad import peers
from tapegrad.optim.adaptive import Adagrad, RMSprop
from tapegrad.optim.clip import clip_by_global_norm
from tapegrad.optim.optimizers import SGD, Adam, AdamW, Optimizer
from tapegrad.optim.schedules import (
    CosineDecay,
    ExponentialDecay,
    LinearWarmup,
    OneCycle,
    ReduceLROnPlateau,
    StepDecay,
)

__all__ = [
    "SGD", "Adagrad", "Adam", "AdamW", "CosineDecay", "ExponentialDecay", "LinearWarmup",
    "OneCycle", "Optimizer", "RMSprop", "ReduceLROnPlateau", "StepDecay", "clip_by_global_norm",
]  # fmt: skip


def __getattr__(name: str) -> Any:
    # PyTorch's names tapegrad.optim lacks (lr_scheduler): what tapegrad calls them.
    raise peers.missing("tg.optim", name, f"module 'tapegrad.optim' has no attribute {name!r}")
