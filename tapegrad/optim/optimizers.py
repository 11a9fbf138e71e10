"""Optimizers: SGD, Adam, AdamW, with PyTorch's update rules step for step (RMSprop and
Adagrad are in adaptive.py; checks and state dicts in state.py).

An optimizer holds a list of Variables and, per Variable, a little state
(momentum buffers, moment estimates, a step count). ``apply_gradients(grads)``
takes one gradient per Variable, in order, skipping ``None``. Updates work on
the backend arrays and go through ``Variable.assign``, outside any tape (a new NumPy
array an update made is kept as it is, not copied).
Hyperparameters are Python floats, so a float32 Variable stays float32.

Complex Variables train as PyTorch's do: the gradient is dL/dx + i dL/dy
(docs/complex.md), and every update rule sees a complex parameter as two real ones,
its real and imaginary parts along a last axis (PyTorch's ``view_as_real``), so the
nonlinear updates (squares, square roots, maxima) act on each part. The state of a
complex Variable is real, with that extra axis.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from tapegrad import peers
from tapegrad.backends import blas
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.optim import state as saved_state
from tapegrad.optim.state import check_range as _check_range
from tapegrad.wording import a, count

LearningRate = float | Callable[[int], float]


class Optimizer:
    """Base class: checks the gradients, tracks the step count and the learning rate.

    ``lr`` is a float or a schedule, a callable from the number of updates applied
    so far (0 for the first) to a learning rate (see ``tg.optim.StepDecay``).
    ``state_dict()``/``load_state_dict()`` (and ``save``/``load`` to ``.npz``) carry
    everything an update depends on, so a resumed run continues bit for bit.

    Args:
        variables: The Variables to train: a list (``model.trainable_variables``), each
            floating-point and listed once.
        lr: The learning rate: a number, or a schedule (a callable from the number of
            updates applied so far to a learning rate).

    Raises:
        TypeError: ``variables`` is not a list of floating-point Variables (a Module, a single
            Variable, a Tensor), or ``lr`` is not a number or a schedule.
        ValueError: A Variable is listed twice, or a setting is out of its range.

    >>> import tapegrad as tg
    >>> w = tg.Variable([1.0, 2.0])
    >>> opt = tg.optim.SGD([w], lr=0.5)  # a subclass
    >>> opt.apply_gradients([tg.tensor([1.0, 1.0])])
    >>> w.numpy(), opt.iterations
    (array([0.5, 1.5]), 1)
    """

    # The settings shown in the repr and kept in the state dict, besides lr.
    hyperparameters: tuple[str, ...] = ()

    def __init__(self, variables: Iterable[Variable], lr: LearningRate) -> None:
        name = type(self).__name__
        self.variables = saved_state.check_variables(name, variables)
        saved_state.check_lr(name, lr)
        self.lr = lr
        self.iterations = 0
        self.state: list[dict[str, Any]] = [{} for _ in self.variables]

    if not TYPE_CHECKING:  # (hidden from type checkers: every attribute would type-check)

        def __getattr__(self, name: str) -> Any:
            # Only names not found otherwise: PyTorch's (optimizer.step()) get a message.
            raise peers.missing_attribute("Optimizer", self, name)

    @property
    def learning_rate(self) -> float:
        """The learning rate the next update will use."""
        return float(self.lr(self.iterations) if callable(self.lr) else self.lr)

    def apply_gradients(self, grads: Sequence[Any]) -> None:
        """Update each Variable from its gradient (``None``: leave it, and its state, alone).

        Every gradient is checked before any Variable changes.

        Args:
            grads: One gradient (Tensor, array or None) per Variable, in the optimizer's order,
                or TensorFlow's ``(gradient, variable)`` pairs.

        Raises:
            ValueError: The number of gradients, or a gradient's shape, does not match.
        """
        grads = list(grads)
        name = type(self).__name__
        if grads and all(saved_state.is_pair(g) for g in grads):
            grads = saved_state.from_pairs(name, grads, self.variables)
        if len(grads) != len(self.variables):
            raise ValueError(
                f"{name}.apply_gradients: {len(grads)} gradients for {len(self.variables)} "
                "variables (pass one per variable, None to skip)"
            )
        work = []
        for k, (v, g) in enumerate(zip(self.variables, grads)):
            if g is None:
                continue
            if isinstance(g, Tensor):
                g = g._data
            p = v._data
            if type(g) is np.ndarray and type(p) is np.ndarray and g.shape == p.shape:
                # The common case, checked at once: a NumPy gradient of the right shape.
                work.append((v, g if g.dtype == p.dtype else g.astype(p.dtype), self.state[k], np))
                continue
            if not hasattr(g, "shape"):  # a list or a Python number
                try:
                    g = np.asarray(g, dtype=v.dtype)
                except (TypeError, ValueError):
                    raise TypeError(
                        f"{name}.apply_gradients: gradient {k} is {a(type(g).__name__)} "
                        f"{g!r:.40}, not a number or an array"
                    ) from None
            if tuple(g.shape) != v.shape:
                raise ValueError(
                    f"{name}.apply_gradients: gradient {k} has shape {tuple(g.shape)}, "
                    f"its Variable {v.name or k!r} {v.shape}"
                )
            xp = backend.namespace(v._data, g)  # raises on mixed devices
            if g.dtype != v.dtype:
                g = xp.astype(g, v.dtype)
            work.append((v, g, self.state[k], xp))
        lr = self.learning_rate
        for v, g, state, xp in work:
            state["step"] = state.get("step", 0) + 1
            dtype = v._data.dtype  # (backend.is_complex, at once for NumPy's dtypes)
            if dtype.kind == "c" if isinstance(dtype, np.dtype) else backend.is_complex(dtype):
                # as two real parameters: PyTorch's view_as_real
                new = self._updated(xp, _as_real(xp, v._data), _as_real(xp, g), state, lr)
                v.assign(new[..., 0] + 1j * new[..., 1])
            else:
                p = v._data
                if _alone(p) and self._update_in_place(p, g, state, lr):
                    v.version += 1
                    continue
                new = self._updated(xp, p, g, state, lr)
                if _owned(new, v, g, state):
                    v._replace(new, "apply_gradients")  # an array of its own: no copy
                else:
                    v.assign(new)
        self.iterations += 1

    def _updated(self, xp: Any, p: Any, g: Any, state: dict[str, Any], lr: float) -> Any:
        """The new value of a parameter ``p`` with gradient ``g``."""
        raise NotImplementedError(f"{type(self).__name__} does not define its update rule")

    def _update_in_place(self, p: Any, g: Any, state: dict[str, Any], lr: float) -> bool:
        """Write the new value into ``p``, a NumPy array only its Variable holds, if this
        optimizer can do it without a new array of ``p``'s size; whether it did."""
        return False

    # --- state ---------------------------------------------------------------------
    def settings(self) -> dict[str, Any]:
        """The hyperparameters, ``lr`` first (a schedule as itself)."""
        return {"lr": self.lr, **{key: getattr(self, key) for key in self.hyperparameters}}

    def state_dict(self) -> dict[str, np.ndarray]:
        """Host copies of everything the next updates depend on, flat and ready for
        ``np.savez``: the step count, the hyperparameters, a schedule's own state, and
        each Variable's buffers (``state.{i}.exp_avg``, ...).

        >>> import tapegrad as tg
        >>> w = tg.Variable([1.0])
        >>> optimizer = tg.optim.Adam([w], lr=0.1)
        >>> optimizer.apply_gradients([tg.tensor([2.0])])
        >>> state = optimizer.state_dict()
        >>> int(state["iterations"]), int(state["state.0.step"]), state["state.0.exp_avg"]
        (1, 1, array([0.2]))
        """
        return saved_state.state_dict(self)

    def load_state_dict(self, state: dict[str, Any]) -> Optimizer:
        """Restore what :meth:`state_dict` returned (from this kind of optimizer, over
        Variables of the same shapes); everything is checked before anything changes.
        Returns self.

        Args:
            state: A dict from :meth:`state_dict` (or the arrays of a saved ``.npz``).

        Returns:
            The optimizer.

        Raises:
            ValueError: The state is from another kind of optimizer, or does not fit these
                Variables.
        """
        saved_state.load_state_dict(self, state)
        return self

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write ``state_dict()`` to an ``.npz`` file at ``path``."""
        np.savez(path, **self.state_dict())  # type: ignore[arg-type]  # the stub: kwds vs allow_pickle

    def load(self, path: str | os.PathLike[str]) -> Optimizer:
        """Restore the state from an ``.npz`` file written by :meth:`save`; returns self."""
        with np.load(path, allow_pickle=False) as archive:
            return self.load_state_dict({k: archive[k] for k in archive.files})

    def __repr__(self) -> str:
        settings = ", ".join(f"{key}={value!r}" for key, value in self.settings().items())
        return (
            f"{type(self).__name__}({settings})  # {count(len(self.variables), 'variable')}, "
            f"{count(self.iterations, 'update')}"
        )


def _alone(p: Any) -> bool:
    """Whether ``p``, the caller's local name for a Variable's array, is a writeable NumPy
    array of its own that nothing else holds (no tape, view, or Tensor read): then an
    update in place is seen by nobody but the Variable, as an update into a new array."""
    return (
        type(p) is np.ndarray
        and p.base is None
        and p.flags.writeable
        # the caller's name, and beside it this parameter and the Variable's slot
        and sys.getrefcount(p) == backend.ONE_NAME + 2
    )


def _owned(new: Any, v: Variable, g: Any, state: dict[str, Any]) -> bool:
    """Whether an update's result is a new NumPy array of the Variable's dtype that nothing
    else holds (not a view, the gradient, or optimizer state), so the Variable can keep it."""
    return (
        type(new) is np.ndarray
        and new.base is None
        and new.dtype == v.dtype
        and new is not v._data
        and new is not g
        and all(new is not value for value in state.values())
    )


def _as_real(xp: Any, a: Any) -> Any:
    """A complex array as a real one with a last axis of (real, imaginary)."""
    return xp.stack([xp.real(a), xp.imag(a)], axis=-1)


class SGD(Optimizer):
    """Stochastic gradient descent with optional momentum, Nesterov momentum and L2 weight
    decay (PyTorch's ``torch.optim.SGD``)::

        g = grad + weight_decay * p
        b = g (first step), else momentum * b + (1 - dampening) * g
        g = g + momentum * b (Nesterov), else b
        p = p - lr * g

    Args:
        variables: The Variables to train: a list (``model.trainable_variables``), each
            floating-point and listed once.
        lr: The learning rate: a number, or a schedule (a callable from the number of
            updates applied so far to a learning rate).
        learning_rate: TensorFlow/Keras's name for ``lr`` (give one of the two).
        momentum: The momentum factor (0: none).
        nesterov: Whether to use Nesterov momentum (needs ``momentum > 0``, ``dampening == 0``).
        weight_decay: The L2 penalty added to the gradient.
        dampening: How much of the new gradient the momentum buffer takes in less.

    Raises:
        TypeError: ``variables`` is not a list of floating-point Variables (a Module, a single
            Variable, a Tensor), or ``lr`` is not a number or a schedule.
        ValueError: A Variable is listed twice, or a setting is out of its range.

    >>> import tapegrad as tg
    >>> w = tg.Variable([1.0, 2.0])
    >>> tg.optim.SGD([w], lr=0.1).apply_gradients([tg.tensor([1.0, -1.0])])
    >>> w.numpy()
    array([0.9, 2.1])
    """

    hyperparameters = ("momentum", "dampening", "weight_decay", "nesterov")

    def __init__(
        self,
        variables: Iterable[Variable],
        lr: LearningRate | None = None,
        momentum: float = 0.0,
        nesterov: bool = False,
        weight_decay: float = 0.0,
        dampening: float = 0.0,
        *,
        learning_rate: LearningRate | None = None,
    ) -> None:
        super().__init__(variables, saved_state.choose_learning_rate("SGD", lr, learning_rate))
        _check_range("SGD", "momentum", momentum, 0.0)
        _check_range("SGD", "weight_decay", weight_decay, 0.0)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("SGD: Nesterov momentum needs momentum > 0 and dampening = 0")
        self.momentum = float(momentum)
        self.nesterov = nesterov
        self.weight_decay = float(weight_decay)
        self.dampening = float(dampening)

    def _direction(self, p: Any, g: Any, state: dict[str, Any]) -> Any:
        """The gradient with weight decay and momentum applied (the momentum buffer kept)."""
        if self.weight_decay:
            g = g + self.weight_decay * p
        if self.momentum:
            buffer = state.get("momentum_buffer")
            if buffer is None:
                buffer = g
            else:
                buffer = self.momentum * buffer + (1.0 - self.dampening) * g
            state["momentum_buffer"] = buffer
            g = g + self.momentum * buffer if self.nesterov else buffer
        return g

    def _updated(self, xp: Any, p: Any, g: Any, state: dict[str, Any], lr: float) -> Any:
        direction = self._direction(p, g, state)
        if xp is np:  # p - lr * g in a copy of p, rounded as the update in place rounds it
            new = np.array(p, dtype=np.result_type(p, direction))
            blas.subtract_scaled(new, lr, direction)
            return new
        new = direction * -lr  # then p added in place: one array made
        new += p
        return new

    def _update_in_place(self, p: Any, g: Any, state: dict[str, Any], lr: float) -> bool:
        if g.dtype != p.dtype:  # (apply_gradients has cast it: the step keeps p's dtype)
            return False
        if self.weight_decay or self.momentum:
            g = self._direction(p, g, state)
        blas.subtract_scaled(p, lr, g)  # one pass: BLAS's axpy
        return True


class Adam(Optimizer):
    """Adam (PyTorch's ``torch.optim.Adam``, L2 ``weight_decay`` added to the gradient)::

        g = grad + weight_decay * p
        m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g**2
        v_max = max(v_max, v) (amsgrad: v_max takes v's place below)
        p = p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)

    Args:
        variables: The Variables to train: a list (``model.trainable_variables``), each
            floating-point and listed once.
        lr: The learning rate: a number, or a schedule (a callable from the number of
            updates applied so far to a learning rate). Default 1e-3.
        learning_rate: TensorFlow/Keras's name for ``lr`` (give one of the two).
        betas: The decay rates of the first and second moment estimates, in ``[0, 1)``.
        eps: Added to the denominator for stability.
        weight_decay: The L2 penalty added to the gradient.
        amsgrad: Whether to divide by the running maximum of the second moment (AMSGrad).

    Raises:
        TypeError: ``variables`` is not a list of floating-point Variables (a Module, a single
            Variable, a Tensor), or ``lr`` is not a number or a schedule.
        ValueError: A Variable is listed twice, or a setting is out of its range.

    >>> import tapegrad as tg
    >>> w = tg.Variable([1.0])
    >>> tg.optim.Adam([w], lr=0.1).apply_gradients([tg.tensor([5.0])])
    >>> round(float(w.numpy()[0]), 6)  # the first step moves by lr, whatever the scale
    0.9
    """

    decoupled = False
    hyperparameters = ("betas", "eps", "weight_decay", "amsgrad")

    def __init__(
        self,
        variables: Iterable[Variable],
        lr: LearningRate | None = None,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 0.0,
        amsgrad: bool = False,
        *,
        learning_rate: LearningRate | None = None,
    ) -> None:
        name = type(self).__name__
        super().__init__(variables, saved_state.choose_learning_rate(name, lr, learning_rate, 1e-3))
        self.amsgrad = bool(amsgrad)
        _check_range(name, "betas[0]", betas[0], 0.0, 1.0)
        _check_range(name, "betas[1]", betas[1], 0.0, 1.0)
        _check_range(name, "eps", eps, 0.0)
        _check_range(name, "weight_decay", weight_decay, 0.0)
        self.betas = (float(betas[0]), float(betas[1]))
        self.eps = float(eps)
        self.weight_decay = float(weight_decay)

    def _updated(self, xp: Any, p: Any, g: Any, state: dict[str, Any], lr: float) -> Any:
        beta1, beta2 = self.betas
        if self.weight_decay:
            if self.decoupled:
                p = p * (1.0 - lr * self.weight_decay)
            else:
                g = g + self.weight_decay * p
        m = state.get("exp_avg")
        v = state.get("exp_avg_sq")
        m = (1.0 - beta1) * g if m is None else beta1 * m + (1.0 - beta1) * g
        v = (1.0 - beta2) * (g * g) if v is None else beta2 * v + (1.0 - beta2) * (g * g)
        state["exp_avg"], state["exp_avg_sq"] = m, v
        if self.amsgrad:
            previous = state.get("max_exp_avg_sq")
            v = v if previous is None else xp.maximum(previous, v)
            state["max_exp_avg_sq"] = v
        t = state["step"]
        step_size = lr / (1.0 - beta1**t)
        correction = math.sqrt(1.0 - beta2**t)
        return p - step_size * (m / (xp.sqrt(v) / correction + self.eps))


class AdamW(Adam):
    """Adam with decoupled weight decay (PyTorch's ``torch.optim.AdamW``): the parameter
    shrinks by ``lr * weight_decay`` before the Adam step instead of adding to the gradient.

    Args:
        variables: The Variables to train: a list (``model.trainable_variables``), each
            floating-point and listed once.
        lr: The learning rate: a number, or a schedule (a callable from the number of
            updates applied so far to a learning rate). Default 1e-3.
        learning_rate: TensorFlow/Keras's name for ``lr`` (give one of the two).
        betas: The decay rates of the first and second moment estimates, in ``[0, 1)``.
        eps: Added to the denominator for stability.
        weight_decay: The decoupled decay rate.
        amsgrad: Whether to divide by the running maximum of the second moment (AMSGrad).

    Raises:
        TypeError: ``variables`` is not a list of floating-point Variables (a Module, a single
            Variable, a Tensor), or ``lr`` is not a number or a schedule.
        ValueError: A Variable is listed twice, or a setting is out of its range.

    >>> import tapegrad as tg
    >>> w = tg.Variable([1.0])
    >>> tg.optim.AdamW([w], lr=0.1, weight_decay=0.5).apply_gradients([tg.tensor([0.0])])
    >>> w.numpy()
    array([0.95])
    """

    decoupled = True

    def __init__(
        self,
        variables: Iterable[Variable],
        lr: LearningRate | None = None,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-8,
        weight_decay: float = 1e-2,
        amsgrad: bool = False,
        *,
        learning_rate: LearningRate | None = None,
    ) -> None:
        super().__init__(
            variables, lr, betas, eps, weight_decay, amsgrad, learning_rate=learning_rate
        )
