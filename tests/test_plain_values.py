"""Arrays in, arrays out (tapegrad/transforms/args.py): a transform called with no Tensor
gives back the caller's kind of value, leaf by leaf, so NumPy and SciPy code around it
never meets a Tensor; called with Tensors, or seen by a recording tape, it gives Tensors.
Written the way NumPy, autograd and SciPy users write it."""

import re
from pathlib import Path

import numpy as np
import pytest
import scipy.optimize

import tapegrad as tg
import tapegrad.numpy as tnp


def cubic(x):
    return tnp.sum(x**3)


@pytest.mark.parametrize(
    ("argument", "kind"),
    [
        (2.0, float),
        (2, float),  # an int is differentiated as float64, as HIPS autograd does
        (np.float64(2.0), np.float64),
        (np.array(2.0), np.ndarray),
        (np.array([2.0]), np.ndarray),
        (tg.tensor(2.0), tg.Tensor),
    ],
)
def test_grad_gives_the_kind_it_was_given(argument, kind):
    g = tg.grad(cubic)(argument)
    assert type(g) is kind
    assert np.asarray(g).tolist() == np.asarray(12.0).reshape(np.shape(argument)).tolist()


def test_every_transform_gives_arrays_for_arrays():
    x, v = np.array([1.0, 2.0]), np.array([1.0, -1.0])
    value, g = tg.value_and_grad(cubic)(x)
    assert type(value) is np.float64 and value == 9.0
    assert type(g) is np.ndarray and g.tolist() == [3.0, 12.0]
    jac = tg.jacobian(lambda x: x**2)(x)
    assert type(jac) is np.ndarray and jac.tolist() == [[2.0, 0.0], [0.0, 4.0]]
    hess = tg.hessian(cubic)(x)
    assert type(hess) is np.ndarray and hess.tolist() == [[6.0, 0.0], [0.0, 12.0]]
    out, vjp_fn = tg.vjp(tnp.sin, x)
    assert type(out) is np.ndarray and type(vjp_fn(v)[0]) is np.ndarray
    out, tangent = tg.jvp(tnp.sin, (x,), (v,))
    assert type(out) is np.ndarray and np.allclose(tangent, np.cos(x) * v)
    g, hv = tg.hvp(cubic, (x,), (v,))
    assert type(g) is np.ndarray and hv.tolist() == [6.0, -12.0]


def test_nests_come_back_leaf_by_leaf():
    params = {"w": np.array([1.0, 2.0]), "b": 0.5}
    g = tg.grad(lambda p: tnp.sum(p["w"] ** 2) * p["b"])(params)
    assert type(g["w"]) is np.ndarray and type(g["b"]) is float
    assert g["w"].tolist() == [1.0, 2.0] and g["b"] == 5.0


def test_a_returned_array_is_the_callers_own():
    x = np.array([1.0, 2.0])
    g = tg.grad(lambda x: tnp.sum(x))(x)  # add's rule passes its cotangent on
    g += 1.0  # writable, and shared with nothing
    assert g.tolist() == [2.0, 2.0] and tg.grad(lambda x: tnp.sum(x))(x).tolist() == [1.0, 1.0]


def test_tensors_in_give_tensors_out_so_transforms_nest():
    assert type(tg.grad(cubic)(tg.tensor([1.0]))) is tg.Tensor
    third = tg.grad(tg.grad(tg.grad(lambda x: x**4)))(2.0)
    assert type(third) is float and third == 48.0


def test_a_result_an_outer_tape_sees_stays_a_tensor():
    # The gradient depends on w, which the outer tape watches: it must stay on that tape.
    w = tg.Variable([1.0, 2.0])
    with tg.GradientTape() as tape:
        g = tg.grad(lambda x: tnp.sum(x * w))(np.ones(2))
        total = tnp.sum(g * g)
    assert type(g) is tg.Tensor
    assert tape.gradient(total, w).tolist() == [2.0, 4.0]


