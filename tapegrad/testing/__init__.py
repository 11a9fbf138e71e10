"""Tools to check gradients: finite-difference checks and Hypothesis strategies.

``gradcheck``/``gradgradcheck`` need only NumPy; ``tapegrad.testing.strategies``
needs Hypothesis (the ``test`` extra).

Layer: built on the engine and the op library, which it checks; nothing in the package
imports it.
"""

from tapegrad.testing.gradcheck import gradcheck, gradgradcheck

__all__ = ["gradcheck", "gradgradcheck"]
