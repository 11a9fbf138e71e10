"""scipy.integrate's quadratures of samples: ``x`` (1-d uneven, or of y's shape), ``dx``,
``axis``, ``initial``, Romberg's ``show``; differentiated in the samples and the points."""

from __future__ import annotations

import numpy as np

from tapegrad.testing.numpy_samples.inputs import Refusal, Sample

# The functions whose every keyword (tests/scipy/test_scipy_options.py) has a row below.
FUNCTIONS: list[str] = [
    "integrate.trapezoid", "integrate.cumulative_trapezoid", "integrate.simpson",
    "integrate.cumulative_simpson", "integrate.romb",
]  # fmt: skip

ROWS: list[Sample] = []
for _name in ("trapezoid", "cumulative_trapezoid", "simpson", "cumulative_simpson"):
    _full = f"integrate.{_name}"
    ROWS += [
        Sample(_full, "default", lambda m, x, y, f=_name: getattr(m.integrate, f)(y)),
        Sample(_full, "x (1-d, uneven)",
               lambda m, x, y, f=_name: getattr(m.integrate, f)(y, x=np.cumsum(x[0]))),
        Sample(_full, "x (y's shape)",
               lambda m, x, y, f=_name: getattr(m.integrate, f)(y, x=np.cumsum(x, axis=-1))),
        Sample(_full, "x, axis=0 (3 samples)",
               lambda m, x, y, f=_name: getattr(m.integrate, f)(y, x=np.cumsum(x[:, 0]), axis=0)),
        Sample(_full, "dx", lambda m, x, y, f=_name: getattr(m.integrate, f)(y, dx=x[0, 0])),
        Sample(_full, "odd samples, x",
               lambda m, x, y, f=_name: getattr(m.integrate, f)(y[:, :3], x=np.cumsum(x[1, :3]))),
    ]  # fmt: skip
ROWS += [
    Sample("integrate.cumulative_trapezoid", "initial=0",
           lambda m, x, y: m.integrate.cumulative_trapezoid(y, x=np.cumsum(x[0]), initial=0)),
    Sample("integrate.cumulative_simpson", "initial (scalar)",
           lambda m, x, y: m.integrate.cumulative_simpson(y, x=np.cumsum(x[0]), initial=x[0, 1])),
    Sample("integrate.cumulative_simpson", "initial, dx (arrays of one point)",
           lambda m, x, y: m.integrate.cumulative_simpson(y, dx=x[:, :1], initial=y[:, 1:2])),
    Sample("integrate.romb", "default", lambda m, x, y: m.integrate.romb(y[:, :3])),
    Sample("integrate.romb", "dx, axis=0", lambda m, x, y: m.integrate.romb(y, dx=x[0, 0], axis=0)),
    Sample("integrate.romb", "show", lambda m, x, y: m.integrate.romb(y[0, :3], show=True)),
]  # fmt: skip

REFUSALS: list[Refusal] = [
    Refusal("integrate.cumulative_trapezoid", "initial",
            lambda m, x, y: m.integrate.cumulative_trapezoid(y, initial=1.0), ValueError),
    Refusal("integrate.romb", "samples",
            lambda m, x, y: m.integrate.romb(y), ValueError),
]  # fmt: skip
