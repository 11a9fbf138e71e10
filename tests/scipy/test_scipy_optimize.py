"""tapegrad.scipy.optimize: SciPy's solvers, differentiated implicitly. Each gradient is
checked against central finite differences of the RE-SOLVED problem (tight tolerances), the
second derivatives against finite differences of the first, and a minimum's gradient also
against unrolled gradient descent that converges."""

import warnings

import numpy as np
import pytest
import scipy.optimize

import tapegrad as tg
from tapegrad.scipy import optimize

H = 1e-5


def fd(solve, theta, h=H):
    """Central differences of ``solve`` (theta -> array) in each entry of ``theta``."""
    theta = np.asarray(theta, dtype=float)
    base = np.asarray(solve(theta))
    out = np.zeros(base.shape + theta.shape)
    for i in np.ndindex(theta.shape):
        up, down = theta.copy(), theta.copy()
        up[i] += h
        down[i] -= h
        out[(...,) + i] = (np.asarray(solve(up)) - np.asarray(solve(down))) / (2 * h)
    return out


def tensor_jacobian(solve, theta):
    """d solve(θ) / dθ by tapegrad (solve: Tensor -> Tensor)."""
    return tg.jacobian(solve)(tg.tensor(np.asarray(theta, dtype=float))).numpy()


def value(x):
    return x.numpy() if isinstance(x, tg.Tensor) else np.asarray(x)


# --- root ------------------------------------------------------------------------------------
def system(x, a):
    return tg.stack(
        [x[0] + 0.5 * (x[0] - x[1]) ** 3 - a[0], 0.5 * (x[1] - x[0]) ** 3 + x[1] - a[1]]
    )


A = np.array([1.0, 0.3])


@pytest.mark.parametrize("method", ["hybr", "lm", "krylov", "broyden1", "df-sane"])
def test_root_matches_finite_differences_of_the_resolved_system(method):
    options = {"fatol": 1e-13} if method in ("krylov", "broyden1", "df-sane") else None
    tol = 1e-13 if options is None else None

    def solve(a):
        return optimize.root(system, [0.0, 0.0], (a,), method=method, tol=tol,
                             options=options).x  # fmt: skip

    got = tensor_jacobian(solve, A)
    want = fd(lambda a: value(solve(tg.tensor(a))), A)
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-8)


def test_root_second_order_matches_finite_differences_of_the_gradient():
    def first(a):
        return tg.grad(lambda a: tg.sum(optimize.root(system, [0.0, 0.0], (a,), tol=1e-13).x ** 2))(
            a
        )

    got = tg.jacobian(first)(tg.tensor(A)).numpy()
    want = fd(lambda a: first(tg.tensor(a)).numpy(), A)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_root_differentiates_a_variable_the_function_reads():
    a = tg.Variable(A)
    with tg.GradientTape() as tape:
        x = optimize.root(lambda x: system(x, a), [0.0, 0.0], tol=1e-13).x
        total = tg.sum(x * tg.tensor([1.0, 2.0]))
    got = tape.gradient(total, a).numpy()
    want = fd(lambda v: scipy.optimize.root(lambda x: value(system(tg.tensor(x), v)), [0.0, 0.0],
                                            tol=1e-13).x @ [1.0, 2.0], A)  # fmt: skip
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_plain_in_plain_out():
    result = optimize.root(lambda x: x**3 - 8.0, [1.0])
    assert type(result.x) is np.ndarray
    assert type(optimize.brentq(lambda x: x * x - 2, 0, 2)) is float
    assert optimize.OptimizeResult is scipy.optimize.OptimizeResult  # SciPy's own names


# --- scalar roots ----------------------------------------------------------------------------
def cubic(x, c):
    return x**3 + c * x - 2.0


