"""Polynomials as coefficient arrays, highest power first: polyval polyadd polysub polymul
polyder polyint polydiv poly polyfit roots.

Built from arithmetic, convolve and indexing, so differentiable in the coefficients and
points to any order; ``polyfit`` in the fitted values; ``roots`` (and ``poly`` of a matrix)
through the companion matrix's eigenvalues (tg.linalg.eigvals).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.record import is_recorded
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.linalg._spectral import clusters
from tapegrad.ops.primitive import Primitive, shape_of
from tapegrad.ops.rule_helpers import is_complex, is_floating, result_dtype

ArrayLike = Any


def _coefficients(p: ArrayLike, op: str) -> Any:
    p = ops.atleast_1d(p)
    if len(shape_of(p)) != 1:
        raise ValueError(f"{op}: the coefficients must be 1-d, got shape {shape_of(p)}")
    return p


def polyval(p: ArrayLike, x: ArrayLike) -> Tensor:
    """``p[0] * x**(n-1) + ... + p[n-1]`` by Horner's rule, as ``np.polyval``.

    >>> import tapegrad as tg
    >>> tg.polyval(tg.tensor([1.0, 0.0, -1.0]), 3.0).item()
    8.0
    """
    p = _coefficients(p, "polyval")
    y = ops.zeros_like(x) if hasattr(x, "shape") else ops.zeros(np.shape(x))
    for k in range(shape_of(p)[0]):
        y = y * x + p[k]
    return y


def _aligned(a1: ArrayLike, a2: ArrayLike, op: str) -> tuple[Any, Any]:
    """Both coefficient arrays padded in front to the same length."""
    a1, a2 = _coefficients(a1, op), _coefficients(a2, op)
    n1, n2 = shape_of(a1)[0], shape_of(a2)[0]
    if n1 < n2:
        a1 = ops.pad(a1, (n2 - n1, 0))
    elif n2 < n1:
        a2 = ops.pad(a2, (n1 - n2, 0))
    return a1, a2


def polyadd(a1: ArrayLike, a2: ArrayLike) -> Tensor:
    """The sum of two polynomials.

    >>> import tapegrad as tg
    >>> tg.polyadd(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 0.0, 1.0]))
    tensor([1., 1., 3.], dtype=float64)
    """
    a1, a2 = _aligned(a1, a2, "polyadd")
    return a1 + a2


def polysub(a1: ArrayLike, a2: ArrayLike) -> Tensor:
    """The difference of two polynomials.

    >>> import tapegrad as tg
    >>> tg.polysub(tg.tensor([1.0, 2.0]), tg.tensor([1.0, 0.0, 1.0]))
    tensor([-1.,  1.,  1.], dtype=float64)
    """
    a1, a2 = _aligned(a1, a2, "polysub")
    return a1 - a2


def polymul(a1: ArrayLike, a2: ArrayLike) -> Tensor:
    """The product of two polynomials (the convolution of their coefficients).

    >>> import tapegrad as tg
    >>> tg.polymul(tg.tensor([1.0, -1.0]), tg.tensor([1.0, -2.0]))
    tensor([ 1., -3.,  2.], dtype=float64)
    """
    return ops.convolve(_coefficients(a1, "polymul"), _coefficients(a2, "polymul"))


def polyder(p: ArrayLike, m: int = 1) -> Tensor:
    """The ``m``-th derivative of a polynomial (empty for the derivative of a constant).

    >>> import tapegrad as tg
    >>> tg.polyder(tg.tensor([1.0, 2.0, 3.0]))  # d/dx (x**2 + 2x + 3)
    tensor([2., 2.], dtype=float64)
    """
    if m < 0:
        raise ValueError(f"polyder: order of derivative must be positive, got {m}")
    p = _coefficients(p, "polyder")
    for _ in range(m):
        n = shape_of(p)[0] - 1
        p = p[:-1] * ops.asarray(np.arange(n, 0, -1).astype(result_dtype(p)), like=p)
    return p


def polyint(p: ArrayLike, m: int = 1, k: Any = None) -> Tensor:
    """The ``m``-th antiderivative, with integration constants ``k`` (0 by default).

    >>> import tapegrad as tg
    >>> tg.polyint(tg.tensor([3.0, 2.0]))
    tensor([1.5, 2. , 0. ], dtype=float64)
    """
    if m < 0:
        raise ValueError(f"polyint: order of integral must be positive, got {m}")
    p = _coefficients(p, "polyint")
    # The constants may be Tensors (or a list holding some): differentiable too.
    constants = ops.zeros(m, like=p) if k is None else ops.atleast_1d(ops.asarray(k, like=p))
    if len(shape_of(constants)) != 1:
        raise ValueError("polyint: k must be a scalar or a sequence of length m")
    if shape_of(constants)[0] == 1 and m > 1:
        constants = ops.broadcast_to(constants, (m,))
    if shape_of(constants)[0] < m:
        raise ValueError("polyint: k must be a scalar or a sequence of length m")
    for j in range(m):
        n = shape_of(p)[0]
        divisors = ops.asarray(np.arange(n, 0, -1, dtype=result_dtype(p, 1.0)), like=p)
        p = ops.concatenate([p / divisors, constants[j : j + 1]])
    return p


def polydiv(u: ArrayLike, v: ArrayLike) -> tuple[Tensor, Tensor]:
    """Quotient and remainder of polynomial division (long division, as ``np.polydiv``).

    >>> import tapegrad as tg
    >>> q, r = tg.polydiv(tg.tensor([1.0, -3.0, 2.0]), tg.tensor([1.0, -1.0]))
    >>> q, r
    (tensor([ 1., -2.], dtype=float64), tensor([0.], dtype=float64))
    """
    u, v = _coefficients(u, "polydiv") * 1.0, _coefficients(v, "polydiv") * 1.0
    m, n = shape_of(u)[0] - 1, shape_of(v)[0] - 1
    scale = 1.0 / v[0]
    remainder = list(ops.unstack(u))
    quotient = []
    for k in range(m - n + 1):
        d = scale * remainder[k]
        quotient.append(d)
        for i in range(n + 1):
            remainder[k + i] = remainder[k + i] - d * v[i]
    q = ops.stack(quotient) if quotient else ops.zeros(1, like=u)
    r = ops.stack(remainder)
    # leading (near-)zeros of the remainder dropped, with NumPy's tolerance
    negligible = np.abs(np.asarray(host_value(r, "numpy.polydiv()"))) <= 1e-8
    first = 0
    while first < len(negligible) - 1 and negligible[first]:
        first += 1
    return q, r[first:]


def poly(seq_of_zeros: ArrayLike) -> Any:
    """The coefficients of the monic polynomial with the given roots (a 1-d input), or the
    characteristic polynomial of a square matrix (the roots its eigenvalues), as
    ``np.poly``: real when the roots come in conjugate pairs.

    >>> import tapegrad as tg
    >>> tg.poly(tg.tensor([1j, -1j])).numpy()
    array([1., 0., 1.])
    """
    zeros = ops.atleast_1d(seq_of_zeros)
    shape = shape_of(zeros)
    if len(shape) == 2 and shape[0] == shape[1] != 0:
        zeros = linalg.eigvals(zeros)
    elif len(shape) != 1:
        raise ValueError(f"poly: input must be 1d or non-empty square 2d array, got {shape}")
    if shape_of(zeros)[0] == 0:
        return 1.0
    zeros = ops.astype(zeros, result_dtype(zeros, 1.0))
    out = ops.ones(1, like=zeros)
    for k in range(shape_of(zeros)[0]):
        out = ops.convolve(out, ops.stack([ops.ones((), like=zeros), -zeros[k]]))
    if is_complex(zeros):
        values = np.asarray(host_value(zeros, "numpy.poly()"))
        if np.all(np.sort(values) == np.sort(values.conjugate())):  # conjugate pairs
            out = ops.real(out)
    return out


# The identity, with a NaN cotangent where ``repeated``: a repeated root's derivative.
_no_derivative = Primitive("roots", lambda xp, x, repeated: x, complex_rules=True).defvjp(
    lambda g, ans, x, repeated: ops.where(repeated, math.nan, g), None
)


def roots(p: ArrayLike) -> Tensor:
    """The roots of the polynomial with coefficients ``p`` (highest power first), as
    ``np.roots``: the eigenvalues of its companion matrix, in NumPy's order (real when
    every root is). Differentiable in ``p`` where the roots are distinct: a simple root
    ``r`` moves by ``-sum_k dp_k r**(n-k) / p'(r)``. A repeated root has no derivative: it
    splits as the square root of a perturbation. Where the computed roots are equal (as for
    ``(x - 1)**2``, whose companion matrix's eigenvalues come out exactly 1, 1), their
    gradient is NaN, even for a symmetric function of them such as the sum of squares,
    which eigenvalues of a (never diagonalizable) companion matrix cannot differentiate.
    Floating point usually returns a repeated root as a cluster about ``eps**(1/m)`` wide
    (m its multiplicity): distinct roots, whose gradients are exact for the computed roots
    and very large, as those roots move fast; their mean (a smooth function of ``p``) keeps
    an ordinary gradient.

    >>> import tapegrad as tg
    >>> p = tg.tensor([1.0, -3.0, 2.0])  # (x - 1)(x - 2)
    >>> tg.roots(p).numpy()
    array([2., 1.])
    >>> tg.jacobian(tg.roots)(p).numpy()  # d r / d p_k = -r**(n-k) / p'(r)
    array([[-4., -2., -1.],
           [ 1.,  1.,  1.]])
    """
    p = _coefficients(p, "roots")
    # which coefficients are zero: the structure (a mask, so tg.compile guards only it)
    nonzero = np.flatnonzero(np.asarray(host_value(ops.not_equal(p, 0), "numpy.roots()")))
    if nonzero.size == 0:
        return ops.zeros(0, dtype=np.float64, like=p)
    trailing = shape_of(p)[0] - int(nonzero[-1]) - 1
    p = p[int(nonzero[0]) : int(nonzero[-1]) + 1]
    if not is_floating(p):
        p = ops.astype(p, np.float64)
    n = shape_of(p)[0]
    if n > 1:
        top = ops.reshape(-p[1:] / p[0], (1, n - 1))
        shift = ops.asarray(np.eye(n - 2, n - 1, dtype=result_dtype(p)), like=p)
        found = linalg.eigvals(ops.concatenate([top, shift], axis=0))
        # eigvals' rule averages over equal eigenvalues, which is exact for diagonalizable
        # matrices only; a companion matrix with a repeated eigenvalue never is
        repeated = np.sum(clusters(found), axis=-1) > 1
        if np.any(repeated):
            found = _no_derivative(found, ops.asarray(repeated, like=p))
    else:
        found = ops.zeros(0, dtype=result_dtype(p), like=p)
    if trailing:  # x**k factors: k roots at 0
        found = ops.concatenate([found, ops.zeros(trailing, dtype=result_dtype(found), like=p)])
    return found


def polyfit(
    x: ArrayLike, y: ArrayLike, deg: int, rcond: float | None = None, full: bool = False,
    w: ArrayLike = None, cov: Any = False,
) -> Any:  # fmt: skip
    """The least-squares polynomial fit of degree ``deg``, as ``np.polyfit``: the
    coefficients are a fixed linear map of ``y`` (NumPy's own least squares applied to
    the identity), so they are differentiable in ``y`` to any order. The sample points
    ``x`` and the weights ``w`` are constants here. ``full=True`` returns NumPy's
    ``(coefficients, residuals, rank, singular_values, rcond)`` and ``cov=True`` (or
    ``"unscaled"``) ``(coefficients, covariance)``; the residuals and the scaled
    covariance are differentiable in ``y`` too, the rest are constants.

    >>> import tapegrad as tg
    >>> tg.polyfit([0.0, 1.0, 2.0], tg.tensor([1.0, 3.0, 5.0]), 1).numpy().round(12)
    array([2., 1.])
    """
    for name, value in (("x", x), ("w", w)):
        if isinstance(value, Tensor) and is_recorded(value):
            raise NotImplementedError(
                f"polyfit: no gradient with respect to {name} (only y's: the fit is a fixed "
                "linear map of y); to differentiate in x, solve the least squares yourself: "
                "tg.linalg.lstsq(tg.vander(x, deg + 1), y)"
            )
    points = np.asarray(host_value(x, "numpy.polyfit()"), dtype=float)
    order = int(deg) + 1
    if deg < 0:
        raise ValueError("polyfit: expected deg >= 0")
    if points.ndim != 1 or points.size == 0:
        raise TypeError("polyfit: expected a non-empty 1-d x")
    # NumPy's least squares: Vandermonde columns scaled to unit norm, then lstsq
    lhs = np.vander(points, order)
    weights = None if w is None else np.asarray(host_value(w, "numpy.polyfit()"), dtype=float)
    if weights is not None:
        lhs = lhs * weights[:, np.newaxis]
    if rcond is None:
        rcond = len(points) * np.finfo(points.dtype).eps
    scale = np.sqrt((lhs * lhs).sum(axis=0))
    solution, _, rank, singular_values = np.linalg.lstsq(lhs / scale, np.eye(len(points)), rcond)
    fit = (solution.T / scale).T  # coefficients = fit @ (weighted y)
    values = y if weights is None else ops.multiply(y, _column(weights, y))
    dtype = result_dtype(y, 1.0)
    coefficients = ops.tensordot(ops.asarray(fit.astype(dtype), like=values), values, 1)
    if not full and not cov:
        return coefficients
    if rank < order or len(points) <= order:  # lstsq's residuals are then empty
        residuals: Any = np.empty((0,), dtype=dtype)
    else:
        fitted = ops.tensordot(ops.asarray(lhs.astype(dtype), like=values), coefficients, 1)
        misfit = ops.subtract(values, fitted)
        residuals = ops.reshape(ops.sum(ops.multiply(misfit, misfit), axis=0), (-1,))
    if full:
        return coefficients, residuals, rank, singular_values, rcond
    scaled = lhs / scale
    base = np.linalg.inv(scaled.T @ scaled) / np.outer(scale, scale)
    if len(shape_of(y)) == 2:
        base = base[:, :, np.newaxis]
    if cov == "unscaled":
        return coefficients, ops.asarray(base.astype(dtype), like=values)
    if len(points) <= order:
        raise ValueError(
            "polyfit: the number of data points must exceed order to scale the covariance matrix"
        )
    factor = ops.divide(residuals, float(len(points) - order))
    return coefficients, ops.multiply(ops.asarray(base.astype(dtype), like=values), factor)


def _column(weights: np.ndarray, y: Any) -> Any:
    """The weights shaped to multiply ``y`` (1-d, or one column per fitted data set)."""
    column = weights if len(shape_of(y)) == 1 else weights[:, np.newaxis]
    return ops.asarray(column.astype(result_dtype(y, 1.0)), like=y)
