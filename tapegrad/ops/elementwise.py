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

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.tensor import Tensor
from tapegrad.ops.primitive import Primitive

ArrayLike = Any

_exp = (
    Primitive("exp", lambda xp, x: xp.exp(x), numpy=np.exp, complex_rules=True)
    .defvjp(lambda g, ans, x: g * ans.conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * ans)
    .saves(output=True)
)


def exp(x: ArrayLike) -> Tensor:
    """Elementwise ``e ** x``.

    >>> import tapegrad as tg
    >>> tg.exp(tg.tensor([0.0, 1.0]))
    tensor([1.        , 2.71828183], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.exp(x)))(tg.tensor([0.0, 1.0]))  # the gradient
    tensor([1.        , 2.71828183], dtype=float64)
    """
    return _exp._unary(x)


_log = (
    Primitive("log", lambda xp, x: xp.log(x), numpy=np.log, complex_rules=True)
    .defvjp(lambda g, ans, x: g / x.conjugate())
    .defvjp_same_shape(lambda g, ans, x: g / x)
)


def log(x: ArrayLike) -> Tensor:
    """Elementwise natural logarithm.

    >>> import tapegrad as tg
    >>> tg.log(tg.tensor([1.0, 2.0, 4.0]))
    tensor([0.        , 0.69314718, 1.38629436], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.log(x)))(tg.tensor([1.0, 2.0, 4.0]))  # the gradient
    tensor([1.  , 0.5 , 0.25], dtype=float64)
    """
    return _log._unary(x)


