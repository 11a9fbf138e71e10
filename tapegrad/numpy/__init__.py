"""``import tapegrad.numpy as np``: NumPy's namespace, differentiable.

Every name of NumPy's main namespace is here. On plain arrays each gives exactly
NumPy's result (most *are* NumPy's own objects). On Tensors:

- NumPy's ufuncs and functions hand Tensors over to tapegrad (``__array_ufunc__`` and
  ``__array_function__``; the tables are in tapegrad/numpy/ufunc_tables.py and
  tables.py): differentiable ones record on the tape, the others (``isnan``,
  ``argsort``, ``nonzero`` ...) return what NumPy returns, as boolean or integer Tensors;
- the functions NumPy does not hand over (``array``, ``asarray``, ``full``, ``stack``
  of nested lists, ``r_``, ``c_``) are tapegrad's own, so ``np.array([t0, t1])`` keeps
  the gradient of every element; ``put``, ``put_along_axis``, ``place`` and
  ``fill_diagonal`` take ``inplace=False`` to return their result, as in jax.numpy;
- ``linalg`` and ``fft`` are tapegrad's modules; ``random`` and the other submodules
  are NumPy's.

docs/numpy.md lists every function as differentiable, no gradient or not supported.

Layer: above the op library, ``tapegrad.linalg`` and ``tapegrad.fft``, whose functions
its tables name; it sets NumPy's protocols on Tensor (numpy/protocol.py). It does not
import ``tapegrad.scipy``: the package root names the module that differentiates SciPy's
ufuncs (tapegrad/__init__.py).

>>> import tapegrad as tg
>>> import tapegrad.numpy as np
>>> f = lambda x: np.sum(np.tanh(np.array([x, 2 * x])) ** 2)
>>> g = tg.grad(f)(0.3)  # a float in, a float out
>>> type(g).__name__, f"{g:.6f}"
('float', '2.061792')
"""

from __future__ import annotations

from typing import Any

