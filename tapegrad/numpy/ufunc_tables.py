"""The tables behind NumPy's ufuncs on Tensors: the tapegrad function that runs when a ufunc
meets a Tensor (``np.sin(t)``, ``np.add(t, 1)``, ``np.add.reduce(t)``).

Each ufunc is in exactly one table, which is also its entry in the coverage table of
docs/numpy.md (tapegrad/numpy/coverage.py reads them): ``differentiable_ufuncs`` record
on the tape; ``no_gradient_ufuncs`` accept Tensors and return what NumPy returns (boolean
or integer Tensors). ``reduce_methods`` and ``accumulate_methods`` are ``ufunc.reduce``
and ``ufunc.accumulate``. NumPy's other functions are in tapegrad/numpy/tables.py.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad.numpy.tables import WITHOUT_GRADIENT


def differentiable_ufuncs(ops: Any) -> dict[Any, Any]:
    return {
        np.add: ops.add,
        np.subtract: ops.subtract,
        np.multiply: ops.multiply,
        np.divide: ops.divide,
        np.power: ops.power,
        np.float_power: ops.float_power,
        np.negative: ops.negative,
        np.positive: ops.copy,
        np.matmul: ops.matmul,
        np.matvec: ops.matvec,
        np.vecmat: ops.vecmat,
        np.vecdot: ops.vecdot,
        np.maximum: ops.maximum,
        np.minimum: ops.minimum,
        np.fmax: ops.fmax,
        np.fmin: ops.fmin,
        np.absolute: ops.abs,
        np.fabs: ops.fabs,
        np.exp: ops.exp,
        np.exp2: ops.exp2,
        np.expm1: ops.expm1,
        np.log: ops.log,
        np.log2: ops.log2,
        np.log10: ops.log10,
        np.log1p: ops.log1p,
        np.logaddexp: ops.logaddexp,
        np.logaddexp2: ops.logaddexp2,
        np.sqrt: ops.sqrt,
        np.cbrt: ops.cbrt,
        np.square: ops.square,
        np.reciprocal: ops.reciprocal,
        np.sin: ops.sin,
        np.cos: ops.cos,
        np.tan: ops.tan,
        np.arcsin: ops.arcsin,
        np.arccos: ops.arccos,
        np.arctan: ops.arctan,
        np.arctan2: ops.arctan2,
        np.hypot: ops.hypot,
        np.sinh: ops.sinh,
        np.cosh: ops.cosh,
        np.tanh: ops.tanh,
        np.arcsinh: ops.arcsinh,
        np.arccosh: ops.arccosh,
        np.arctanh: ops.arctanh,
        np.deg2rad: ops.deg2rad,
        np.radians: ops.deg2rad,
        np.rad2deg: ops.rad2deg,
        np.degrees: ops.rad2deg,
        np.remainder: ops.remainder,
        np.fmod: ops.fmod,
        np.divmod: ops.divmod,
        np.modf: ops.modf,
        np.frexp: ops.frexp,
        np.ldexp: ops.ldexp,
        np.copysign: ops.copysign,
        np.heaviside: ops.heaviside,
        np.nextafter: ops.nextafter,
        np.conjugate: ops.conj,
    }


def no_gradient_ufuncs(ops: Any) -> dict[Any, Any]:
    return {
        np.equal: ops.equal,
        np.not_equal: ops.not_equal,
        np.less: ops.less,
        np.less_equal: ops.less_equal,
        np.greater: ops.greater,
        np.greater_equal: ops.greater_equal,
        np.sign: ops.sign,
        np.floor: ops.floor,
        np.ceil: ops.ceil,
        np.trunc: ops.trunc,
        np.rint: ops.round,
        np.floor_divide: ops.floor_divide,
        np.spacing: ops.spacing,
        np.signbit: ops.signbit,
        np.isnan: ops.isnan,
        np.isinf: ops.isinf,
        np.isfinite: ops.isfinite,
        np.isnat: WITHOUT_GRADIENT,
        np.logical_and: ops.logical_and,
        np.logical_or: ops.logical_or,
        np.logical_xor: ops.logical_xor,
        np.logical_not: ops.logical_not,
        np.bitwise_and: ops.bitwise_and,
        np.bitwise_or: ops.bitwise_or,
        np.bitwise_xor: ops.bitwise_xor,
        np.invert: ops.invert,
        np.left_shift: ops.left_shift,
        np.right_shift: ops.right_shift,
        np.bitwise_count: ops.bitwise_count,
        np.gcd: ops.gcd,
        np.lcm: ops.lcm,
    }


def reduce_methods(reductions: Any) -> dict[Any, Any]:
    """``ufunc.reduce`` on Tensors: the reduction it is (NumPy's default axis is 0)."""
    r = reductions
    return {
        np.add: r.sum,
        np.multiply: r.prod,
        np.maximum: r.max,
        np.minimum: r.min,
        np.fmax: r.nanmax,
        np.fmin: r.nanmin,
        np.logical_and: r.all,
        np.logical_or: r.any,
    }


def accumulate_methods(ops: Any, reductions: Any) -> dict[Any, Any]:
    """``ufunc.accumulate`` on Tensors (NumPy's default axis is 0)."""
    return {np.add: reductions.cumsum, np.multiply: ops.cumprod}
