"""The README's quick start is what .ci/run runs: a virtual environment first, two lines."""

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_quick_start():
    spec = importlib.util.spec_from_file_location("quick_start", ROOT / ".ci" / "quick_start.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_quick_start_makes_a_venv_then_installs_runs_and_tests():
    first, second = load_quick_start().commands((ROOT / "README.md").read_text())
    steps = first.split(" && ")
    assert steps[:2] == ["python3 -m venv .venv", ". .venv/bin/activate"]
    assert steps[2:] == [
        'python -m pip install -e ".[test]"',
        "python examples/linear_regression.py",
    ]
    # A person may paste the second line into a new terminal: it activates again.
    assert second == ". .venv/bin/activate && python -m pytest -n auto"


def test_ci_runs_the_lines_it_reads_from_the_readme():
    ci = (ROOT / ".ci" / "run").read_text()
    assert "mapfile -t quick_start < <(python3 .ci/quick_start.py README.md)" in ci
    assert re.search(r'for line in "\$\{quick_start\[@\]\}"; do\n.*\n\s+bash -c "\$line"', ci)
    # Nothing else in CI installs tapegrad for the tests: the README's line does.
    before_tests = ci.split('bash -c "$line"')[0]
    assert "pip install" not in before_tests


@pytest.mark.parametrize(
    "readme, problem",
    [
        ("no marker here\n", "exactly one"),
        ("<!-- quick-start -->\n```bash\nx\n```\n", "must open a ```sh block"),
        ("<!-- quick-start -->\n```sh\nx\n", "never closed"),
    ],
)
def test_a_broken_quick_start_block_is_an_error(readme, problem):
    with pytest.raises(ValueError, match=problem):
        load_quick_start().commands(readme)


def test_the_block_extracted_is_the_block_shown():
    readme = "text\n<!-- quick-start: ci -->\n```sh\none && two\nthree\n```\nmore\n```sh\nx\n```\n"
    assert load_quick_start().commands(readme) == ["one && two", "three"]
