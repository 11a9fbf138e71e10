"""The package's layers point one way (docs/architecture.md): every import of a tapegrad
module, at module level, inside a function or under ``if TYPE_CHECKING``, names a module of
its own layer or of a layer below it, and no import circle spans two layers.

The layers, bottom up, are :data:`LAYERS`; a row's layers may import the rows below them,
never each other. The check reads the source with ``ast``, so it also sees imports that do
not run when the test does (in functions, in branches).
"""

from __future__ import annotations

import ast
import pkgutil
import textwrap
from pathlib import Path

import tapegrad
from tapegrad.core.tape import GradientTape
from tapegrad.core.tensor import Tensor
from tapegrad.core.tensor_methods import TensorMethods

# Bottom up. Each name is a subpackage or a module at the package root; "tapegrad" is the
# root's __init__.py, which imports every layer and wires them together.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("wording", "peers"),  # English for messages: "a float32"; peers' names and ours
    ("backends",),  # array namespaces, dtypes, devices
    ("core",),  # the engine: Tensor, the tape, recording, the sweep
    ("ops",),  # the op library: primitives beside their rules
    ("linalg", "fft", "random"),  # families built on the op library
    ("numpy",),  # NumPy's namespace, protocols and dispatch tables
    ("scipy",),  # SciPy's
    ("debug", "transforms", "replay", "testing"),  # tools over the engine and the ops
    ("nn",),  # layers
    ("optim",),  # optimizers
    ("data", "distributed"),  # training loops' helpers
    ("tapegrad",),
)
RANK = {layer: rank for rank, row in enumerate(LAYERS) for layer in row}

# Import circles allowed inside one layer, with the reason. The op library's families call
# each other through the ``tapegrad.ops`` namespace (``ops.add``), as NumPy's own modules
# use ``np.``: the namespace imports every family, so the op library is one circle.
CIRCLES_ALLOWED = {"ops": "the families call each other as ops.X"}

PACKAGE_DIR = Path(tapegrad.__file__).parent


def layer_of(module: str) -> str:
    """``tapegrad.core.tape`` -> ``core``; ``tapegrad`` -> ``tapegrad``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def module_names() -> dict[str, Path]:
    """Every module of the package: dotted name -> source file."""
    names = {"tapegrad": PACKAGE_DIR / "__init__.py"}
    for info in pkgutil.walk_packages([str(PACKAGE_DIR)], "tapegrad."):
        relative = info.name.split(".")[1:]
        path = PACKAGE_DIR.joinpath(*relative)
        names[info.name] = path / "__init__.py" if info.ispkg else path.with_suffix(".py")
    return names


def imports_of(module: str, source: str, is_package: bool, known: set[str]):
    """``(line, imported module, type_only)`` for each tapegrad import in ``source``.

    ``from tapegrad import ops`` imports the module ``tapegrad.ops``; ``from tapegrad
    import Tensor`` the root package. ``importlib.import_module("tapegrad....")`` with a
    constant name counts too.
    """
    tree = ast.parse(source)
    type_only = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            type_only.update(id(inner) for child in node.body for inner in ast.walk(child))
    package = module if is_package else module.rpartition(".")[0]
    found = []
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.append(full if full in known else base)
        elif (
            isinstance(node, ast.Call)
            and ast.unparse(node.func) in ("importlib.import_module", "import_module")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            targets = [node.args[0].value]
        for target in targets:
            if target == "tapegrad" or target.startswith("tapegrad."):
                found.append((node.lineno, target, id(node) in type_only))
    return found


def upward_imports(module: str, source: str, is_package: bool, known: set[str]) -> list[str]:
    """One sentence per import of ``module`` that reaches its own layer's peers or above."""
    own = layer_of(module)
    problems = []
    for line, target, _ in imports_of(module, source, is_package, known):
        theirs = layer_of(target)
        if theirs == own:
            continue
        if theirs not in RANK or own not in RANK:
            problems.append(f"{module}:{line} imports {target}: layer {theirs!r} is not in LAYERS")
        elif RANK[theirs] >= RANK[own]:
            problems.append(
                f"{module}:{line} imports {target}: {own!r} may not import {theirs!r} "
                f"(row {RANK[own]} may import only rows below it; {theirs!r} is row {RANK[theirs]})"
            )
    return problems


def runtime_graph() -> dict[str, set[str]]:
    """module -> the tapegrad modules it imports when it runs (not under TYPE_CHECKING)."""
    names = module_names()
    known = set(names)
    graph: dict[str, set[str]] = {}
    for module, path in names.items():
        found = imports_of(module, path.read_text(), path.name == "__init__.py", known)
        graph[module] = {t for _, t, type_only in found if not type_only and t in known} - {module}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_every_module_has_a_layer():
    missing = sorted({layer_of(m) for m in module_names()} - set(RANK))
    assert not missing, f"modules in no layer of LAYERS: {missing}"