def test_outputs_of_size_one_are_scalars():
    # autograd and PyTorch's backward() accept any output of size one.
    x = np.array([1.0, 2.0])
    assert tg.grad(lambda x: tnp.sum(x * x).reshape(1))(x).tolist() == [2.0, 4.0]
    assert tg.grad(lambda x: tnp.reshape(tnp.sum(x), (1, 1)))(x).tolist() == [1.0, 1.0]
    value, _ = tg.value_and_grad(lambda x: tnp.sum(x).reshape(1))(x)
    assert value.shape == (1,)
    with pytest.raises(TypeError, match=r"size one\), got shape \(2,\)"):
        tg.grad(lambda x: x * 2.0)(x)


def test_autograd_readme_idiom_updates_an_ndarray():
    # HIPS autograd's README: weights -= grad(loss)(weights) * step_size.
    rng = np.random.default_rng(0)
    inputs, targets = rng.normal(size=(20, 3)), rng.normal(size=20)

    def loss(weights):
        return tnp.mean((inputs @ weights - targets) ** 2)

    weights = np.zeros(3)
    for _ in range(200):
        weights -= tg.grad(loss)(weights) * 0.1
    assert type(weights) is np.ndarray
    best = np.linalg.lstsq(inputs, targets, rcond=None)[0]
    np.testing.assert_allclose(weights, best, atol=1e-6)


# --- SciPy's optimizers, with tapegrad's gradients -------------------------------------------
# The oracle: the same method with SciPy's own analytic Rosenbrock derivatives takes the same
# steps to the same point (trust-exact, from here, finds the other local minimum of the 4-d
# function, with SciPy's derivatives too).
def rosenbrock(x):
    return tnp.sum(100.0 * (x[1:] - x[:-1] ** 2) ** 2 + (1.0 - x[:-1]) ** 2)


START = np.array([-1.2, 1.0, -0.5, 0.8])


def same_run(result, reference, same_steps=True):
    # The same steps up to rounding: a gradient's terms are summed in another order, which
    # CG's last iterations amplify (to ~1e-5 in the point and a few dozen iterations).
    assert type(result.x) is np.ndarray and result.success == reference.success
    np.testing.assert_allclose(result.x, reference.x, atol=2e-5)
    if same_steps:
        assert abs(result.nit - reference.nit) <= 3


@pytest.mark.parametrize("method", ["L-BFGS-B", "BFGS", "CG", "SLSQP", "TNC"])
def test_minimize_with_jac_from_grad(method):
    result = scipy.optimize.minimize(rosenbrock, START, jac=tg.grad(rosenbrock), method=method)
    reference = scipy.optimize.minimize(
        scipy.optimize.rosen, START, jac=scipy.optimize.rosen_der, method=method
    )
    same_run(result, reference, same_steps=method != "CG")
    np.testing.assert_allclose(result.x, np.ones(4), atol=2e-3)


@pytest.mark.parametrize("method", ["L-BFGS-B", "BFGS"])
def test_minimize_with_jac_true_from_value_and_grad(method):
    fun = tg.value_and_grad(rosenbrock)
    result = scipy.optimize.minimize(fun, START, jac=True, method=method, tol=1e-10)
    assert result.success
    np.testing.assert_allclose(result.x, np.ones(4), atol=1e-5)


@pytest.mark.parametrize("method", ["Newton-CG", "trust-exact", "trust-ncg", "trust-krylov"])
def test_minimize_with_hess_from_hessian(method):
    result = scipy.optimize.minimize(
        rosenbrock, START, jac=tg.grad(rosenbrock), hess=tg.hessian(rosenbrock), method=method
    )
    reference = scipy.optimize.minimize(
        scipy.optimize.rosen,
        START,
        jac=scipy.optimize.rosen_der,
        hess=scipy.optimize.rosen_hess,
        method=method,
    )
    same_run(result, reference)


def test_minimize_with_hessp_from_hvp():
    def hessp(x, p):
        return tg.hvp(rosenbrock, (x,), (p,))[1]

    result = scipy.optimize.minimize(
        rosenbrock, START, jac=tg.grad(rosenbrock), hessp=hessp, method="Newton-CG"
    )
    reference = scipy.optimize.minimize(
        scipy.optimize.rosen,
        START,
        jac=scipy.optimize.rosen_der,
        hessp=scipy.optimize.rosen_hess_prod,
        method="Newton-CG",
    )
    same_run(result, reference)
    np.testing.assert_allclose(result.x, np.ones(4), atol=1e-4)


