"""The documentation stays true: the site's snippets run, the API reference names every
public object, and links between pages and to the repository's files resolve.
(tests/test_docs_pages.py: listings, tables, figures, quoted errors, examples and wording;
tests/test_docs_screenshots.py: the layout in a browser.)"""

import importlib
import inspect
import re
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


# --- "Coming from PyTorch / TensorFlow / JAX / autograd": every tapegrad tab runs -------------


def tapegrad_tabs(text):
    """The code of each ``=== "tapegrad"`` tab: its fenced block, dedented."""
    blocks = re.findall(r'^=== "tapegrad"\n\n    ```python\n(.*?)\n    ```$', text, re.M | re.S)
    return ["\n".join(line[4:] for line in block.splitlines()) for block in blocks]


def test_every_section_of_coming_from_has_a_tapegrad_tab():
    text = (DOCS / "coming-from.md").read_text()
    sections = re.findall(r"^## ", text, re.M)
    assert len(tapegrad_tabs(text)) == len(sections) >= 8


@pytest.mark.parametrize("index", range(8))
def test_the_tapegrad_snippets_of_coming_from_run(index, capsys):
    code = tapegrad_tabs((DOCS / "coming-from.md").read_text())[index]
    exec(compile(code, f"coming-from.md, tapegrad tab {index}", "exec"), {})
    printed = capsys.readouterr().out
    assert "nan" not in printed and ("print(" not in code or printed)


# --- the API reference names every public object ------------------------------------------

# The public modules and what counts as public in each: ``__all__`` where it is defined,
# else the functions and classes the module defines. A public name that is a module
# (``tg.nn``, ``tg.nn.init``) is followed into. ``tg.compile`` is public but left out of
# ``__all__`` so that a star-import does not shadow the builtin. Optional parts whose
# dependency is missing (tapegrad.scipy without SciPy) are left out.
PUBLIC_MODULES = [
    "tapegrad",
    "tapegrad.testing",
    "tapegrad.testing.strategies",
    "tapegrad.distributed",
    "tapegrad.scipy",
    "tapegrad.numpy",
    "tapegrad.debug",
]
EXTRA_PUBLIC = {"tapegrad": ["compile"]}
# NumPy's namespace: most of its names are NumPy's own objects (NumPy documents them); the
# public names here are the functions tapegrad defines in their place.
OWN_OBJECTS_ONLY = {"tapegrad.numpy"}


def public_names(module):
    names = getattr(module, "__all__", None)
    if module.__name__ in OWN_OBJECTS_ONLY:
        names = [
            name
            for name, value in vars(module).items()
            if not name.startswith("_")
            and (inspect.isfunction(value) or inspect.isclass(value))
            and getattr(value, "__module__", "").startswith("tapegrad.")
        ]
    elif names is None:
        names = [
            name
            for name, value in vars(module).items()
            if not name.startswith("_") and getattr(value, "__module__", None) == module.__name__
        ]
    return [*names, *EXTRA_PUBLIC.get(module.__name__, [])]


def public_paths():
    """Dotted path -> whether it is a module, for every public module, function and class."""
    paths = {}
    pending = []
    for name in PUBLIC_MODULES:
        try:
            pending.append(importlib.import_module(name))
        except ImportError:  # an optional dependency is missing
            continue
        paths[name] = True
    while pending:
        module = pending.pop()
        for name in public_names(module):
            value = getattr(module, name)
            path = f"{module.__name__}.{name}"
            if isinstance(value, types.ModuleType):
                if value.__name__ == path and path not in paths:
                    pending.append(value)
                paths[path] = True
            else:
                paths[path] = False
    return paths


def documented():
    """``::: path`` identifiers of the API reference pages, with the page of each."""
    found = {}
    for page in sorted((DOCS / "api").glob("*.md")):
        for path in re.findall(r"^::: (\S+)$", page.read_text(), re.M):
            assert path not in found, f"{path} is documented twice ({found[path]}, {page.name})"
            found[path] = page.name
    return found


