"""Activation layers and their functions: ReLU, Tanh, Sigmoid, GELU, LeakyReLU, ELU, SiLU,
Softplus, Softmax, LogSoftmax, Identity (PyTorch's names, defaults and formulas).

Each is a composition of differentiable ops, so every order of derivative comes from the
tape; the exact GELU's ``erf`` is tapegrad/ops/erf.py's primitive.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.nn.module import Module
from tapegrad.ops.erf import _erf  # the GELU's; tapegrad.scipy.special.erf's too

ArrayLike = Any


def _as_tensor(x: ArrayLike) -> Tensor:
    return x if isinstance(x, Tensor) else ops.asarray(x)


def gelu(x: ArrayLike, approximate: str = "none") -> Tensor:
    """Gaussian error linear unit ``x * Phi(x)`` = ``x/2 * (1 + erf(x/sqrt(2)))``; with
    ``approximate="tanh"``, ``x/2 * (1 + tanh(sqrt(2/pi) * (x + 0.044715 x**3)))``.

    Args:
        x: The input.
        approximate: ``"none"`` (exact) or ``"tanh"``.

    Returns:
        A Tensor of ``x``'s shape.

    Raises:
        ValueError: ``approximate`` is neither.

    >>> import tapegrad as tg
    >>> round(tg.nn.gelu(tg.tensor(1.0)).item(), 6), round(tg.nn.gelu(1.0, "tanh").item(), 6)
    (0.841345, 0.841192)
    """
    if approximate == "none":
        return 0.5 * x * (1.0 + _erf(x * (1.0 / math.sqrt(2.0))))
    if approximate == "tanh":
        inner = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x * ops.square(x))
        return 0.5 * x * (1.0 + ops.tanh(inner))
    raise ValueError(f"gelu: approximate must be 'none' or 'tanh', got {approximate!r}")


def _check_setting(op: str, name: str, value: Any) -> None:
    """A layer's number setting (a Tensor is allowed: it may be trained)."""
    if isinstance(value, Tensor):
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{op}: {name} must be a number, got {type(value).__name__} {value!r}")


def leaky_relu(x: ArrayLike, negative_slope: float = 0.01) -> Tensor:
    """``x`` where ``x > 0``, else ``negative_slope * x`` (slope ``negative_slope`` at 0).

    Args:
        x: The input.
        negative_slope: The slope for negative inputs.

    Returns:
        A Tensor of ``x``'s shape.

    >>> import tapegrad as tg
    >>> tg.nn.leaky_relu(tg.tensor([-2.0, 3.0]), 0.1).numpy()
    array([-0.2,  3. ])
    """
    _check_setting("leaky_relu", "negative_slope", negative_slope)
    x = _as_tensor(x)
    return ops.where(x > 0, x, x * negative_slope)


def elu(x: ArrayLike, alpha: float = 1.0) -> Tensor:
    """``x`` where ``x > 0``, else ``alpha * (exp(x) - 1)`` (derivative ``alpha`` at 0).

    Args:
        x: The input.
        alpha: The scale of the negative part.

    Returns:
        A Tensor of ``x``'s shape.

    >>> import tapegrad as tg
    >>> round(tg.nn.elu(tg.tensor(-1.0)).item(), 6)
    -0.632121
    """
    _check_setting("elu", "alpha", alpha)
    x = _as_tensor(x)
    # expm1 of the clipped value: the branch where() discards must not overflow (its
    # gradient would be 0 * inf = nan); clip passes the gradient at 0, so ELU'(0) = alpha.
    return ops.where(x > 0, x, alpha * ops.expm1(ops.clip(x, None, 0.0)))


def silu(x: ArrayLike) -> Tensor:
    """``x * sigmoid(x)`` (the swish).

    Args:
        x: The input.

    Returns:
        A Tensor of ``x``'s shape.

    >>> import tapegrad as tg
    >>> round(tg.nn.silu(tg.tensor(1.0)).item(), 6)
    0.731059
    """
    return x * ops.sigmoid(x)


