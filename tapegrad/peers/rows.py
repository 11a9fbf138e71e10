"""A row of a peer's table (:class:`Name`) and a table (:class:`Table`): plain data."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Name:
    """One name a peer's user types, and what tapegrad calls it.

    ``where`` is the place it is typed: ``"tg"``, ``"tg.nn"``, ``"tg.optim"``,
    ``"tg.random"``, or an object's attribute: ``"Tensor"``, ``"Module"``, ``"Optimizer"``.
    """

    where: str
    name: str
    equivalent: str  # tapegrad's name for it, e.g. "tg.concatenate"
    note: str = ""  # how the two differ (a message row) or why they agree
    alias: bool = False  # bound to ``equivalent`` (the meaning is identical)
    same: bool = False  # tapegrad already has the name, with the same meaning


@dataclass(frozen=True)
class Table:
    """A peer's names: its name in messages, the anchor of its docs section, its rows."""

    peer: str
    anchor: str
    names: tuple[Name, ...]

    @property
    def docs(self) -> str:
        return f"docs/coming-from.md#{self.anchor}"
