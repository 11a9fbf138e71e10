"""Module: a container of Variables and sub-Modules, found through its attributes.

A subclass sets Variables and Modules as attributes, or in lists, tuples and
dicts of them, and defines ``forward``. Nothing needs registering: the
attributes are walked in the order they were first set, so
``trainable_variables`` and ``state_dict`` keys come out in a stable order.
"""

from __future__ import annotations

import os
import weakref
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np

from tapegrad import peers
from tapegrad.backends import devices
from tapegrad.core.tensor import Tensor, Variable


class Module:
    """Base class of layers and models.

    >>> import tapegrad as tg
    >>> class Affine(tg.nn.Module):
    ...     def __init__(self):
    ...         self.scale = tg.Variable(2.0)
    ...         self.shift = tg.Variable(1.0)
    ...     def forward(self, x):
    ...         return x * self.scale + self.shift
    >>> model = Affine()
    >>> model(tg.tensor(3.0)).item(), [v.shape for v in model.trainable_variables]
    (7.0, [(), ()])
    """

    training: bool = True

    def __init__(self) -> None:
        # Subclasses need not call this: discovery reads the instance's attributes.
        pass

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """The computation; subclasses define it, and calling the Module runs it."""
        raise NotImplementedError(f"{type(self).__name__} does not define forward()")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.forward(*args, **kwargs)

    def __setattr__(self, name: str, value: Any) -> None:
        # Name the Variables set here (and those of sub-Modules) by their path from this
        # Module, unless the user named them: errors then say which Variable.
        for suffix, item in _walk(value):
            if isinstance(item, Variable):
                _name_variable(item, name + suffix)
            else:
                for path, v in item.named_variables():
                    _name_variable(v, f"{name}{suffix}.{path}")
        object.__setattr__(self, name, value)

    if not TYPE_CHECKING:  # (hidden from type checkers: every attribute would type-check)

        def __getattr__(self, name: str) -> Any:
            # Only names not found otherwise: PyTorch's (model.parameters()) get a message.
            raise peers.missing_attribute("Module", self, name)

    # --- discovery -------------------------------------------------------------
    def named_children(self) -> Iterator[tuple[str, Module]]:
        """The direct sub-Modules, with their attribute names (``layers.0`` for lists)."""
        for name, value in vars(self).items():
            for suffix, item in _walk(value):
                if isinstance(item, Module):
                    yield name + suffix, item

    def named_variables(self) -> Iterator[tuple[str, Variable]]:
        """Every Variable of this Module and its sub-Modules, each once, with dotted names.

        A Variable created without a ``name`` takes its dotted name when it is set as an
        attribute and here, so that errors about it say ``'fc1.weight'``; an enclosing
        Module lengthens such a name (``weight`` becomes ``fc1.weight``), a name given by
        the user stays.
        """
        yield from self._named_list()

    def _named_list(self) -> list[tuple[str, Variable]]:
        # (A list, not nested generators: a training step asks for it every step.)
        found: list[tuple[str, Variable]] = []
        _collect(self, "", found)
        seen: set[int] = set()
        unique = []
        for name, v in found:
            if id(v) not in seen:
                seen.add(id(v))
                if v.name != name:
                    _name_variable(v, name)
                unique.append((name, v))
        return unique

    @property
    def variables(self) -> list[Variable]:
        """All Variables, trainable or not, in a stable order."""
        return [v for _, v in self._named_list()]

    @property
    def trainable_variables(self) -> list[Variable]:
        """The trainable Variables, in the order their attributes were first set."""
        return [v for _, v in self._named_list() if v.trainable]

    def modules(self) -> Iterator[Module]:
        """This Module and every sub-Module, depth first."""
        yield self
        for _, child in self.named_children():
            yield from child.modules()

    def parameter_count(self, trainable_only: bool = True) -> int:
        """The number of scalars in the (trainable) Variables.

        Args:
            trainable_only: Whether to count the trainable Variables only.

        Returns:
            The count, an int.

        >>> import tapegrad as tg
        >>> tg.nn.Linear(3, 2).parameter_count()
        8
        """
        chosen = self.trainable_variables if trainable_only else self.variables
        return sum(v.size for v in chosen)

    # --- modes -------------------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Put this Module and its sub-Modules in training mode (Dropout active).

        Args:
            mode: True for training, False for evaluation.

        Returns:
            The Module.
        """
        for m in self.modules():
            m.training = mode
        return self

    def eval(self) -> Module:
        """Put this Module and its sub-Modules in evaluation mode (Dropout off)."""
        return self.train(False)

    def to(self, device: str) -> Module:
        """Move every Variable to ``device`` (before the optimizer's first step).

        Args:
            device: ``"cpu"``, ``"gpu"`` or ``"gpu:N"``.

        Returns:
            The Module.

        Raises:
            ValueError: ``device`` is unknown.
            RuntimeError: A GPU device was asked for and CuPy is not installed.
        """
        for v in self.variables:
            # Moving is not an update of the value, but tapes holding the old array must
            # see it changed, so the version moves too.
            v._data = devices.make_array(v._data, None, device)
            v.version += 1
        return self

    # --- state ---------------------------------------------------------------
    def state_dict(self) -> dict[str, np.ndarray]:
        """Host copies of every Variable's value, keyed by dotted attribute name."""
        return {name: np.array(v.numpy(), copy=True) for name, v in self.named_variables()}

    def load_state_dict(self, state: dict[str, Any]) -> Module:
        """Assign every Variable from ``state``; the keys and shapes must match exactly.

        Everything is checked before anything is assigned, so a bad ``state``
        leaves the Module as it was.

        Args:
            state: Arrays keyed by dotted attribute name, as :meth:`state_dict` returns.

        Returns:
            The Module.

        Raises:
            ValueError: A key is missing or unexpected, or a shape differs.

        >>> import tapegrad as tg
        >>> a, b = tg.nn.Linear(2, 1), tg.nn.Linear(2, 1)
        >>> _ = b.load_state_dict(a.state_dict())
        >>> bool(tg.all(a.weight == b.weight))
        True
        """
        own = dict(self.named_variables())
        state = {k: _host(v) for k, v in state.items()}
        missing = [k for k in own if k not in state]
        unexpected = [k for k in state if k not in own]
        problems = []
        if missing:
            problems.append(f"missing keys {missing}")
        if unexpected:
            problems.append(f"unexpected keys {unexpected}")
        for name, v in own.items():
            if name in state and state[name].shape != v.shape:
                problems.append(f"{name!r} has shape {state[name].shape}, the model has {v.shape}")
        if problems:
            raise ValueError(f"load_state_dict into {type(self).__name__}: " + "; ".join(problems))
        for name, v in own.items():
            v.assign(state[name])
        return self

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write ``state_dict()`` to an ``.npz`` file at ``path``.

        Args:
            path: The file to write.
        """
        np.savez(path, **self.state_dict())  # type: ignore[arg-type]  # the stub: kwds vs allow_pickle

    def load(self, path: str | os.PathLike[str]) -> Module:
        """Restore the Variables from an ``.npz`` file written by :meth:`save`; returns self.

        Args:
            path: A file :meth:`save` wrote.

        Returns:
            The Module.

        Raises:
            ValueError: The file's keys or shapes do not fit the Module.
        """
        with np.load(path, allow_pickle=False) as archive:
            return self.load_state_dict({k: archive[k] for k in archive.files})

    # --- display -------------------------------------------------------------
    def extra_repr(self) -> str:
        """The layer's settings, shown inside its repr's parentheses."""
        return ""

    def __repr__(self) -> str:
        children = list(self.named_children())
        head = f"{type(self).__name__}({self.extra_repr()}"
        if not children:
            return head + ")" + _count_note(self)
        lines = [head]
        for name, child in children:
            body = repr(child).replace("\n", "\n  ")
            lines.append(f"  ({name}): {body}")
        return "\n".join(lines) + "\n)" + _count_note(self)


# The Variables that got their name from a Module walk rather than from the user.
_walk_named: weakref.WeakValueDictionary[int, Variable] = weakref.WeakValueDictionary()


def _collect(value: Any, path: str, found: list[tuple[str, Variable]]) -> None:
    """Append (dotted path, Variable) for each Variable in ``value``: a Module's attributes
    (in the order they were set), and the items of lists, tuples and dicts, depth first."""
    if isinstance(value, Module):
        prefix = path + "." if path else ""
        for name, item in vars(value).items():
            if isinstance(item, Variable):
                found.append((prefix + name, item))
            elif isinstance(item, (Module, list, tuple, dict)):
                _collect(item, prefix + name, found)
    elif isinstance(value, Variable):
        found.append((path, value))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _collect(item, f"{path}.{i}", found)
    elif isinstance(value, dict):
        for key, item in value.items():
            _collect(item, f"{path}.{key}", found)


def _name_variable(v: Variable, path: str) -> None:
    if v.name is None or (_walk_named.get(id(v)) is v and path.endswith("." + v.name)):
        v.name = path
        _walk_named[id(v)] = v


def _host(value: Any) -> np.ndarray:
    return value.numpy() if isinstance(value, Tensor) else np.asarray(value)


def _count_note(module: Module) -> str:
    n = module.parameter_count()
    return f"  # {n:,} parameters" if n else ""


def _walk(value: Any) -> Iterator[tuple[str, Any]]:
    """(suffix, item) for a Variable/Module attribute or the items of lists and dicts of them."""
    if isinstance(value, (Variable, Module)):
        yield "", value
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            for suffix, leaf in _walk(item):
                yield f".{i}{suffix}", leaf
    elif isinstance(value, dict):
        for key, item in value.items():
            for suffix, leaf in _walk(item):
                yield f".{key}{suffix}", leaf
