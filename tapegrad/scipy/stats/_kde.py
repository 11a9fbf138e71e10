"""``gaussian_kde``: SciPy's Gaussian kernel density estimate, differentiable in the points,
the dataset and the weights.

The bandwidth follows SciPy: the data covariance (``np.cov(dataset, aweights=weights)``,
``Σ w (x - m)(x - m)ᵀ / (1 - Σ w²)`` with normalized weights) times ``factor²``, the factor
Scott's ``neff^(-1/(d+4))``, Silverman's ``(neff (d+2) / 4)^(-1/(d+4))``, a scalar, or a
callable of the estimate; ``neff = 1 / Σ w²``. Every piece records, so the density's
gradient reaches the dataset and the weights through the covariance too.

Built from plain arrays, the estimate holds SciPy's own (``.scipy()``), and its methods
called with plain arrays are SciPy's (SciPy's exact values and types). ``resample`` is
always SciPy's draw (on the values: it has no gradient); SciPy's other methods
(``integrate_box``, ``integrate_kde`` ...) take plain estimates only.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from tapegrad import ops
from tapegrad.backends import namespaces as backend
from tapegrad.core.active import tracing
from tapegrad.core.tensor import Tensor
from tapegrad.linalg._matrix import eye_like
from tapegrad.ops.primitive import raw, shape_of
from tapegrad.scipy.linalg import cholesky, solve_triangular
from tapegrad.scipy.special import logsumexp

__all__ = ["gaussian_kde"]

ArrayLike = Any


def _host(value: Any) -> Any:
    """``value``'s values as a NumPy array (a Tensor's, or a plain one's)."""
    if isinstance(value, Tensor):
        return np.asarray(backend.to_host(raw(value)))
    return np.asarray(value)


def _is_plain(*values: Any) -> bool:
    return not tracing() and not any(isinstance(v, Tensor) for v in values)