def _check_softplus(op: str, beta: Any, threshold: Any) -> None:
    _check_setting(op, "beta", beta)
    _check_setting(op, "threshold", threshold)
    if not isinstance(beta, Tensor) and beta == 0:
        raise ValueError(f"{op}: beta must be nonzero (the result divides by it)")


def softplus(x: ArrayLike, beta: float = 1.0, threshold: float = 20.0) -> Tensor:
    """``log(1 + exp(beta x)) / beta``, and ``x`` itself where ``beta x > threshold``.

    Args:
        x: The input.
        beta: The sharpness.
        threshold: Where ``beta * x`` exceeds it, the result is ``x``.

    Returns:
        A Tensor of ``x``'s shape.

    >>> import tapegrad as tg
    >>> round(tg.nn.softplus(tg.tensor(0.0)).item(), 6), tg.nn.softplus(tg.tensor(30.0)).item()
    (0.693147, 30.0)
    """
    _check_softplus("softplus", beta, threshold)
    x = _as_tensor(x)
    scaled = x * beta
    return ops.where(scaled > threshold, x, ops.softplus(scaled) / beta)


class ReLU(Module):
    """Elementwise ``max(x, 0)``.

    >>> import tapegrad as tg
    >>> tg.nn.ReLU()(tg.tensor([[-1.0, 0.0, 2.0]]))
    tensor([[0., 0., 2.]], dtype=float64)
    """

    def forward(self, x: ArrayLike) -> Tensor:
        """The activation of ``x``, elementwise (any shape)."""
        return ops.relu(x)


class Tanh(Module):
    """Elementwise hyperbolic tangent.

    >>> import tapegrad as tg
    >>> tg.nn.Tanh()(tg.tensor([[-1.0, 0.0, 2.0]]))
    tensor([[-0.76159416,  0.        ,  0.96402758]], dtype=float64)
    """

    def forward(self, x: ArrayLike) -> Tensor:
        """The activation of ``x``, elementwise (any shape)."""
        return ops.tanh(x)


class Sigmoid(Module):
    """Elementwise logistic function.

    >>> import tapegrad as tg
    >>> tg.nn.Sigmoid()(tg.tensor([[-1.0, 0.0, 2.0]]))
    tensor([[0.26894142, 0.5       , 0.88079708]], dtype=float64)
    """

    def forward(self, x: ArrayLike) -> Tensor:
        """The activation of ``x``, elementwise (any shape)."""
        return ops.sigmoid(x)


class GELU(Module):
    """:func:`gelu` as a layer: ``GELU()`` exact (through erf), ``GELU("tanh")`` approximate.

    Args:
        approximate: ``"none"`` (exact) or ``"tanh"``.

    Raises:
        ValueError: ``approximate`` is neither.

    >>> import tapegrad as tg
    >>> tg.nn.GELU(approximate="tanh")
    GELU(approximate='tanh')
    """

    def __init__(self, approximate: str = "none") -> None:
        if approximate not in ("none", "tanh"):
            raise ValueError(f"GELU: approximate must be 'none' or 'tanh', got {approximate!r}")
        self.approximate = approximate

    def forward(self, x: ArrayLike) -> Tensor:
        """The activation of ``x``, elementwise (any shape)."""
        return gelu(x, self.approximate)

    def extra_repr(self) -> str:
        return f"approximate={self.approximate!r}"


class LeakyReLU(Module):
    """:func:`leaky_relu` with ``negative_slope`` (default 0.01).

    Args:
        negative_slope: The slope for negative inputs.

    >>> import tapegrad as tg
    >>> tg.nn.LeakyReLU(0.1)(tg.tensor([[-1.0, 0.0, 2.0]]))
    tensor([[-0.1,  0. ,  2. ]], dtype=float64)
    """

    def __init__(self, negative_slope: float = 0.01) -> None:
        _check_setting("LeakyReLU", "negative_slope", negative_slope)
        self.negative_slope = negative_slope

    def forward(self, x: ArrayLike) -> Tensor:
        """The activation of ``x``, elementwise (any shape)."""
        return leaky_relu(x, self.negative_slope)

    def extra_repr(self) -> str:
        return f"negative_slope={self.negative_slope}"


