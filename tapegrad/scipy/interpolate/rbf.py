"""scipy.interpolate's RBFInterpolator with gradients.

The interpolant is ``f(x) = sum_i a_i phi(eps |x - y_i|) + sum_k b_k p_k(x)``; its
coefficients solve SciPy's augmented system

    [[K + diag(smoothing), P], [P^T, 0]] [a; b] = [d; 0],
    K_ij = phi(eps |y_i - y_j|),  P_ik = p_k((y_i - shift) / scale),

built here with tapegrad ops and solved with tapegrad's differentiable ``linalg.solve``
(whose rule is the adjoint solve), so gradients reach the data values ``d``, the nodes
``y``, ``smoothing``, ``epsilon`` and the evaluation points ``x``. The monomials' shift and
scale (the centre and half-width of the nodes' bounding box) are taken as constants: they
only change the polynomial basis, not the space it spans, so the interpolant does not
depend on them and the gradient is exact.

Kernels of ``r^2`` (multiquadric, inverse_multiquadric, inverse_quadratic, gaussian) are
smooth everywhere; linear, thin_plate_spline, cubic and quintic are written in ``r`` with
their value and gradient taken as zero where ``r = 0`` (a point on a node: the limit for
all of them but linear, whose cone has no gradient there, and the node's own diagonal,
where ``r`` is zero for every ``y``).

With ``neighbors=k`` each point uses the system of its ``k`` nearest nodes (SciPy's
KDTree on the host): the neighbour sets are fixed where the gradient is taken, and each
local system is differentiable as above (the interpolant jumps where a set changes).
"""

from __future__ import annotations

import itertools
import math
import warnings
from typing import Any

import numpy as np

from tapegrad import linalg, ops
from tapegrad.core.active import tracing
from tapegrad.core.tensor import Tensor, host_value
from tapegrad.linalg._matrix import as_input
from tapegrad.ops.layout import holds_tensor
from tapegrad.ops.primitive import shape_of

__all__ = ["RBFInterpolator"]

KERNELS = ("linear", "thin_plate_spline", "cubic", "quintic", "multiquadric",
           "inverse_multiquadric", "inverse_quadratic", "gaussian")  # fmt: skip
_SCALE_INVARIANT = {"linear", "thin_plate_spline", "cubic", "quintic"}
_MIN_DEGREE = {"multiquadric": 0, "linear": 0, "thin_plate_spline": 1, "cubic": 1, "quintic": 2}


def _plain(value: Any) -> bool:
    return not isinstance(value, Tensor) and not (
        isinstance(value, (list, tuple)) and holds_tensor(value)
    )


def _host(value: Any) -> np.ndarray:
    return np.asarray(host_value(value, "RBFInterpolator: the nodes' layout"), dtype=float)


def monomial_powers(ndim: int, degree: int) -> np.ndarray:
    """The exponents ``(nmonos, ndim)`` of the monomials of degree at most ``degree``, in
    SciPy's order."""
    out = np.zeros((math.comb(degree + ndim, ndim) if degree >= 0 else 0, ndim), np.int64)
    count = 0
    for deg in range(degree + 1):
        for mono in itertools.combinations_with_replacement(range(ndim), deg):
            for var in mono:
                out[count, var] += 1
            count += 1
    return out


def _squared_distances(a: Any, b: Any) -> Any:
    difference = ops.expand_dims(a, 1) - ops.expand_dims(b, 0)
    return ops.sum(difference * difference, axis=-1)


def _kernel(name: str, r2: Any) -> Any:
    """``phi(r)`` from the squared distances ``r2``."""
    if name == "multiquadric":
        return -ops.sqrt(r2 + 1.0)
    if name == "inverse_multiquadric":
        return 1.0 / ops.sqrt(r2 + 1.0)
    if name == "inverse_quadratic":
        return 1.0 / (r2 + 1.0)
    if name == "gaussian":
        return ops.exp(-r2)
    zero = r2 == 0
    r = ops.sqrt(ops.where(zero, 1.0, r2))  # r = 0 gives the value 0 with a zero gradient
    if name == "linear":
        value = -r
    elif name == "thin_plate_spline":
        value = r**2 * ops.log(r)
    elif name == "cubic":
        value = r**3
    else:
        value = -(r**5)
    return ops.where(zero, 0.0, value)


def _monomials(x: Any, powers: np.ndarray) -> Any:
    """``P[i, k] = prod_j x[i, j] ** powers[k, j]`` (zero powers skipped: no 0 ** 0 in the
    gradient)."""
    n = shape_of(x)[0]
    columns = []
    for row in powers:
        column: Any = np.ones(n)
        for j, p in enumerate(row):
            if p:
                factor = x[:, j] if p == 1 else x[:, j] ** float(p)
                column = factor if isinstance(column, np.ndarray) else column * factor
        columns.append(column)
    return ops.stack(columns, axis=1)


