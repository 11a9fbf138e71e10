"""Whole programs that differentiate through solvers (issue 26's "Done means"), written
the way they are written with NumPy and SciPy, through ``tapegrad.numpy`` and
``tapegrad.scipy``: a ridge regression's regularisation tuned through ``minimize``
(bilevel), a chemical equilibrium's sensitivity to its rate constants through ``root``, a
Poisson equation's source fitted through ``spsolve`` and ``cg``, a ``CubicSpline`` fitted
through moving knots, and an image registered with ``map_coordinates``.

Each gradient is checked against central differences of the same program re-solved by
SciPy on plain floats (tight tolerances), and each fit against the truth it should recover.
"""

from __future__ import annotations

import numpy
import pytest

pytest.importorskip("scipy.optimize", reason="the scipy extra is not installed")

import scipy.interpolate  # noqa: E402
import scipy.ndimage  # noqa: E402
import scipy.sparse  # noqa: E402

import tapegrad as tg  # noqa: E402
import tapegrad.numpy as np  # noqa: E402
from tapegrad.scipy import ndimage, optimize  # noqa: E402
from tapegrad.scipy.interpolate import CubicSpline  # noqa: E402
from tapegrad.scipy.sparse.linalg import cg, spsolve  # noqa: E402
from tapegrad.testing import gradgradcheck  # noqa: E402


def central_differences(f, x, h=1e-6):
    """Central differences of ``f`` (any shape of output) at the flat point ``x``: the
    derivatives along each coordinate, stacked last."""
    x = numpy.asarray(x, dtype=float)
    columns = [(numpy.asarray(f(x + h * e)) - numpy.asarray(f(x - h * e))) / (2 * h)
               for e in numpy.eye(x.size)]  # fmt: skip
    return numpy.stack(columns, axis=-1)


# ---------------------------------------------------------------------------------------
# a. Ridge regression's regularisation tuned on validation data, through minimize.
# ---------------------------------------------------------------------------------------

_rng = numpy.random.default_rng(0)
X = _rng.standard_normal((40, 8))
Y = X @ _rng.standard_normal(8) + 0.8 * _rng.standard_normal(40)
X_TRAIN, Y_TRAIN, X_VAL, Y_VAL = X[:25], Y[:25], X[25:], Y[25:]


def train_loss(w, log_lam):
    return np.mean((X_TRAIN @ w - Y_TRAIN) ** 2) + np.exp(log_lam) * np.sum(w**2)


def validation_loss(log_lam, method="trust-exact"):
    """The outer loss: the inner fit (SciPy's trust-exact, the exact derivatives from
    tapegrad, as one would pass them to SciPy) scored on the validation data."""
    fit = optimize.minimize(train_loss, np.zeros(8), args=(log_lam,), method=method,
                            jac=tg.grad(train_loss), hess=tg.hessian(train_loss),
                            options={"gtol": 1e-13})  # fmt: skip
    return np.mean((X_VAL @ fit.x - Y_VAL) ** 2)


def closed_form_validation_loss(log_lam):
    """The same outer loss from the normal equations, for the second derivative."""
    n = X_TRAIN.shape[0]
    normal = X_TRAIN.T @ X_TRAIN / n + numpy.exp(log_lam) * numpy.eye(8)
    w = numpy.linalg.solve(normal, X_TRAIN.T @ Y_TRAIN / n)
    return numpy.mean((X_VAL @ w - Y_VAL) ** 2)


def test_ridge_hyperparameter_gradient_through_minimize_matches_the_resolved_problem():
    value, gradient = tg.value_and_grad(validation_loss)(-1.0)
    assert isinstance(gradient, float | numpy.floating | numpy.ndarray)
    resolved = central_differences(lambda v: validation_loss(v[0]), [-1.0], h=1e-5)[0]
    numpy.testing.assert_allclose(gradient, resolved, rtol=1e-7)
    numpy.testing.assert_allclose(value, closed_form_validation_loss(-1.0), rtol=1e-12)
    # Second order: the implicit rule is recorded, so the bilevel loss has a Hessian.
    curvature = tg.grad(tg.grad(validation_loss))(-1.0)
    first = lambda v: central_differences(closed_form_validation_loss, v, h=1e-5)[0]  # noqa: E731
    numpy.testing.assert_allclose(curvature, central_differences(first, [-1.0], h=1e-3)[0],
                                  rtol=1e-5)  # fmt: skip


def test_ridge_outer_gradient_steps_lower_the_validation_loss():
    value_and_grad = tg.value_and_grad(validation_loss)
    log_lam = 1.0  # over-regularised: the validation loss falls as λ shrinks
    losses = []
    for _ in range(4):
        value, gradient = value_and_grad(log_lam)
        losses.append(float(value))
        log_lam = log_lam - 2.0 * float(gradient)
    assert all(b < a for a, b in zip(losses, losses[1:]))
    assert losses[-1] < 0.7 * losses[0]


