"""The differentiable op library, one module per family: each primitive beside its rules.

Every function here takes Tensors, NumPy (or other backend) arrays and Python
scalars, and returns a Tensor; NumPy's names and broadcasting rules apply.

Layer: built on ``tapegrad.core`` (Tensor, the tape, recording) and
``tapegrad.backends``; it imports nothing above it (not ``linalg``, ``fft``, ``numpy``,
``scipy``, ``nn``...). When imported it gives the engine what the engine may not import:
Tensor's operators and methods (ops/methods.py, and ``+ - * / ** @`` where their
primitives are defined) and the ops the reverse sweep calls
(:func:`tapegrad.core.hooks.register_ops`).
"""

from tapegrad.ops.arithmetic import (
    abs,
    add,
    astype,
    clip,
    divide,
    maximum,
    minimum,
    multiply,
    negative,
    power,
    subtract,
    where,
)
from tapegrad.ops.bessel import i0, i1
from tapegrad.ops.complex import angle, conj, conjugate, imag, real
from tapegrad.ops.creation import arange, asarray, eye, full, ones, ones_like, zeros, zeros_like
from tapegrad.ops.cumulative import (
    cumprod,
    cumulative_prod,
    cumulative_sum,
    diff,
    ediff1d,
    gradient,
    nancumprod,
    nancumsum,
    trapezoid,
)
from tapegrad.ops.device import stop_gradient, to_device
from tapegrad.ops.diagonals import diag, diagflat, diagonal, trace, tril, triu
from tapegrad.ops.elementwise import (
    arctan,
    cos,
    cosh,
    exp,
    expm1,
    log,
    log1p,
    relu,
    sigmoid,
    sin,
    sinh,
    softplus,
    sqrt,
    square,
    tan,
    tanh,
)
from tapegrad.ops.exponential import (
    cbrt,
    exp2,
    float_power,
    frexp,
    ldexp,
    log2,
    log10,
    logaddexp,
    logaddexp2,
    reciprocal,
)
from tapegrad.ops.grids import geomspace, linspace, logspace, meshgrid, vander
from tapegrad.ops.indexing import getitem, index_add, take, take_along_axis
from tapegrad.ops.interpolation import interp, unwrap
from tapegrad.ops.joining import (
    append,
    array_split,
    block,
    column_stack,
    delete,
    dsplit,
    dstack,
    hsplit,
    hstack,
    insert,
    row_stack,
    vsplit,
    vstack,
)
from tapegrad.ops.linalg import dot, einsum, matmul, outer
from tapegrad.ops.logical import (
    all,
    allclose,
    any,
    array_equal,
    array_equiv,
    bitwise_and,
    bitwise_count,
    bitwise_or,
    bitwise_xor,
    count_nonzero,
    gcd,
    invert,
    isclose,
    isfinite,
    isinf,
    isnan,
    isneginf,
    isposinf,
    lcm,
    left_shift,
    logical_and,
    logical_not,
    logical_or,
    logical_xor,
    right_shift,
    signbit,
)
from tapegrad.ops.modular import (
    copysign,
    divmod,
    fabs,
    fmax,
    fmin,
    fmod,
    heaviside,
    modf,
    nan_to_num,
    nextafter,
    remainder,
)
from tapegrad.ops.nn import log_softmax, softmax
from tapegrad.ops.nondifferentiable import (
    argmax,
    argmin,
    ceil,
    equal,
    fix,
    floor,
    floor_divide,
    greater,
    greater_equal,
    less,
    less_equal,
    not_equal,
    round,
    sign,
    spacing,
    trunc,
)
from tapegrad.ops.primitive import Primitive
from tapegrad.ops.products import (
    convolve,
    correlate,
    cross,
    inner,
    kron,
    matvec,
    tensordot,
    vdot,
    vecdot,
    vecmat,
)
from tapegrad.ops.quantiles import (
    median,
    nanmedian,
    nanpercentile,
    nanquantile,
    percentile,
    quantile,
)
from tapegrad.ops.rearranging import (
    atleast_1d,
    atleast_2d,
    atleast_3d,
    broadcast_arrays,
    copy,
    fliplr,
    flipud,
    matrix_transpose,
    moveaxis,
    ravel,
    resize,
    roll,
    rollaxis,
    rot90,
    unstack,
)
from tapegrad.ops.reductions import cumsum, logsumexp, max, mean, min, prod, std, sum, var
from tapegrad.ops.selection import (
    argwhere,
    choose,
    compress,
    extract,
    fill_diagonal,
    flatnonzero,
    nonzero,
    piecewise,
    place,
    put,
    put_along_axis,
    select,
    trim_zeros,
)
from tapegrad.ops.sets import intersect1d, setdiff1d, setxor1d, union1d
from tapegrad.ops.shape import (
    broadcast_to,
    concatenate,
    expand_dims,
    flip,
    pad,
    repeat,
    reshape,
    split,
    squeeze,
    stack,
    swapaxes,
    tile,
    transpose,
)
from tapegrad.ops.sorting import (
    argpartition,
    argsort,
    lexsort,
    partition,
    searchsorted,
    sort,
    unique,
    unique_all,
    unique_counts,
    unique_inverse,
    unique_values,
)
from tapegrad.ops.statistics import (
    average,
    corrcoef,
    cov,
    nanargmax,
    nanargmin,
    nanmax,
    nanmean,
    nanmin,
    nanprod,
    nanstd,
    nansum,
    nanvar,
    ptp,
)
from tapegrad.ops.trigonometric import (
    arccos,
    arccosh,
    arcsin,
    arcsinh,
    arctan2,
    arctanh,
    deg2rad,
    hypot,
    rad2deg,
    sinc,
)

