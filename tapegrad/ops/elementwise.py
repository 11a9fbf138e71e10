"""Elementwise functions: exp log log1p expm1 sqrt square sin cos tan tanh sinh cosh arctan
sigmoid relu softplus.

Rules reuse the forward output (``ans``) where the derivative is a function of it. For
complex values each rule is ``g * conj(f'(z))`` (docs/complex.md), written with the
``conjugate()`` method: the values it is called on are arrays or Tensors, which return
themselves when real (no copy, nothing recorded). The shortcut rules (the raw sweep's
path on NumPy arrays, for real values only) are the same formulas in NumPy without the
conjugate. relu and softplus order values, so they have no complex gradient.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tapegrad import backend, ops
from tapegrad.ops.primitive import Primitive
from tapegrad.tensor import Tensor

ArrayLike = Any

_exp = (
    Primitive("exp", lambda xp, x: xp.exp(x), numpy=np.exp, complex_rules=True)
    .defvjp(lambda g, ans, x: g * ans.conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * ans)
)


def exp(x: ArrayLike) -> Tensor:
    """Elementwise ``e ** x``."""
    return _exp._unary(x)


_log = (
    Primitive("log", lambda xp, x: xp.log(x), numpy=np.log, complex_rules=True)
    .defvjp(lambda g, ans, x: g / x.conjugate())
    .defvjp_same_shape(lambda g, ans, x: g / x)
)


def log(x: ArrayLike) -> Tensor:
    """Elementwise natural logarithm."""
    return _log._unary(x)


_log1p = (
    Primitive("log1p", lambda xp, x: xp.log1p(x), numpy=np.log1p, complex_rules=True)
    .defvjp(lambda g, ans, x: g / (x + 1.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g / (x + 1.0))
)


def log1p(x: ArrayLike) -> Tensor:
    """Elementwise ``log(1 + x)``, accurate for small ``x``."""
    return _log1p._unary(x)


_expm1 = (
    Primitive("expm1", lambda xp, x: xp.expm1(x), numpy=np.expm1, complex_rules=True)
    .defvjp(lambda g, ans, x: g * (ans + 1.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * (ans + 1.0))
)


def expm1(x: ArrayLike) -> Tensor:
    """Elementwise ``exp(x) - 1``, accurate for small ``x``."""
    return _expm1._unary(x)


_sqrt = (
    Primitive("sqrt", lambda xp, x: xp.sqrt(x), numpy=np.sqrt, complex_rules=True)
    .defvjp(lambda g, ans, x: g / (ans * 2.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g / (ans * 2.0))
)


def sqrt(x: ArrayLike) -> Tensor:
    """Elementwise square root."""
    return _sqrt._unary(x)


_square = (
    Primitive("square", lambda xp, x: xp.square(x), numpy=np.square, complex_rules=True)
    .defvjp(lambda g, ans, x: g * (x * 2.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * (x * 2.0))
)


def square(x: ArrayLike) -> Tensor:
    """Elementwise ``x * x``."""
    return _square._unary(x)


_sin = (
    Primitive("sin", lambda xp, x: xp.sin(x), numpy=np.sin, complex_rules=True)
    .defvjp(lambda g, ans, x: g * ops.cos(x).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * np.cos(x))
)


def sin(x: ArrayLike) -> Tensor:
    """Elementwise sine."""
    return _sin._unary(x)


_cos = (
    Primitive("cos", lambda xp, x: xp.cos(x), numpy=np.cos, complex_rules=True)
    .defvjp(lambda g, ans, x: -g * ops.sin(x).conjugate())
    .defvjp_same_shape(lambda g, ans, x: -g * np.sin(x))
)


def cos(x: ArrayLike) -> Tensor:
    """Elementwise cosine."""
    return _cos._unary(x)


# d tan = 1 + tan**2
_tan = (
    Primitive("tan", lambda xp, x: xp.tan(x), numpy=np.tan, complex_rules=True)
    .defvjp(lambda g, ans, x: g * (ans * ans + 1.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * (ans * ans + 1.0))
)


def tan(x: ArrayLike) -> Tensor:
    """Elementwise tangent."""
    return _tan._unary(x)


# d tanh = 1 - tanh**2
_tanh = (
    Primitive("tanh", lambda xp, x: xp.tanh(x), numpy=np.tanh, complex_rules=True)
    .defvjp(lambda g, ans, x: g * (1.0 - ans * ans).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * (1.0 - ans * ans))
)


def tanh(x: ArrayLike) -> Tensor:
    """Elementwise hyperbolic tangent."""
    return _tanh._unary(x)


_sinh = (
    Primitive("sinh", lambda xp, x: xp.sinh(x), numpy=np.sinh, complex_rules=True)
    .defvjp(lambda g, ans, x: g * ops.cosh(x).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * np.cosh(x))
)


def sinh(x: ArrayLike) -> Tensor:
    """Elementwise hyperbolic sine."""
    return _sinh._unary(x)


_cosh = (
    Primitive("cosh", lambda xp, x: xp.cosh(x), numpy=np.cosh, complex_rules=True)
    .defvjp(lambda g, ans, x: g * ops.sinh(x).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * np.sinh(x))
)


def cosh(x: ArrayLike) -> Tensor:
    """Elementwise hyperbolic cosine."""
    return _cosh._unary(x)


_arctan = (
    Primitive("arctan", lambda xp, x: xp.atan(x), numpy=np.arctan, complex_rules=True)
    .defvjp(lambda g, ans, x: g / (x * x + 1.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g / (x * x + 1.0))
)


def arctan(x: ArrayLike) -> Tensor:
    """Elementwise inverse tangent."""
    return _arctan._unary(x)


def _sigmoid_forward(xp: Any, x: Any) -> Any:
    if isinstance(x, complex) or backend.is_complex(getattr(x, "dtype", None)):
        # As PyTorch's; it has poles at i pi (2k + 1).
        return 1.0 / (1.0 + xp.exp(-x))
    # exp(-|x|) never overflows; each branch is accurate on its side of 0.
    e = xp.exp(-xp.abs(x))
    return xp.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


# d sigmoid = sigmoid * (1 - sigmoid)
_sigmoid = (
    Primitive("sigmoid", _sigmoid_forward, complex_rules=True)
    .defvjp(lambda g, ans, x: g * (ans * (1.0 - ans)).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * (ans * (1.0 - ans)))
)


def sigmoid(x: ArrayLike) -> Tensor:
    """Elementwise logistic function ``1 / (1 + exp(-x))``, stable for large ``|x|``."""
    return _sigmoid._unary(x)


# g times a 0/1 mask, not where(x > 0, g, 0): NumPy's where branches per element and is
# ~20x slower on a random mask. The two differ only where g is inf or nan at x <= 0.
# The mask reads the output: max(x, 0) > 0 exactly where x > 0 (nan included), and a
# rule that needs only the output does not need the input kept.
_relu = Primitive("relu", lambda xp, x: xp.maximum(x, 0), complex_rules=False).defvjp(
    lambda g, ans, x: g * ops.astype(ops.greater(ans, 0), g.dtype)
)
# NumPy multiplies by a boolean mask directly: one pass less than the cast.
_relu.defvjp_same_shape(lambda g, ans, x: g * (ans > 0))


def relu(x: ArrayLike) -> Tensor:
    """Elementwise ``max(x, 0)``; its gradient at 0 is 0."""
    return _relu._unary(x)


# d softplus = sigmoid
_softplus = Primitive("softplus", lambda xp, x: xp.logaddexp(x, 0.0), complex_rules=False).defvjp(
    lambda g, ans, x: g * ops.sigmoid(x)
)


def softplus(x: ArrayLike) -> Tensor:
    """Elementwise ``log(1 + exp(x))``, stable for large ``|x|``."""
    return _softplus._unary(x)