# ---------------------------------------------------------------------------------------
# b. A chemical equilibrium A + B <-> C, C <-> D, through root.
# ---------------------------------------------------------------------------------------

TOTAL_A, TOTAL_B = 1.0, 0.8
RATES = numpy.array([2.0, 0.5, 1.5, 0.7])  # kf1, kb1, kf2, kb2


def mass_action(c, k):
    a, b, complex_, d = c[0], c[1], c[2], c[3]
    return np.stack([
        k[0] * a * b - k[1] * complex_,  # A + B <-> C balanced
        k[2] * complex_ - k[3] * d,  # C <-> D balanced
        a + complex_ + d - TOTAL_A,  # A is conserved
        b + complex_ + d - TOTAL_B,  # B is conserved
    ])  # fmt: skip


def equilibrium(k, method="hybr"):
    return optimize.root(mass_action, [0.5, 0.4, 0.2, 0.2], args=(k,), method=method,
                         tol=1e-12).x  # fmt: skip


@pytest.mark.parametrize("method", ["hybr", "lm"])
def test_equilibrium_sensitivity_to_rate_constants_matches_the_resolved_problem(method):
    sensitivity = tg.jacobian(lambda k: equilibrium(k, method))(RATES)
    assert sensitivity.shape == (4, 4)
    resolved = central_differences(lambda k: equilibrium(k, method), RATES)
    numpy.testing.assert_allclose(sensitivity, resolved, rtol=1e-7, atol=1e-9)
    # The physics the derivative must keep: A and B stay conserved (dA + dC + dD = 0), and
    # only the ratios kf/kb matter (the derivative along k is zero, Euler's theorem).
    numpy.testing.assert_allclose(sensitivity[0] + sensitivity[2] + sensitivity[3], 0.0,
                                  atol=1e-12)  # fmt: skip
    numpy.testing.assert_allclose(sensitivity @ RATES, 0.0, atol=1e-12)
    assert numpy.abs(sensitivity).max() > 0.1


def test_equilibrium_second_derivatives_in_the_rate_constants():
    def bound_fraction(k):
        c = equilibrium(k)
        return (c[2] + c[3]) / TOTAL_B

    assert gradgradcheck(bound_fraction, [RATES], eps=1e-5, atol=1e-7, rtol=1e-5)


# ---------------------------------------------------------------------------------------
# c. The Poisson equation -Δu = f on a 20x20 grid, the source fitted through spsolve/cg.
# ---------------------------------------------------------------------------------------

SIDE = 20
_h = 1.0 / (SIDE + 1)
_line = numpy.linspace(_h, 1 - _h, SIDE)
GX, GY = numpy.meshgrid(_line, _line, indexing="ij")
_second = scipy.sparse.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(SIDE, SIDE)) / _h**2
_eye = scipy.sparse.eye(SIDE)
NEG_LAPLACIAN = (-(scipy.sparse.kron(_eye, _second) + scipy.sparse.kron(_second, _eye))).tocsr()
CENTRES = [(0.3, 0.3), (0.7, 0.4), (0.5, 0.75)]
SENSORS = numpy.random.default_rng(1).choice(SIDE * SIDE, 40, replace=False)
TRUE_SOURCE = numpy.array([1.0, -0.5, 2.0, 0.1])  # three amplitudes and the bumps' width


def potential(source_parameters, solver="spsolve"):
    amplitudes, width = source_parameters[:3], source_parameters[3]
    f = sum(a * np.exp(-((GX - cx) ** 2 + (GY - cy) ** 2) / (2 * width**2))
            for a, (cx, cy) in zip(amplitudes, CENTRES))  # fmt: skip
    if solver == "spsolve":
        return spsolve(NEG_LAPLACIAN, f.ravel())
    u, info = cg(NEG_LAPLACIAN, f.ravel(), rtol=1e-12)
    return u


OBSERVED = numpy.asarray(potential(TRUE_SOURCE))[SENSORS]


def misfit(source_parameters, solver="spsolve"):
    residual = potential(source_parameters, solver)[SENSORS] - OBSERVED
    return np.sum(residual**2) / numpy.sum(OBSERVED**2)


@pytest.mark.parametrize("solver", ["spsolve", "cg"])
def test_poisson_source_gradient_matches_the_resolved_problem(solver):
    start = numpy.array([0.5, 0.5, 0.5, 0.12])
    gradient = tg.grad(misfit)(start, solver)
    resolved = central_differences(lambda p: misfit(p, solver), start)
    numpy.testing.assert_allclose(gradient, resolved, rtol=1e-6, atol=1e-9)
    assert numpy.abs(gradient[3]) > 1.0  # the width matters


