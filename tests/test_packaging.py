"""The version is written once, the changelog has it, and CI builds and installs the wheel."""

import re
from pathlib import Path

import pytest

import tapegrad as tg

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_lives_in_tapegrad_init_only():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in config["project"] and "version" in config["project"]["dynamic"]
    assert config["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "tapegrad.__version__"}
    # setuptools reads the attribute without importing the package: a plain string literal.
    init = (ROOT / "tapegrad" / "__init__.py").read_text()
    assert re.findall(r'^__version__ = "([^"]+)"$', init, re.M) == [tg.__version__]


def test_the_changelog_has_the_version_and_an_unreleased_section():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    headings = re.findall(r"^## \[([^\]]+)\]", changelog, re.M)
    assert headings[0] == "Unreleased"
    assert tg.__version__ in headings
    assert re.search(rf"^## \[{re.escape(tg.__version__)}\] - \d{{4}}-\d\d-\d\d$", changelog, re.M)


def test_ci_builds_checks_and_installs_the_wheel_outside_the_tree():
    ci = (ROOT / ".ci" / "run").read_text()
    for step in (
        'python -m build --outdir "$work/dist" .',
        'twine check --strict "$work"/dist/*',
        'python3 -m venv "$work/wheel-venv"',
        '"$work/wheel-venv/bin/python" -m pip install -q "$work"/dist/*.whl',
        '"$work/wheel-venv/bin/python" linear_regression.py',
        'mkdocs build --strict --site-dir "$work/site"',
    ):
        assert step in ci, step
