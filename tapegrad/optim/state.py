"""What optimizers check and save: their arguments (with messages for common slips), the
``(gradient, variable)`` pairs TensorFlow passes, and the flat state dict that lets a
stopped run resume bit for bit.

A state dict holds host NumPy copies only (no pickles), so ``np.savez`` writes it::

    optimizer   the optimizer's class name
    iterations  the number of updates applied
    hyperparameters.{name}   lr (when a constant), betas, eps, ...
    lr_schedule.{name}       a stateful schedule's own state (ReduceLROnPlateau)
    state.{i}.{name}         Variable i's buffers and step count
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import numpy as np

from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.wording import a

if TYPE_CHECKING:
    from tapegrad.optim.optimizers import Optimizer


def check_variables(name: str, variables: Any) -> list[Variable]:
    """The Variables an optimizer updates, as a list; a clear TypeError for anything else."""
    from tapegrad.nn.module import Module

    fix = f"pass a list of Variables, e.g. {name}(model.trainable_variables, ...)"
    if isinstance(variables, Module):
        raise TypeError(
            f"{name}: got the Module {type(variables).__name__} itself; pass its Variables: "
            f"{name}(model.trainable_variables, ...)"
        )
    if isinstance(variables, Variable):
        raise TypeError(f"{name}: got one Variable; pass a list of them: {name}([variable], ...)")
    if isinstance(variables, Tensor) or hasattr(variables, "shape"):
        raise TypeError(
            f"{name}: got {a(type(variables).__name__)} of shape "
            f"{tuple(variables.shape)}; an optimizer updates Variables in place: make one "
            f"with tg.Variable(value) and {fix}"
        )
    if not isinstance(variables, Iterable):
        raise TypeError(f"{name}: got {a(type(variables).__name__)}; {fix}")
    variables = list(variables)
    if not variables:
        raise ValueError(f"{name}: got an empty list of variables; {fix}")
    seen: set[int] = set()
    for i, v in enumerate(variables):
        if isinstance(v, Module):
            raise TypeError(
                f"{name}: item {i} of variables is the Module {type(v).__name__}; pass "
                "model.trainable_variables (a list of Variables) instead"
            )
        if not isinstance(v, Variable):
            kind = a(type(v).__name__)
            raise TypeError(
                f"{name}: item {i} of variables is {kind}, not a Variable; an optimizer "
                "updates Variables (wrap the value in tg.Variable(...) and train that)"
            )
        if not backend.is_floating(v.dtype):
            raise TypeError(
                f"{name}: Variable {_label(v, i)} of shape {v.shape} is {v.dtype}; only "
                "floating Variables can be trained"
            )
        if id(v) in seen:
            raise ValueError(f"{name}: Variable {_label(v, i)} of shape {v.shape} is listed twice")
        seen.add(id(v))
    return variables


def _label(v: Variable, i: int) -> str:
    return f"{v.name!r}" if v.name else str(i)


def check_lr(name: str, lr: Any, schedule: bool = True, what: str = "lr") -> None:
    """A number >= 0, or (when ``schedule``) a schedule: a callable of the step."""
    if schedule and callable(lr):
        return
    if isinstance(lr, str):
        kind = "a number or a schedule" if schedule else "a number"
        raise TypeError(
            f"{name}: {what} must be {kind}, got the string {lr!r} "
            f"(write {what}={lr.strip()} without quotes)"
        )
    check_range(name, what, lr, 0.0)


def choose_learning_rate(name: str, lr: Any, learning_rate: Any, default: Any = None) -> Any:
    """The learning rate from ``lr`` or TensorFlow/Keras's name for it, ``learning_rate``
    (``default`` when neither is given); both given is a TypeError."""
    if lr is not None and learning_rate is not None:
        raise TypeError(
            f"{name}: got lr={lr!r} and learning_rate={learning_rate!r}; they are one setting "
            "(learning_rate is TensorFlow's name for lr): pass one of them"
        )
    chosen = learning_rate if lr is None else lr
    if chosen is None:
        chosen = default
    if chosen is None:
        raise TypeError(f"{name}: missing the learning rate: pass lr=... (or learning_rate=...)")
    return chosen


def check_range(op: str, name: str, value: Any, low: float, high: float = math.inf) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{op}: {name} must be a number, got {type(value).__name__} {value!r}")
    if not low <= float(value) < high:
        raise ValueError(f"{op}: {name} must be in [{low}, {high}), got {value}")


# --- TensorFlow's (gradient, variable) pairs ------------------------------------------
def is_pair(item: Any) -> bool:
    return isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], Variable)


def from_pairs(
    name: str, pairs: list[tuple[Any, Variable]], variables: list[Variable]
) -> list[Any]:
    """``zip(grads, variables)`` pairs as one gradient per optimizer Variable (None: not given)."""
    position = {id(v): k for k, v in enumerate(variables)}
    grads: list[Any] = [None] * len(variables)
    given: set[int] = set()
    for gradient, v in pairs:
        k = position.get(id(v))
        if k is None:
            raise ValueError(
                f"{name}.apply_gradients: {f'Variable {v.name!r}' if v.name else 'a Variable'} "
                f"of shape {v.shape} is not one of this optimizer's variables"
            )
        if k in given:
            raise ValueError(
                f"{name}.apply_gradients: Variable {_label(v, k)} is paired with two gradients"
            )
        given.add(k)
        grads[k] = gradient
    return grads


# --- state dicts ----------------------------------------------------------------------
def state_dict(optimizer: Optimizer) -> dict[str, np.ndarray]:
    out = {
        "optimizer": np.asarray(type(optimizer).__name__),
        "iterations": np.asarray(optimizer.iterations),
    }
    for key, value in optimizer.settings().items():
        if not callable(value):
            out[f"hyperparameters.{key}"] = np.asarray(value)
    schedule_state = getattr(optimizer.lr, "state_dict", None)
    if callable(optimizer.lr) and schedule_state is not None:
        for key, value in schedule_state().items():
            out[f"lr_schedule.{key}"] = np.asarray(value)
    for i, buffers in enumerate(optimizer.state):
        for key, value in buffers.items():
            out[f"state.{i}.{key}"] = np.array(backend.to_host(value), copy=True)
    return out


def load_state_dict(optimizer: Optimizer, state: dict[str, Any]) -> None:
    name = type(optimizer).__name__
    state = {k: np.asarray(v.numpy() if isinstance(v, Tensor) else v) for k, v in state.items()}
    saved_by = str(state.get("optimizer", ""))
    if saved_by != name:
        raise ValueError(
            f"{name}.load_state_dict: the state was saved by {saved_by or 'no optimizer'!r}"
        )
    problems: list[str] = []
    settings = optimizer.settings()
    hyper: dict[str, Any] = {}
    schedule: dict[str, Any] = {}
    buffers: list[dict[str, Any]] = [{} for _ in optimizer.variables]
    for key, value in state.items():
        kind, _, rest = key.partition(".")
        if kind == "hyperparameters" and rest in settings:
            hyper[rest] = value
        elif kind == "lr_schedule":
            schedule[rest] = value
        elif kind == "state":
            index, _, field = rest.partition(".")
            i = int(index) if index.isdigit() else -1
            if not 0 <= i < len(buffers):
                problems.append(f"{key!r} is for Variable {index}, but there are {len(buffers)}")
                continue
            v = optimizer.variables[i]
            if field != "step" and value.shape != v.shape:
                problems.append(
                    f"{key!r} has shape {value.shape}, Variable {_label(v, i)} {v.shape}"
                )
            buffers[i][field] = value
        elif key not in ("optimizer", "iterations"):
            problems.append(f"unexpected key {key!r}")
    missing = [k for k in settings if k not in hyper and not callable(settings[k])]
    if missing:
        problems.append(f"missing hyperparameters {missing}")
    if callable(optimizer.lr) != ("lr" not in hyper) and "lr" not in missing:
        problems.append(
            "the saved lr is a constant and this optimizer's a schedule, or the reverse"
        )
    if problems:
        raise ValueError(f"{name}.load_state_dict: " + "; ".join(problems))
    # Everything checked: assign.
    for key, value in hyper.items():
        setattr(optimizer, key, _python(value, settings[key]))
    if schedule and hasattr(optimizer.lr, "load_state_dict"):
        optimizer.lr.load_state_dict({k: v.item() for k, v in schedule.items()})
    optimizer.iterations = int(state["iterations"])
    for i, (v, saved) in enumerate(zip(optimizer.variables, buffers)):
        place = backend.placement_of(v._data)
        optimizer.state[i] = {
            key: int(value) if key == "step" else backend.move(value.astype(v.dtype), place)
            for key, value in saved.items()
        }


def _python(value: np.ndarray, like: Any) -> Any:
    """A saved hyperparameter back in the type the optimizer holds (float, bool, tuple)."""
    if isinstance(like, tuple):
        return tuple(type(item)(x) for item, x in zip(like, value.tolist()))
    return type(like)(value.item())