def test_l_bfgs_b_with_bounds_and_a_fit_with_least_squares():
    bounds = [(-2.0, 0.5)] * 4
    result = scipy.optimize.minimize(
        rosenbrock, START, jac=tg.grad(rosenbrock), method="L-BFGS-B", bounds=bounds
    )
    assert np.all(result.x <= 0.5 + 1e-12)
    # A model fit: least_squares takes the residuals' Jacobian.
    t = np.linspace(0.0, 1.0, 30)
    data = 2.0 * np.exp(-1.5 * t)

    def residuals(p):
        return p[0] * tnp.exp(-p[1] * t) - data

    fit = scipy.optimize.least_squares(residuals, np.array([1.0, 1.0]), jac=tg.jacobian(residuals))
    np.testing.assert_allclose(fit.x, [2.0, 1.5], rtol=1e-8)


# --- in place ---------------------------------------------------------------------------------
def test_in_place_operators_update_a_variable():
    w = tg.Variable([1.0, 2.0], name="w")
    same = w
    with tg.GradientTape() as tape:
        loss = tg.sum(w * w)
    w -= 0.25 * tape.gradient(loss, w)  # PyTorch's and TensorFlow's users write this
    assert w is same and isinstance(w, tg.Variable) and w.version == 1
    w += 1.0
    w *= 2.0
    w /= 4.0
    assert w.tolist() == [0.75, 1.0] and w.version == 4
    with tg.GradientTape() as tape:
        loss = tg.sum(w * w)
    assert tape.gradient(loss, w).tolist() == [1.5, 2.0]  # still watched: still a Variable


def test_an_in_place_update_after_recording_is_refused_at_the_gradient():
    w = tg.Variable([1.0, 2.0], name="w")
    with tg.GradientTape() as tape:
        loss = tg.sum(w * w)
        w -= 1.0
    with pytest.raises(RuntimeError, match="Variable w was modified after the tape recorded it"):
        tape.gradient(loss, w)


def test_an_ndarray_updated_in_place_by_a_tensor():
    a = np.ones(3)
    t = tg.tensor([1.0, 2.0, 3.0])
    a -= t
    a *= t
    assert type(a) is np.ndarray and a.tolist() == [0.0, -2.0, -6.0]
    total = np.zeros(())
    np.sum(t, out=total)
    assert total == 6.0
    # Inside a tape, with a watched Tensor, the gradient would be lost: refused, with advice.
    x = tg.Variable([1.0, 2.0, 3.0])
    with tg.GradientTape() as tape, pytest.raises(TypeError, match="write a = a - t"):
        a -= x
    assert len(tape) == 0 and a.tolist() == [0.0, -2.0, -6.0]
    with pytest.raises(TypeError, match="Tensors are immutable"):
        np.add(t, 1.0, out=t)


# --- Python's and matplotlib's protocols -------------------------------------------------------
def test_format_and_round_as_numpy_scalars():
    loss = tg.tensor(0.123456)
    assert f"{loss:.4f}" == "0.1235" and f"{loss:>8.2e}" == "1.23e-01" and f"{loss:%}"
    assert f"{tg.tensor([1.0, 2.0])}" == str(tg.tensor([1.0, 2.0]))
    with pytest.raises(TypeError, match="unsupported format string"):
        f"{tg.tensor([1.0, 2.0]):.2f}"
    assert round(tg.tensor(2.6)) == 3 and type(round(tg.tensor(2.6))) is int
    assert round(tg.tensor(2.567), 2).item() == 2.57
    assert round(tg.tensor([1.26, 2.5]), 1).tolist() == [1.3, 2.5]


def test_iteration_as_an_ndarray():
    assert not np.iterable(tg.tensor(1.0)) and np.iterable(tg.tensor([1.0]))
    with pytest.raises(TypeError, match="0-d"):
        iter(tg.tensor(1.0))
    assert [x.item() for x in tg.tensor([1.0, 2.0])] == [1.0, 2.0]


def test_matplotlib_draws_a_tensor_as_its_array():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    values = np.random.default_rng(0).normal(size=100)
    t = tg.tensor(values)
    fig, ax = plt.subplots()
    counts, edges, _ = ax.hist(t, bins=10)
    expected_counts, expected_edges = np.histogram(values, bins=10)
    np.testing.assert_array_equal(counts, expected_counts)
    np.testing.assert_allclose(edges, expected_edges)
    (line,) = ax.plot(t, t * 2.0)
    np.testing.assert_array_equal(line.get_ydata(), values * 2.0)
    image = ax.imshow(tg.tensor(values.reshape(10, 10)))
    np.testing.assert_array_equal(image.get_array(), values.reshape(10, 10))
    plt.close(fig)