def test_every_public_name_is_in_the_api_reference():
    # A name is covered by its own ``::: name`` entry, or by one of its module's (which
    # shows every public member of that module).
    entries = documented()
    missing = [
        path
        for path, is_module in public_paths().items()
        if not is_module
        and not any(".".join(path.split(".")[:n]) in entries for n in range(1, path.count(".") + 2))
    ]
    assert not missing, (
        f"not in the API reference: {', '.join(sorted(missing))}. Add a `::: <name>` line for "
        "each to the fitting page of docs/api/ (a new module gets a new page in mkdocs.yml's nav)."
    )


def test_every_documented_name_exists_and_is_public():
    public = public_paths()
    for path, page in documented().items():
        module, _, name = path.rpartition(".")
        try:
            parent = importlib.import_module(module)
        except ImportError as exc:
            pytest.skip(f"{page}: {module} needs an optional dependency ({exc})")
        assert hasattr(parent, name), f"{page}: {path} does not exist"
        assert path in public, f"{page}: {path} is not public (not in its module's __all__)"


def test_the_api_pages_are_in_the_nav():
    nav = (ROOT / "mkdocs.yml").read_text()
    for page in (DOCS / "api").glob("*.md"):
        assert f"api/{page.name}" in nav, f"docs/api/{page.name} is missing from mkdocs.yml's nav"


# --- every public name has a docstring with a runnable example -----------------------------

# The docstrings that also carry Google-style sections: ``Args:`` naming every parameter,
# ``Returns:`` for a function that returns something, and ``Raises:`` where the name raises
# for bad input. Every public name of these modules:
SECTIONED_MODULES = [
    "tapegrad.nn",
    "tapegrad.optim",
    "tapegrad.data",
    "tapegrad.random",
    "tapegrad.testing",
    "tapegrad.distributed",
]
# and these names of the top-level namespace and methods. The functions that mirror NumPy or
# SciPy (the op library, tg.linalg, tg.fft, tapegrad.scipy) take those libraries' arguments:
# their docstrings give what differs, the gradient, and an example (docs/api/ops.md says so).
SECTIONED_NAMES = [
    # tapes, tensors, devices
    "tapegrad.GradientTape",
    "tapegrad.GradientTape.gradient",
    "tapegrad.GradientTape.jacobian",
    "tapegrad.GradientTape.watch",
    "tapegrad.GradientTape.watched_variables",
    "tapegrad.GradientTape.stop_recording",
    "tapegrad.detect_anomaly",
    "tapegrad.Tensor",
    "tapegrad.Variable",
    "tapegrad.tensor",
    "tapegrad.default_device",
    "tapegrad.set_default_device",
    "tapegrad.device_scope",
    "tapegrad.to_device",
    # transforms, recording, replay, extending
    "tapegrad.grad",
    "tapegrad.value_and_grad",
    "tapegrad.vjp",
    "tapegrad.jvp",
    "tapegrad.jacobian",
    "tapegrad.hessian",
    "tapegrad.hvp",
    "tapegrad.custom_gradient",
    "tapegrad.stop_gradient",
    "tapegrad.checkpoint",
    "tapegrad.no_grad",
    "tapegrad.compile",
    "tapegrad.Primitive",
    # methods
    "tapegrad.nn.Module.load_state_dict",
    "tapegrad.nn.Module.save",
    "tapegrad.nn.Module.load",
    "tapegrad.nn.Module.train",
    "tapegrad.nn.Module.to",
    "tapegrad.nn.Module.parameter_count",
    "tapegrad.optim.Optimizer.apply_gradients",
    "tapegrad.optim.Optimizer.load_state_dict",
    "tapegrad.optim.ReduceLROnPlateau.step",
]


def resolve(path):
    """The object at a dotted path: a module's attribute, or a class's."""
    parts = path.split(".")
    for n in range(len(parts) - 1, 0, -1):
        try:
            value = importlib.import_module(".".join(parts[:n]))
        except ImportError:
            continue
        for part in parts[n:]:
            value = getattr(value, part)
        return value
    raise ImportError(path)


def public_objects():
    """Dotted path -> object, for every public function and class."""
    objects = {}
    for path, is_module in public_paths().items():
        if not is_module:
            module, _, name = path.rpartition(".")
            objects[path] = getattr(importlib.import_module(module), name)
    return objects