__all__ = [
    "Primitive",
    "abs", "add", "all", "allclose", "angle", "any", "append", "arange", "arccos", "arccosh",
    "arcsin", "arcsinh", "arctan", "arctan2", "arctanh", "argmax", "argmin", "argpartition",
    "argsort", "argwhere", "array_equal", "array_equiv", "array_split", "asarray", "astype",
    "atleast_1d", "atleast_2d", "atleast_3d", "average", "bitwise_and", "bitwise_count",
    "bitwise_or", "bitwise_xor", "block", "broadcast_arrays", "broadcast_to", "cbrt", "ceil",
    "choose", "clip", "column_stack", "compress", "concatenate", "conj", "conjugate", "convolve",
    "copy",
    "copysign", "corrcoef", "correlate", "cos", "cosh", "count_nonzero", "cov", "cross",
    "cumprod", "cumsum", "cumulative_prod", "cumulative_sum", "deg2rad", "delete", "diag",
    "diagflat", "diagonal", "diff", "divide", "divmod", "dot", "dsplit", "dstack", "ediff1d",
    "einsum", "equal", "exp", "exp2", "expand_dims", "expm1", "extract", "eye", "fabs",
    "fill_diagonal", "fix", "flatnonzero", "flip", "fliplr", "flipud", "float_power", "floor",
    "floor_divide", "fmax", "fmin", "fmod", "frexp", "full", "gcd", "geomspace", "getitem",
    "gradient", "greater", "greater_equal", "heaviside", "hsplit", "hstack", "hypot", "i0",
    "i1", "imag", "index_add", "inner", "insert", "interp", "intersect1d", "invert", "isclose",
    "isfinite", "isinf", "isnan", "isneginf", "isposinf", "kron", "lcm", "ldexp", "left_shift",
    "less", "less_equal", "lexsort", "linspace", "log", "log10", "log1p", "log2", "log_softmax",
    "logaddexp", "logaddexp2", "logical_and", "logical_not", "logical_or", "logical_xor",
    "logspace", "logsumexp", "matmul", "matrix_transpose", "matvec", "max", "maximum", "mean",
    "median", "meshgrid", "min", "minimum", "modf", "moveaxis", "multiply", "nan_to_num",
    "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax", "nanmean", "nanmedian",
    "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar",
    "negative", "nextafter", "nonzero", "not_equal", "ones", "ones_like", "outer", "pad",
    "partition", "percentile", "piecewise", "place",     "power", "prod", "ptp", "put",
    "put_along_axis", "quantile", "rad2deg", "ravel", "real", "reciprocal", "relu", "remainder",
    "repeat", "reshape", "resize", "right_shift", "roll", "rollaxis", "rot90", "round",
    "row_stack", "searchsorted", "select", "setdiff1d", "setxor1d", "sigmoid", "sign",
    "signbit", "sin", "sinc", "sinh", "softmax", "softplus", "sort", "spacing", "split", "sqrt",
    "square", "squeeze", "stack", "std", "stop_gradient", "subtract", "sum", "swapaxes", "take",
    "take_along_axis", "tan", "tanh", "tensordot", "tile", "to_device", "trace", "transpose",
    "trapezoid", "tril", "trim_zeros", "triu", "trunc", "union1d", "unique", "unique_all",
    "unique_counts", "unique_inverse", "unique_values", "unstack", "unwrap", "vander", "var",
    "vdot", "vecdot", "vecmat", "vsplit", "vstack", "where", "zeros", "zeros_like",
]  # fmt: skip


def _give_the_engine_its_ops() -> None:
    """Tensor's methods, and the ops the sweep calls (tapegrad/core/hooks.py)."""
    from tapegrad.core import hooks
    from tapegrad.ops import methods
    from tapegrad.ops.arithmetic import cast_cotangent

    methods.attach()
    hooks.register_ops(
        add=add,
        astype=astype,
        cast_cotangent=cast_cotangent,
        reshape=reshape,
        stack=stack,
        asarray=asarray,
        eye=eye,
        zeros=zeros,
        zeros_like=zeros_like,
        ones_like=ones_like,
    )


_give_the_engine_its_ops()
from tapegrad.ops import jvp_rules  # noqa: E402,F401  (forward mode's rules, on the primitives)
