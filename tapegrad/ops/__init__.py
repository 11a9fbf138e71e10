"""The differentiable op library, one module per family.

Every function here takes Tensors, NumPy (or other backend) arrays and Python
scalars, and returns a Tensor; NumPy's names and broadcasting rules apply.
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
from tapegrad.ops.complex import angle, conj, conjugate, imag, real
from tapegrad.ops.creation import arange, asarray, eye, full, ones, ones_like, zeros, zeros_like
from tapegrad.ops.device import stop_gradient, to_device
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
from tapegrad.ops.indexing import getitem, index_add, take, take_along_axis
from tapegrad.ops.linalg import dot, einsum, matmul, outer
from tapegrad.ops.nn import log_softmax, softmax
from tapegrad.ops.nondifferentiable import (
    argmax,
    argmin,
    ceil,
    equal,
    floor,
    greater,
    greater_equal,
    less,
    less_equal,
    not_equal,
    round,
    sign,
)
from tapegrad.ops.primitive import Primitive
from tapegrad.ops.reductions import cumsum, logsumexp, max, mean, min, prod, std, sum, var
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

__all__ = [
    "Primitive",
    "abs", "add", "angle", "arange", "arctan", "argmax", "argmin", "asarray", "astype",
    "broadcast_to", "ceil", "clip", "concatenate", "conj", "conjugate", "cos", "cosh",
    "cumsum", "divide", "dot", "einsum", "equal", "exp", "expand_dims", "expm1", "eye",
    "flip", "floor", "full", "getitem", "greater", "greater_equal", "imag", "index_add",
    "less", "less_equal", "log", "log1p", "log_softmax", "logsumexp", "matmul", "max",
    "maximum", "mean", "min", "minimum", "multiply", "negative", "not_equal", "ones",
    "ones_like", "outer", "pad", "power", "prod", "real", "relu", "repeat", "reshape",
    "round", "sigmoid", "sign", "sin", "sinh",
    "softmax", "softplus", "split", "sqrt", "square", "squeeze", "stack", "std",
    "stop_gradient", "subtract", "sum", "swapaxes", "take", "take_along_axis", "tan", "tanh",
    "tile", "to_device", "transpose", "var", "where", "zeros", "zeros_like",
]  # fmt: skip
