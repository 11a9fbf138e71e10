"""Nests: Tensors in lists, tuples, dicts and namedtuples, as sources, targets and results.

``flatten`` lists a nest's leaves in order; ``pack`` rebuilds a nest's structure around
new leaves (a namedtuple keeps its type, as in JAX and ``tf.nest``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

_NESTS = (dict, list, tuple)


def flatten(nest: Any) -> list[Any]:
    """The leaves of ``nest`` in order: dict values by key order, list and tuple items.

    >>> flatten({"a": [1, (2, 3)], "b": 4})
    [1, 2, 3, 4]
    """
    if type(nest) is list and _flat(nest):
        return nest.copy()  # (a list of leaves, as model.trainable_variables: at once)
    if isinstance(nest, dict):
        return [leaf for key in nest for leaf in flatten(nest[key])]
    if isinstance(nest, (list, tuple)):
        return [leaf for item in nest for leaf in flatten(item)]
    return [nest]


def pack(structure: Any, leaves: Iterator[Any]) -> Any:
    """``structure`` with its leaves replaced, in order, by the items of ``leaves``.

    >>> pack({"a": [0, (0, 0)], "b": 0}, iter([1, 2, 3, 4]))
    {'a': [1, (2, 3)], 'b': 4}
    """
    if type(structure) is list and _flat(structure):
        return [next(leaves) for _ in structure]
    if isinstance(structure, dict):
        return {key: pack(structure[key], leaves) for key in structure}
    if isinstance(structure, list):
        return [pack(item, leaves) for item in structure]
    if isinstance(structure, tuple):
        items = [pack(item, leaves) for item in structure]
        # A namedtuple keeps its type, as in JAX and tf.nest; its constructor takes fields.
        return type(structure)(*items) if hasattr(structure, "_fields") else tuple(items)
    return next(leaves)


def _flat(items: list[Any]) -> bool:
    """Whether no item of ``items`` is itself a nest."""
    for item in items:
        if isinstance(item, _NESTS):
            return False
    return True