class _System:
    """One solved system: nodes, their shift and scale, the coefficients."""

    def __init__(self, y: Any, d: Any, smoothing: Any, kernel: str, epsilon: Any,
                 powers: np.ndarray) -> None:  # fmt: skip
        host = _host(y)
        low, high = host.min(axis=0), host.max(axis=0)
        self.shift = (high + low) / 2
        scale = (high - low) / 2
        self.scale = np.where(scale == 0.0, 1.0, scale)
        self.y, self.kernel, self.epsilon, self.powers = y, kernel, epsilon, powers
        r = len(powers)
        yeps = y * epsilon
        lhs = _kernel(kernel, _squared_distances(yeps, yeps)) + ops.diag(smoothing)
        rhs = d
        if r:
            p = _monomials((y - self.shift) / self.scale, powers)
            top = ops.concatenate([lhs, p], axis=1)
            bottom = ops.concatenate([ops.transpose(p), np.zeros((r, r))], axis=1)
            lhs = ops.concatenate([top, bottom], axis=0)
            rhs = ops.concatenate([d, np.zeros((r, shape_of(d)[1]))], axis=0)
        try:
            self.coeffs = linalg.solve(lhs, rhs)
        except np.linalg.LinAlgError:
            message = "Singular matrix."
            if r:
                monomials = _monomials((host - self.shift) / self.scale, powers)
                rank = int(np.linalg.matrix_rank(monomials.numpy()))
                if rank < r:
                    message = (
                        "Singular matrix. The matrix of monomials evaluated at the data "
                        f"point coordinates does not have full column rank ({rank}/{r})."
                    )
            raise np.linalg.LinAlgError(
                f"RBFInterpolator: {message} (y {tuple(host.shape)})"
            ) from None

    def __call__(self, x: Any) -> Any:
        vec = _kernel(self.kernel, _squared_distances(x * self.epsilon, self.y * self.epsilon))
        if len(self.powers):
            p = _monomials((x - self.shift) / self.scale, self.powers)
            vec = ops.concatenate([vec, p], axis=1)
        return ops.matmul(vec, self.coeffs)


