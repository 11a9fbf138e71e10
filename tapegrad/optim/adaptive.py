"""Optimizers that scale each coordinate by its gradients' history: RMSprop and Adagrad, with
PyTorch's update rules step for step (``torch.optim.RMSprop``, ``torch.optim.Adagrad``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tapegrad.core.tensor import Variable
from tapegrad.optim.optimizers import LearningRate, Optimizer
from tapegrad.optim.state import check_range, choose_learning_rate


class RMSprop(Optimizer):
    """RMSprop::

        g = grad + weight_decay * p
        v = alpha * v + (1 - alpha) * g**2                  (v starts at 0)
        centered:  a = alpha * a + (1 - alpha) * g;  d = sqrt(v - a**2) + eps
        otherwise: d = sqrt(v) + eps
        momentum:  b = momentum * b + g / d;  p = p - lr * b  (b starts at 0)
        otherwise: p = p - lr * g / d

    Args:
        variables: The Variables to train: a list (``model.trainable_variables``), each
            floating-point and listed once.
        lr: The learning rate: a number, or a schedule (a callable from the number of
            updates applied so far to a learning rate). Default 1e-2.
        learning_rate: TensorFlow/Keras's name for ``lr`` (give one of the two).
        alpha: The decay rate of the running mean of squared gradients, in ``[0, 1)``.
        eps: Added to the denominator for stability.
        weight_decay: The L2 penalty added to the gradient.
        momentum: The momentum factor (0: none).
        centered: Whether to divide by the variance estimate instead of the mean square.

    Raises:
        TypeError: ``variables`` is not a list of floating-point Variables (a Module, a single
            Variable, a Tensor), or ``lr`` is not a number or a schedule.
        ValueError: A Variable is listed twice, or a setting is out of its range.

    >>> import tapegrad as tg
    >>> w = tg.Variable([1.0])
    >>> tg.optim.RMSprop([w], lr=0.01).apply_gradients([tg.tensor([2.0])])
    >>> round(float(w.numpy()[0]), 6)  # 1 - 0.01 * 2 / sqrt(0.01 * 4)
    0.9
    """

    hyperparameters = ("alpha", "eps", "weight_decay", "momentum", "centered")

    def __init__(
        self,
        variables: Iterable[Variable],
        lr: LearningRate | None = None,
        alpha: float = 0.99,
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        momentum: float = 0.0,
        centered: bool = False,
        *,
        learning_rate: LearningRate | None = None,
    ) -> None:
        super().__init__(variables, choose_learning_rate("RMSprop", lr, learning_rate, 1e-2))
        check_range("RMSprop", "alpha", alpha, 0.0, 1.0)
        check_range("RMSprop", "eps", eps, 0.0)
        check_range("RMSprop", "weight_decay", weight_decay, 0.0)
        check_range("RMSprop", "momentum", momentum, 0.0)
        self.alpha = float(alpha)
        self.eps = float(eps)
        self.weight_decay = float(weight_decay)
        self.momentum = float(momentum)
        self.centered = bool(centered)

    def _updated(self, xp: Any, p: Any, g: Any, state: dict[str, Any], lr: float) -> Any:
        alpha = self.alpha
        if self.weight_decay:
            g = g + self.weight_decay * p
        v = state.get("square_avg")
        v = (1.0 - alpha) * (g * g) if v is None else alpha * v + (1.0 - alpha) * (g * g)
        state["square_avg"] = v
        if self.centered:
            a = state.get("grad_avg")
            a = (1.0 - alpha) * g if a is None else alpha * a + (1.0 - alpha) * g
            state["grad_avg"] = a
            denominator = xp.sqrt(v - a * a) + self.eps
        else:
            denominator = xp.sqrt(v) + self.eps
        if self.momentum:
            b = state.get("momentum_buffer")
            b = g / denominator if b is None else self.momentum * b + g / denominator
            state["momentum_buffer"] = b
            return p - lr * b
        return p - lr * (g / denominator)


class Adagrad(Optimizer):
    """Adagrad::

        g = grad + weight_decay * p
        s = s + g**2                       (s starts at initial_accumulator_value)
        p = p - lr / (1 + (t - 1) * lr_decay) * g / (sqrt(s) + eps)

    Args:
        variables: The Variables to train: a list (``model.trainable_variables``), each
            floating-point and listed once.
        lr: The learning rate: a number, or a schedule (a callable from the number of
            updates applied so far to a learning rate). Default 1e-2.
        learning_rate: TensorFlow/Keras's name for ``lr`` (give one of the two).
        lr_decay: The learning rate decays as ``lr / (1 + (t - 1) * lr_decay)``.
        weight_decay: The L2 penalty added to the gradient.
        initial_accumulator_value: The starting sum of squared gradients.
        eps: Added to the denominator for stability.

    Raises:
        TypeError: ``variables`` is not a list of floating-point Variables (a Module, a single
            Variable, a Tensor), or ``lr`` is not a number or a schedule.
        ValueError: A Variable is listed twice, or a setting is out of its range.

    >>> import tapegrad as tg
    >>> w = tg.Variable([1.0])
    >>> tg.optim.Adagrad([w], lr=0.5).apply_gradients([tg.tensor([3.0])])
    >>> w.numpy()  # 1 - 0.5 * 3 / sqrt(9)
    array([0.5])
    """

    hyperparameters = ("lr_decay", "weight_decay", "initial_accumulator_value", "eps")

    def __init__(
        self,
        variables: Iterable[Variable],
        lr: LearningRate | None = None,
        lr_decay: float = 0.0,
        weight_decay: float = 0.0,
        initial_accumulator_value: float = 0.0,
        eps: float = 1e-10,
        *,
        learning_rate: LearningRate | None = None,
    ) -> None:
        super().__init__(variables, choose_learning_rate("Adagrad", lr, learning_rate, 1e-2))
        check_range("Adagrad", "lr_decay", lr_decay, 0.0)
        check_range("Adagrad", "weight_decay", weight_decay, 0.0)
        check_range("Adagrad", "initial_accumulator_value", initial_accumulator_value, 0.0)
        check_range("Adagrad", "eps", eps, 0.0)
        self.lr_decay = float(lr_decay)
        self.weight_decay = float(weight_decay)
        self.initial_accumulator_value = float(initial_accumulator_value)
        self.eps = float(eps)

    def _updated(self, xp: Any, p: Any, g: Any, state: dict[str, Any], lr: float) -> Any:
        if self.weight_decay:
            g = g + self.weight_decay * p
        s = state.get("sum")
        s = (self.initial_accumulator_value + g * g) if s is None else s + g * g
        state["sum"] = s
        rate = lr / (1.0 + (state["step"] - 1) * self.lr_decay)
        return p - rate * (g / (xp.sqrt(s) + self.eps))
