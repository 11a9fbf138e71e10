"""What tapegrad does with each NumPy function: differentiable, no gradient, or not
supported (with the reason). The table of docs/numpy.md.

The classification is read from the dispatch tables themselves
(tapegrad/numpy/tables.py, ufunc_tables.py) and from the lists below, so it cannot drift
from what the code does; tests/test_numpy_coverage.py fails when a public NumPy callable
is unclassified or when docs/numpy.md is stale. The sample calls listed beside each
differentiable function live a layer up, in tapegrad/testing/numpy_samples, which also
writes the page::

    python -m tapegrad.testing.numpy_samples > docs/numpy.md
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

DIFFERENTIABLE = "differentiable"
NO_GRADIENT = "no gradient"
NOT_SUPPORTED = "not supported"

# tapegrad.numpy's own functions (NumPy does not hand these over): name -> note
OWN = {
    "array": "nested lists of Tensors: the gradient reaches every element",
    "asarray": "a Tensor is returned as it is; nested lists of Tensors as `array`",
    "asanyarray": "as `asarray`",
    "ascontiguousarray": "as `asarray`, at least 1-d",
    "asfortranarray": "as `asarray`, at least 1-d",
    "asarray_chkfinite": "as `asarray`; raises for inf or NaN",
    "require": "as `asarray`",
    "full": "a Tensor fill value gets the gradient of every element",
    "full_like": "a Tensor fill value gets the gradient of every element",
    "stack": "lists holding Tensors become arrays first",
    "put": "on Tensors with `inplace=False` (returns the result, as jax.numpy)",
    "put_along_axis": "on Tensors with `inplace=False`; the last write wins",
    "place": "on Tensors with `inplace=False`",
    "fill_diagonal": "on Tensors with `inplace=False`",
}

# name -> why NumPy's function cannot take Tensors
NOT_SUPPORTED_REASONS = {
    "asmatrix": "np.matrix has other semantics (`*` is a matrix product); use 2-d arrays",
    "bmat": "builds an np.matrix; use `block`",
    "frompyfunc": "calls a Python function on NumPy objects one element at a time; "
    "call the function on Tensors instead",
}

# NumPy's own functions that take no array to differentiate (creation from shapes,
# windows of a length, index helpers, dtypes, printing, files, settings): name -> note
WITHOUT_ARRAYS = {
    **dict.fromkeys(
        ("arange", "empty", "eye", "identity", "ones", "zeros", "tri", "indices",
         "diag_indices", "tril_indices", "triu_indices", "mask_indices", "fromfunction"),
        "creates an array from shapes or numbers",
    ),
    **dict.fromkeys(
        ("bartlett", "blackman", "hamming", "hanning", "kaiser"),
        "a window of a given length (kaiser's beta is read as a number)",
    ),
    **dict.fromkeys(
        ("frombuffer", "fromfile", "fromiter", "fromregex", "fromstring", "from_dlpack",
         "genfromtxt", "load", "loadtxt"),
        "reads arrays from data or files",
    ),
    **dict.fromkeys(
        ("broadcast_shapes", "datetime_data", "isdtype", "issubdtype", "mintypecode",
         "promote_types", "typename", "isscalar", "iterable", "isfortran", "nested_iters"),
        "about shapes, dtypes or Python objects",
    ),
    **dict.fromkeys(
        ("base_repr", "binary_repr", "format_float_positional", "format_float_scientific",
         "get_printoptions", "set_printoptions", "printoptions", "getbufsize", "setbufsize",
         "geterr", "seterr", "geterrcall", "seterrcall", "get_include", "info", "show_config",
         "show_runtime", "test"),
        "printing, settings and information",
    ),
    "fftfreq": "sample frequencies of a length",
    "rfftfreq": "sample frequencies of a length",
}  # fmt: skip

# NOTES on differentiable functions whose gradient has a rule worth knowing
NOTES = {
    "sort": "gathers in sorted order: ties go in stable-sort order",
    "partition": "as `sort`",
    "unique": "values gathered from their first occurrence",
    "median": "the middle element(s) of a sort",
    "quantile": "continuous methods are differentiable in `q` too",
    "max": "ties share the gradient",
    "min": "ties share the gradient",
    "prod": "exact with zeros; no second derivative there",
    "cumprod": "exact with zeros; no second derivative there",
    "std": "NaN gradient where the deviation is 0 (as JAX)",
    "clip": "also in the bounds; the gradient passes to x at the bounds",
    "where": "one argument: the indices (no gradient)",
    "hypot": "0 at the origin",
    "arctan2": "0 at the origin",
    "sinc": "the derivative near 0 by its series",
    "i0": "its derivative i1 computed by tapegrad",
    "round": "piecewise constant",
    "interp": "in `x`, `xp` and `fp`",
    "unwrap": "the corrections are constants",
    "intersect1d": "values gathered from `ar1`",
    "bincount": "differentiable in `weights`",
    "polyfit": "in `y` (the sample points and weights are constants)",
    "row_stack": "through `vstack`",
    "einsum": "a subscript repeated in one operand has no gradient",
    "pad": "modes constant, empty, edge, reflect, symmetric, wrap",
    "heaviside": "in `h0`",
    "copysign": "in the first argument",
    "nextafter": "in the first argument",
    "ldexp": "in the mantissa",
    "frexp": "in the mantissa",
    "modf": "in the fractional part",
    "divmod": "in the remainder",
}


def _tables() -> tuple[dict[Any, str], dict[Any, str]]:
    """(object -> category) for NumPy's ufuncs and functions, read from the dispatch tables."""
    from tapegrad import ops
    from tapegrad.numpy import _functions, _reductions, tables, ufunc_tables

    category: dict[Any, str] = {}
    for table, kind in (
        (ufunc_tables.differentiable_ufuncs(ops), DIFFERENTIABLE),
        (ufunc_tables.no_gradient_ufuncs(ops), NO_GRADIENT),
        (tables.differentiable_functions(ops, _functions, _reductions), DIFFERENTIABLE),
        (tables.no_gradient_functions(ops, _functions, _reductions), NO_GRADIENT),
        (tables.in_place_functions(_functions), NOT_SUPPORTED),
    ):
        category.update(dict.fromkeys(table, kind))
    return category, tables.in_place_functions(_functions)