SCALAR = {
    "brentq": lambda c: optimize.brentq(cubic, 0.0, 2.0, args=(c,), xtol=1e-14),
    "brenth": lambda c: optimize.brenth(cubic, 0.0, 2.0, args=(c,), xtol=1e-14),
    "bisect": lambda c: optimize.bisect(cubic, 0.0, 2.0, args=(c,), xtol=1e-14),
    "ridder": lambda c: optimize.ridder(cubic, 0.0, 2.0, args=(c,), xtol=1e-14),
    "toms748": lambda c: optimize.toms748(cubic, 0.0, 2.0, args=(c,), xtol=1e-14),
    "newton-secant": lambda c: optimize.newton(cubic, 1.0, args=(c,), tol=1e-14),
    "newton": lambda c: optimize.newton(cubic, 1.0, lambda x, c: 3 * x**2 + c, (c,), tol=1e-14),
    "root_scalar-brentq": lambda c: (
        optimize.root_scalar(cubic, (c,), bracket=[0, 2], xtol=1e-14).root
    ),
    "root_scalar-halley": lambda c: (
        optimize.root_scalar(
            cubic,
            (c,),
            "halley",
            fprime=lambda x, c: 3 * x**2 + c,
            fprime2=lambda x, c: 6 * x,
            x0=1.0,
            xtol=1e-14,
        ).root
    ),  # fmt: skip
    "fixed_point": lambda c: optimize.fixed_point(
        lambda x, c: (2.0 - x**3) / c, 0.5, (c,), xtol=1e-14
    ),  # fmt: skip
}


@pytest.mark.parametrize("name", SCALAR)
def test_scalar_roots_match_finite_differences(name):
    solve = SCALAR[name]
    c = 3.0 if name == "fixed_point" else 1.0  # a contraction there
    got = tg.grad(solve)(c)
    want = (value(solve(tg.tensor(c + H))) - value(solve(tg.tensor(c - H)))) / (2 * H)
    x = value(solve(tg.tensor(c)))
    np.testing.assert_allclose(got, -x / (3 * x**2 + c), rtol=1e-9)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    second = tg.grad(tg.grad(solve))(c)
    want2 = (tg.grad(solve)(c + H) - tg.grad(solve)(c - H)) / (2 * H)
    np.testing.assert_allclose(second, want2, rtol=1e-5)


def test_vector_newton_solves_elementwise():
    c = tg.tensor([1.0, 2.0, 3.0])
    jac = tg.jacobian(lambda c: optimize.newton(cubic, np.ones(3), args=(c,), tol=1e-14))(c)
    x = optimize.newton(cubic, np.ones(3), args=(c.numpy(),), tol=1e-14)
    np.testing.assert_allclose(jac.numpy(), np.diag(-x / (3 * x**2 + c.numpy())), atol=1e-10)


# --- minimize --------------------------------------------------------------------------------
W = np.array([1.0, 2.0, 0.5])


def objective(x, a):
    return tg.sum(W * (x - a) ** 2) + 0.25 * tg.sum(x**4) + 0.1 * x[0] * x[1]


THETA = np.array([0.7, -0.4, 1.2])


def polish(f, x, steps=30):
    """Newton's steps on f (Tensor -> scalar) from x: a minimum to rounding."""
    x = np.asarray(x, dtype=float)
    for _ in range(steps):
        x = x - np.linalg.solve(np.atleast_2d(tg.hessian(f)(x)), tg.grad(f)(x))
    return x


def precise_minimum(a):
    # BFGS, then Newton's steps: the minimum to rounding, so differences of it are exact
    f = lambda x: objective(x, tg.tensor(a))  # noqa: E731
    x = scipy.optimize.minimize(lambda x: value(f(tg.tensor(x))), np.zeros(3), jac=tg.grad(f),
                                method="BFGS", tol=1e-12).x  # fmt: skip
    for _ in range(4):
        x = x - np.linalg.solve(tg.hessian(f)(x), tg.grad(f)(x))
    return x