# --- operands no op takes -----------------------------------------------------------------------
BAD_OPERANDS = {
    "a str": "a",
    "None": None,
    "a dict": {"a": 1.0},
    "an array of dtype <U1": np.array(["x", "y"]),
    "an array of dtype object": np.array(["x", "y"], dtype=object),
    "an object": object(),
}


@pytest.mark.parametrize("kind", list(BAD_OPERANDS))
def test_a_bad_operand_gets_a_type_error_naming_the_op_and_the_operand(kind):
    t = tg.tensor([1.0, 2.0])
    bad = BAD_OPERANDS[kind]
    calls = {
        "add": lambda: t + bad,
        "add ": lambda: bad + t,  # the reflected form
        "multiply": lambda: t * bad,
        "sin": lambda: tg.sin(bad),
        "power": lambda: tg.power(t, bad),
    }
    for name, call in calls.items():
        with pytest.raises(TypeError, match=rf"^{name.strip()}: operand \d is {kind}"):
            call()


def test_the_examples_of_docs_scipy_optimize_md_run(capsys):
    page = Path(__file__).parents[1] / "docs" / "scipy-optimize.md"
    code = "\n".join(re.findall(r"```python\n(.*?)```", page.read_text(), re.S))
    exec(compile(code, "docs/scipy-optimize.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert printed == ["[1. 1. 1. 1.] ndarray", "[1. 1. 1. 1.]", "[2.  1.5]"]


# --- lists holding Tensors ----------------------------------------------------------------------
def test_a_list_holding_tensors_is_an_array_to_every_op():
    # A primitive's inputs are arrays: a list holding Tensors is the array np.array makes of
    # it, with each element's gradient (autograd differentiates these; a silent zero is worst).
    a, b, c, v = 1.0, 2.0, 3.0, np.array([1.0, -1.0])
    calls = {
        "tg.sum([a * b, c])": (lambda a, b, c, v: tg.sum([a * b, c]), [2.0, 1.0, 1.0]),
        "tg.mean([a, a + 2])": (lambda a, b, c, v: tg.mean([a, a + 2.0]), [1.0, 0.0, 0.0]),
        "np.dot([a, b], v)": (lambda a, b, c, v: np.dot([a, b], v), [1.0, -1.0, 0.0]),
        "np.outer([a, 1.0], v)": (
            lambda a, b, c, v: tnp.sum(np.outer([a, 1.0], v) ** 2),
            [4.0, 0.0, 0.0],
        ),
        "np.append([a, b], v)": (lambda a, b, c, v: tnp.sum(np.append([a, b], v) ** 2), [2, 4, 0]),
        "np.ediff1d(v, to_begin=[a])": (
            lambda a, b, c, v: tnp.sum(np.ediff1d(v, to_begin=[a]) ** 2),
            [2.0, 0.0, 0.0],
        ),
        "v + [a, b]": (lambda a, b, c, v: tnp.sum((v + [a, b]) ** 2), [4.0, 2.0, 0.0]),
        "tnp.array([[a, b], [c, a]])": (
            lambda a, b, c, v: tnp.sum(tnp.array([[a, b], [c, a]]) * v),
            [0.0, -1.0, 1.0],
        ),
    }
    for name, (f, expected) in calls.items():
        g = tg.grad(f, argnums=(0, 1, 2))(tg.tensor(a), tg.tensor(b), tg.tensor(c), tg.tensor(v))
        assert [float(x) for x in g] == expected, name


def test_a_list_numpy_converts_itself_warns_at_the_users_line():
    # np.mean([x, x + 2]) never reaches tapegrad (NumPy makes the array first): the warning
    # names this file and line, and says what to write, not NumPy's internals.
    x = tg.tensor(1.0)
    with tg.GradientTape() as tape, pytest.warns(UserWarning, match="tnp.array") as caught:
        tape.watch(x)
        np.mean([x, x + 2.0])
    assert caught[0].filename == __file__