def classify(namespace: Any = np, prefix: str = "") -> dict[str, tuple[str, str]]:
    """``name -> (category, note)`` for every public callable of ``namespace`` (NumPy's
    main namespace by default; ``np.linalg``, ``np.fft`` with their prefix).

    >>> classify()["sin"]
    ('differentiable', '')
    """
    category, in_place = _tables()
    out: dict[str, tuple[str, str]] = {}
    for name in sorted(vars(namespace)):
        value = getattr(namespace, name)
        if name.startswith("_") or inspect.ismodule(value) or not callable(value):
            continue
        full = prefix + name
        if prefix and name == "test":  # the submodules' test runners
            continue
        if isinstance(value, type):
            if issubclass(value, Exception):
                continue
            out[full] = (NO_GRADIENT, "a type: `np.float64(t)` converts and leaves the tape")
        elif not prefix and name in OWN:
            out[full] = (DIFFERENTIABLE, f"tapegrad.numpy's own: {OWN[name]}")
        elif value in in_place:
            out[full] = (NOT_SUPPORTED, "writes into its argument in place (Tensors are immutable)")
        elif value in category:
            out[full] = (category[value], NOTES.get(name, ""))
        elif name in NOT_SUPPORTED_REASONS:
            out[full] = (NOT_SUPPORTED, NOT_SUPPORTED_REASONS[name])
        elif name in WITHOUT_ARRAYS:
            out[full] = (NO_GRADIENT, f"NumPy's own: {WITHOUT_ARRAYS[name]}")
        elif name == "row_stack":
            out[full] = (DIFFERENTIABLE, NOTES[name])
        elif prefix:
            out[full] = (NOT_SUPPORTED, "no gradient yet (linear algebra and FFT: a later issue)")
        else:
            out[full] = ("unclassified", "")
    return out


def counts(rows: dict[str, tuple[str, str]]) -> dict[str, int]:
    """How many names fall in each category."""
    totals = {DIFFERENTIABLE: 0, NO_GRADIENT: 0, NOT_SUPPORTED: 0}
    for kind, _ in rows.values():
        totals[kind] = totals.get(kind, 0) + 1
    return totals


def markdown(checked: Mapping[str, Sequence[str]] | None = None) -> str:
    """docs/numpy.md: the counts and one table row per NumPy callable; ``checked`` maps a
    function to the options its sample calls exercise, listed beside it."""
    checked = checked or {}
    main = classify()
    sections = [("`numpy`", main), ("`numpy.linalg`", classify(np.linalg, "linalg.")),
                ("`numpy.fft`", classify(np.fft, "fft."))]  # fmt: skip
    lines = [
        "# NumPy coverage",
        "",
        "What `tapegrad.numpy` (and `np.X(tensor)` through NumPy's protocols) does with each",
        "public callable of NumPy "
        + _major_minor()
        + ": **differentiable** (records on the tape),",
        "**no gradient** (accepts Tensors and returns what NumPy returns: boolean or integer",
        "Tensors, Python values; or takes no arrays at all) or **not supported** (raises, for",
        "the reason given). **Checked** lists the sample calls of each differentiable function",
        "(`tapegrad.testing.numpy_samples`, one per keyword option or mode): each compares",
        "tapegrad's values with NumPy's on the same input and its gradient with central finite",
        "differences, to second order where the function is twice differentiable.",
        "Generated by `python -m tapegrad.testing.numpy_samples > docs/numpy.md`;",
        "`tests/test_numpy_coverage.py` fails when it is stale.",
        "",
        "| namespace | differentiable | no gradient | not supported |",
        "|---|---|---|---|",
    ]
    for title, rows in sections:
        c = counts(rows)
        lines.append(f"| {title} | {c[DIFFERENTIABLE]} | {c[NO_GRADIENT]} | {c[NOT_SUPPORTED]} |")
    for title, rows in sections:
        lines += ["", f"## {title}", "", "| name | tapegrad | note | checked |"]
        lines += ["|---|---|---|---|"]
        lines += [
            f"| `{name}` | {kind} | {note} | {'; '.join(checked.get(name, ()))} |"
            for name, (kind, note) in rows.items()
        ]
    listed = {name for _, rows in sections for name in rows}
    methods = [name for name in checked if name not in listed]
    if methods:
        lines += ["", "## Ufunc methods", "", METHODS_NOTE, "", "| method | checked |", "|---|---|"]
        lines += [f"| `{name}` | {'; '.join(checked[name])} |" for name in sorted(methods)]
    return "\n".join(lines) + "\n"


METHODS_NOTE = (
    "`reduce`, `accumulate`, `reduceat` and `outer` of every binary ufunc above take Tensors:"
    " `add`, `multiply`, `maximum`, `minimum`, `fmax` and `fmin` reduce with their reduction"
    " (one recorded op), the rest by folding the binary op along the axis (one op per"
    " element). `at` writes in place and raises. NumPy 2.4's float `power.reduce` and"
    " `arctan2.reduce` skip the elements between the first and the last; tapegrad returns the"
    " fold that their `accumulate` ends with."
)


def _major_minor() -> str:
    return ".".join(np.__version__.split(".")[:2])