def test_every_public_name_has_a_docstring_with_an_example():
    # ``>>>`` examples run as doctests: pyproject.toml's ``--doctest-modules`` collects the
    # docstrings of every module under tapegrad/.
    lacking = [
        path
        for path, value in public_objects().items()
        if ">>>" not in (inspect.getdoc(value) or "")
    ]
    assert not lacking, (
        f"{len(lacking)} public names lack a docstring with a `>>>` example: "
        f"{', '.join(sorted(lacking))}"
    )


def sectioned():
    paths = [
        path
        for path, is_module in public_paths().items()
        if not is_module and any(path.startswith(m + ".") for m in SECTIONED_MODULES)
    ]
    return sorted(paths) + SECTIONED_NAMES


def test_every_public_method_has_a_docstring():
    # The methods and properties the API reference shows under each class.
    lacking = []
    for path, value in public_objects().items():
        if not inspect.isclass(value):
            continue
        for name, member in vars(value).items():
            function = member.fget if isinstance(member, property) else member
            function = getattr(function, "__func__", function)
            if name.startswith("_") or not callable(function):
                continue
            if getattr(function, "__module__", "").startswith("tapegrad"):
                if not inspect.getdoc(function):
                    lacking.append(f"{path}.{name}")
    assert not lacking, f"public methods without a docstring: {', '.join(sorted(set(lacking)))}"


@pytest.mark.parametrize("path", sectioned())
def test_sectioned_docstrings_describe_arguments_and_results(path):
    value = resolve(path)
    doc = inspect.getdoc(value) or ""
    parameters = [p for p in inspect.signature(value).parameters if p != "self"]
    if parameters:
        assert re.search(r"^Args:$", doc, re.M), f"{path}'s docstring has no Args: section"
        described = set(re.findall(r"^    \*{0,2}(\w+):", doc.split("Args:")[1], re.M))
        missing = [p for p in parameters if p not in described]
        assert not missing, f"{path}: Args: does not describe {', '.join(missing)}"
    returns = inspect.signature(value).return_annotation
    if not inspect.isclass(value) and returns not in ("None", None):
        assert re.search(r"^Returns:$", doc, re.M), f"{path}'s docstring has no Returns: section"


# --- the guides: links resolve, no reference to files outside the repository ---------------


def markdown_files():
    return [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted(DOCS.glob("**/*.md"))]


def anchors(page):
    """The ids the site gives a page's headings (Python-Markdown's toc slugs)."""
    headings = re.findall(
        r"^#+ (.+)$", re.sub(r"^```.*?^```", "", page.read_text(), flags=re.M | re.S), re.M
    )
    slugs = (re.sub(r"[^\w\s-]", "", h).strip().lower() for h in headings)
    return {re.sub(r"[-\s]+", "-", slug) for slug in slugs}


@pytest.mark.parametrize("path", markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_files_in_the_repository(path):
    if not path.exists():
        pytest.skip(f"{path.name} does not exist yet")
    for target, anchor in re.findall(r"\]\(([^)#\s]*)(?:#([^)]*))?\)", path.read_text()):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        resolved = (path.parent / target).resolve()
        assert resolved.is_relative_to(ROOT), f"{path.name} links outside the repository: {target}"
        assert resolved.exists(), f"{path.name} links to a missing file: {target}"
        if anchor and resolved.suffix == ".md" and resolved.is_relative_to(DOCS):
            assert anchor in anchors(resolved), f"{path.name}: no heading #{anchor} in {target}"


# Files of the project's own design notes live outside the repository; nothing here may send a
# reader to them. (The pattern is split so that this file does not match itself.)
OUTSIDE = re.compile("DESIGN" + r"\.md|\.\./shared/|/work/" + "shared")
PROJECT_FILES = [
    ROOT / "README.md",
    ROOT / "CHANGELOG.md",
    *sorted(DOCS.glob("**/*.md")),
    *sorted(
        p
        for d in ("tapegrad", "tests", "examples", "benchmarks")
        for p in (ROOT / d).glob("**/*.py")
    ),
]


def test_no_file_points_outside_the_repository():
    offending = [
        str(p.relative_to(ROOT))
        for p in PROJECT_FILES
        if p.exists() and OUTSIDE.search(p.read_text(encoding="utf-8"))
    ]
    assert not offending, f"these point at files outside the repository: {offending}"
