"""tape.to_dot() checked structurally, and tape.render() through the graphviz package."""

import importlib.util
import re
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import tapegrad as tg
from tapegrad.debug import viz

NODE = re.compile(r"^  (\w+) \[(.*)\];$")
EDGE = re.compile(r"^  (\w+) -> (\w+)(?: \[(.*)\])?;$")
ATTR = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')
HAS_DOT = shutil.which("dot") is not None
needs_dot = pytest.mark.skipif(
    not HAS_DOT, reason="the Graphviz dot program is not installed (apt-get install graphviz)"
)


def parse(dot: str):
    """{node: attrs} and [(tail, head, attrs)] of the DOT text that to_dot writes."""
    lines = dot.splitlines()
    assert lines[0] == "digraph tape {" and lines[-1] == "}"
    nodes, edges = {}, []
    for line in lines[1:-1]:
        if line.lstrip().startswith(("graph ", "node ", "edge ")):
            continue
        edge = EDGE.match(line)
        if edge:
            edges.append((edge[1], edge[2], dict(ATTR.findall(edge[3] or ""))))
            continue
        node = NODE.match(line)
        assert node, f"unexpected DOT line {line!r}"
        assert node[1] not in nodes, f"node {node[1]} defined twice"
        nodes[node[1]] = dict(ATTR.findall(node[2]))
    for tail, head, _ in edges:
        assert tail in nodes and head in nodes, (tail, head)
    return nodes, edges


def kind(attrs):
    return attrs["shape"]


def add_tape():
    x = tg.tensor(np.ones((2, 3), np.float32))
    y = tg.tensor(np.ones((2, 3), np.float32))
    with tg.GradientTape() as tape:
        tape.watch([x, y])
        z = x + y
    return tape, x, y, z


def mlp_step_tape():
    rng = np.random.default_rng(0)
    w1 = tg.Variable(rng.normal(size=(4, 8)), name="w1")
    b1 = tg.Variable(np.zeros(8), name="b1")
    w2 = tg.Variable(rng.normal(size=(8, 3)), name="w2")
    b2 = tg.Variable(np.zeros(3), name="b2")
    x = tg.tensor(rng.normal(size=(5, 4)))
    labels = np.array([0, 2, 1, 1, 0])
    with tg.GradientTape() as tape:
        hidden = tg.relu(x @ w1 + b1)
        logits = hidden @ w2 + b2
        loss = -tg.mean(tg.take_along_axis(tg.log_softmax(logits, axis=1), labels[:, None], 1))
    return tape, [w1, b1, w2, b2], loss


def test_add_is_three_ellipses_one_box_and_three_edges():
    tape, x, y, z = add_tape()
    nodes, edges = parse(tape.to_dot())
    tensors = {n: a for n, a in nodes.items() if kind(a) == "ellipse"}
    ops = {n: a for n, a in nodes.items() if kind(a) == "box"}
    assert len(tensors) == 3 and len(ops) == 1
    (op,) = ops
    assert ops[op]["label"].startswith("add  #0")
    tx, ty, tz = (f"t{t._id}" for t in (x, y, z))
    assert sorted((t, h) for t, h, _ in edges) == sorted([(tx, op), (ty, op), (op, tz)])
    # Input positions label the edges of a two-input op.
    assert {t: a.get("label") for t, h, a in edges if h == op} == {tx: "0", ty: "1"}
    assert tensors[tx]["label"] == r"%0\n(2, 3) float32"
    assert tensors[tz]["label"] == r"%2\n(2, 3) float32"
    assert tensors[tx]["fillcolor"] == tensors[ty]["fillcolor"] == viz.SOURCE_COLOR
    assert tensors[tz]["fillcolor"] == viz.TARGET_COLOR


def test_mlp_step_graph_structure():
    tape, variables, loss = mlp_step_tape()
    entries = list(tape)
    nodes, edges = parse(tape.to_dot())
    ops = [n for n, a in nodes.items() if kind(a) == "box"]
    assert len(ops) == len(entries)
    incoming = {n: [t for t, h, _ in edges if h == n] for n in nodes}
    outgoing = {n: [h for t, h, _ in edges if t == n] for n in nodes}
    for i, entry in enumerate(entries):
        op = f"op{i}"
        assert nodes[op]["label"].startswith(f"{entry.primitive.name}  #{i}")
        assert len(incoming[op]) == len(entry.inputs)
        assert outgoing[op] == [f"t{entry.output._id}"]
    # Every Tensor is computed by at most one op, and the graph has no cycle.
    assert all(len(incoming[n]) <= 1 for n, a in nodes.items() if kind(a) == "ellipse")
    order = {n: i for i, n in enumerate(_topological(nodes, edges))}
    assert all(order[t] < order[h] for t, h, _ in edges)
    highlighted = {
        n: a["fillcolor"] for n, a in nodes.items() if kind(a) == "ellipse" and "fillcolor" in a
    }
    sources = {f"t{v._id}": viz.SOURCE_COLOR for v in variables}
    assert highlighted == {**sources, f"t{loss._id}": viz.TARGET_COLOR}
    labels = {nodes[f"t{v._id}"]["label"].split(r"\n")[0] for v in variables}
    assert labels == {"%1 <w1>", "%3 <b1>", "%6 <w2>", "%8 <b2>"}