def test_imports_point_down():
    names = module_names()
    known = set(names)
    problems = []
    for module, path in sorted(names.items()):
        problems += upward_imports(module, path.read_text(), path.name == "__init__.py", known)
    assert not problems, "imports that point up or sideways:\n" + "\n".join(problems)


def test_the_check_finds_upward_imports_in_a_made_up_module():
    """The same check, on a made-up engine module that reaches up in every way it can."""
    source = textwrap.dedent(
        """
        from typing import TYPE_CHECKING

        from tapegrad import ops
        from tapegrad.backends import namespaces
        from tapegrad.core.tape import GradientTape
        from . import sweep
        from ..debug import listing
        import tapegrad.nn.layers

        if TYPE_CHECKING:
            from tapegrad.numpy import protocol

        def late():
            from tapegrad import Tensor
            import importlib
            return importlib.import_module("tapegrad.scipy.special")
        """
    )
    known = set(module_names())
    problems = upward_imports("tapegrad.core.made_up", source, False, known)
    reached = sorted(problem.split(" imports ")[1].split(":")[0] for problem in problems)
    assert reached == [
        "tapegrad",
        "tapegrad.debug.listing",
        "tapegrad.nn.layers",
        "tapegrad.numpy.protocol",
        "tapegrad.ops",
        "tapegrad.scipy.special",
    ]
    assert "'core' may not import 'ops'" in " ".join(problems)
    # Peers in one row may not import each other either.
    assert upward_imports("tapegrad.fft.made_up", "from tapegrad import linalg\n", False, known)


def test_no_import_circle_spans_two_layers():
    spanning = [c for c in circles(runtime_graph()) if len({layer_of(m) for m in c}) > 1]
    assert not spanning, f"import circles across layers: {spanning}"


def test_circles_inside_a_layer_are_the_allowed_ones():
    inside = {layer_of(c[0]): c for c in circles(runtime_graph())}
    unexpected = {layer: c for layer, c in inside.items() if layer not in CIRCLES_ALLOWED}
    assert not unexpected, (
        f"import circles inside a layer (merge the files, or untie them): {unexpected}"
    )


def test_the_circle_check_finds_a_made_up_circle():
    graph = {"a.x": {"a.y"}, "a.y": {"b.z"}, "b.z": {"a.x"}, "b.w": set()}
    assert circles(graph) == [["a.x", "a.y", "b.z"]]


def test_the_engine_imports_nothing_at_run_time_from_above():
    """Importing the engine alone (in a fresh interpreter) loads no layer above it."""
    import subprocess
    import sys

    code = (
        "import sys, types\n"
        "root = types.ModuleType('tapegrad')  # the package without its __init__.py\n"
        f"root.__path__ = [{str(PACKAGE_DIR)!r}]\n"
        "sys.modules['tapegrad'] = root\n"
        "import tapegrad.core.tape, tapegrad.core.record, tapegrad.core.sweep\n"
        "print(sorted({m.split('.')[1] for m in sys.modules if m.startswith('tapegrad.')}))\n"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "['backends', 'core', 'wording']"


def test_every_declared_tensor_method_is_set():
    """core/tensor_methods.py declares what the layers above set on Tensor: each is set."""
    declared = [name for name in TensorMethods.__annotations__ if name not in ("__slots__",)]
    missing = [name for name in declared if name not in vars(Tensor)]
    assert not missing, f"declared on Tensor but never set: {missing}"
    assert len(declared) >= 90


def test_the_tape_gets_its_listing_and_drawing():
    for name in GradientTape.__annotations__:
        if name.startswith("_") and name != "_repr_svg_":
            continue
        assert name in vars(GradientTape), f"GradientTape.{name} is declared but never set"
    assert GradientTape.__str__ is not object.__str__


def test_the_root_holds_init_and_at_most_three_modules():
    modules = sorted(p.name for p in PACKAGE_DIR.glob("*.py"))
    assert modules[0] == "__init__.py" and len(modules) <= 4, modules


def test_each_subpackage_says_what_it_is_and_may_import():
    """Each layer's __init__.py docstring: what it holds, then a "Layer:" paragraph."""
    lacking = []
    for path in sorted(PACKAGE_DIR.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(path.read_text())) or ""
        if len(doc.split()) < 15 or "Layer:" not in doc:
            lacking.append(path.parent.name)
    assert not lacking, f"subpackages whose docstring does not say what they may import: {lacking}"
