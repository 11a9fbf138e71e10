"""The SciPy coverage table kept honest: every public callable of scipy.linalg, special and
stats is classified, the committed docs/scipy-coverage.md is current, and every function
classified differentiable that a sample family lists is sampled."""

import pathlib

import pytest

pytest.importorskip("scipy", reason="the scipy extra is not installed")

import scipy  # noqa: E402

from tapegrad.scipy import coverage  # noqa: E402
from tapegrad.testing import scipy_samples  # noqa: E402

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "scipy-coverage.md"


def test_the_committed_table_is_current():
    text = DOC.read_text()
    version = ".".join(scipy.__version__.split(".")[:2])
    if f"SciPy {version}'s" not in text:
        pytest.skip(f"docs/scipy-coverage.md was generated with another SciPy than {version}")
    assert text == scipy_samples.markdown(), (
        "docs/scipy-coverage.md is stale: run "
        "python -m tapegrad.testing.scipy_samples > docs/scipy-coverage.md"
    )


def test_every_sampled_name_is_a_differentiable_scipy_function():
    rows = {
        name: kind for m in coverage.MODULES for name, (kind, _) in coverage.classify(m).items()
    }
    for name in scipy_samples.FUNCTIONS:  # differentiable, or SciPy's with a refusal
        owner = name if name in rows else name.rsplit(".", 1)[0]  # a method: its object
        assert rows.get(owner) == coverage.DIFFERENTIABLE or owner in coverage.PLAIN_ONLY, name
    for row in scipy_samples.REFUSALS:  # a function, or a method of a distribution
        assert row.name in rows or row.name.rsplit(".", 1)[0] in rows, row.name


def test_every_differentiable_linalg_function_has_a_sample():
    linalg = [
        n for n, (k, _) in coverage.classify("linalg").items() if k == coverage.DIFFERENTIABLE
    ]
    sampled = {row.name for row in scipy_samples.SAMPLES}
    assert [n for n in linalg if n not in sampled] == []