def _topological(nodes, edges):
    indegree = {n: 0 for n in nodes}
    for _, h, _ in edges:
        indegree[h] += 1
    ready = [n for n, d in indegree.items() if d == 0]
    order = []
    while ready:
        n = ready.pop()
        order.append(n)
        for t, h, _ in edges:
            if t == n:
                indegree[h] -= 1
                if indegree[h] == 0:
                    ready.append(h)
    assert len(order) == len(nodes), "the graph has a cycle"
    return order


def test_names_match_the_listing():
    tape, _, _ = mlp_step_tape()
    nodes, _ = parse(tape.to_dot())
    listed = [line.split(" = ")[0] for line in str(tape).splitlines()]
    drawn = [nodes[f"t{e.output._id}"]["label"].split(r"\n")[0] for e in tape]
    assert drawn == listed


def test_explicit_target_and_sources_and_constants():
    x = tg.tensor([1.0, 2.0])
    c = tg.tensor([3.0, 4.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        h = x * c
        y = tg.sum(h)
    nodes, edges = parse(tape.to_dot(target=h, sources=[x]))
    assert nodes[f"t{h._id}"]["fillcolor"] == viz.TARGET_COLOR
    assert "fillcolor" not in nodes[f"t{y._id}"]
    assert nodes[f"t{c._id}"]["style"] == "dashed"  # unwatched: no gradient flows to it
    params = [a for n, a in nodes.items() if n.startswith("op") and "axis" in a["label"]]
    assert params[0]["label"] == r"sum  #1\naxis=(0,)\nkeepdims=False"


def test_python_constants_are_plain_nodes():
    x = tg.tensor(1.0)
    with tg.GradientTape() as tape:
        tape.watch(x)
        x * 2.5
    nodes, edges = parse(tape.to_dot())
    (constant,) = [a for a in nodes.values() if kind(a) == "plain"]
    assert constant["label"] == "2.5"
    assert len(edges) == 3


def test_quotes_and_backslashes_are_escaped():
    v = tg.Variable(1.0, name='a"b\\c')
    with tg.GradientTape() as tape:
        v * 2.0
    nodes, _ = parse(tape.to_dot())
    assert nodes[f"t{v._id}"]["label"] == r"%0 <a\"b\\c>\n() float64"
    if HAS_DOT:
        subprocess.run(["dot", "-Tcanon"], input=tape.to_dot(), text=True, check=True)


def test_empty_tape_is_an_empty_graph():
    with tg.GradientTape() as tape:
        pass
    assert parse(tape.to_dot()) == ({}, [])


@needs_dot
def test_dot_accepts_the_mlp_drawing():
    tape, _, _ = mlp_step_tape()
    subprocess.run(["dot", "-Tcanon"], input=tape.to_dot(), text=True, check=True)


@needs_dot
def test_render_png_and_svg(tmp_path):
    pytest.importorskip("graphviz", reason="the graphviz package (the viz extra) is missing")
    tape, _, _, _ = add_tape()
    png = tape.render(tmp_path / "add.png")
    assert png == str(tmp_path / "add.png")
    assert (tmp_path / "add.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    tape.render(tmp_path / "add.svg", format="svg")
    assert "<svg" in (tmp_path / "add.svg").read_text()


def hide_graphviz_package(monkeypatch, tmp_path=None):
    monkeypatch.setitem(sys.modules, "graphviz", None)  # makes `import graphviz` fail


def hide_dot_program(monkeypatch, tmp_path):
    pytest.importorskip("graphviz", reason="the graphviz package (the viz extra) is missing")
    empty = tmp_path / "empty-bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))  # no dot program there


@pytest.mark.parametrize(
    "hide, missing",
    [
        (hide_graphviz_package, r"graphviz Python package is not installed"),
        (hide_dot_program, r"Graphviz's `dot` program is not on PATH"),
    ],
    ids=["no-package", "no-dot"],
)
def test_render_without_graphviz_writes_the_dot_file_and_says_how_to_draw_it(
    monkeypatch, tmp_path, hide, missing
):
    hide(monkeypatch, tmp_path)
    tape, _, _, _ = add_tape()
    with pytest.warns(UserWarning, match=missing) as caught:
        written = tape.render(tmp_path / "add.png")
    assert written == str(tmp_path / "add.dot")
    assert (tmp_path / "add.dot").read_text() == tape.to_dot()
    assert not (tmp_path / "add.png").exists()
    message = str(caught[0].message)
    assert f"dot -Tpng {tmp_path / 'add.dot'} -o {tmp_path / 'add.png'}" in message
    assert caught[0].filename == __file__  # attributed to the caller's line


def test_render_unknown_format(tmp_path):
    pytest.importorskip("graphviz", reason="the graphviz package (the viz extra) is missing")
    tape, _, _, _ = add_tape()
    with pytest.raises(ValueError, match="unknown format 'pgn'"):
        tape.render(tmp_path / "add.pgn", format="pgn")


@needs_dot
def test_example_draw_tape_writes_both_pngs(tmp_path, monkeypatch, capsys):
    pytest.importorskip("graphviz", reason="the graphviz package (the viz extra) is missing")
    example = Path(__file__).parent.parent / "examples" / "draw_tape.py"
    monkeypatch.setattr(sys, "argv", [str(example), "--out", str(tmp_path)])
    runpy.run_path(str(example), run_name="__main__")
    for name in ("tape_add.png", "tape_mlp_step.png"):
        assert (tmp_path / name).read_bytes().startswith(b"\x89PNG")
    assert "took one SGD step" in capsys.readouterr().out


def test_example_draw_tape_without_graphviz_writes_dot_files(tmp_path, monkeypatch, capsys):
    hide_graphviz_package(monkeypatch)
    example = Path(__file__).parent.parent / "examples" / "draw_tape.py"
    monkeypatch.setattr(sys, "argv", [str(example), "--out", str(tmp_path)])
    with pytest.warns(UserWarning, match="wrote the DOT text"):
        runpy.run_path(str(example), run_name="__main__")
    for name in ("tape_add", "tape_mlp_step"):
        assert (tmp_path / f"{name}.dot").read_text().startswith("digraph tape {")
        assert not (tmp_path / f"{name}.png").exists()
    out = capsys.readouterr().out
    assert f"wrote {tmp_path / 'tape_add.dot'}" in out and "took one SGD step" in out


# --- the key, and the tape in a notebook ---------------------------------------------------

KEY = re.compile(r'^  key \[shape="plaintext", label=<(.*)>\];$', re.MULTILINE)


def key_rows(dot):
    """The rows of the drawing's key, or None when it has none."""
    found = KEY.search(dot)
    return None if found is None else re.findall(r"<tr><td[^>]*>(?:<font[^>]*>)?([^<]+)<", found[1])


def test_the_key_names_the_colours_the_drawing_uses():
    tape, _, _, _ = add_tape()
    assert key_rows(tape.to_dot()) == ["watched source", "target"]
    x, c = tg.tensor([1.0, 2.0]), tg.tensor([3.0, 4.0])
    with tg.GradientTape() as tape:
        tape.watch(x)
        tg.sum(x * c)
    assert key_rows(tape.to_dot()) == ["watched source", "target", "not watched"]
    with tg.GradientTape() as tape:
        pass
    assert key_rows(tape.to_dot()) is None
    if HAS_DOT:
        subprocess.run(["dot", "-Tcanon"], input=add_tape()[0].to_dot(), text=True, check=True)


class Printer:
    """What IPython's pretty printer hands to ``_repr_pretty_``: text() collects."""

    def __init__(self):
        self.parts = []

    def text(self, text):
        self.parts.append(text)


def pretty(tape):
    printer = Printer()
    tape._repr_pretty_(printer, cycle=False)
    return "".join(printer.parts)


def test_repr_pretty_is_the_listing_under_the_repr(monkeypatch):
    tape, _, _, _ = add_tape()
    assert pretty(tape) == repr(tape) + "\n" + str(tape)
    with tg.GradientTape() as empty:
        pass
    assert pretty(empty) == "<GradientTape with 0 entries>"
    x = tg.tensor(1.0)
    with tg.GradientTape() as long:
        long.watch(x)
        for _ in range(10):
            x = x * 2.0
    monkeypatch.setattr("tapegrad.core.tape._PRETTY_LINES", 4)
    lines = pretty(long).splitlines()
    listing = str(long).splitlines()
    assert lines == [
        "<GradientTape with 10 entries>",
        *listing[:2],
        "... 6 entries not shown (print(tape) shows all)",
        *listing[-2:],
    ]


@needs_dot
def test_repr_svg_draws_the_tape():
    pytest.importorskip("graphviz", reason="the graphviz package (the viz extra) is missing")
    tape, _, _, _ = add_tape()
    svg = tape._repr_svg_()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and "watched source" in svg


def test_repr_svg_is_none_without_graphviz_so_jupyter_shows_the_text(monkeypatch, tmp_path):
    tape, _, _, _ = add_tape()
    hide_graphviz_package(monkeypatch)
    assert tape._repr_svg_() is None
    monkeypatch.undo()
    if importlib.util.find_spec("graphviz") is not None:
        hide_dot_program(monkeypatch, tmp_path)
        assert tape._repr_svg_() is None


def test_repr_svg_is_none_for_empty_and_long_tapes(monkeypatch):
    with tg.GradientTape() as empty:
        pass
    assert empty._repr_svg_() is None
    tape, _, _, _ = add_tape()
    monkeypatch.setattr(viz, "SVG_MAX_ENTRIES", 0)
    assert tape._repr_svg_() is None