REFERENCE = fd(precise_minimum, THETA)
METHODS = {
    "BFGS": {}, "L-BFGS-B": {"options": {"gtol": 1e-13, "ftol": 1e-15}}, "CG": {"tol": 1e-13},
    "Newton-CG": {"options": {"xtol": 1e-13}}, "TNC": {"options": {"gtol": 1e-13, "xtol": 1e-15}},
    "SLSQP": {"options": {"ftol": 1e-15}}, "trust-exact": {"options": {"gtol": 1e-13}},
    "trust-ncg": {"options": {"gtol": 1e-13}}, "trust-krylov": {"options": {"gtol": 1e-13}},
    "dogleg": {"options": {"gtol": 1e-13}},
    "trust-constr": {"options": {"gtol": 1e-13, "xtol": 1e-15}},
    "Nelder-Mead": {"options": {"xatol": 1e-12, "fatol": 1e-16, "maxiter": 20000}},
    "Powell": {"options": {"xtol": 1e-12, "ftol": 1e-16}},
}  # fmt: skip


@pytest.mark.parametrize("method", METHODS)
def test_minimize_every_method_matches_finite_differences(method):
    kw = dict(METHODS[method])
    kw.setdefault("tol", 1e-14 if method == "BFGS" else None)

    def solve(a):
        return optimize.minimize(objective, np.zeros(3), (a,), method=method, **kw).x

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # Powell's, Nelder-Mead's flags
        got = tensor_jacobian(solve, THETA)
    loose = method in ("Nelder-Mead", "Powell", "TNC")
    np.testing.assert_allclose(got, REFERENCE, rtol=1e-4 if loose else 1e-6, atol=1e-6)


def test_minimize_with_the_users_jac_and_jac_true():
    grad = tg.grad(objective)
    a = tg.tensor(THETA)
    for fun, jac in ((objective, grad), (tg.value_and_grad(objective), True)):

        def solve(a, fun=fun, jac=jac):
            return optimize.minimize(fun, np.zeros(3), (a,), jac=jac, tol=1e-14).x

        jac = tg.jacobian(solve)(a)
        np.testing.assert_allclose(jac.numpy(), REFERENCE, rtol=1e-6, atol=1e-8)


def test_minimize_second_order():
    def first(a):
        def total(a):
            x = optimize.minimize(objective, np.zeros(3), (a,), method="trust-exact",
                                  options={"gtol": 1e-14}).x  # fmt: skip
            return tg.sum(x**3)

        return tg.grad(total)(a)

    got = tg.jacobian(first)(tg.tensor(THETA)).numpy()
    want = fd(lambda a: first(tg.tensor(a)).numpy(), THETA)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_minimize_fun_is_a_tensor_with_the_envelope_gradient():
    a = tg.tensor(THETA)
    g = tg.grad(lambda a: optimize.minimize(objective, np.zeros(3), (a,), tol=1e-14).fun)(a)
    x = precise_minimum(THETA)
    np.testing.assert_allclose(g.numpy(), -2 * W * (x - THETA), rtol=1e-7)  # ∂f/∂a at x*


