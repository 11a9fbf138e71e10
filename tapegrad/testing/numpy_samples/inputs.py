"""The inputs every sample call is made on, and the row a sample is.

``x`` and ``y`` have shape (3, 4) and distinct values in (0.3, 0.9): inside the domain of
every function sampled (after the shifts the calls make), with no ties, so sorts, maxima
and medians have a gradient.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

X = np.array([[0.31, 0.52, 0.73, 0.44], [0.65, 0.36, 0.87, 0.58], [0.49, 0.81, 0.62, 0.33]])
Y = np.array([[0.57, 0.38, 0.69, 0.84], [0.42, 0.75, 0.34, 0.61], [0.88, 0.47, 0.56, 0.39]])
MASK = np.array([[True, False, True, False], [False, True, True, False], [True, True, False, True]])


class Sample(NamedTuple):
    """One sample call: ``call(m, x, y)`` runs function ``name`` through the namespace ``m``
    (``numpy`` or ``tapegrad.numpy``); ``option`` names the keyword arguments or mode it
    exercises ("default" for the plain call); ``twice``: the second derivative exists at the
    sample and is checked."""

    name: str
    option: str
    call: Callable[[Any, Any, Any], Any]
    twice: bool = True


class Refusal(NamedTuple):
    """A call that raises: an option tapegrad does not take on Tensors, or a value NumPy
    refuses too (tapegrad once accepted it). ``call(tapegrad.numpy, x, y)`` raises ``error``
    with a message that contains the keyword of ``option``, so the user sees which."""

    name: str
    option: str
    call: Callable[[Any, Any, Any], Any]
    error: type[Exception] = NotImplementedError


def square(x: Any, y: Any) -> Any:
    """A well-conditioned 3 x 3 matrix from the 3 x 4 samples."""
    return x @ y.T + 3.0 * np.eye(3)


def spd(x: Any) -> Any:
    """A symmetric positive-definite 3 x 3 matrix from a 3 x 4 sample."""
    return x @ x.T + np.eye(3)


def in_place(m: Any, name: str, a: Any, *args: Any) -> Any:
    """NumPy's in-place writers on a copy (numpy), the functional form (tapegrad.numpy)."""
    if m is np:
        out = np.array(a, copy=True)
        getattr(np, name)(out, *args)
        return out
    return getattr(m, name)(a, *args, inplace=False)