class RBFInterpolator:
    """SciPy's ``RBFInterpolator(y, d, neighbors, smoothing, kernel, epsilon, degree)``:
    radial basis function interpolation of the values ``d`` (shape ``(n, ...)``) at the
    nodes ``y`` (shape ``(n, ndim)``), every kernel and degree. Differentiable in ``d``,
    ``y``, ``smoothing``, ``epsilon`` and the evaluation points; with ``neighbors`` the
    neighbour sets are fixed where the gradient is taken. Built from plain arrays and
    called on plain arrays it is SciPy's own object's result.

    Args:
        y: The nodes, ``(n, ndim)``.
        d: The values at the nodes, ``(n, ...)``, real or complex.
        neighbors: How many nearest nodes each point's interpolant uses; all when None.
        smoothing: A number or one per node, added to the kernel matrix's diagonal.
        kernel: One of ``linear``, ``thin_plate_spline``, ``cubic``, ``quintic``,
            ``multiquadric``, ``inverse_multiquadric``, ``inverse_quadratic``, ``gaussian``.
        epsilon: The shape parameter (required for the last four kernels).
        degree: The degree of the added polynomial (-1 for none; the kernel's minimum
            by default).

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.interpolate import RBFInterpolator
    >>> f = RBFInterpolator([[0.0], [1.0], [2.0]], tg.tensor([0.0, 1.0, 4.0]), kernel="cubic")
    >>> f(tg.tensor([[1.0]])).numpy().round(12)
    array([1.])
    """

    def __init__(self, y: Any, d: Any, neighbors: int | None = None, smoothing: Any = 0.0,
                 kernel: str = "thin_plate_spline", epsilon: Any = None,
                 degree: int | None = None) -> None:  # fmt: skip
        self._scipy: Any = None
        if _plain(y) and _plain(d) and _plain(smoothing) and _plain(epsilon) and not tracing():
            import scipy.interpolate

            self._scipy = scipy.interpolate.RBFInterpolator(
                y, d, neighbors, smoothing, kernel, epsilon, degree
            )
        y = ops.astype(as_input(y), np.float64)
        if len(shape_of(y)) != 2:
            raise ValueError(f"RBFInterpolator: `y` must be a 2-dimensional array, got "
                             f"shape {tuple(shape_of(y))}")  # fmt: skip
        ny, ndim = shape_of(y)
        d = as_input(d)
        self.d_dtype = np.dtype(np.complex128 if np.dtype(d.dtype).kind == "c" else np.float64)
        d = ops.astype(d, self.d_dtype)
        if not shape_of(d) or shape_of(d)[0] != ny:
            raise ValueError(f"RBFInterpolator: Expected the first axis of `d` to have "
                             f"length {ny}, got shape {tuple(shape_of(d))}")  # fmt: skip
        self.d_shape = tuple(shape_of(d)[1:])
        d = ops.reshape(d, (ny, -1))
        if self.d_dtype.kind == "c":  # SciPy's view of complex values as (real, imag) pairs
            d = ops.reshape(ops.stack([ops.real(d), ops.imag(d)], axis=-1), (ny, -1))
        smoothing = as_input(smoothing)
        if shape_of(smoothing) == ():
            smoothing = smoothing * np.ones(ny)
        elif tuple(shape_of(smoothing)) != (ny,):
            raise ValueError(f"RBFInterpolator: Expected `smoothing` to be a scalar or have "
                             f"shape ({ny},), got {tuple(shape_of(smoothing))}")  # fmt: skip
        if not isinstance(kernel, str) or kernel.lower() not in KERNELS:
            raise ValueError(f"RBFInterpolator: `kernel` must be one of {KERNELS}, got {kernel!r}")
        kernel = kernel.lower()
        if epsilon is None:
            if kernel not in _SCALE_INVARIANT:
                raise ValueError(
                    "RBFInterpolator: `epsilon` must be specified if `kernel` is not one of "
                    f"{sorted(_SCALE_INVARIANT)}."
                )
            epsilon = 1.0
        elif not isinstance(epsilon, Tensor):
            epsilon = float(epsilon)
        min_degree = _MIN_DEGREE.get(kernel, -1)
        if degree is None:
            degree = max(min_degree, 0)
        else:
            degree = int(degree)
            if degree < -1:
                raise ValueError("RBFInterpolator: `degree` must be at least -1.")
            if -1 < degree < min_degree:
                warnings.warn(
                    f"`degree` should not be below {min_degree} except -1 when `kernel` is "
                    f"'{kernel}'.The interpolant may not be uniquely solvable, and the "
                    "smoothing parameter may have an unintuitive effect.",
                    UserWarning,
                    stacklevel=2,
                )
        nobs = ny if neighbors is None else int(min(neighbors, ny))
        powers = monomial_powers(ndim, degree)
        if len(powers) > nobs:
            raise ValueError(
                f"RBFInterpolator: At least {len(powers)} data points are required when "
                f"`degree` is {degree} and the number of dimensions is {ndim}."
            )
        self.y, self.d, self.smoothing, self.kernel = y, d, smoothing, kernel
        self.epsilon, self.powers = epsilon, powers
        self.neighbors = None if neighbors is None else nobs
        if self._scipy is not None:
            return
        if self.neighbors is None:
            self._system = _System(y, d, smoothing, kernel, epsilon, powers)
        else:
            from scipy.spatial import KDTree

            self._tree = KDTree(_host(y))

    def __call__(self, x: Any) -> Any:
        """The interpolant at the points ``x`` (shape ``(m, ndim)``): shape
        ``(m, *d.shape[1:])``."""
        if self._scipy is not None and _plain(x) and not tracing():
            return self._scipy(x)
        x = ops.astype(as_input(x), np.float64)
        shape = tuple(shape_of(x))
        if len(shape) != 2:
            raise ValueError(f"RBFInterpolator: `x` must be a 2-dimensional array, got "
                             f"shape {shape}")  # fmt: skip
        if shape[1] != shape_of(self.y)[1]:
            raise ValueError(f"RBFInterpolator: Expected the second axis of `x` to have "
                             f"length {shape_of(self.y)[1]}, got shape {shape}")  # fmt: skip
        if self.neighbors is None:
            if getattr(self, "_system", None) is None:  # built from plain arrays
                self._system = _System(self.y, self.d, self.smoothing, self.kernel,
                                       self.epsilon, self.powers)  # fmt: skip
            out = self._system(x)
        else:
            out = self._local(x)
        nx = shape[0]
        if self.d_dtype.kind == "c":
            pairs = ops.reshape(out, (nx, -1, 2))
            out = pairs[..., 0] + 1j * pairs[..., 1]
        return ops.reshape(out, (nx, *self.d_shape))

    def _local(self, x: Any) -> Any:
        """Each point through the system of its ``neighbors`` nearest nodes (SciPy's)."""
        if getattr(self, "_tree", None) is None:
            from scipy.spatial import KDTree

            self._tree = KDTree(_host(self.y))
        k = int(self.neighbors)  # type: ignore[arg-type]
        _, yindices = self._tree.query(_host(x), k)
        yindices = np.sort(yindices.reshape(len(yindices), k), axis=1)
        sets, inverse = np.unique(yindices, return_inverse=True, axis=0)
        inverse = inverse.reshape(-1)
        parts, order = [], []
        for g, nodes in enumerate(sets):
            points = np.flatnonzero(inverse == g)
            system = _System(ops.take(self.y, nodes, axis=0), ops.take(self.d, nodes, axis=0),
                             ops.take(self.smoothing, nodes), self.kernel, self.epsilon,
                             self.powers)  # fmt: skip
            parts.append(system(ops.take(x, points, axis=0)))
            order.append(points)
        gathered = ops.concatenate(parts, axis=0)
        return ops.take(gathered, np.argsort(np.concatenate(order)), axis=0)
