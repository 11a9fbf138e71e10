"""Hypothesis strategies for property-based gradient checks.

Every strategy takes a ``dtype``; a complex one (``np.complex128``) draws complex
values in the domain's complex counterpart (see :func:`elements`).

>>> from hypothesis import given
>>> import numpy as np
>>> import tapegrad as tg
>>> from tapegrad.testing import gradcheck, strategies as tst
>>> @given(tst.tensors(domain="positive"))
... def test_log(x):
...     gradcheck(tg.log, [x])
>>> @given(tst.tensors(dtype=np.complex128, domain="positive"))
... def test_complex_log(z):
...     gradcheck(tg.log, [z])  # both the real and the imaginary direction
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from tapegrad.core.tensor import Tensor, tensor

# Bounds keep finite differences well conditioned: away from poles and overflow.
DOMAINS: dict[str, tuple[float, float]] = {
    "real": (-3.0, 3.0),
    "positive": (0.2, 3.0),
    "unit": (-0.9, 0.9),
    "nonzero": (0.2, 3.0),  # magnitude; the sign is drawn separately
    "small": (-1.0, 1.0),
}


# The imaginary parts drawn with each domain's real parts for complex dtypes. The
# domains keep away from poles and branch cuts: ``positive`` is a right half-plane (log
# and sqrt cut along the negative reals), ``unit`` lies inside the unit disc (arctan's
# branch points are +-i), ``nonzero`` keeps |z| >= 0.2.
IMAGINARY_PARTS: dict[str, tuple[float, float]] = {
    "real": (-3.0, 3.0),
    "positive": (-3.0, 3.0),
    "unit": (-0.6, 0.6),
    "nonzero": (-3.0, 3.0),
    "small": (-1.0, 1.0),
}
_COMPLEX_REAL_PARTS = {"unit": (-0.6, 0.6)}


def elements(domain: str = "real", dtype: Any = np.float64) -> st.SearchStrategy[Any]:
    """Numbers in an op's domain: ``real``, ``positive``, ``unit`` (|x| < 1), ``nonzero``,
    ``small``; representable in ``dtype``. For a complex ``dtype`` the real part is drawn
    from the domain and the imaginary part from :data:`IMAGINARY_PARTS` (``positive`` is
    then the half-plane ``real(z) >= 0.2``, ``unit`` the square ``|re|, |im| <= 0.6``).

    Args:
        domain: ``"real"``, ``"positive"``, ``"unit"``, ``"nonzero"`` or ``"small"`` (see
            :func:`elements`).
        dtype: A real or complex floating dtype the numbers must fit.

    Returns:
        A Hypothesis strategy of Python floats (complex numbers for a complex dtype).

    >>> import tapegrad as tg
    >>> from hypothesis import given, settings
    >>> from tapegrad.testing import gradcheck, strategies as tst
    >>> @settings(max_examples=20, derandomize=True, database=None)
    ... @given(tst.elements("positive"))
    ... def test_log_of_a_positive_number_is_finite(x):
    ...     assert tg.isfinite(tg.log(tg.tensor(x))).item()
    >>> test_log_of_a_positive_number_is_finite()
    """
    if domain not in DOMAINS:
        raise ValueError(f"elements: unknown domain {domain!r}; choose from {sorted(DOMAINS)}")
    dtype = np.dtype(dtype)
    is_complex = dtype.kind == "c"
    lo, hi = _COMPLEX_REAL_PARTS.get(domain, DOMAINS[domain]) if is_complex else DOMAINS[domain]
    width: Literal[32, 64] = 32 if dtype in (np.float32, np.complex64) else 64
    values = _floats(lo, hi, width)
    if domain == "nonzero":
        values = st.tuples(values, st.sampled_from([-1.0, 1.0])).map(lambda p: p[0] * p[1])
    if not is_complex:
        return values
    return st.builds(complex, values, _floats(*IMAGINARY_PARTS[domain], width))


def _floats(lo: float, hi: float, width: Literal[32, 64]) -> st.SearchStrategy[float]:
    if width == 32:  # bounds the float32 grid holds (0.6 is not on it)
        lo, hi = float(np.float32(lo)), float(np.float32(hi))
    return st.floats(lo, hi, width=width, allow_nan=False, allow_infinity=False)


def shapes(min_dims: int = 0, max_dims: int = 3, max_side: int = 4) -> st.SearchStrategy:
    """Array shapes, 0-d included by default.

    Args:
        min_dims: The fewest axes.
        max_dims: The most axes.
        max_side: The longest axis.

    Returns:
        A Hypothesis strategy of shape tuples.

    >>> import tapegrad as tg
    >>> from hypothesis import given, settings
    >>> from tapegrad.testing import gradcheck, strategies as tst
    >>> @settings(max_examples=20, derandomize=True, database=None)
    ... @given(tst.shapes(min_dims=1, max_dims=2))
    ... def test_ones_have_the_shape(shape):
    ...     assert tg.ones(shape).shape == shape
    >>> test_ones_have_the_shape()
    """
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=max_side)


def broadcastable_shapes(
    num_shapes: int = 2, min_dims: int = 0, max_dims: int = 3, max_side: int = 4
) -> st.SearchStrategy[tuple[tuple[int, ...], ...]]:
    """Tuples of ``num_shapes`` shapes that broadcast together (NumPy's rules).

    Args:
        num_shapes: How many shapes each example holds.
        min_dims: The fewest axes of each.
        max_dims: The most axes of each.
        max_side: The longest axis.

    Returns:
        A Hypothesis strategy of tuples of shapes.

    >>> import tapegrad as tg
    >>> from hypothesis import given, settings
    >>> from tapegrad.testing import gradcheck, strategies as tst
    >>> import numpy as np
    >>> @settings(max_examples=20, derandomize=True, database=None)
    ... @given(tst.broadcastable_shapes(num_shapes=2))
    ... def test_add_broadcasts(shapes):
    ...     a, b = shapes
    ...     assert (tg.ones(a) + tg.ones(b)).shape == np.broadcast_shapes(a, b)
    >>> test_add_broadcasts()
    """
    return hnp.mutually_broadcastable_shapes(
        num_shapes=num_shapes, min_dims=min_dims, max_dims=max_dims, min_side=1, max_side=max_side
    ).map(lambda b: b.input_shapes)


def arrays(
    shape: Any = None,
    dtype: Any = np.float64,
    domain: str = "real",
    unique: bool = False,
) -> st.SearchStrategy[np.ndarray]:
    """NumPy arrays of ``shape`` (a tuple or a strategy; random shapes when None) of
    ``dtype``, real or complex.

    Args:
        shape: A shape tuple, a strategy of them, or None for :func:`shapes`.
        dtype: A real or complex floating dtype.
        domain: ``"real"``, ``"positive"``, ``"unit"``, ``"nonzero"`` or ``"small"`` (see
            :func:`elements`).
        unique: Whether the elements must differ (for ops with ties, such as ``max``).

    Returns:
        A Hypothesis strategy of NumPy arrays.

    >>> import tapegrad as tg
    >>> from hypothesis import given, settings
    >>> from tapegrad.testing import gradcheck, strategies as tst
    >>> @settings(max_examples=10, derandomize=True, database=None)
    ... @given(tst.arrays(shape=(3,), domain="unit"))
    ... def test_arcsin_gradient(a):
    ...     assert gradcheck(tg.arcsin, [a])
    >>> test_arcsin_gradient()
    """
    return hnp.arrays(
        dtype=dtype,
        shape=shapes() if shape is None else shape,
        elements=elements(domain, dtype),
        unique=unique,
    )


def tensors(
    shape: Any = None,
    dtype: Any = np.float64,
    domain: str = "real",
    unique: bool = False,
) -> st.SearchStrategy[Tensor]:
    """tapegrad Tensors with values in ``domain`` (see :func:`elements`).

    Args:
        shape: A shape tuple, a strategy of them, or None for :func:`shapes`.
        dtype: A real or complex floating dtype.
        domain: ``"real"``, ``"positive"``, ``"unit"``, ``"nonzero"`` or ``"small"`` (see
            :func:`elements`).
        unique: Whether the elements must differ (for ops with ties, such as ``max``).

    Returns:
        A Hypothesis strategy of Tensors.

    >>> import tapegrad as tg
    >>> from hypothesis import given, settings
    >>> from tapegrad.testing import gradcheck, strategies as tst
    >>> @settings(max_examples=10, derandomize=True, database=None)
    ... @given(tst.tensors(shape=(2, 3), dtype="float32"))
    ... def test_tanh_keeps_float32(x):
    ...     assert tg.tanh(x).dtype == "float32"
    >>> test_tanh_keeps_float32()
    """
    return arrays(shape, dtype, domain, unique).map(tensor)


@st.composite
def broadcastable_tensors(
    draw: Any,
    num: int = 2,
    dtype: Any = np.float64,
    domain: str | tuple[str, ...] = "real",
    max_dims: int = 3,
) -> tuple[Tensor, ...]:
    """``num`` Tensors whose shapes broadcast together; ``domain`` may differ per Tensor.

    Args:
        num: How many Tensors each example holds.
        dtype: A real or complex floating dtype.
        domain: One domain for all, or a tuple with one per Tensor (see :func:`elements`).
        max_dims: The most axes of each.

    Returns:
        A Hypothesis strategy of tuples of Tensors.

    >>> import tapegrad as tg
    >>> from hypothesis import given, settings
    >>> from tapegrad.testing import gradcheck, strategies as tst
    >>> @settings(max_examples=10, derandomize=True, database=None)
    ... @given(tst.broadcastable_tensors(2, domain=("real", "positive")))
    ... def test_power_gradient(pair):
    ...     x, y = pair
    ...     assert gradcheck(lambda y: tg.power(y, x), [y])
    >>> test_power_gradient()
    """
    domains = (domain,) * num if isinstance(domain, str) else domain
    input_shapes = draw(broadcastable_shapes(num, max_dims=max_dims))
    return tuple(draw(tensors(s, dtype, d)) for s, d in zip(input_shapes, domains))
