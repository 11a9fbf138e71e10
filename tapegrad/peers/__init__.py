"""Names people bring from PyTorch, JAX, TensorFlow and NumPy, and what tapegrad calls them.

One table per peer (``torch.py``, ``jax.py``, ``tensorflow.py``, ``numpy.py``), each a tuple
of :class:`Name` rows: data, read by the ``__getattr__`` of ``tapegrad``, ``tapegrad.nn``,
``tapegrad.optim``, ``Tensor``, ``Module`` and ``Optimizer``. A row is one of three kinds:

- ``same``: tapegrad has the name, with the peer's meaning (listed so the docs say so);
- ``alias``: the name is bound to ``equivalent``, because the meaning is identical;
- a message (neither): the name raises ``AttributeError`` naming tapegrad's equivalent and
  the section of docs/coming-from.md that explains the difference.

Layer: data only. It imports nothing of tapegrad, so every layer may read the tables.

>>> from tapegrad import peers
>>> print(peers.missing("tg", "jit", "module 'tapegrad' has no attribute 'jit'"))
module 'tapegrad' has no attribute 'jit'; JAX's jit is tapegrad's tg.compile: ...
"""

from __future__ import annotations

from tapegrad.peers import jax, numpy, tensorflow, torch
from tapegrad.peers.rows import Name, Table

TABLES: tuple[Table, ...] = (torch.TABLE, jax.TABLE, tensorflow.TABLE, numpy.TABLE)
ROWS_AT: dict[str, list[Name]] = {}
for _table in TABLES:
    for _row in _table.names:
        ROWS_AT.setdefault(_row.where, []).append(_row)
_ROWS = {(row.where, row.name): (table, row) for table in TABLES for row in table.names}


def find(where: str, name: str) -> tuple[Table, Name] | None:
    """The table and row for ``name`` typed at ``where``, or None."""
    return _ROWS.get((where, name))


def alias(where: str, name: str) -> str | None:
    """The dotted tapegrad name an alias row binds ``name`` to (``"tg.abs"``), or None."""
    found = _ROWS.get((where, name))
    return found[1].equivalent if found is not None and found[1].alias else None


def missing(where: str, name: str, text: str, in_numpy: bool = False) -> AttributeError:
    """The AttributeError for ``name`` at ``where``: Python's ``text``, then, for a peer's
    name, what tapegrad calls it and where the docs explain the difference; for a name only
    ``tapegrad.numpy`` has (``in_numpy``), a pointer to it."""
    found = _ROWS.get((where, name))
    if found is not None and not found[1].alias and not found[1].same:
        table, row = found
        note = f": {row.note}" if row.note else ""
        text = (
            f"{text}; {table.peer}'s {name} is tapegrad's {row.equivalent}{note} (see {table.docs})"
        )
    elif in_numpy:
        text = (
            f"{text}; NumPy's {name} is tapegrad.numpy.{name} (import tapegrad.numpy as tnp: "
            f"NumPy's whole namespace, differentiable on Tensors; see docs/coming-from.md#numpy)"
        )
    return AttributeError(text, name=name)


def missing_attribute(where: str, obj: object, name: str) -> AttributeError:
    """The AttributeError of ``obj.name`` for an object's ``__getattr__`` (Module's,
    Optimizer's): Python's own for a private name (NumPy's and copy's probes), else
    :func:`missing`'s."""
    text = f"{type(obj).__name__!r} object has no attribute {name!r}"
    if name.startswith("_"):
        return AttributeError(text, name=name, obj=obj)
    return missing(where, name, text)


__all__ = ["TABLES", "Name", "Table", "alias", "find", "missing", "missing_attribute"]
