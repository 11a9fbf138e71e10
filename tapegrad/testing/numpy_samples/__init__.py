"""Sample calls of every differentiable NumPy function, one per keyword option and mode,
as PyTorch's OpInfo sample inputs are: the table tapegrad's own tests check, and the one
docs/numpy.md lists beside each function.

Each row is a :class:`Sample`: ``call(m, x, y)`` runs the function through the namespace
``m`` (``numpy`` or ``tapegrad.numpy``) on the inputs ``X`` and ``Y`` of :mod:`.inputs`.
tests/test_numpy_options.py checks every row: tapegrad's values equal NumPy's on the same
input (dtype and shape too), the gradient equals central finite differences, and where the
row says the function is twice differentiable, so does the second derivative. The rows are
plain lists to read and grep, in one module per family (reductions, shapes, sets,
elementwise, products, ufunc_methods, linalg, fft); :data:`KEYWORDS_NOT_SAMPLED` says which
keywords need no row, and a :class:`Refusal` is a call that must raise.

A user checking another NumPy-like namespace (or a build of tapegrad on another backend)
can run the same rows::

    from tapegrad.testing.numpy_samples import SAMPLES, X, Y
    for row in SAMPLES:
        row.call(my_namespace, X, Y)

Regenerate docs/numpy.md with ``python -m tapegrad.testing.numpy_samples > docs/numpy.md``.
"""

from __future__ import annotations

from tapegrad.testing.numpy_samples import (
    elementwise,
    fft,
    linalg,
    products,
    reductions,
    sets,
    shapes,
    ufunc_methods,
)
from tapegrad.testing.numpy_samples.defaults import DEFAULTS
from tapegrad.testing.numpy_samples.inputs import MASK, Refusal, Sample, X, Y

__all__ = ["KEYWORDS_NOT_SAMPLED", "MASK", "REFUSALS", "Refusal", "SAMPLES", "Sample", "X", "Y"]
__all__ += ["markdown", "options"]

# Samples whose function has no second derivative at the sample point (kinks, piecewise
# constant parts) or whose second derivative tapegrad does not record.
_NOT_TWICE = frozenset(
    ("abs absolute amax amin max min maximum minimum fmax fmin ptp median nanmedian "
     "nanmax nanmin percentile nanpercentile quantile nanquantile clip interp fmod mod "
     "remainder divmod copysign heaviside sign nextafter trim_zeros").split()
)  # fmt: skip

SAMPLES: list[Sample] = [
    Sample(name, "default", call, name not in _NOT_TWICE) for name, call in DEFAULTS.items()
]
REFUSALS: list[Refusal] = []
for _family in (reductions, shapes, sets, elementwise, products, ufunc_methods, linalg, fft):
    SAMPLES += _family.ROWS
    REFUSALS += getattr(_family, "REFUSALS", [])

# Keywords that change where or how a result is stored, not its values or gradient: no
# function needs a row for them. ``out=`` into an ndarray works outside a recording tape and
# raises inside one (tests/test_numpy_protocol.py); ``dtype=`` casts (sampled for sums).
KEYWORDS_NOT_SAMPLED = {
    "out": "writes into a given array: Tensors are immutable (docs/numpy.md's rules)",
    "dtype": "a cast of the result; sampled for sum, mean and cumsum",
    "order": "memory layout",
    "subok": "subclasses of ndarray",
    "like": "NEP 35 dispatch on another array",
    "copy": "whether NumPy copies; Tensors are immutable, so never observable",
    "device": "the array API's device, always the input's",
    "casting": "NumPy's casting rule, checked by NumPy",
    "signature": "a ufunc's loop by its type signature: `dtype=` by another name",
    "overwrite_input": "NumPy may reuse the input's memory; Tensors are never overwritten",
}


def options() -> dict[str, list[str]]:
    """``name -> the options its rows exercise``, in the table's order."""
    out: dict[str, list[str]] = {}
    for row in SAMPLES:
        out.setdefault(row.name, []).append(row.option)
    for refusal in REFUSALS:
        out.setdefault(refusal.name, []).append(f"{refusal.option}: raises")
    return out


def markdown() -> str:
    """docs/numpy.md: the coverage table with each function's sampled options beside it."""
    from tapegrad.numpy import coverage

    return coverage.markdown(checked=options())