def test_poisson_source_fitted_by_gradient_descent():
    value_and_grad = tg.value_and_grad(lambda amplitudes: misfit(np.concatenate(
        [amplitudes, numpy.array([TRUE_SOURCE[3]])])))  # fmt: skip
    amplitudes = numpy.array([0.5, 0.5, 0.5])
    first = value_and_grad(amplitudes)[0]
    for _ in range(40):
        value, gradient = value_and_grad(amplitudes)
        amplitudes = amplitudes - 1.5 * gradient
    assert value < 1e-3 * first
    numpy.testing.assert_allclose(amplitudes, TRUE_SOURCE[:3], atol=0.05)
    # The width too, with SciPy's L-BFGS-B on tapegrad's gradient.
    fit = optimize.minimize(tg.value_and_grad(misfit), [0.5, 0.5, 0.5, 0.12], jac=True,
                            method="L-BFGS-B", bounds=[(None, None)] * 3 + [(0.05, 0.3)],
                            options={"ftol": 0.0, "gtol": 1e-12})  # fmt: skip
    numpy.testing.assert_allclose(fit.x, TRUE_SOURCE, atol=1e-4)


# ---------------------------------------------------------------------------------------
# d. A CubicSpline fitted through moving knots (interior knots and values are parameters).
# ---------------------------------------------------------------------------------------

T = numpy.linspace(0.0, 1.0, 60)
TARGET = numpy.tanh(8 * (T - 0.6)) + 0.3 * T


def spline_loss(inner_knots, values, spline=CubicSpline, np=np):
    knots = np.concatenate([np.zeros(1), np.sort(inner_knots), np.ones(1)])
    return np.mean((spline(knots, values)(T) - TARGET) ** 2)


def scipy_spline_loss(inner_knots, values):
    return spline_loss(inner_knots, values, scipy.interpolate.CubicSpline, numpy)


KNOTS0 = numpy.array([0.25, 0.5, 0.7])
VALUES0 = numpy.interp(numpy.concatenate([[0.0], KNOTS0, [1.0]]), T, TARGET)


def test_spline_gradient_in_knots_and_values_matches_scipy():
    value, (knot_gradient, value_gradient) = tg.value_and_grad(spline_loss, argnums=(0, 1))(
        KNOTS0, VALUES0
    )
    numpy.testing.assert_allclose(value, scipy_spline_loss(KNOTS0, VALUES0), rtol=1e-13)
    numpy.testing.assert_allclose(
        knot_gradient, central_differences(lambda k: scipy_spline_loss(k, VALUES0), KNOTS0),
        rtol=1e-7, atol=1e-10,
    )  # fmt: skip
    numpy.testing.assert_allclose(
        value_gradient, central_differences(lambda v: scipy_spline_loss(KNOTS0, v), VALUES0),
        rtol=1e-7, atol=1e-10,
    )  # fmt: skip
    assert numpy.abs(knot_gradient).max() > 0.1
    assert gradgradcheck(spline_loss, [KNOTS0, VALUES0], eps=1e-5, atol=1e-6, rtol=1e-5)


def test_spline_fit_with_moving_knots_beats_fixed_knots():
    def fit(loss, start):
        return optimize.minimize(
            tg.value_and_grad(loss),
            start,
            jac=True,
            method="L-BFGS-B",
            bounds=[(0.05, 0.95)] * (start.size - 5) + [(None, None)] * 5,
        )

    moving = fit(lambda p: spline_loss(p[:3], p[3:]), numpy.concatenate([KNOTS0, VALUES0]))
    fixed = fit(lambda v: spline_loss(KNOTS0, v), VALUES0)
    start = spline_loss(KNOTS0, VALUES0)
    assert moving.fun < 0.25 * start
    assert moving.fun < 0.9 * fixed.fun  # moving the knots towards the step pays
    numpy.testing.assert_allclose(moving.fun, scipy_spline_loss(moving.x[:3], moving.x[3:]),
                                  rtol=1e-12)  # fmt: skip


# ---------------------------------------------------------------------------------------
# e. Image registration with map_coordinates (order=1): a shift, then an affine map.
# ---------------------------------------------------------------------------------------

SIZE = 32
ROWS, COLS = numpy.mgrid[0:SIZE, 0:SIZE].astype(float)