class gaussian_kde:  # noqa: N801 (SciPy's name)
    """A Gaussian kernel density estimate of ``dataset`` (``(d, n)``: ``n`` points in ``d``
    dimensions; a vector is ``d = 1``), SciPy's ``scipy.stats.gaussian_kde``.

    Args:
        dataset: The data points, differentiable.
        bw_method: ``'scott'`` (None), ``'silverman'``, a scalar factor, or a callable
            taking the estimate and giving the factor (it may use ``kde.neff``, ``kde.d``,
            ``kde.n``: Tensors where the data are).
        weights: The points' weights (normalized to sum 1), differentiable.

    >>> import tapegrad as tg
    >>> from tapegrad.scipy.stats import gaussian_kde
    >>> data = tg.tensor([0.1, 0.5, 0.9, 1.4])
    >>> kde = gaussian_kde(data, bw_method=0.5)
    >>> round(kde.evaluate(tg.tensor([0.5])).item(), 6) == round(float(
    ...     __import__("scipy.stats").stats.gaussian_kde(data.numpy(), 0.5)([0.5])[0]), 6)
    True
    >>> tg.grad(lambda x: gaussian_kde(x, bw_method=0.5).logpdf(0.5).sum())(data).shape
    (4,)
    """

    def __init__(
        self, dataset: ArrayLike, bw_method: Any = None, weights: ArrayLike | None = None
    ) -> None:
        self._plain = _is_plain(dataset, weights, bw_method)
        self.dataset = ops.atleast_2d(ops.asarray(dataset, dtype="float64"))
        shape = shape_of(self.dataset)
        if len(shape) != 2 or not int(np.prod(shape)) > 1:
            raise ValueError(
                f"gaussian_kde: `dataset` input should have multiple elements (and at most 2 "
                f"dimensions), got shape {tuple(shape_of(dataset))}"
            )
        self.d, self.n = int(shape[0]), int(shape[1])
        if weights is None:
            self._weights: Any = ops.asarray(np.full(self.n, 1.0 / self.n))
        else:
            w = ops.atleast_1d(ops.asarray(weights, dtype="float64"))
            if len(shape_of(w)) != 1:
                raise ValueError("gaussian_kde: `weights` input should be one-dimensional.")
            if shape_of(w)[0] != self.n:
                raise ValueError(
                    f"gaussian_kde: `weights` input should be of length n = {self.n}, got "
                    f"{shape_of(w)[0]}"
                )
            self._weights = ops.divide(w, ops.sum(w))
        self._neff = ops.divide(1.0, ops.sum(ops.square(self._weights)))
        if self.d > self.n:
            raise ValueError(
                f"gaussian_kde: the dataset has {self.d} dimensions and {self.n} points; "
                "the columns of `dataset` are the points (a singular data covariance)"
            )
        self._scipy_kde: Any = None
        if self._plain:
            import scipy.stats

            self._scipy_kde = scipy.stats.gaussian_kde(dataset, bw_method, weights)
        self._bw_method: Any = None
        self.covariance_factor = self.scotts_factor
        self.set_bandwidth(bw_method)

    # SciPy's attributes
    @property
    def weights(self) -> Any:
        """The normalized weights."""
        return self._weights

    @property
    def neff(self) -> Any:
        """The effective number of points, ``1 / Σ w²``."""
        return self._neff

    def scotts_factor(self) -> Any:
        """Scott's factor, ``neff^(-1/(d+4))``."""
        return ops.power(self.neff, -1.0 / (self.d + 4))

    def silverman_factor(self) -> Any:
        """Silverman's factor, ``(neff (d+2) / 4)^(-1/(d+4))``."""
        return ops.power(ops.multiply(self.neff, (self.d + 2.0) / 4.0), -1.0 / (self.d + 4))

    def set_bandwidth(self, bw_method: Any = None) -> None:
        """Set the factor as SciPy does (``'scott'``, ``'silverman'``, a scalar, a callable)
        and recompute the covariance."""
        if bw_method is None:
            pass
        elif isinstance(bw_method, str) and bw_method == "scott":
            self.covariance_factor = self.scotts_factor
        elif isinstance(bw_method, str) and bw_method == "silverman":
            self.covariance_factor = self.silverman_factor
        elif (np.isscalar(bw_method) and not isinstance(bw_method, str)) or (
            isinstance(bw_method, Tensor) and len(bw_method.shape) == 0
        ):
            self._bw_method = "use constant"
            self.covariance_factor = lambda: bw_method
        elif callable(bw_method):
            self._bw_method = bw_method
            self.covariance_factor = lambda: self._bw_method(self)
        else:
            raise ValueError(
                "gaussian_kde: `bw_method` should be 'scott', 'silverman', a scalar or a "
                f"callable, got {bw_method!r}"
            )
        if self._scipy_kde is not None and bw_method is not None:
            self._scipy_kde.set_bandwidth(bw_method)
        self._compute_covariance()

    def _compute_covariance(self) -> None:
        self.factor = self.covariance_factor()
        centre = ops.sum(ops.multiply(self.dataset, self.weights), axis=1, keepdims=True)
        diff = ops.subtract(self.dataset, centre)
        scatter = ops.matmul(ops.multiply(diff, self.weights), ops.transpose(diff))
        data_cov = ops.divide(scatter, 1.0 - ops.sum(ops.square(self.weights)))
        self._data_covariance = data_cov
        self._data_cho_cov = cholesky(data_cov, lower=True)
        self.covariance = ops.multiply(data_cov, ops.square(self.factor))
        self.cho_cov = ops.multiply(self._data_cho_cov, self.factor)
        diagonal = ops.sum(ops.multiply(self.cho_cov, eye_like(self.cho_cov)), axis=-1)
        self.log_det = 2.0 * ops.sum(ops.log(diagonal * math.sqrt(2.0 * math.pi)))

    @property
    def inv_cov(self) -> Any:
        """The inverse of the kernel covariance."""
        from tapegrad import linalg

        return linalg.inv(self.covariance)

    # the density
    def _points(self, points: ArrayLike) -> Any:
        points = ops.atleast_2d(ops.asarray(points, dtype="float64"))
        d, m = shape_of(points)
        if d != self.d:
            if d == 1 and m == self.d:
                return ops.reshape(points, (self.d, 1))
            raise ValueError(
                f"gaussian_kde: points have dimension {d}, dataset has dimension {self.d}"
            )
        return points

    def _energies(self, points: Any) -> Any:
        """``|L⁻¹(point - x_i)|² / 2`` for each data point ``i`` (rows) and point (columns)."""
        m = shape_of(points)[1]
        diff = ops.subtract(ops.expand_dims(points, 1), ops.expand_dims(self.dataset, 2))
        z = solve_triangular(self.cho_cov, ops.reshape(diff, (self.d, self.n * m)), lower=True)
        return ops.reshape(0.5 * ops.sum(ops.square(z), axis=0), (self.n, m))

    def _use_scipy(self, *values: Any) -> bool:
        return self._scipy_kde is not None and _is_plain(*values)

    def evaluate(self, points: ArrayLike) -> Any:
        """The estimated density at ``points`` (``(d, m)``, or ``m`` values when ``d = 1``).

        >>> import tapegrad as tg
        >>> from tapegrad.scipy.stats import gaussian_kde
        >>> kde = gaussian_kde(tg.tensor([[0.0, 1.0, 2.0], [0.5, 0.1, 1.2]]))
        >>> kde.evaluate(tg.tensor([[1.0], [0.5]])).shape
        (1,)
        """
        if self._use_scipy(points):
            return self._scipy_kde.evaluate(points)
        energies = self._energies(self._points(points))
        density = ops.sum(ops.multiply(ops.exp(-energies), ops.expand_dims(self.weights, 1)), 0)
        return ops.multiply(density, ops.exp(-0.5 * self.log_det))

    __call__ = evaluate

    def pdf(self, x: ArrayLike) -> Any:
        """The density, as :meth:`evaluate`."""
        if self._use_scipy(x):
            return self._scipy_kde.pdf(x)
        return self.evaluate(x)

    def logpdf(self, x: ArrayLike) -> Any:
        """The log density, through logsumexp (no underflow far from the data).

        >>> import tapegrad as tg
        >>> from tapegrad.scipy.stats import gaussian_kde
        >>> kde = gaussian_kde(tg.tensor([0.0, 1.0, 2.5]))
        >>> bool(kde.logpdf(tg.tensor([40.0])).item() > -1e4)
        True
        """
        if self._use_scipy(x):
            return self._scipy_kde.logpdf(x)
        energies = self._energies(self._points(x))
        logs = ops.subtract(ops.expand_dims(ops.log(self.weights), 1), energies)
        return ops.subtract(logsumexp(logs, axis=0), 0.5 * self.log_det)

    def integrate_gaussian(self, mean: ArrayLike, cov: ArrayLike) -> Any:
        """``∫ kde(x) N(x; mean, cov) dx``, differentiable in ``mean`` and ``cov`` too.

        >>> import tapegrad as tg
        >>> from tapegrad.scipy.stats import gaussian_kde
        >>> kde = gaussian_kde(tg.tensor([0.0, 1.0, 2.5]))
        >>> kde.integrate_gaussian(tg.tensor([0.5]), tg.tensor([[1.0]])).shape
        ()
        """
        if self._use_scipy(mean, cov):
            return self._scipy_kde.integrate_gaussian(mean, cov)
        mean = ops.atleast_1d(ops.squeeze(ops.asarray(mean, dtype="float64")))
        cov = ops.atleast_2d(ops.asarray(cov, dtype="float64"))
        if tuple(shape_of(mean)) != (self.d,):
            raise ValueError(
                f"gaussian_kde.integrate_gaussian: mean does not have dimension {self.d}"
            )
        if tuple(shape_of(cov)) != (self.d, self.d):
            raise ValueError(
                f"gaussian_kde.integrate_gaussian: covariance does not have dimension {self.d}"
            )
        total = ops.add(self.covariance, cov)
        factor = cholesky(total, lower=True)
        diff = ops.subtract(self.dataset, ops.expand_dims(mean, 1))
        z = solve_triangular(factor, diff, lower=True)
        energies = 0.5 * ops.sum(ops.square(z), axis=0)
        sqrt_det = ops.prod(ops.sum(ops.multiply(factor, eye_like(factor)), axis=-1))
        norm = ops.multiply((2.0 * math.pi) ** (self.d / 2.0), sqrt_det)
        return ops.divide(ops.sum(ops.multiply(ops.exp(-energies), self.weights)), norm)

    def integrate_box_1d(self, low: ArrayLike, high: ArrayLike) -> Any:
        """``∫_low^high kde(x) dx`` of a one-dimensional estimate, differentiable in the
        bounds, the data and the weights."""
        if self._use_scipy(low, high):
            return self._scipy_kde.integrate_box_1d(low, high)
        if self.d != 1:
            raise ValueError("gaussian_kde.integrate_box_1d: the estimate must be 1-d")
        from tapegrad.scipy.special import ndtr

        std = ops.sqrt(ops.reshape(self.covariance, ()))
        data = ops.reshape(self.dataset, (-1,))
        upper = ndtr(ops.divide(ops.subtract(high, data), std))
        lower = ndtr(ops.divide(ops.subtract(low, data), std))
        return ops.sum(ops.multiply(self.weights, ops.subtract(upper, lower)))

    def resample(self, size: int | None = None, seed: Any = None) -> np.ndarray:
        """SciPy's draw of ``size`` points (``int(neff)`` by default) from the estimate, on
        its values (no gradient: it is random)."""
        return self.scipy().resample(size=size, seed=seed)

    def scipy(self) -> Any:
        """SciPy's own estimate of these values (the factor as a constant)."""
        if self._scipy_kde is not None:
            return self._scipy_kde
        import scipy.stats

        return scipy.stats.gaussian_kde(
            _host(self.dataset), float(_host(self.factor)), _host(self.weights)
        )

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if self._scipy_kde is not None:
            return getattr(self._scipy_kde, name)
        import scipy.stats

        if hasattr(scipy.stats.gaussian_kde, name):
            raise NotImplementedError(
                f"gaussian_kde.{name}: not differentiable in tapegrad; build the estimate "
                "from plain arrays for SciPy's own"
            )
        raise AttributeError(f"'gaussian_kde' object has no attribute {name!r}")
