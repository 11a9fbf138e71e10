"""The methods of NumPy's differentiable binary ufuncs: ``reduce`` (axis, keepdims,
initial, where=), ``accumulate`` (axis), ``reduceat`` (indices, axis) and ``outer``.

``add``, ``multiply``, ``maximum``, ``minimum``, ``fmax`` and ``fmin`` reduce with one
recorded op (their reduction); the others fold the binary op along the axis, one op per
element (tapegrad/numpy/_ufunc_methods.py). NumPy 2.4's own ``power.reduce`` and
``arctan2.reduce`` on float arrays return ``op(a[0], a[-1])``, skipping the elements
between (its ``accumulate`` gives the fold); tapegrad gives
the fold, so those two are checked against NumPy's ``accumulate`` in
tests/test_numpy_protocol.py instead of here.
"""

from __future__ import annotations

import numpy as np

from tapegrad.testing.numpy_samples.inputs import MASK, Sample

ROWS: list[Sample] = [
    # --- reduce: axis, keepdims, initial, where= ---------------------------------------------
    Sample("add.reduce", "axis=1", lambda m, x, y: m.add.reduce(x * y, axis=1)),
    Sample(
        "add.reduce", "axis=None, keepdims", lambda m, x, y: m.add.reduce(x, None, keepdims=True)
    ),
    Sample(
        "add.reduce",
        "initial=, where=",
        lambda m, x, y: m.add.reduce(x, 1, initial=0.5, where=MASK),
    ),
    Sample("multiply.reduce", "axis=0", lambda m, x, y: m.multiply.reduce(x)),
    Sample("multiply.reduce", "axis=(0, 1)", lambda m, x, y: m.multiply.reduce(x * y, axis=(0, 1))),
    Sample("maximum.reduce", "axis=0", lambda m, x, y: m.maximum.reduce(x * y), False),
    Sample(
        "minimum.reduce",
        "axis=1, keepdims",
        lambda m, x, y: m.minimum.reduce(x, 1, keepdims=True),
        False,
    ),
    Sample("fmax.reduce", "axis=1", lambda m, x, y: m.fmax.reduce(x + y, axis=1), False),
    Sample("subtract.reduce", "axis=1", lambda m, x, y: m.subtract.reduce(x * y, axis=1)),
    Sample(
        "subtract.reduce",
        "axis=0, keepdims",
        lambda m, x, y: m.subtract.reduce(x, 0, keepdims=True),
    ),
    Sample(
        "subtract.reduce",
        "initial=, where=",
        lambda m, x, y: m.subtract.reduce(x, 1, initial=1.0, where=MASK),
    ),
    Sample("divide.reduce", "axis=0", lambda m, x, y: m.divide.reduce(x + y, axis=0)),
    Sample(
        "divide.reduce", "axis=None (1-d)", lambda m, x, y: m.divide.reduce(x[0] * y[1], axis=None)
    ),
    Sample("logaddexp.reduce", "axis=None", lambda m, x, y: m.logaddexp.reduce(x * y, axis=None)),
    Sample(
        "logaddexp.reduce", "initial=", lambda m, x, y: m.logaddexp.reduce(x, axis=1, initial=0.0)
    ),
    Sample(
        "logaddexp2.reduce", "where=", lambda m, x, y: m.logaddexp2.reduce(x, axis=0, where=MASK)
    ),
    Sample("hypot.reduce", "axis=1", lambda m, x, y: m.hypot.reduce(x - y, axis=1)),
    Sample("float_power.reduce", "axis=0", lambda m, x, y: m.float_power.reduce(x + 0.5, axis=0)),
    # --- accumulate: axis ---------------------------------------------------------------------
    Sample("add.accumulate", "axis=1", lambda m, x, y: m.add.accumulate(x * y, axis=1)),
    Sample("multiply.accumulate", "axis=0", lambda m, x, y: m.multiply.accumulate(x)),
    Sample(
        "maximum.accumulate", "axis=1", lambda m, x, y: m.maximum.accumulate(x * y, axis=1), False
    ),
    Sample("minimum.accumulate", "axis=0", lambda m, x, y: m.minimum.accumulate(x - y), False),
    Sample("subtract.accumulate", "axis=-1", lambda m, x, y: m.subtract.accumulate(x, axis=-1)),
    Sample("divide.accumulate", "axis=0", lambda m, x, y: m.divide.accumulate(x + y)),
    Sample("power.accumulate", "axis=1", lambda m, x, y: m.power.accumulate(x + 0.5, axis=1)),
    Sample("arctan2.accumulate", "axis=1", lambda m, x, y: m.arctan2.accumulate(x * y, axis=1)),
    Sample("logaddexp.accumulate", "axis=0", lambda m, x, y: m.logaddexp.accumulate(x)),
    Sample("hypot.accumulate", "axis=1", lambda m, x, y: m.hypot.accumulate(x, axis=1)),
    # --- reduceat: indices, axis ----------------------------------------------------------------
    Sample("add.reduceat", "axis=1", lambda m, x, y: m.add.reduceat(x * y, [0, 2, 3], axis=1)),
    Sample("add.reduceat", "indices not increasing", lambda m, x, y: m.add.reduceat(x, [0, 2, 1])),
    Sample("multiply.reduceat", "axis=0", lambda m, x, y: m.multiply.reduceat(x, [0, 2])),
    Sample(
        "maximum.reduceat", "axis=1", lambda m, x, y: m.maximum.reduceat(x, [1, 3], axis=1), False
    ),
    Sample(
        "subtract.reduceat", "axis=1", lambda m, x, y: m.subtract.reduceat(x - y, [0, 1, 3], axis=1)
    ),
    Sample("logaddexp.reduceat", "axis=0", lambda m, x, y: m.logaddexp.reduceat(x, [0, 1])),
    # --- outer ---------------------------------------------------------------------------------
    Sample("multiply.outer", "outer", lambda m, x, y: m.multiply.outer(x[0], y[1])),
    Sample("subtract.outer", "outer, 2-d", lambda m, x, y: m.subtract.outer(x[:2], y[0])),
    Sample("power.outer", "outer", lambda m, x, y: m.power.outer(x[0] + 0.5, y[1])),
    Sample("hypot.outer", "outer", lambda m, x, y: m.hypot.outer(x[1], y[:, 2])),
    Sample(
        "logaddexp.outer", "outer", lambda m, x, y: m.logaddexp.outer(x[2], np.array([0.1, 0.2]))
    ),
]