_log1p = (
    Primitive("log1p", lambda xp, x: xp.log1p(x), numpy=np.log1p, complex_rules=True)
    .defvjp(lambda g, ans, x: g / (x + 1.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g / (x + 1.0))
)


def log1p(x: ArrayLike) -> Tensor:
    """Elementwise ``log(1 + x)``, accurate for small ``x``.

    >>> import tapegrad as tg
    >>> tg.log1p(tg.tensor([0.0, 1e-10]))
    tensor([0.e+00, 1.e-10], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.log1p(x)))(tg.tensor([0.0, 1e-10]))  # the gradient
    tensor([1., 1.], dtype=float64)
    """
    return _log1p._unary(x)


_expm1 = (
    Primitive("expm1", lambda xp, x: xp.expm1(x), numpy=np.expm1, complex_rules=True)
    .defvjp(lambda g, ans, x: g * (ans + 1.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * (ans + 1.0))
)


def expm1(x: ArrayLike) -> Tensor:
    """Elementwise ``exp(x) - 1``, accurate for small ``x``.

    >>> import tapegrad as tg
    >>> tg.expm1(tg.tensor([0.0, 1e-10]))
    tensor([0.e+00, 1.e-10], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.expm1(x)))(tg.tensor([0.0, 1e-10]))  # the gradient
    tensor([1., 1.], dtype=float64)
    """
    return _expm1._unary(x)


_sqrt = (
    Primitive("sqrt", lambda xp, x: xp.sqrt(x), numpy=np.sqrt, complex_rules=True)
    .defvjp(lambda g, ans, x: g / (ans * 2.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g / (ans * 2.0))
)


def sqrt(x: ArrayLike) -> Tensor:
    """Elementwise square root.

    >>> import tapegrad as tg
    >>> tg.sqrt(tg.tensor([1.0, 2.0, 4.0]))
    tensor([1.        , 1.41421356, 2.        ], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.sqrt(x)))(tg.tensor([1.0, 2.0, 4.0]))  # the gradient
    tensor([0.5       , 0.35355339, 0.25      ], dtype=float64)
    """
    return _sqrt._unary(x)


_square = (
    Primitive("square", lambda xp, x: xp.square(x), numpy=np.square, complex_rules=True)
    .defvjp(lambda g, ans, x: g * (x * 2.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * (x * 2.0))
)


def square(x: ArrayLike) -> Tensor:
    """Elementwise ``x * x``.

    >>> import tapegrad as tg
    >>> tg.square(tg.tensor([1.0, 2.0, 4.0]))
    tensor([ 1.,  4., 16.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.square(x)))(tg.tensor([1.0, 2.0, 4.0]))  # the gradient
    tensor([2., 4., 8.], dtype=float64)
    """
    return _square._unary(x)


_sin = (
    Primitive("sin", lambda xp, x: xp.sin(x), numpy=np.sin, complex_rules=True)
    .defvjp(lambda g, ans, x: g * ops.cos(x).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * np.cos(x))
)


def sin(x: ArrayLike) -> Tensor:
    """Elementwise sine.

    >>> import tapegrad as tg
    >>> tg.sin(tg.tensor([0.0, 1.0]))
    tensor([0.        , 0.84147098], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.sin(x)))(tg.tensor([0.0, 1.0]))  # the gradient
    tensor([1.        , 0.54030231], dtype=float64)
    """
    return _sin._unary(x)


_cos = (
    Primitive("cos", lambda xp, x: xp.cos(x), numpy=np.cos, complex_rules=True)
    .defvjp(lambda g, ans, x: -g * ops.sin(x).conjugate())
    .defvjp_same_shape(lambda g, ans, x: -g * np.sin(x))
)


def cos(x: ArrayLike) -> Tensor:
    """Elementwise cosine.

    >>> import tapegrad as tg
    >>> tg.cos(tg.tensor([0.0, 1.0]))
    tensor([1.        , 0.54030231], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.cos(x)))(tg.tensor([0.0, 1.0]))  # the gradient
    tensor([-0.        , -0.84147098], dtype=float64)
    """
    return _cos._unary(x)


# d tan = 1 + tan**2
_tan = (
    Primitive("tan", lambda xp, x: xp.tan(x), numpy=np.tan, complex_rules=True)
    .defvjp(lambda g, ans, x: g * (ans * ans + 1.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * (ans * ans + 1.0))
)


def tan(x: ArrayLike) -> Tensor:
    """Elementwise tangent.

    >>> import tapegrad as tg
    >>> tg.tan(tg.tensor([0.0, 1.0]))
    tensor([0.        , 1.55740772], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.tan(x)))(tg.tensor([0.0, 1.0]))  # the gradient
    tensor([1.        , 3.42551882], dtype=float64)
    """
    return _tan._unary(x)


# d tanh = 1 - tanh**2
_tanh = (
    Primitive("tanh", lambda xp, x: xp.tanh(x), numpy=np.tanh, complex_rules=True)
    .defvjp(lambda g, ans, x: g * (1.0 - ans * ans).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * (1.0 - ans * ans))
    .saves(output=True)
)


def tanh(x: ArrayLike) -> Tensor:
    """Elementwise hyperbolic tangent.

    >>> import tapegrad as tg
    >>> tg.tanh(tg.tensor([0.0, 1.0]))
    tensor([0.        , 0.76159416], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.tanh(x)))(tg.tensor([0.0, 1.0]))  # the gradient
    tensor([1.        , 0.41997434], dtype=float64)
    """
    return _tanh._unary(x)


_sinh = (
    Primitive("sinh", lambda xp, x: xp.sinh(x), numpy=np.sinh, complex_rules=True)
    .defvjp(lambda g, ans, x: g * ops.cosh(x).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * np.cosh(x))
)


def sinh(x: ArrayLike) -> Tensor:
    """Elementwise hyperbolic sine.

    >>> import tapegrad as tg
    >>> tg.sinh(tg.tensor([0.0, 1.0]))
    tensor([0.        , 1.17520119], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.sinh(x)))(tg.tensor([0.0, 1.0]))  # the gradient
    tensor([1.        , 1.54308063], dtype=float64)
    """
    return _sinh._unary(x)


_cosh = (
    Primitive("cosh", lambda xp, x: xp.cosh(x), numpy=np.cosh, complex_rules=True)
    .defvjp(lambda g, ans, x: g * ops.sinh(x).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g * np.sinh(x))
)


def cosh(x: ArrayLike) -> Tensor:
    """Elementwise hyperbolic cosine.

    >>> import tapegrad as tg
    >>> tg.cosh(tg.tensor([0.0, 1.0]))
    tensor([1.        , 1.54308063], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.cosh(x)))(tg.tensor([0.0, 1.0]))  # the gradient
    tensor([0.        , 1.17520119], dtype=float64)
    """
    return _cosh._unary(x)


_arctan = (
    Primitive("arctan", lambda xp, x: xp.atan(x), numpy=np.arctan, complex_rules=True)
    .defvjp(lambda g, ans, x: g / (x * x + 1.0).conjugate())
    .defvjp_same_shape(lambda g, ans, x: g / (x * x + 1.0))
)


def arctan(x: ArrayLike) -> Tensor:
    """Elementwise inverse tangent.

    >>> import tapegrad as tg
    >>> tg.arctan(tg.tensor([0.0, 1.0]))
    tensor([0.        , 0.78539816], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.arctan(x)))(tg.tensor([0.0, 1.0]))  # the gradient
    tensor([1. , 0.5], dtype=float64)
    """
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
    .saves(output=True)
)


def sigmoid(x: ArrayLike) -> Tensor:
    """Elementwise logistic function ``1 / (1 + exp(-x))``, stable for large ``|x|``.

    >>> import tapegrad as tg
    >>> tg.sigmoid(tg.tensor([0.0, 2.0]))
    tensor([0.5       , 0.88079708], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.sigmoid(x)))(tg.tensor([0.0, 2.0]))  # the gradient
    tensor([0.25      , 0.10499359], dtype=float64)
    """
    return _sigmoid._unary(x)


# g times a 0/1 mask, not where(x > 0, g, 0): NumPy's where branches per element and is
# ~20x slower on a random mask. The two differ only where g is inf or nan at x <= 0.
# The mask reads the output: max(x, 0) > 0 exactly where x > 0 (nan included), and a
# rule that needs only the output does not need the input kept.
_relu = Primitive("relu", lambda xp, x: xp.maximum(x, 0), complex_rules=False).defvjp(
    lambda g, ans, x: g * ops.astype(ops.greater(ans, 0), g.dtype)
)
# NumPy multiplies by a boolean mask directly: one pass less than the cast.
_relu.defvjp_same_shape(lambda g, ans, x: g * (ans > 0)).saves(output=True)
_relu.defvjp_in_place(lambda g, ans, x: np.multiply(g, ans > 0, out=g))
_relu.defforward_in_place(lambda x: np.maximum(x, 0, out=x))


def relu(x: ArrayLike) -> Tensor:
    """Elementwise ``max(x, 0)``; its gradient at 0 is 0.

    >>> import tapegrad as tg
    >>> tg.relu(tg.tensor([-1.0, 2.0]))
    tensor([0., 2.], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.relu(x)))(tg.tensor([-1.0, 2.0]))  # the gradient
    tensor([0., 1.], dtype=float64)
    """
    return _relu._unary(x)


# d softplus = sigmoid
_softplus = Primitive("softplus", lambda xp, x: xp.logaddexp(x, 0.0), complex_rules=False).defvjp(
    lambda g, ans, x: g * ops.sigmoid(x)
)


def softplus(x: ArrayLike) -> Tensor:
    """Elementwise ``log(1 + exp(x))``, stable for large ``|x|``.

    >>> import tapegrad as tg
    >>> tg.softplus(tg.tensor([0.0, 2.0]))
    tensor([0.69314718, 2.12692801], dtype=float64)
    >>> tg.grad(lambda x: tg.sum(tg.softplus(x)))(tg.tensor([0.0, 2.0]))  # the gradient
    tensor([0.5       , 0.88079708], dtype=float64)
    """
    return _softplus._unary(x)
