"""``python -m tapegrad.testing.numpy_samples > docs/numpy.md``."""

from tapegrad.testing.numpy_samples import markdown

print(markdown(), end="")
