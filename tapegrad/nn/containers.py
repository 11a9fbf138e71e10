"""Containers of layers: Sequential, ModuleList, ModuleDict.

Each stores its layers as attributes named by position (``"0"``, ``"1"``, ...) or key, so
Module's attribute walk finds them and ``state_dict`` keys read ``0.weight`` or
``encoder.weight``, as in PyTorch.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from tapegrad.nn.module import Module
from tapegrad.wording import a


def _check_module(layer: Any, container: str, where: Any) -> Module:
    if not isinstance(layer, Module):
        raise TypeError(
            f"{container}: layer {where!r} is {a(type(layer).__name__)}, not a tg.nn.Module"
        )
    return layer


class _Indexed(Module):
    """Layers held as attributes ``"0"``, ``"1"``, ...: indexing, length, iteration."""

    def _layers(self) -> list[Module]:
        return [layer for _, layer in self.named_children()]

    def _set_layers(self, layers: list[Module]) -> None:
        """Hold exactly ``layers``, renumbered; all checked before anything changes."""
        for i, layer in enumerate(layers):
            _check_module(layer, type(self).__name__, i)
        for name in [name for name, _ in self.named_children()]:
            delattr(self, name)
        for i, layer in enumerate(layers):
            setattr(self, str(i), layer)

    def _like(self, layers: list[Module]) -> _Indexed:
        """A container of this kind holding ``layers`` (for slices)."""
        raise NotImplementedError(f"{type(self).__name__} does not define _like")

    def __getitem__(self, index: int | slice) -> Any:
        layers = self._layers()
        return self._like(layers[index]) if isinstance(index, slice) else layers[index]

    def __len__(self) -> int:
        return len(self._layers())

    def __iter__(self) -> Iterator[Module]:
        return iter(self._layers())

    def append(self, layer: Module) -> _Indexed:
        """Add ``layer`` at the end; returns self."""
        setattr(self, str(len(self)), _check_module(layer, type(self).__name__, len(self)))
        return self


class Sequential(_Indexed):
    """Layers applied one after another; ``model[i]`` is the i-th layer.

    Args:
        *layers: The Modules, in order.

    Raises:
        TypeError: A layer is not a Module.

    >>> import tapegrad as tg
    >>> model = tg.nn.Sequential(tg.nn.Linear(4, 8), tg.nn.ReLU(), tg.nn.Linear(8, 2))
    >>> model(tg.ones((3, 4), dtype="float32")).shape, len(model)
    ((3, 2), 3)
    """

    def __init__(self, *layers: Module) -> None:
        self._set_layers(list(layers))

    def _like(self, layers: list[Module]) -> Sequential:
        return Sequential(*layers)

    @property
    def layers(self) -> list[Module]:
        """The layers, in order."""
        return self._layers()

    def forward(self, x: Any) -> Any:
        """``x`` passed through each layer in turn."""
        for layer in self._layers():
            x = layer(x)
        return x


class ModuleList(_Indexed):
    """A list of layers whose Variables the enclosing Module finds (``0.weight``, ...).

    Args:
        modules: The initial Modules.

    Raises:
        TypeError: An entry is not a Module.

    >>> import tapegrad as tg
    >>> blocks = tg.nn.ModuleList([tg.nn.Linear(2, 2) for _ in range(3)])
    >>> _ = blocks.append(tg.nn.Linear(2, 1))
    >>> len(blocks), [name for name, _ in blocks.named_variables()][-2:]
    (4, ['3.weight', '3.bias'])
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        self._set_layers(list(modules or []))

    def _like(self, layers: list[Module]) -> ModuleList:
        return ModuleList(layers)

    def __setitem__(self, index: int, layer: Module) -> None:
        layers = self._layers()
        layers[index] = layer
        self._set_layers(layers)

    def __delitem__(self, index: int | slice) -> None:
        layers = self._layers()
        del layers[index]
        self._set_layers(layers)

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        """Append each of ``modules``; returns self."""
        for layer in modules:
            self.append(layer)
        return self

    def insert(self, index: int, layer: Module) -> None:
        """Insert ``layer`` before position ``index``."""
        layers = self._layers()
        layers.insert(index, layer)
        self._set_layers(layers)

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Raises NotImplementedError: a ModuleList is iterated over, not called."""
        raise NotImplementedError(
            "ModuleList has no forward: iterate over it (for layer in self.layers: ...)"
        )


class ModuleDict(Module):
    """Layers by name; the names become the first part of their Variables' names.

    Args:
        modules: A mapping, or ``(name, module)`` pairs; names are identifiers.

    Raises:
        TypeError: A value is not a Module.
        KeyError: A name is not an identifier, or starts with ``_``.

    >>> import tapegrad as tg
    >>> heads = tg.nn.ModuleDict({"digit": tg.nn.Linear(4, 10), "parity": tg.nn.Linear(4, 2)})
    >>> heads["parity"](tg.ones((1, 4), dtype="float32")).shape, list(heads.keys())
    ((1, 2), ['digit', 'parity'])
    """

    def __init__(self, modules: Mapping[str, Module] | Iterable[tuple[str, Module]] | None = None):
        if modules is not None:
            self.update(modules)

    def _check_key(self, key: Any) -> str:
        if not isinstance(key, str) or not key.isidentifier() or key.startswith("_"):
            raise KeyError(
                f"ModuleDict: keys must be identifiers not starting with '_', got {key!r}"
            )
        if hasattr(type(self), key) or (key in vars(self) and key not in self.keys()):
            raise KeyError(f"ModuleDict: the key {key!r} would hide a ModuleDict attribute")
        return key

    def __getitem__(self, key: str) -> Module:
        if key not in self.keys():
            raise KeyError(f"ModuleDict: no layer {key!r} (keys: {self.keys()})")
        return vars(self)[key]

    def __setitem__(self, key: str, layer: Module) -> None:
        setattr(self, self._check_key(key), _check_module(layer, "ModuleDict", key))

    def __delitem__(self, key: str) -> None:
        self[key]  # noqa: B018 - raises the KeyError that names the keys
        delattr(self, key)

    def __contains__(self, key: object) -> bool:
        return key in self.keys()

    def __len__(self) -> int:
        return len(self.keys())

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys())

    def keys(self) -> list[str]:
        """The names, in insertion order."""
        return [name for name, _ in self.named_children()]

    def values(self) -> list[Module]:
        """The layers, in insertion order."""
        return [layer for _, layer in self.named_children()]

    def items(self) -> list[tuple[str, Module]]:
        """``(name, layer)`` pairs, in insertion order."""
        return list(self.named_children())

    def update(self, modules: Mapping[str, Module] | Iterable[tuple[str, Module]]) -> None:
        """Add or replace layers from a mapping or from (key, layer) pairs."""
        pairs = modules.items() if isinstance(modules, Mapping) else modules
        for key, layer in pairs:
            self[key] = layer

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Raises NotImplementedError: a ModuleDict's layers are called by key."""
        raise NotImplementedError("ModuleDict has no forward: call its layers by key")
