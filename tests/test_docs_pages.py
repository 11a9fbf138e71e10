"""The guides show what the code does today and read as a product: the listings and tables
are what docs/regenerate.py writes, every figure has a command that draws it, the errors
docs/gpu.md quotes are the real ones, the home page lists every example, and no page speaks
of the project's own history (that is CHANGELOG.md's)."""

import importlib.util
import re
import sys
import types
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


HISTORY = re.compile(
    r"\bissue \d+|\bround (one|two|\d)|this round|Met / Not met|this session", re.I
)


def test_no_page_speaks_of_issues_or_rounds():
    # The history of the project's own work belongs in CHANGELOG.md, not in the guides.
    found = [
        f"{page.relative_to(ROOT)}:{number}: {line.strip()}"
        for page in sorted(DOCS.glob("**/*.md"))
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        if HISTORY.search(line)
    ]
    assert not found, "pages that speak of issues or rounds:\n" + "\n".join(found)


def load_regenerate():
    spec = importlib.util.spec_from_file_location("regenerate", DOCS / "regenerate.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("regenerate", module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_listings_and_tables_are_what_docs_regenerate_py_writes():
    # The listings of docs/debugging.md and the README are what their snippets print today,
    # and docs/performance.md's table is benchmarks/results/latest.json's.
    diffs = load_regenerate().stale()
    assert not diffs, "stale; run `python docs/regenerate.py`:\n" + "\n".join(diffs)


def test_the_regenerated_listing_is_the_real_one():
    # Not a tautology of the script: the numbers the guide explains are the tape's.
    text = (DOCS / "debugging.md").read_text()
    assert "%2 = matmul(%0, %1<w>)" in text and "saved 384.0 KiB   train.py:7" in text
    assert "total            5     1.4 MiB" in text
    assert "FloatingPointError: log produced nan in the forward pass at train.py:" in text


def test_every_image_the_docs_show_has_a_command_that_draws_it():
    regenerate = load_regenerate()
    shown = regenerate.shown_images()
    undrawn = {path: pages for path, pages in shown.items() if path not in regenerate.FIGURES}
    assert not undrawn, (
        f"add the command that draws each to FIGURES in docs/regenerate.py: {undrawn}"
    )
    examples = "".join(p.read_text() for p in (ROOT / "examples").glob("*.py"))  # shared parsers
    for name, command in regenerate.FIGURES.items():
        module = command[0] == "-m"
        script = ROOT / (command[1].replace(".", "/") + "/run.py" if module else command[0])
        assert script.exists(), f"{name}: {script} does not exist"
        source = script.read_text() + (examples if script.parent.name == "examples" else "")
        for flag in (a for a in command if a.startswith("--")):
            assert f'"{flag}"' in source, f"{name}: {script.name} takes no {flag}"


def examples():
    """The runnable examples: every examples/*.py that no other example imports."""
    scripts = sorted((ROOT / "examples").glob("*.py"))
    sources = {p: p.read_text(encoding="utf-8") for p in scripts}
    helpers = {
        p
        for p in scripts
        if any(
            re.search(rf"^\s*(from|import) {p.stem}\b", text, re.M)
            for q, text in sources.items()
            if q != p
        )
    }
    return [p.name for p in scripts if p not in helpers]


def test_the_home_page_lists_every_example():
    text = (DOCS / "index.md").read_text()
    names = examples()
    assert len(names) >= 10 and "digits_common.py" not in names
    missing = [name for name in names if f"(../examples/{name})" not in text]
    assert not missing, f"docs/index.md's Examples table lacks {', '.join(missing)}"


def squeezed(text):
    return re.sub(r"\s+", " ", text)


def test_the_device_errors_quoted_in_gpu_md_are_the_real_ones(monkeypatch):
    import numpy as np

    import tapegrad as tg
    from tapegrad.backends import devices, namespaces

    page = squeezed((DOCS / "gpu.md").read_text())

    def raised(call):
        with pytest.raises(Exception) as info:
            call()
        return f"{info.type.__name__}: {info.value}"

    class NoModule:  # an import finder for which CuPy is not installed
        def find_spec(self, name, path=None, target=None):
            if name == "cupy" or name.startswith("cupy."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)

    monkeypatch.setattr(devices, "_cupy_module", None)
    for name in [m for m in sys.modules if m == "cupy" or m.startswith("cupy.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [NoModule(), *sys.meta_path])
    quoted = [raised(lambda: tg.tensor([1.0], device="gpu"))]
    monkeypatch.setattr(sys, "meta_path", sys.meta_path[1:])

    # CuPy without a driver, then with a driver and no GPU (stand-ins for CuPy and
    # array-api-compat's CuPy namespace: only their imports and the device count are read).
    count = {"error": True}

    def device_count():
        if count["error"]:
            raise OSError("cudaErrorNoDevice")
        return 0

    cuda = types.SimpleNamespace(runtime=types.SimpleNamespace(getDeviceCount=device_count))
    compat = types.ModuleType("array_api_compat")
    compat.cupy = types.ModuleType("array_api_compat.cupy")
    monkeypatch.setitem(sys.modules, "cupy", types.SimpleNamespace(cuda=cuda))
    monkeypatch.setitem(sys.modules, "array_api_compat", compat)
    monkeypatch.setitem(sys.modules, "array_api_compat.cupy", compat.cupy)
    text = raised(lambda: devices.cupy("gpu"))
    quoted.append(text.rpartition(" (")[0])  # the page leaves CUDA's own error out
    count["error"] = False
    quoted.append(raised(lambda: devices.cupy("gpu")))

    class GpuArray:  # device_of reads the library from the type's module, as for CuPy's
        device = types.SimpleNamespace(id=0)

    GpuArray.__module__ = "cupy._core.core"
    quoted.append("ValueError: add: " + namespaces.mixed_message(np.ones(1), GpuArray()))
    for text in quoted:
        assert squeezed(text) in page, f"docs/gpu.md does not quote the real error: {text}"