def scene(r, c):
    return (numpy.exp(-((r - 12) ** 2 + (c - 14) ** 2) / 30.0)
            + 0.6 * numpy.exp(-((r - 20) ** 2 + (c - 9) ** 2) / 18.0)
            + 0.4 * numpy.exp(-((r - 18) ** 2 + (c - 22) ** 2) / 40.0))  # fmt: skip


FIXED = scene(ROWS, COLS)
TRUE_MATRIX = numpy.array([[1.04, 0.05], [-0.03, 0.97]])
TRUE_OFFSET = numpy.array([1.3, -0.8])
# The moving image is the scene seen through the inverse map: sampling it at
# TRUE_MATRIX @ q + TRUE_OFFSET gives the fixed image back.
_pr, _pc = numpy.einsum("ij,jkl->ikl", numpy.linalg.inv(TRUE_MATRIX),
                        numpy.stack([ROWS - TRUE_OFFSET[0], COLS - TRUE_OFFSET[1]]))  # fmt: skip
MOVING = scene(_pr, _pc)
_MOVING_SHIFTED = scene(ROWS - TRUE_OFFSET[0], COLS - TRUE_OFFSET[1])


def registration_loss(
    params, moving=MOVING, mode="nearest", map_coordinates=ndimage.map_coordinates, np=np
):
    """Mean squared difference of the fixed image and the moving one sampled at
    ``A q + t``; ``params`` is ``(A.ravel(), t)`` or just ``t`` (a shift)."""
    matrix = np.reshape(params[:4], (2, 2)) if len(params) == 6 else numpy.eye(2)
    offset = params[-2:]
    coordinates = matrix @ numpy.stack([ROWS.ravel(), COLS.ravel()]) + np.reshape(offset, (2, 1))
    warped = map_coordinates(moving, coordinates, order=1, mode=mode)
    return np.mean((np.reshape(warped, (SIZE, SIZE)) - FIXED) ** 2)


def scipy_registration_loss(params, moving=MOVING, mode="nearest"):
    return registration_loss(params, moving, mode, scipy.ndimage.map_coordinates, numpy)


@pytest.mark.parametrize("mode", ["nearest", "constant", "reflect", "mirror"])
def test_registration_gradient_matches_scipy(mode):
    # Order 1 is piecewise linear: parameters whose sampled coordinates land on grid points
    # (round ones, such as A = [[1.01, 0.02], ...] at q = (10, 30)) sit on a kink, where
    # central differences average two slopes; these do not.
    params = numpy.array([1.0123, 0.0217, -0.0131, 0.9871, 0.3127, 0.2093])
    value, gradient = tg.value_and_grad(registration_loss)(params, mode=mode)
    numpy.testing.assert_allclose(value, scipy_registration_loss(params, mode=mode), rtol=1e-13)
    resolved = central_differences(lambda p: scipy_registration_loss(p, mode=mode), params)
    numpy.testing.assert_allclose(gradient, resolved, rtol=1e-6, atol=1e-10)
    assert numpy.abs(gradient).min() > 1e-3


def test_registration_recovers_a_shift_by_gradient_descent_and_an_affine_map():
    value_and_grad = tg.value_and_grad(lambda t: registration_loss(t, _MOVING_SHIFTED))
    shift = numpy.array([0.0, 0.0])
    first = value_and_grad(shift)[0]
    for _ in range(60):
        value, gradient = value_and_grad(shift)
        shift = shift - 20.0 * gradient
    assert value < 0.02 * first
    numpy.testing.assert_allclose(shift, TRUE_OFFSET, atol=0.05)

    start = numpy.array([1.0, 0.0, 0.0, 1.0, 0.0, 0.0])
    fit = optimize.minimize(tg.value_and_grad(registration_loss), start, jac=True,
                            method="L-BFGS-B")  # fmt: skip
    numpy.testing.assert_allclose(fit.x[:4], TRUE_MATRIX.ravel(), atol=0.02)
    numpy.testing.assert_allclose(fit.x[4:], TRUE_OFFSET, atol=0.05)


# ---------------------------------------------------------------------------------------
# The benchmark (benchmarks/solvers.py) runs, and its unrolled solvers agree with the
# implicit gradients (no timings asserted: benchmarks are not tests).
# ---------------------------------------------------------------------------------------


def test_the_solver_benchmark_measures_every_solve():
    from benchmarks import solvers

    measured = [solvers.measure(solve, rounds=1) for solve in solvers.workloads(small=True)]
    assert [s.name for s in measured] == ["minimize", "root", "spsolve", "cg"]
    for s in measured:
        assert set(s.seconds) == {"scipy", "forward", "backward", "unrolled"}
        assert all(t > 0 for t in s.seconds.values())
        assert s.iterations > 0
        assert s.difference < 1e-7, s.name
    assert "| minimize: ridge" in solvers.table(measured)
