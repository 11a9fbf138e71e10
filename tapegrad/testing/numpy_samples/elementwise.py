"""Elementwise functions: every differentiable ufunc's where=, interpolation's left/right/period,
clip's bounds, nan_to_num's replacements, angle's deg, real_if_close's tol, unwrap's discont."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tapegrad.testing.numpy_samples.inputs import MASK, Sample, X

# Ufuncs with a kink or a jump at the samples' points: no second derivative is checked.
_KINKED = frozenset(
    "abs absolute maximum minimum fmax fmin fmod mod remainder divmod copysign heaviside "
    "nextafter".split()
)
# nan, inf and -inf where MASK is false: nan_to_num's inputs.
_NONFINITE = np.where(MASK, 0.0, np.array([[np.nan, np.inf, -np.inf, np.nan]] * 3))
# heaviside's first argument: its value at 0 is the second argument's (the differentiable one).
_STEPS = np.array([-1.0, 0.0, 1.0, 0.0])


def _masked(m: Any, result: Any) -> Any:
    """``result`` where MASK holds, 0 elsewhere: a ufunc called with ``where=`` and no
    ``out=`` leaves NumPy's masked-out elements uninitialised."""
    return m.where(MASK, result, 0.0)


ROWS: list[Sample] = [
    Sample(
        "interp",
        "left, right",
        lambda m, x, y: m.interp(
            x[0] * 2.0 - 0.3, m.sort(y[1]), x[2] * y[2], left=x[1, 0], right=0.1
        ),
        False,
    ),
    Sample(
        "interp",
        "period",
        lambda m, x, y: m.interp(x[0] * 9.0, [0.0, 2.0, 5.0], y[1, :3], period=6.0),
        False,
    ),
    Sample("clip", "Tensor bounds", lambda m, x, y: m.clip(x, y - 0.2, y + 0.05), False),
    Sample("clip", "a_max only", lambda m, x, y: m.clip(x, None, 0.6), False),
    Sample("clip", "a_min=, a_max=", lambda m, x, y: m.clip(x, a_min=0.4, a_max=0.8), False),
    Sample("clip", "a_min= only", lambda m, x, y: m.clip(x, a_min=y - 0.1, a_max=None), False),
    Sample("clip", "min=, max= (NumPy 2)", lambda m, x, y: m.clip(x, min=0.4, max=0.8), False),
    Sample("clip", "min= Tensor only", lambda m, x, y: m.clip(x, min=y - 0.2), False),
    Sample("clip", "max= only", lambda m, x, y: m.clip(x * y, max=0.3), False),
    Sample("angle", "deg=True", lambda m, x, y: m.angle(x + 1j * y, deg=True)),
    Sample("angle", "deg=False, complex", lambda m, x, y: m.angle(x - 0.6 + 1j * y, deg=False)),
    Sample(
        "nan_to_num",
        "nan=, posinf=, neginf=",
        lambda m, x, y: m.nan_to_num(
            m.where(MASK, x, _NONFINITE), nan=0.5, posinf=y[0, 0], neginf=-2.0
        ),
    ),
    Sample(
        "nan_to_num",
        "nan in the input: 0.0",
        lambda m, x, y: m.nan_to_num(m.where(MASK, x * y, np.nan)),
    ),
    # +-inf become +-1.8e308 by default: scaled, so finite differences can see the rest.
    Sample(
        "nan_to_num",
        "nan, +-inf in the input: defaults",
        lambda m, x, y: m.nan_to_num(m.where(MASK, x * y, _NONFINITE)) * 1e-300,
    ),
    Sample("real_if_close", "tol=1e-8: real", lambda m, x, y: m.real_if_close(x + 1e-9j, tol=1e-8)),
    Sample(
        "real_if_close",
        "tol=1e-10: complex",
        lambda m, x, y: m.real_if_close(x + 1e-9j * y, tol=1e-10),
    ),
    Sample(
        "real_if_close",
        "tol=1000 machine epsilons",
        lambda m, x, y: m.real_if_close(x + 1e-14j * y, tol=1000),
    ),
    # discont above pi leaves the jumps of 3.15 (x * 15) alone, not the one of 4.35.
    Sample("unwrap", "discont=4.0", lambda m, x, y: m.unwrap(x * 15.0, discont=4.0)),
    # down the columns: a jump of 5.1 (column 0) kept with discont=5.5
    Sample(
        "unwrap", "discont=5.5, axis=0", lambda m, x, y: m.unwrap(x * 15.0, discont=5.5, axis=0)
    ),
]