class ELU(Module):
    """:func:`elu` with ``alpha`` (default 1.0).

    Args:
        alpha: The scale of the negative part.

    >>> import tapegrad as tg
    >>> tg.nn.ELU()(tg.tensor([[-1.0, 0.0, 2.0]]))
    tensor([[-0.63212056,  0.        ,  2.        ]], dtype=float64)
    """

    def __init__(self, alpha: float = 1.0) -> None:
        _check_setting("ELU", "alpha", alpha)
        self.alpha = alpha

    def forward(self, x: ArrayLike) -> Tensor:
        """The activation of ``x``, elementwise (any shape)."""
        return elu(x, self.alpha)

    def extra_repr(self) -> str:
        return f"alpha={self.alpha}"


class SiLU(Module):
    """:func:`silu`: ``x * sigmoid(x)``.

    >>> import tapegrad as tg
    >>> tg.nn.SiLU()(tg.tensor([[-1.0, 0.0, 2.0]]))
    tensor([[-0.26894142,  0.        ,  1.76159416]], dtype=float64)
    """

    def forward(self, x: ArrayLike) -> Tensor:
        """The activation of ``x``, elementwise (any shape)."""
        return silu(x)


class Softplus(Module):
    """:func:`softplus` with ``beta`` (default 1) and ``threshold`` (default 20).

    Args:
        beta: The sharpness.
        threshold: Above ``beta * x > threshold`` the layer is the identity.

    >>> import tapegrad as tg
    >>> tg.nn.Softplus()(tg.tensor([[-1.0, 0.0, 2.0]]))
    tensor([[0.31326169, 0.69314718, 2.12692801]], dtype=float64)
    """

    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None:
        _check_softplus("Softplus", beta, threshold)
        self.beta = beta
        self.threshold = threshold

    def forward(self, x: ArrayLike) -> Tensor:
        """The activation of ``x``, elementwise (any shape)."""
        return softplus(x, self.beta, self.threshold)

    def extra_repr(self) -> str:
        return f"beta={self.beta}, threshold={self.threshold}"


def _dim(dim: int | None, layer: str) -> int:
    if dim is None:
        # PyTorch guesses an axis from the input's rank (and warns that the guess is
        # deprecated); a guess is a silent wrong answer waiting to happen.
        raise ValueError(f"{layer}: pass the axis to normalise over, e.g. {layer}(dim=-1)")
    return dim


class Softmax(Module):
    """``softmax`` along ``dim`` (which must be given).

    Args:
        dim: The axis to normalise over.

    Raises:
        ValueError: When called without ``dim``.

    >>> import tapegrad as tg
    >>> tg.nn.Softmax(dim=1)(tg.zeros((1, 4))).numpy()
    array([[0.25, 0.25, 0.25, 0.25]])
    """

    def __init__(self, dim: int | None = None) -> None:
        self.dim = _dim(dim, "Softmax")

    def forward(self, x: ArrayLike) -> Tensor:
        """``softmax(x)`` along ``dim``."""
        return ops.softmax(x, axis=self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class LogSoftmax(Module):
    """``log_softmax`` along ``dim`` (which must be given).

    Args:
        dim: The axis to normalise over.

    Raises:
        ValueError: When called without ``dim``.

    >>> import tapegrad as tg
    >>> tg.nn.LogSoftmax(dim=1)(tg.tensor([[0.0, 0.0]]))
    tensor([[-0.69314718, -0.69314718]], dtype=float64)
    """

    def __init__(self, dim: int | None = None) -> None:
        self.dim = _dim(dim, "LogSoftmax")

    def forward(self, x: ArrayLike) -> Tensor:
        """``log_softmax(x)`` along ``dim``."""
        return ops.log_softmax(x, axis=self.dim)

    def extra_repr(self) -> str:
        return f"dim={self.dim}"


class Identity(Module):
    """Returns its input unchanged; constructor arguments are accepted and ignored.

    Args:
        *args: Ignored.
        **kwargs: Ignored.

    >>> import tapegrad as tg
    >>> tg.nn.Identity(54, unused="anything")(tg.tensor([1.0])).numpy()
    array([1.])
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def forward(self, x: Any) -> Any:
        """``x`` itself."""
        return x
