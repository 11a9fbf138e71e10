"""Information-theory functions: xlogy xlog1py entr rel_entr kl_div.

``xlogy(0, y)`` is 0 for every y, so its derivative in y is 0 where x == 0; in x it is
log(y), taken as 0 at the point (0, 0) where it does not exist, so that a masked term
``xlogy(0, 0)`` cannot poison a gradient (docs/scipy.md). The forwards have array-API
versions, so these run on every backend.
"""

from __future__ import annotations

from typing import Any

from tapegrad import ops
from tapegrad.core.tensor import Tensor
from tapegrad.scipy._dispatch import plain_calls_scipy
from tapegrad.scipy.special._primitive import special_primitive, unbroadcast_like

ArrayLike = Any


def _both_zero(x: Any, y: Any) -> Any:
    """``x == 0 and y == 0`` as a boolean Tensor (Tensors have no ``&``)."""
    return ops.equal(ops.abs(x) + ops.abs(y), 0.0)


def _xlogy_portable(xp: Any, x: Any, y: Any) -> Any:
    safe = xp.where(x == 0, 1.0, y)
    return xp.where((x == 0) & ~xp.isnan(y), 0.0, x * xp.log(safe))


def _xlogy_dx(g: Any, ans: Any, x: Any, y: Any) -> Any:
    return unbroadcast_like(g * ops.log(ops.where(_both_zero(x, y), 1.0, y)), x)


def _xlogy_dy(g: Any, ans: Any, x: Any, y: Any) -> Any:
    # x / y, and 0 at (0, 0): the mask keeps x / y's own derivatives wherever y != 0
    return unbroadcast_like(g * (x / ops.where(_both_zero(x, y), 1.0, y)), y)


_xlogy = special_primitive("xlogy", _xlogy_dx, _xlogy_dy, portable=_xlogy_portable)


@plain_calls_scipy("special")
def xlogy(x: ArrayLike, y: ArrayLike) -> Tensor:
    """``x * log(y)``, and 0 where ``x == 0``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import xlogy
    >>> xlogy(tg.tensor([0.0, 2.0]), tg.tensor([0.0, 1.0])).numpy()
    array([0., 0.])
    """
    return _xlogy._binary(x, y)


def _xlog1py_portable(xp: Any, x: Any, y: Any) -> Any:
    safe = xp.where(x == 0, 0.0, y)
    return xp.where((x == 0) & ~xp.isnan(y), 0.0, x * xp.log1p(safe))


_xlog1py = special_primitive(
    "xlog1py",
    lambda g, ans, x, y: unbroadcast_like(
        g * ops.log1p(ops.where(_both_zero(x, ops.add(y, 1.0)), 0.0, y)), x
    ),
    lambda g, ans, x, y: unbroadcast_like(
        g * (x / ops.where(_both_zero(x, ops.add(y, 1.0)), 1.0, ops.add(y, 1.0))), y
    ),
    portable=_xlog1py_portable,
)


@plain_calls_scipy("special")
def xlog1py(x: ArrayLike, y: ArrayLike) -> Tensor:
    """``x * log1p(y)``, and 0 where ``x == 0``.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import xlog1py
    >>> xlog1py(tg.tensor(0.0), tg.tensor(-1.0)).item()
    0.0
    """
    return _xlog1py._binary(x, y)


def _entr_portable(xp: Any, x: Any) -> Any:
    safe = xp.where(x > 0, x, 1.0)
    edge = xp.where(x == 0, xp.zeros_like(x), xp.full_like(x, -xp.inf))
    return xp.where(x > 0, -x * xp.log(safe), edge)


# d entr = -(log x + 1): -inf at 0, where entr has a vertical tangent
_entr = special_primitive(
    "entr", lambda g, ans, x: -g * (ops.log(x) + 1.0), portable=_entr_portable
)


@plain_calls_scipy("special")
def entr(x: ArrayLike) -> Tensor:
    """Elementwise entropy ``-x log x`` (0 at 0, ``-inf`` for negative x).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import entr
    >>> entr(tg.tensor([0.0, 1.0])).numpy()
    array([ 0., -0.])
    """
    return _entr._unary(x)


def _rel_entr_portable(xp: Any, x: Any, y: Any) -> Any:
    both = (x > 0) & (y > 0)
    safe_x, safe_y = xp.where(both, x, 1.0), xp.where(both, y, 1.0)
    value = x * xp.log(safe_x / safe_y)
    edge = xp.where((x == 0) & (y >= 0), xp.zeros_like(value), xp.full_like(value, xp.inf))
    return xp.where(both, value, edge)


_rel_entr = special_primitive(
    "rel_entr",
    lambda g, ans, x, y: unbroadcast_like(g * (ops.log(x / y) + 1.0), x),
    lambda g, ans, x, y: unbroadcast_like(-g * (x / y), y),
    portable=_rel_entr_portable,
)


@plain_calls_scipy("special")
def rel_entr(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise relative entropy ``x log(x / y)`` (0 where ``x == 0 <= y``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import rel_entr
    >>> round(rel_entr(tg.tensor(2.0), 1.0).item(), 12)
    1.38629436112
    """
    return _rel_entr._binary(x, y)


def _kl_div_portable(xp: Any, x: Any, y: Any) -> Any:
    return _rel_entr_portable(xp, x, y) - x + y


_kl_div = special_primitive(
    "kl_div",
    lambda g, ans, x, y: unbroadcast_like(g * ops.log(x / y), x),
    lambda g, ans, x, y: unbroadcast_like(g * (1.0 - x / y), y),
    portable=_kl_div_portable,
)


@plain_calls_scipy("special")
def kl_div(x: ArrayLike, y: ArrayLike) -> Tensor:
    """Elementwise ``x log(x / y) - x + y`` (``y`` where ``x == 0 <= y``).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.special import kl_div
    >>> kl_div(tg.tensor(1.0), 1.0).item()
    0.0
    """
    return _kl_div._binary(x, y)