# ``where=`` of every differentiable ufunc. Without ``out=`` NumPy leaves the masked-out
# elements uninitialised, so each call masks them again (in both namespaces) with
# :func:`_masked`; the inputs are those of defaults.py's plain call (each in its domain).
_WHERE: list[tuple[str, Callable[[Any, Any, Any], Any]]] = [
    ("abs", lambda m, x, y: _masked(m, m.abs(x - 0.6, where=MASK))),
    ("absolute", lambda m, x, y: _masked(m, m.absolute(x - 0.6, where=MASK))),
    ("acos", lambda m, x, y: _masked(m, m.acos(x, where=MASK))),
    ("acosh", lambda m, x, y: _masked(m, m.acosh(x + 1.0, where=MASK))),
    ("add", lambda m, x, y: _masked(m, m.add(x, y, where=MASK))),
    ("arccos", lambda m, x, y: _masked(m, m.arccos(x, where=MASK))),
    ("arccosh", lambda m, x, y: _masked(m, m.arccosh(x + 1.0, where=MASK))),
    ("arcsin", lambda m, x, y: _masked(m, m.arcsin(x, where=MASK))),
    ("arcsinh", lambda m, x, y: _masked(m, m.arcsinh(x, where=MASK))),
    ("arctan", lambda m, x, y: _masked(m, m.arctan(x, where=MASK))),
    ("arctan2", lambda m, x, y: _masked(m, m.arctan2(x, y - 0.6, where=MASK))),
    ("arctanh", lambda m, x, y: _masked(m, m.arctanh(x, where=MASK))),
    ("asin", lambda m, x, y: _masked(m, m.asin(x, where=MASK))),
    ("asinh", lambda m, x, y: _masked(m, m.asinh(x, where=MASK))),
    ("atan", lambda m, x, y: _masked(m, m.atan(x, where=MASK))),
    ("atan2", lambda m, x, y: _masked(m, m.atan2(y, x, where=MASK))),
    ("atanh", lambda m, x, y: _masked(m, m.atanh(x, where=MASK))),
    ("cbrt", lambda m, x, y: _masked(m, m.cbrt(x - 0.6, where=MASK))),
    ("conj", lambda m, x, y: _masked(m, m.conj(x, where=MASK))),
    ("conjugate", lambda m, x, y: _masked(m, m.conjugate(x, where=MASK))),
    ("copysign", lambda m, x, y: _masked(m, m.copysign(x, y - 0.6, where=MASK))),
    ("cos", lambda m, x, y: _masked(m, m.cos(x, where=MASK))),
    ("cosh", lambda m, x, y: _masked(m, m.cosh(x, where=MASK))),
    ("deg2rad", lambda m, x, y: _masked(m, m.deg2rad(x, where=MASK))),
    ("degrees", lambda m, x, y: _masked(m, m.degrees(x, where=MASK))),
    ("divide", lambda m, x, y: _masked(m, m.divide(x, y, where=MASK))),
    ("divmod", lambda m, x, y: _masked(m, m.divmod(x, 0.23, where=MASK)[1])),
    ("exp", lambda m, x, y: _masked(m, m.exp(x, where=MASK))),
    ("exp2", lambda m, x, y: _masked(m, m.exp2(x, where=MASK))),
    ("expm1", lambda m, x, y: _masked(m, m.expm1(x, where=MASK))),
    ("fabs", lambda m, x, y: _masked(m, m.fabs(x - 0.6, where=MASK))),
    ("float_power", lambda m, x, y: _masked(m, m.float_power(x, y, where=MASK))),
    ("fmax", lambda m, x, y: _masked(m, m.fmax(x, y, where=MASK))),
    ("fmin", lambda m, x, y: _masked(m, m.fmin(x, y, where=MASK))),
    ("fmod", lambda m, x, y: _masked(m, m.fmod(x, 0.23, where=MASK))),
    ("frexp", lambda m, x, y: _masked(m, m.frexp(x, where=MASK)[0])),
    ("heaviside", lambda m, x, y: _masked(m, m.heaviside(_STEPS, x, where=MASK))),
    ("hypot", lambda m, x, y: _masked(m, m.hypot(x, y, where=MASK))),
    ("ldexp", lambda m, x, y: _masked(m, m.ldexp(x, 3, where=MASK))),
    ("log", lambda m, x, y: _masked(m, m.log(x, where=MASK))),
    ("log10", lambda m, x, y: _masked(m, m.log10(x, where=MASK))),
    ("log1p", lambda m, x, y: _masked(m, m.log1p(x, where=MASK))),
    ("log2", lambda m, x, y: _masked(m, m.log2(x, where=MASK))),
    ("logaddexp", lambda m, x, y: _masked(m, m.logaddexp(x, y, where=MASK))),
    ("logaddexp2", lambda m, x, y: _masked(m, m.logaddexp2(x, y, where=MASK))),
    ("maximum", lambda m, x, y: _masked(m, m.maximum(x, y, where=MASK))),
    ("minimum", lambda m, x, y: _masked(m, m.minimum(x, y, where=MASK))),
    ("mod", lambda m, x, y: _masked(m, m.mod(x, 0.23, where=MASK))),
    ("modf", lambda m, x, y: _masked(m, m.modf(x * 3.0, where=MASK)[0])),
    ("multiply", lambda m, x, y: _masked(m, m.multiply(x, y, where=MASK))),
    ("negative", lambda m, x, y: _masked(m, m.negative(x, where=MASK))),
    ("nextafter", lambda m, x, y: _masked(m, m.nextafter(x, y, where=MASK))),
    ("positive", lambda m, x, y: _masked(m, m.positive(x, where=MASK))),
    ("pow", lambda m, x, y: _masked(m, m.pow(x, y, where=MASK))),
    ("power", lambda m, x, y: _masked(m, m.power(x, y, where=MASK))),
    ("rad2deg", lambda m, x, y: _masked(m, m.rad2deg(x, where=MASK))),
    ("radians", lambda m, x, y: _masked(m, m.radians(x, where=MASK))),
    ("reciprocal", lambda m, x, y: _masked(m, m.reciprocal(x, where=MASK))),
    ("remainder", lambda m, x, y: _masked(m, m.remainder(x, 0.23, where=MASK))),
    ("sin", lambda m, x, y: _masked(m, m.sin(x, where=MASK))),
    ("sinh", lambda m, x, y: _masked(m, m.sinh(x, where=MASK))),
    ("sqrt", lambda m, x, y: _masked(m, m.sqrt(x, where=MASK))),
    ("square", lambda m, x, y: _masked(m, m.square(x, where=MASK))),
    ("subtract", lambda m, x, y: _masked(m, m.subtract(x, y, where=MASK))),
    ("tan", lambda m, x, y: _masked(m, m.tan(x, where=MASK))),
    ("tanh", lambda m, x, y: _masked(m, m.tanh(x, where=MASK))),
    ("true_divide", lambda m, x, y: _masked(m, m.true_divide(x, y, where=MASK))),
]
ROWS += [Sample(name, "where", call, name not in _KINKED) for name, call in _WHERE]
# Masked-out elements outside the domain (sqrt of a negative, arccos above 1): NumPy skips
# them; tapegrad's gradient there is 0, not NaN (a regression: it was 0 * NaN).
_ABOVE = X > 0.5
ROWS += [
    Sample(
        "sqrt",
        "where, masked-out elements outside the domain",
        lambda m, x, y: m.where(_ABOVE, m.sqrt(x - 0.5, where=_ABOVE), 0.0),
    ),
    Sample(
        "arccos",
        "where, masked-out elements outside the domain",
        lambda m, x, y: m.where(~_ABOVE, m.arccos(x + 0.5, where=~_ABOVE), 0.0),
    ),
]
