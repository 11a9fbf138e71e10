"""One line of the Wengert list: stored as a plain tuple, read through :class:`Entry`.

A tape appends one tuple per recorded op (cheaper than an instance): ``(primitive,
inputs, arrays, output, params, versions, code, lasti)``. ``arrays`` are the inputs'
backend arrays as the forward read them; ``code`` and ``lasti`` locate the user's source
line, resolved only when someone asks.
"""

from __future__ import annotations

from typing import Any

from tapegrad.core.sites import code_line, format_site

INPUTS, OUTPUT = 1, 3  # positions in an entry tuple


class Entry:
    """One line of the Wengert list: ``output = primitive(*inputs, **params)``.

    ``inputs`` keeps the Tensors (the saved inputs) and the constants the op
    read; ``versions`` the version of each Variable input at record time (in input order);
    ``site`` the user's ``(filename, line)`` that recorded it.
    """

    __slots__ = ("primitive", "inputs", "output", "params", "versions", "_code", "_lasti")

    def __init__(self, stored: tuple[Any, ...]) -> None:
        self.primitive, self.inputs, _, self.output, self.params, self.versions = stored[:6]
        self._code, self._lasti = stored[6:]

    @property
    def site(self) -> tuple[str, int] | None:
        """``(filename, line)`` of the user's code that recorded this entry."""
        if self._code is None:
            return None
        return self._code.co_filename, code_line(self._code, self._lasti)

    @property
    def where(self) -> str | None:
        """``"train.py:42"``: the user's source line that recorded this entry."""
        return format_site(self.site)

    def __repr__(self) -> str:
        return f"<Entry {self.primitive.name} -> #{self.output._id} {self.output.shape}>"
