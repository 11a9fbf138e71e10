"""The tape as a picture: Graphviz DOT text, and a drawing through the graphviz package.

Tensors are ellipses labelled with their number (the same ``%N`` as in
``str(tape)``), shape and dtype; ops are boxes labelled with their name, tape
index and parameters. Watched sources are blue, the target is orange, and
Tensors that no tape watches (constants) are grey and dashed; a small key in
the drawing names the colours it uses.
"""

from __future__ import annotations

import os
import shlex
import warnings
from pathlib import Path
from typing import Any

from tapegrad.core.entry import Entry
from tapegrad.core.nests import flatten
from tapegrad.core.sites import caller_site
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor, Variable
from tapegrad.debug.listing import TensorNames, constant, dtype_name

SOURCE_COLOR = "#cfe2ff"
TARGET_COLOR = "#ffd8a8"
CONSTANT_COLOR = "#888888"


__all__ = ["render", "to_dot", "to_svg"]


def _quote(text: str) -> str:
    """A DOT string literal; ``\\n`` in ``text`` stays a DOT line break."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _attrs(**attrs: str) -> str:
    return "[" + ", ".join(f"{key}={_quote(value)}" for key, value in attrs.items()) + "]"


# The drawing's key: one row for each colour the drawing uses, in this order.
_KEY_ROWS = {
    "source": f'<td bgcolor="{SOURCE_COLOR}">watched source</td>',
    "target": f'<td bgcolor="{TARGET_COLOR}">target</td>',
    "constant": f'<td style="dashed"><font color="{CONSTANT_COLOR}">not watched</font></td>',
}


def _key_table(kinds: set[str]) -> str:
    """A Graphviz HTML-like table: the key of the colours in ``kinds``."""
    rows = "".join(f"<tr>{cell}</tr>" for kind, cell in _KEY_ROWS.items() if kind in kinds)
    return (
        '<table border="0" cellborder="1" cellspacing="2" cellpadding="3">'
        f'<tr><td border="0"><b>key</b></td></tr>{rows}</table>'
    )


def to_dot(tape: GradientTape, target: Any = None, sources: Any = None) -> str:
    """Graphviz DOT text of ``tape``; needs no dependency.

    ``target`` and ``sources`` (Tensors or nests of them) choose what to
    highlight; by default the sources are the watched Tensors that no entry
    computed and the target is every output that no later entry reads.

    >>> import tapegrad as tg
    >>> x, y = tg.tensor(1.0), tg.tensor(2.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch([x, y])
    ...     z = x + y
    >>> print(tape.to_dot().splitlines()[0])
    digraph tape {
    """
    entries = [(i, Entry(e)) for i, e in enumerate(tape._entries) if e is not None]
    outputs = {e.output._id for _, e in entries}
    read = {x._id for _, e in entries for x in e.inputs if isinstance(x, Tensor)}
    if sources is None:
        source_ids = {i for i in read if i in tape._watched and i not in outputs}
    else:
        source_ids = {t._id for t in flatten(sources) if isinstance(t, Tensor)}
    if target is None:
        target_ids = outputs - read
    else:
        target_ids = {t._id for t in flatten(target) if isinstance(t, Tensor)}

    names = TensorNames()
    lines = [
        "digraph tape {",
        '  graph [rankdir="TB", fontname="Helvetica"];',
        '  node [fontname="Helvetica", fontsize="11"];',
        '  edge [fontname="Helvetica", fontsize="9", color="#555555"];',
    ]
    drawn: set[int] = set()
    kinds: set[str] = set()  # which colours the drawing uses, for its key

    def tensor_node(t: Tensor) -> str:
        node = f"t{t._id}"
        if t._id in drawn:
            return node
        drawn.add(t._id)
        label = names(t) + (f" <{t.name}>" if isinstance(t, Variable) and t.name else "")
        attrs = {"shape": "ellipse", "label": f"{label}\n{t.shape} {dtype_name(t.dtype)}"}
        if t._id in target_ids:
            attrs.update(style="filled,bold", fillcolor=TARGET_COLOR, tooltip="target")
            kinds.add("target")
        elif t._id in source_ids:
            attrs.update(style="filled,bold", fillcolor=SOURCE_COLOR, tooltip="watched source")
            kinds.add("source")
        elif t._id not in tape._watched:
            attrs.update(style="dashed", color=CONSTANT_COLOR, fontcolor=CONSTANT_COLOR)
            attrs["tooltip"] = "not watched: no gradient flows to it"
            kinds.add("constant")
        lines.append(f"  {node} {_attrs(**attrs)};")
        return node

    for index, entry in entries:
        op = f"op{index}"
        label = f"{entry.primitive.name}  #{index}"
        params = [f"{key}={constant(value)}" for key, value in entry.params.items()]
        if params:
            label += "\n" + "\n".join(params)
        attrs = {"shape": "box", "label": label, "tooltip": entry.where or "", "ordering": "in"}
        lines.append(f"  {op} {_attrs(**attrs)};")
        several = len(entry.inputs) > 1
        for k, x in enumerate(entry.inputs):
            if isinstance(x, Tensor):
                node = tensor_node(x)
            else:
                node = f"c{index}_{k}"
                attrs = {"shape": "plain", "label": constant(x), "fontcolor": CONSTANT_COLOR}
                lines.append(f"  {node} {_attrs(**attrs)};")
            edge = f" {_attrs(label=str(k))}" if several else ""
            lines.append(f"  {node} -> {op}{edge};")
        lines.append(f"  {op} -> {tensor_node(entry.output)};")
    if kinds:
        lines.append(f'  key [shape="plaintext", label=<{_key_table(kinds)}>];')
    lines.append("}")
    return "\n".join(lines) + "\n"


_NO_PACKAGE = "the graphviz Python package is not installed (pip install 'tapegrad[viz]')"
_NO_DOT = (
    "Graphviz's `dot` program is not on PATH (apt-get install graphviz, brew install graphviz, "
    "conda install -c conda-forge graphviz, or https://graphviz.org/download/)"
)


def _draw(dot: str, format: str) -> tuple[bytes | None, str]:
    """Graphviz's drawing of the DOT text in ``format``, or ``(None, why not)``."""
    try:
        import graphviz
    except ImportError:
        return None, _NO_PACKAGE
    if format not in graphviz.FORMATS:
        raise ValueError(
            f"GradientTape.render: unknown format {format!r}; "
            f"Graphviz knows {', '.join(sorted(graphviz.FORMATS))}"
        )
    try:
        return graphviz.Source(dot).pipe(format=format), ""
    except graphviz.ExecutableNotFound:
        return None, _NO_DOT


def render(
    tape: GradientTape,
    path: str | os.PathLike[str],
    format: str = "png",
    target: Any = None,
    sources: Any = None,
) -> str:
    """Draw ``tape`` into the file ``path`` (``format``: png, svg, pdf...); returns the path.

    Uses the ``graphviz`` package (the ``viz`` extra) and Graphviz's ``dot``
    program. When either is missing, writes the DOT text next to ``path``
    instead (``tape.png`` -> ``tape.dot``), warns with the command that turns
    it into the picture once Graphviz is installed, and returns the ``.dot``
    file's path.

    >>> import tapegrad as tg
    >>> x = tg.tensor(1.0)
    >>> with tg.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = x * 2.0
    >>> tape.render("tape.svg", format="svg")  # doctest: +SKIP
    'tape.svg'
    """
    dot = to_dot(tape, target=target, sources=sources)
    image, missing = _draw(dot, format)
    if image is None:
        dot_path = os.fspath(Path(path).with_suffix(".dot"))
        with open(dot_path, "w") as f:
            f.write(dot)
        message = (
            f"GradientTape.render: {missing}, so it wrote the DOT text to {dot_path} instead "
            f"of drawing {os.fspath(path)}. With Graphviz installed, "
            f"`dot -T{format} {shlex.quote(dot_path)} -o {shlex.quote(os.fspath(path))}` draws it."
        )
        filename, line = caller_site() or ("<unknown>", 0)
        warnings.warn_explicit(message, UserWarning, filename, line)
        return dot_path
    with open(path, "wb") as f:
        f.write(image)
    return os.fspath(path)


SVG_MAX_ENTRIES = 300  # larger tapes show as text in notebooks: dot's layout would take long


def to_svg(tape: GradientTape) -> str | None:
    """The tape drawn as SVG text, or None when Graphviz is missing, the tape is empty or
    longer than ``SVG_MAX_ENTRIES`` (Jupyter then shows the text listing).

    >>> import tapegrad as tg
    >>> with tg.GradientTape() as tape:
    ...     pass
    >>> to_svg(tape) is None  # nothing to draw
    True
    """
    if not 0 < len(tape) <= SVG_MAX_ENTRIES:
        return None
    image, _ = _draw(to_dot(tape), "svg")
    return None if image is None else image.decode("utf-8")
