"""Griffe extension for the API reference: docstrings written for ``help()`` and doctest.

tapegrad's docstrings put their runnable examples (``>>>`` lines and the output under
them) straight in the text, and name other objects with Sphinx roles
(``:func:`tapegrad.debug.viz.to_dot```). Read as Markdown, the first would become quotes and
the second stray text; this turns each example into a ``pycon`` code block and each
role into inline code. Docstrings in the source stay as they are.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:func|class|meth|mod|attr|data|exc|obj):`~?([^`]+)`")


def markdown(text: str) -> str:
    """``text`` with its top-level doctest examples fenced and its Sphinx roles as code."""
    out: list[str] = []
    fenced = in_example = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if in_example and not line.strip():
            out.append("```")
            in_example = False
        elif not fenced and not in_example and line.startswith(">>>"):
            out.append("```pycon")
            in_example = True
        out.append(line if in_example or fenced else ROLE.sub(r"`\1`", line))
    if in_example:
        out.append("```")
    return "\n".join(out)


class DoctestBlocks(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
