"""``python -m tapegrad.testing.scipy_samples > docs/scipy-coverage.md``."""

from tapegrad.testing.scipy_samples import markdown

print(markdown(), end="")