def test_minimize_matches_unrolled_gradient_descent():
    # Unrolled: 400 recorded steps of gradient descent, converged to 1e-13.
    def unrolled(a):
        x = tg.zeros(3)
        for _ in range(400):
            x = x - 0.2 * tg.grad(objective)(x, a)
        return x

    a = tg.tensor(THETA)
    want = tg.jacobian(unrolled)(a).numpy()
    got = tensor_jacobian(
        lambda a: optimize.minimize(objective, np.zeros(3), (a,), tol=1e-14).x, THETA
    )
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(got, REFERENCE, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("method", ["L-BFGS-B", "SLSQP", "trust-constr", "TNC"])
def test_bounds_fix_the_active_coordinates(method):
    bounds = [(None, None), (0.0, None), (None, 0.7)]  # x1 and x2 at their bounds

    def solve(a):
        return optimize.minimize(objective, np.full(3, 0.1), (a,), method=method, bounds=bounds,
                                 tol=1e-14).x  # fmt: skip

    def precise(a):
        f = lambda v: objective(tg.concatenate([v, tg.tensor([0.0, 0.7])]), tg.tensor(a))  # noqa: E731
        return np.concatenate([polish(f, [0.5]), [0.0, 0.7]])

    got = tensor_jacobian(solve, THETA)
    np.testing.assert_allclose(value(solve(tg.tensor(THETA))), precise(THETA), atol=1e-6)
    np.testing.assert_allclose(got, fd(precise, THETA), rtol=1e-5, atol=1e-6)
    assert not got[1:].any()


def constrained_reference(a, rhs=1.0):
    cons = {"type": "eq", "fun": lambda x: np.sum(x) - rhs}
    f = lambda x: value(objective(tg.tensor(x), tg.tensor(a)))  # noqa: E731
    g = tg.grad(lambda x: objective(x, tg.tensor(a)))
    return scipy.optimize.minimize(f, np.zeros(3), jac=g, method="SLSQP", constraints=cons,
                                   options={"ftol": 1e-15, "maxiter": 500}).x  # fmt: skip


@pytest.mark.parametrize("kind", ["eq-dict", "ineq-dict", "linear", "nonlinear", "trust-constr"])
def test_constraints_by_the_kkt_system(kind):
    b = tg.tensor(1.0)  # the constraint's right-hand side, read from outside: differentiable
    cons = {
        "eq-dict": {"type": "eq", "fun": lambda x: tg.sum(x) - b},
        "ineq-dict": {"type": "ineq", "fun": lambda x: tg.sum(x) - b},  # active: Σx* < 1 free
        "linear": scipy.optimize.LinearConstraint(np.ones((1, 3)), 1.0, 1.0),
        "nonlinear": scipy.optimize.NonlinearConstraint(lambda x: tg.sum(x) - b, 0.0, 0.0),
        "trust-constr": scipy.optimize.NonlinearConstraint(lambda x: tg.sum(x) - b, 0.0, np.inf),
    }[kind]
    method = "trust-constr" if kind == "trust-constr" else "SLSQP"
    options = {"gtol": 1e-13, "xtol": 1e-15, "barrier_tol": 1e-13, "maxiter": 5000} \
        if method == "trust-constr" else {"ftol": 1e-15, "maxiter": 500}  # fmt: skip

    def solve(a):
        return optimize.minimize(objective, np.zeros(3), (a,), method=method, constraints=cons,
                                 options=options).x  # fmt: skip

    got = tensor_jacobian(solve, THETA)
    np.testing.assert_allclose(
        value(solve(tg.tensor(THETA))), constrained_reference(THETA), atol=1e-6
    )
    np.testing.assert_allclose(got, fd(constrained_reference, THETA), rtol=1e-5, atol=1e-6)
    if kind in ("eq-dict", "ineq-dict", "nonlinear", "trust-constr"):
        with tg.GradientTape() as tape:
            tape.watch(b)
            x = solve(tg.tensor(THETA))
        want = fd(lambda r: constrained_reference(THETA, r[0]), [1.0])[:, 0]
        np.testing.assert_allclose(tape.jacobian(x, b).numpy(), want, rtol=1e-5, atol=1e-6)


def test_a_degenerate_minimum_names_the_condition_number():
    a = tg.tensor(1.0)
    flat = lambda x, a: (x[0] - a) ** 2  # noqa: E731 - x[1] is free: the Hessian is singular
    with pytest.raises(np.linalg.LinAlgError, match="condition number"):
        tg.grad(lambda a: optimize.minimize(flat, [0.0, 0.0], (a,), tol=1e-12).x[0])(a)
    with pytest.raises(np.linalg.LinAlgError, match="condition number"):  # a double root
        tg.grad(lambda a: optimize.newton(lambda x, a: x**3 - a, 0.5, args=(a,), maxiter=500))(0.0)


def test_a_function_not_written_with_tapegrad_ops_is_refused():
    a = tg.tensor(2.0)
    plain = lambda x, a: float(np.asarray(x)) ** 2 - float(a.numpy())  # noqa: E731
    with pytest.raises(TypeError, match="tapegrad ops"):
        tg.grad(lambda a: optimize.brentq(plain, 0.0, 3.0, args=(a,)))(a)


def test_bilevel_ridge_regression_hyperparameter():
    rng = np.random.default_rng(0)
    X, Xv = rng.normal(size=(30, 4)), rng.normal(size=(20, 4))
    w_true = np.array([1.0, -2.0, 0.5, 0.0])
    y, yv = X @ w_true + 0.3 * rng.normal(size=30), Xv @ w_true + 0.3 * rng.normal(size=20)

    def validation(log_lam, solver):
        lam = tg.exp(log_lam)
        if solver:
            inner = lambda w, lam: tg.sum((X @ w - y) ** 2) + lam * tg.sum(w**2)  # noqa: E731
            w = optimize.minimize(inner, np.zeros(4), (lam,), tol=1e-14).x
        else:  # closed form, differentiated through tapegrad.linalg
            w = tg.linalg.solve(X.T @ X + lam * tg.eye(4), X.T @ y)
        return tg.mean((Xv @ w - yv) ** 2)

    got = tg.grad(lambda t: validation(t, True))(0.5)
    want = tg.grad(lambda t: validation(t, False))(0.5)
    np.testing.assert_allclose(got, want, rtol=1e-7)
    hyper = scipy.optimize.minimize_scalar(lambda t: float(validation(tg.tensor(t), True).numpy()),
                                           bounds=(-5, 5), method="bounded")  # fmt: skip
    assert abs(tg.grad(lambda t: validation(t, True))(hyper.x)) < 1e-3


def test_minimize_scalar_matches_finite_differences():
    f = lambda x, c: (x - c) ** 2 + x**4  # noqa: E731
    solve = lambda c: optimize.minimize_scalar(f, args=(c,), options={"xtol": 1e-14}).x  # noqa: E731
    got = tg.grad(solve)(1.0)
    want = (value(solve(tg.tensor(1 + H))) - value(solve(tg.tensor(1 - H)))) / (2 * H)
    np.testing.assert_allclose(got, want, rtol=1e-5)


# --- least squares ---------------------------------------------------------------------------
T = np.linspace(0.0, 2.0, 12)
Y = 2.0 * np.exp(-1.3 * T) + 0.1 * np.sin(7 * T)


def model(t, amplitude, rate):
    return amplitude * tg.exp(-rate * t)


@pytest.mark.parametrize("loss", ["linear", "soft_l1", "cauchy", "arctan", "huber"])
def test_least_squares_matches_finite_differences(loss):
    def solve(y):
        return optimize.least_squares(lambda p, y: model(T, p[0], p[1]) - y, [1.0, 1.0], args=(y,),
                                      loss=loss, f_scale=0.05, ftol=1e-15, xtol=1e-15,
                                      gtol=1e-15).x  # fmt: skip

    rho = {
        "linear": lambda z: z,
        "soft_l1": lambda z: 2 * (tg.sqrt(1 + z) - 1),
        "cauchy": tg.log1p,
        "arctan": tg.arctan,
        "huber": lambda z: tg.where(z <= 1, z, 2 * tg.sqrt(tg.maximum(z, 1.0)) - 1),
    }[loss]

    def resolved(y):
        cost = lambda p: 0.5 * 0.05**2 * tg.sum(rho(((model(T, p[0], p[1]) - y) / 0.05) ** 2))  # noqa: E731
        return polish(cost, value(solve(tg.tensor(y))))

    got = tensor_jacobian(solve, Y)
    want = fd(resolved, Y)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_curve_fit_matches_finite_differences_in_x_y_and_sigma():
    sigma = np.linspace(0.5, 1.5, 12)

    def solve(t, y, s):
        return optimize.curve_fit(model, t, y, p0=[1.0, 1.0], sigma=s, ftol=1e-15, xtol=1e-15,
                                  gtol=1e-15)[0]  # fmt: skip

    for k, base in enumerate((T, Y, sigma)):

        def part(v, k=k):
            inputs = [tg.tensor(T), tg.tensor(Y), tg.tensor(sigma)]
            inputs[k] = v
            return solve(*inputs)

        def resolved(v, k=k):
            t, y, s = [v if j == k else c for j, c in enumerate((T, Y, sigma))]
            cost = lambda p: 0.5 * tg.sum(((model(t, p[0], p[1]) - y) / s) ** 2)  # noqa: E731
            return polish(cost, value(part(tg.tensor(v))))

        got = tensor_jacobian(part, base)
        want = fd(resolved, base)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)