# fmt: off
from numpy import (  # NumPy's own objects: on Tensors they dispatch to tapegrad
    # constants and index helpers
    e, euler_gamma, False_, index_exp, inf, little_endian, mgrid, nan, newaxis, ogrid, pi, s_,
    ScalarType, sctypeDict, True_, typecodes,
    # scalar types, dtypes and classes
    bool, bool_, broadcast, busdaycalendar, byte, bytes_, cdouble, character, clongdouble,
    complex128, complex64, complexfloating, csingle, datetime64, double, dtype,
    errstate, finfo, flatiter, flexible, float16, float32, float64, floating,
    generic, half, iinfo, inexact, int16, int32, int64, int8, int_, intc, integer, intp, long,
    longdouble, longlong, matrix, memmap, ndarray, ndenumerate, ndindex, nditer, number,
    object_, poly1d, recarray, record, short, signedinteger, single, str_, timedelta64, ubyte,
    ufunc, uint, uint16, uint32, uint64, uint8, uintc, uintp, ulong, ulonglong,
    unsignedinteger, ushort, void,
    # ufuncs (np.X(t) calls Tensor.__array_ufunc__)
    abs, absolute, acos, acosh, add, arccos, arccosh, arcsin, arcsinh, arctan, arctan2,
    arctanh, asin, asinh, atan, atan2, atanh, bitwise_and, bitwise_count, bitwise_invert,
    bitwise_left_shift, bitwise_not, bitwise_or, bitwise_right_shift, bitwise_xor, cbrt, ceil,
    conj, conjugate, copysign, cos, cosh, deg2rad, degrees, divide, divmod, equal, exp, exp2,
    expm1, fabs, float_power, floor, floor_divide, fmax, fmin, fmod, frexp, gcd, greater,
    greater_equal, heaviside, hypot, invert, isfinite, isinf, isnan, isnat, lcm, ldexp,
    left_shift, less, less_equal, log, log10, log1p, log2, logaddexp, logaddexp2, logical_and,
    logical_not, logical_or, logical_xor, matmul, matvec, maximum, minimum, mod, modf,
    multiply, negative, nextafter, not_equal, positive, pow, power, rad2deg, radians,
    reciprocal, remainder, right_shift, rint, sign, signbit, sin, sinh, spacing, sqrt, square,
    subtract, tan, tanh, true_divide, trunc, vecdot, vecmat,
    # functions (np.X(t) calls Tensor.__array_function__, or takes no arrays)
    all, allclose, amax, amin, angle, any, append, apply_along_axis, apply_over_axes, arange,
    argmax, argmin, argpartition, argsort, argwhere, around, array2string, array_equal,
    array_equiv, array_repr, array_split, array_str, asmatrix, astype, atleast_1d, atleast_2d,
    atleast_3d, average, bartlett, base_repr, binary_repr, bincount, blackman, block, bmat,
    broadcast_arrays, broadcast_shapes, broadcast_to, busday_count, busday_offset, can_cast,
    choose, clip, column_stack, common_type, compress, concat, concatenate, convolve, copy,
    copyto, corrcoef, correlate, count_nonzero, cov, cross, cumprod, cumsum, cumulative_prod,
    cumulative_sum, datetime_as_string, datetime_data, delete, diag, diag_indices,
    diag_indices_from, diagflat, diagonal, diff, digitize, dot, dsplit, dstack, ediff1d,
    einsum, einsum_path, empty, empty_like, expand_dims, extract, eye, fix, flatnonzero, flip,
    fliplr, flipud, format_float_positional, format_float_scientific, from_dlpack, frombuffer,
    fromfile, fromfunction, fromiter, frompyfunc, fromregex, fromstring, genfromtxt, geomspace,
    get_include, get_printoptions, getbufsize, geterr, geterrcall, gradient, hamming, hanning,
    histogram, histogram2d, histogram_bin_edges, histogramdd, hsplit, hstack, i0, identity,
    imag, indices, info, inner, insert, interp, intersect1d, is_busday, isclose, iscomplex,
    iscomplexobj, isdtype, isfortran, isin, isneginf, isposinf, isreal, isrealobj, isscalar,
    issubdtype, iterable, ix_, kaiser, kron, lexsort, linspace, load, loadtxt, logspace,
    mask_indices, matrix_transpose, max, may_share_memory, mean, median, meshgrid, min,
    min_scalar_type, mintypecode, moveaxis, nan_to_num, nanargmax, nanargmin, nancumprod,
    nancumsum, nanmax, nanmean, nanmedian, nanmin, nanpercentile, nanprod, nanquantile, nanstd,
    nansum, nanvar, ndim, nested_iters, nonzero, ones, ones_like, outer, packbits, pad,
    partition, percentile, permute_dims, piecewise, poly, polyadd, polyder, polydiv, polyfit,
    polyint, polymul, polysub, polyval, printoptions, prod, promote_types, ptp, putmask,
    quantile, ravel, ravel_multi_index, real, real_if_close, repeat, reshape, resize,
    result_type, roll, rollaxis, roots, rot90, round, row_stack, save, savetxt, savez,
    savez_compressed, searchsorted, select, set_printoptions, setbufsize, setdiff1d, seterr,
    seterrcall, setxor1d, shape, shares_memory, show_config, show_runtime, sinc, size, sort,
    sort_complex, split, squeeze, std, sum, swapaxes, take, take_along_axis, tensordot, test,
    tile, trace, transpose, trapezoid, tri, tril, tril_indices, tril_indices_from, trim_zeros,
    triu, triu_indices, triu_indices_from, typename, union1d, unique, unique_all,
    unique_counts, unique_inverse, unique_values, unpackbits, unravel_index, unstack, unwrap,
    vander, var, vdot, vsplit, vstack, where, zeros, zeros_like,
)
# fmt: on
from tapegrad.numpy import fft, linalg, protocol
from tapegrad.numpy._vectorize import vectorize  # records on Tensors (np.vectorize's loses them)
from tapegrad.numpy._arrays import (  # tapegrad's own: NumPy does not hand these over
    array,
    asanyarray,
    asarray,
    asarray_chkfinite,
    ascontiguousarray,
    asfortranarray,
    c_,
    fill_diagonal,
    full,
    full_like,
    place,
    put,
    put_along_axis,
    r_,
    require,
    stack,
)

# Tensors meet NumPy's functions through the protocols this sets on them (numpy/protocol.py).
protocol.attach()

# NumPy's submodules, imported when first used (some are slow to import), and the
# extended-precision types of the platforms that have them.
_LAZY = (
    "char", "core", "ctypeslib", "dtypes", "emath", "exceptions", "f2py", "lib", "ma",
    "polynomial", "random", "rec", "strings", "testing", "typing", "float128", "complex256",
)  # fmt: skip


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import numpy

        return getattr(numpy, name)  # float128: AttributeError where the platform lacks it
    raise AttributeError(f"module 'tapegrad.numpy' has no attribute {name!r}")
